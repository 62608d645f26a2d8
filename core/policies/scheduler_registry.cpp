#include "core/policies/scheduler_registry.h"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/policies/antman_mechanism.h"
#include "core/policies/backfill_mechanism.h"
#include "core/policies/exclusive_mechanism.h"
#include "core/policies/muri_mechanism.h"
#include "core/policies/placement.h"
#include "core/policies/priority_order.h"
#include "core/policies/sjf_bsbf_mechanism.h"
#include "core/policies/slurm_priority.h"
#include "core/policies/synergy_mechanism.h"
#include "core/policies/tiresias_order.h"

namespace cl {

namespace {

using OrderFactory = std::function<std::unique_ptr<PriorityOrder>(const Conventions&)>;
using PlacementFactory = std::function<std::unique_ptr<Placement>(const Conventions&)>;

const std::map<std::string, OrderFactory>& orders() {
    static const std::map<std::string, OrderFactory> table = {
        {"fifo", [](const Conventions&) { return makeFifoOrder(); }},
        {"sjf", [](const Conventions&) { return makeSjfOrder(); }},
        {"srtf", [](const Conventions&) { return makeSrtfOrder(); }},
        {"srsf", [](const Conventions&) { return makeSrsfOrder(); }},
        {"las", [](const Conventions&) { return makeLasOrder(); }},
        {"las2d", [](const Conventions&) { return makeLas2dOrder(); }},
        {"ftf", [](const Conventions&) { return makeFtfOrder(); }},
        {"drf", [](const Conventions&) { return makeDrfOrder(); }},
        {"tetris", [](const Conventions&) { return makeTetrisOrder(); }},
        {"tiresias",
         [](const Conventions& c) {
             return std::make_unique<TiresiasOrder>(c.tiresias_whole_second_demotion,
                                                    c.tiresias_starvation_guard);
         }},
    };
    return table;
}

const std::map<std::string, PlacementFactory>& placements() {
    static const std::map<std::string, PlacementFactory> table = {
        {"consolidated", [](const Conventions& c) { return makeConsolidatedPlacement(c.first_fit_servers); }},
        {"firstfit", [](const Conventions&) { return makeFirstFitPlacement(); }},
        {"count", [](const Conventions&) { return makeCountPlacement(); }},
    };
    return table;
}

const std::vector<std::string>& mechanisms() {
    static const std::vector<std::string> names = {"exclusive", "muri", "antman",      "proportional",
                                                   "greedy",    "tune", "opt",         "bsbf",
                                                   "ffs",       "easy", "conservative"};
    return names;
}

std::unique_ptr<Scheduler> makeMuri(const std::string& name, const std::string& order, const Conventions& c,
                                    const SchedulerTuning& tuning, std::unique_ptr<Placement> placement,
                                    const std::function<void(MuriOptions&)>& tweak = {}) {
    MuriOptions o;
    o.order = order;
    o.artifact_keys = c.muri_rank_new_jobs_by_trace_duration;
    o.keep_when_nobody_waits = c.keep_running_in_place;
    o.noise_seed = tuning.seed;
    if (tweak) tweak(o);
    if (tuning.max_group_size > 0) o.grouping.max_group_size = tuning.max_group_size;
    return std::make_unique<MuriScheduler>(name, o, std::move(placement));
}

using PresetFactory =
    std::function<std::unique_ptr<Scheduler>(const std::string&, const Conventions&, const SchedulerTuning&)>;

// The papers' schedulers and their ablations (docs/architecture.md section 4.1).
std::unique_ptr<Scheduler> makeSharing(const std::string& name, std::unique_ptr<PriorityOrder> order,
                                       SharingMode mode, const Conventions& c, const SchedulerTuning& tuning,
                                       std::unique_ptr<Placement> placement = nullptr) {
    SharingOptions o;
    o.mode = mode;
    o.interference = tuning.interference;
    if (!placement) placement = makeConsolidatedPlacement(c.first_fit_servers);
    return std::make_unique<SharingScheduler>(name, std::move(order), o, std::move(placement));
}

const std::map<std::string, PresetFactory>& presets() {
    auto muriL = [](std::function<void(MuriOptions&)> tweak) -> PresetFactory {
        return [tweak](const std::string& name, const Conventions& c, const SchedulerTuning& t) {
            return makeMuri(name, "las2d", c, t, makeConsolidatedPlacement(c.first_fit_servers), tweak);
        };
    };
    static const std::map<std::string, PresetFactory> table = {
        {"muri-s",
         [](const std::string& name, const Conventions& c, const SchedulerTuning& t) {
             return makeMuri(name, "srsf", c, t, makeConsolidatedPlacement(c.first_fit_servers));
         }},
        {"muri-l", muriL({})},
        {"slurm",
         [](const std::string& name, const Conventions&, const SchedulerTuning& t) {
             return std::make_unique<BackfillScheduler>(name, makeSlurmPriorityOrder(t.slurm),
                                                        BackfillKind::Slurm, t.slurm);
         }},
        {"themis",
         [](const std::string& name, const Conventions& c, const SchedulerTuning&) {
             ExclusiveOptions o;
             o.keep_running_in_place = c.keep_running_in_place;
             return std::make_unique<ExclusiveScheduler>(name, makeFtfOrder(),
                                                         makeConsolidatedPlacement(c.first_fit_servers), o);
         }},
        {"antman",
         [](const std::string& name, const Conventions& c, const SchedulerTuning&) {
             return std::make_unique<AntmanScheduler>(name, makeFifoOrder(),
                                                      makeConsolidatedPlacement(c.first_fit_servers));
         }},
        {"sjf-bsbf",
         [](const std::string& name, const Conventions& c, const SchedulerTuning& t) {
             return makeSharing(name, makeSjfOrder(), SharingMode::BestBenefit, c, t);
         }},
        {"sjf-ffs",
         [](const std::string& name, const Conventions& c, const SchedulerTuning& t) {
             return makeSharing(name, makeSjfOrder(), SharingMode::FirstFit, c, t);
         }},
        {"muri-l-worst-order", muriL([](MuriOptions& o) { o.grouping.worst_ordering = true; })},
        {"muri-l-no-blossom", muriL([](MuriOptions& o) {
             o.grouping.use_matching = false;
             // The authors' simulator slows groups of four by 1.3/1.015 (not 1.37/1.015) in
             // this ablation.
             o.contention.per_size[4] = 1.3 / 1.015;
         })},
        {"muri-l-k2", muriL([](MuriOptions& o) { o.grouping.max_group_size = 2; })},
        {"muri-l-k3", muriL([](MuriOptions& o) { o.grouping.max_group_size = 3; })},
        {"muri-l-k4", muriL([](MuriOptions& o) { o.grouping.max_group_size = 4; })},
    };
    return table;
}

template <class Map>
std::vector<std::string> keys(const Map& m) {
    std::vector<std::string> v;
    for (const auto& [k, _] : m) v.push_back(k);
    return v;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    parts.push_back(cur);
    return parts;
}

[[noreturn]] void unknown(const std::string& policy, const std::string& what, const std::string& part) {
    throw std::invalid_argument("unknown " + what + " '" + part + "' in policy '" + policy + "'. " +
                                policyHelp());
}

}  // namespace

std::vector<std::string> exclusiveCounterparts(const std::string& policy) {
    if (policy == "muri-s") return {"srsf", "srtf"};
    if (policy.rfind("muri-l", 0) == 0) return {"las2d", "tiresias"};
    const auto plus = policy.find('+');
    if (plus != std::string::npos && policy.compare(plus + 1, 4, "muri") == 0)
        return {policy.substr(0, plus)};
    return {};
}

std::vector<std::string> orderNames() {
    return keys(orders());
}
std::vector<std::string> mechanismNames() {
    return mechanisms();
}
std::vector<std::string> placementNames() {
    return keys(placements());
}
std::vector<std::string> presetNames() {
    return keys(presets());
}

std::string policyHelp() {
    std::ostringstream s;
    s << "Policies are ORDER[+MECHANISM][+PLACEMENT]. Orders: " << join(orderNames())
      << ". Mechanisms: " << join(mechanismNames())
      << " (default exclusive). Placements: " << join(placementNames())
      << " (default consolidated; tiresias uses count under muri-artifact). The Synergy mechanisms "
         "(proportional, "
         "greedy, tune, opt) place jobs themselves and take no placement; drf and tetris default to greedy. "
         "Presets: "
      << join(presetNames()) << ", muri-l-noise=N (0 <= N < 1).";
    return s.str();
}

namespace {

std::unique_ptr<Scheduler> buildScheduler(const std::string& policy, const Conventions& conventions,
                                          const SchedulerTuning& tuning) {
    if (!(tuning.interference == 0 || (tuning.interference >= 1 && tuning.interference <= 100)))
        throw std::invalid_argument("the interference ratio must be 0 (the profile's) or 1..100, not " +
                                    std::to_string(tuning.interference));
    if (tuning.max_group_size < 0 || tuning.max_group_size > 4)
        throw std::invalid_argument("the group size must be 1..4 (0 keeps the policy's own), not " +
                                    std::to_string(tuning.max_group_size));
    if (auto preset = presets().find(policy); preset != presets().end())
        return preset->second(policy, conventions, tuning);
    // muri-l-noise=N: Muri-L grouping on profiles with noise N (docs/architecture.md section 4.5 ablation).
    const std::string noise_prefix = "muri-l-noise=";
    if (policy.rfind(noise_prefix, 0) == 0) {
        std::string value = policy.substr(noise_prefix.size());
        double noise = -1;
        try {
            std::size_t used = 0;
            noise = std::stod(value, &used);
            if (used != value.size()) noise = -1;
        } catch (const std::exception&) {
        }
        if (!(noise >= 0 && noise < 1))
            throw std::invalid_argument("policy '" + policy +
                                        "': the noise must be a number in [0, 1), e.g. muri-l-noise=0.2");
        return makeMuri(policy, "las2d", conventions, tuning,
                        makeConsolidatedPlacement(conventions.first_fit_servers),
                        [noise](MuriOptions& o) { o.profiling_noise = noise; });
    }
    std::vector<std::string> parts = split(policy, '+');
    if (parts.empty() || parts.size() > 3 || parts[0].empty())
        throw std::invalid_argument("malformed policy '" + policy + "'. " + policyHelp());
    auto order_it = orders().find(parts[0]);
    if (order_it == orders().end()) unknown(policy, "order", parts[0]);

    std::string mechanism = "exclusive";
    std::string placement;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        bool is_mechanism = std::find(mechanisms().begin(), mechanisms().end(), p) != mechanisms().end();
        bool is_placement = placements().count(p) > 0;
        if (is_mechanism && i == 1) {
            mechanism = p;
        } else if (is_placement && placement.empty()) {
            placement = p;
        } else if (is_mechanism || is_placement) {
            throw std::invalid_argument("policy '" + policy + "': '" + p + "' is out of place; " +
                                        policyHelp());
        } else {
            unknown(policy, i == 1 ? "mechanism or placement" : "placement", p);
        }
    }
    // Big-data orders allocate every resource statically by default (Synergy section 5.7).
    if (parts.size() == 1 && (parts[0] == "drf" || parts[0] == "tetris")) mechanism = "greedy";
    static const std::map<std::string, SynergyMechanism> synergy = {
        {"proportional", SynergyMechanism::Proportional},
        {"greedy", SynergyMechanism::Greedy},
        {"tune", SynergyMechanism::Tune},
        {"opt", SynergyMechanism::Opt}};
    if (auto kind = synergy.find(mechanism); kind != synergy.end()) {
        if (!placement.empty())
            throw std::invalid_argument("policy '" + policy + "': the " + mechanism +
                                        " mechanism places jobs itself and takes no placement");
        SynergyOptions o;
        o.mechanism = kind->second;
        o.keep_running_in_place = conventions.keep_running_in_place;
        o.artifact = conventions.synergy_two_level_speed;
        return std::make_unique<SynergyScheduler>(policy, order_it->second(conventions), o);
    }
    if (conventions.round_quantized)
        throw std::invalid_argument("policy '" + policy + "' does not work under conventions '" +
                                    conventions.name +
                                    "': use a Synergy mechanism (proportional, greedy, tune, opt)");
    if (placement.empty())
        placement =
            (parts[0] == "tiresias" && conventions.tiresias_count_placement) ? "count" : "consolidated";
    if (mechanism == "antman")
        return std::make_unique<AntmanScheduler>(policy, order_it->second(conventions),
                                                 placements().at(placement)(conventions));
    if (mechanism == "bsbf" || mechanism == "ffs")
        return makeSharing(policy, order_it->second(conventions),
                           mechanism == "bsbf" ? SharingMode::BestBenefit : SharingMode::FirstFit,
                           conventions, tuning, placements().at(placement)(conventions));
    if (mechanism == "easy" || mechanism == "conservative") {
        if (parts.size() > 2)
            throw std::invalid_argument("policy '" + policy + "': the " + mechanism +
                                        " backfill places jobs itself and takes no placement");
        return std::make_unique<BackfillScheduler>(
            policy, order_it->second(conventions),
            mechanism == "easy" ? BackfillKind::Easy : BackfillKind::Conservative);
    }
    if (mechanism == "muri") {
        auto valid = MuriScheduler::orderNames();
        if (std::find(valid.begin(), valid.end(), parts[0]) == valid.end())
            throw std::invalid_argument("policy '" + policy + "': the muri mechanism works with the orders " +
                                        join(valid));
        return makeMuri(policy, parts[0], conventions, tuning, placements().at(placement)(conventions));
    }

    ExclusiveOptions options;
    options.keep_running_in_place = conventions.keep_running_in_place;
    return std::make_unique<ExclusiveScheduler>(policy, order_it->second(conventions),
                                                placements().at(placement)(conventions), options);
}

}  // namespace

std::unique_ptr<Scheduler> makeScheduler(const std::string& policy, const Conventions& conventions,
                                         const SchedulerTuning& tuning) {
    std::unique_ptr<Scheduler> scheduler = buildScheduler(policy, conventions, tuning);
    // Round-quantized conventions advance time in scheduling rounds only (docs/architecture.md
    // section 3.4): a policy without rounds (a preset such as muri-l) could never run there.
    if (conventions.round_quantized && scheduler->roundInterval() <= 0)
        throw std::invalid_argument("conventions '" + conventions.name +
                                    "' need a policy with scheduling rounds; '" + policy +
                                    "' has none (use a Synergy mechanism, e.g. fifo+tune)");
    return scheduler;
}

std::string policyProblem(const std::string& policy, const Conventions& conventions,
                          const SchedulerTuning& tuning) {
    // Building the scheduler is the check: the factories are where the grammar and every
    // combination rule live, so no second list of rules can drift from them.
    try {
        makeScheduler(policy, conventions, tuning);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

std::unique_ptr<Scheduler> checkPolicy(const std::string& policy, const Conventions& conventions,
                                       const SchedulerTuning& tuning) {
    // makeScheduler throws policyProblem's text: the check and the build are one call.
    return makeScheduler(policy, conventions, tuning);
}

}  // namespace cl
