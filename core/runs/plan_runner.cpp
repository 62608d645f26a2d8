#include "core/runs/plan_runner.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/io/builtin_data.h"
#include "core/util/number_format.h"
#include "core/workload/trace_transforms.h"

namespace cl {

std::string planScenarioName(const std::string& prefix, const PlanRequest& request, const PlanPoint& point,
                             const std::string& resample) {
    return prefix + "/" + serverTypeKey(request.server_types.at(point.server_type)) + "/" + point.policy +
           "/n" + std::to_string(point.servers) + "/x" + formatNumber(point.load_factor) + "/s" +
           std::to_string(point.seed) + (resample == "none" ? "" : "-" + resample);
}

namespace {

// options.resample with "auto" decided: seeds vary nothing in a trace whose jobs all carry their
// model, so there they resample the arrivals by day.
std::string resolvedResample(const std::string& resample, const Trace& trace, std::size_t seeds) {
    if (resample == "none" || resample == "day" || resample == "week") return resample;
    if (resample != "auto")
        throw std::invalid_argument("resample must be auto, none, day or week, not '" + resample + "'");
    const bool fixed_models =
        std::all_of(trace.jobs.begin(), trace.jobs.end(), [](const Job& j) { return !j.model.empty(); });
    return seeds > 1 && fixed_models ? "day" : "none";
}

std::string seedsVary(const std::string& resample, const Trace& trace) {
    const bool drawn_models =
        std::any_of(trace.jobs.begin(), trace.jobs.end(), [](const Job& j) { return j.model.empty(); });
    std::string what;
    if (resample != "none") {
        what = "the arrivals, resampled by " + resample + " (block bootstrap of the trace)";
        double first = 0, last = 0;
        for (const Job& j : trace.jobs) {
            first = std::min(first, j.submit_time);
            last = std::max(last, j.submit_time);
        }
        if (last - first < (resample == "day" ? 86400.0 : 7 * 86400.0))
            what += ", though the trace arrives within one " + resample +
                    ", so every resample is the trace itself";
    }
    if (drawn_models) what += std::string(what.empty() ? "" : " and ") + "the models of jobs without one";
    return what.empty() ? "nothing: every job has its model and the trace is not resampled (--resample day)"
                        : what;
}

nlohmann::json candidateClustersSetting(ScenarioStore& store) {
    const std::string text = store.setting(kPlanCandidateClustersKey);
    nlohmann::json j = nlohmann::json::parse(text.empty() ? "{}" : text, nullptr, /*allow_exceptions=*/false);
    return j.is_object() ? j : nlohmann::json::object();
}

// Records the plan's prefix (so that its points count as a plan's even when every candidate
// cluster was in the workspace before), and the cluster `id` when set.
void recordCandidateCluster(ScenarioStore& store, const std::string& prefix, std::optional<std::int64_t> id) {
    nlohmann::json j = candidateClustersSetting(store);
    nlohmann::json& ids = j[prefix];
    const bool known = ids.is_array();
    if (!known) ids = nlohmann::json::array();
    if (id) {
        for (const auto& x : ids)
            if (x.is_number_integer() && x.get<std::int64_t>() == *id) return;
        ids.push_back(*id);
    } else if (known) {
        return;
    }
    store.setSetting(kPlanCandidateClustersKey, j.dump());
}

StoreError otherPlansError(const std::string& prefix, const std::string& what, const std::string& scenario) {
    return StoreError("the prefix '" + prefix + "' holds a plan with " + what + ": scenario '" + scenario +
                      "' differs; choose another prefix, or remove that plan first (plan --prune --prefix " +
                      prefix + ", or 'Remove plan…' in the workspace tree)");
}

// What every point of a plan shares with its base (trace, profiles, conventions): a prefix whose
// scenarios differ there holds another plan, refused before anything is stored or simulated.
void refuseOtherPlansPrefix(ScenarioStore& store, const std::string& prefix, const ScenarioSpec& base) {
    const std::string folder = prefix + "/";
    for (const ScenarioInfo& s : store.scenarios()) {
        if (s.spec.name.compare(0, folder.size(), folder) != 0) continue;
        const char* what = s.spec.trace_id != base.trace_id         ? "another trace"
                           : s.spec.profiles_id != base.profiles_id ? "another profile set"
                           : s.spec.conventions != base.conventions ? "other conventions"
                                                                    : nullptr;
        if (what) throw otherPlansError(prefix, what, s.spec.name);
    }
}

// A point whose name a scenario of other settings holds (the prefix was used by a plan of
// another trace, prices, load or seeds): refused before anything is simulated, naming what
// differs, instead of the sweep's generic error.
void refuseOtherPlansPoint(ScenarioStore& store, const std::string& prefix, const ScenarioSpec& spec) {
    const std::optional<ScenarioInfo> existing = store.findScenario(spec.name);
    if (!existing) return;
    const ScenarioSpec& e = existing->spec;
    std::string what;
    if (e.trace_id != spec.trace_id)
        what = "another trace";
    else if (e.cluster_id != spec.cluster_id)
        what = "another candidate cluster (server type or prices)";
    else if (e.profiles_id != spec.profiles_id)
        what = "another profile set";
    else if (e.conventions != spec.conventions)
        what = "other conventions";
    else if (!(e.parameters == spec.parameters))
        what = "other settings (load, transforms or limits)";
    else
        return;
    throw otherPlansError(prefix, what, spec.name);
}

// A plan refused after it stored candidate clusters leaves the workspace as it found it: the
// clusters it added (no scenario uses them yet) go, and so does its prefix when the plan
// recorded it (else the prefix's other scenarios would be taken for a plan's points). Clusters its
// earlier batches' points use stay with them.
void forgetRefusedPlan(ScenarioStore& store, const std::string& prefix,
                       const std::vector<std::int64_t>& added, bool prefix_was_new) {
    nlohmann::json j = candidateClustersSetting(store);
    if (prefix_was_new) {
        j.erase(prefix);
    } else if (auto it = j.find(prefix); it != j.end() && it->is_array()) {
        nlohmann::json kept = nlohmann::json::array();
        for (const auto& x : *it)
            if (!x.is_number_integer() ||
                std::find(added.begin(), added.end(), x.get<std::int64_t>()) == added.end())
                kept.push_back(x);
        *it = kept;
    }
    store.setSetting(kPlanCandidateClustersKey, j.empty() ? "" : j.dump());
    std::set<std::int64_t> used;  // by the points of this plan's earlier batches
    for (const ScenarioInfo& s : store.scenarios()) used.insert(s.spec.cluster_id);
    for (std::int64_t id : added)
        if (!used.count(id)) store.deleteCluster(id);
}

}  // namespace

std::vector<std::int64_t> planCandidateClusters(ScenarioStore& store, const std::string& prefix) {
    std::vector<std::int64_t> ids;
    const nlohmann::json j = candidateClustersSetting(store);
    if (auto it = j.find(prefix); it != j.end() && it->is_array())
        for (const auto& x : *it)
            if (x.is_number_integer()) ids.push_back(x.get<std::int64_t>());
    return ids;
}

std::set<std::int64_t> allPlanCandidateClusters(ScenarioStore& store) {
    std::set<std::int64_t> ids;
    for (const std::string& prefix : planPrefixes(store))
        for (std::int64_t id : planCandidateClusters(store, prefix)) ids.insert(id);
    return ids;
}

std::vector<std::string> planPrefixes(ScenarioStore& store) {
    std::vector<std::string> prefixes;
    const nlohmann::json setting = candidateClustersSetting(store);
    for (auto it = setting.begin(); it != setting.end(); ++it) prefixes.push_back(it.key());
    return prefixes;
}

bool isPlanPoint(const std::string& scenario_name, const std::vector<std::string>& plan_prefixes) {
    for (const std::string& p : plan_prefixes)
        if (scenario_name.size() > p.size() && scenario_name.compare(0, p.size(), p) == 0 &&
            scenario_name[p.size()] == '/')
            return true;
    return false;
}

PlanPruneResult prunePlan(ScenarioStore& store, const std::string& prefix) {
    PlanPruneResult result;
    const std::string folder = prefix + "/";
    for (const ScenarioInfo& s : store.scenarios())
        if (s.spec.name.compare(0, folder.size(), folder) == 0) {
            store.deleteScenario(s.spec.name);
            ++result.scenarios;
        }
    const std::vector<std::int64_t> candidates = planCandidateClusters(store, prefix);
    const std::vector<std::string> recorded = planPrefixes(store);
    if (result.scenarios == 0 && std::find(recorded.begin(), recorded.end(), prefix) == recorded.end())
        throw StoreError("no plan with the prefix '" + prefix + "' in this workspace (no scenario " + folder +
                         "...)");
    std::set<std::int64_t> used;
    for (const ScenarioInfo& s : store.scenarios()) used.insert(s.spec.cluster_id);
    for (std::int64_t id : candidates)
        if (!used.count(id)) {
            store.deleteCluster(id);
            ++result.clusters;
        }
    nlohmann::json j = candidateClustersSetting(store);
    j.erase(prefix);
    store.setSetting(kPlanCandidateClustersKey, j.empty() ? "" : j.dump());
    return result;
}

// The samples a point's stored series keeps: the queue chart draws 200, and the overload check
// reads the utilisation from the last arrival on, which the reduction keeps exact.
constexpr std::size_t kPlanSeriesSamples = 2000;

PlanReport runPlan(ScenarioStore& store, const PlanRequest& request, const ScenarioSpec& base,
                   const PlanRunOptions& options) {
    PlanRequest planned = request;
    std::string resample, seeds_vary;
    {
        Trace trace = store.trace(base.trace_id);
        if (!base.parameters.transforms.empty()) trace = applyTransforms(trace, base.parameters.transforms);
        resample = resolvedResample(options.resample, trace, request.seeds.size());
        seeds_vary = seedsVary(resample, trace);
        for (const Job& j : trace.jobs) planned.largest_job_gpus = std::max(planned.largest_job_gpus, j.gpus);
        if (!trace.jobs.empty()) {
            planned.smallest_job_gpus = trace.jobs.front().gpus;
            for (const Job& j : trace.jobs)
                planned.smallest_job_gpus = std::min(planned.smallest_job_gpus, j.gpus);
        }
    }
    planned.gpu_type_speed = store.profiles(base.profiles_id).gpu_type_speed;
    std::map<std::pair<int, int>, std::int64_t> cluster_ids;  // (type, servers) -> stored layout
    std::set<std::int64_t> stored_before;
    for (const StoredItem& c : store.clusters()) stored_before.insert(c.id);
    const std::vector<std::string> prefixes_before = planPrefixes(store);
    const bool prefix_was_new =
        std::find(prefixes_before.begin(), prefixes_before.end(), options.prefix) == prefixes_before.end();
    std::vector<std::int64_t> added_clusters;  // stored by this plan, new to the workspace
    // A point's run stops as soon as a target is sure to be missed (section 7.9, "Stopping
    // early"), when one seed decides it: with several, one seed's miss does not make the mean's.
    std::vector<SimOptions::MissedTarget> missed_stops;
    if (request.seeds.size() == 1)
        for (const PlanTarget& t : request.targets)
            if (t.jobs == TargetJobs::All && stopsWhenMissed(t.metric) &&
                (t.comparison == TargetComparison::AtMost || t.comparison == TargetComparison::Below))
                missed_stops.push_back({t.metric, t.value_s});
    std::atomic<bool> emitting_stop{false};  // set once a batch has points to emit
    // (type, policy) -> server count -> seconds its run took: a run's time depends on the count
    // (whether it stops early, how many jobs run at once), so a point is expected to take what
    // the nearest count of its type and policy took.
    std::map<std::pair<int, std::string>, std::map<int, double>> run_seconds;
    const auto expected = [&](const PlanPoint& p) {
        const auto it = run_seconds.find({p.server_type, p.policy});
        if (it == run_seconds.end() || it->second.empty()) return std::numeric_limits<double>::infinity();
        const std::map<int, double>& by_count = it->second;
        auto above = by_count.lower_bound(p.servers);
        if (above == by_count.end()) return std::prev(above)->second;
        if (above == by_count.begin() || above->first == p.servers) return above->second;
        const auto below = std::prev(above);
        return p.servers - below->first < above->first - p.servers ? below->second : above->second;
    };
    PlanEvaluator evaluate = [&](const std::vector<PlanPoint>& points) {
        std::vector<ScenarioSpec> specs;
        for (const PlanPoint& p : points) {
            auto [it, added] = cluster_ids.try_emplace({p.server_type, p.servers}, 0);
            if (added) {
                it->second = store.putCluster(candidateCluster(request, p.server_type, p.servers));
                if (!stored_before.count(it->second)) {
                    recordCandidateCluster(store, options.prefix, it->second);
                    added_clusters.push_back(it->second);
                }
            }
            ScenarioSpec s = base;
            s.name = planScenarioName(options.prefix, request, p, resample);
            s.cluster_id = it->second;
            s.policy = p.policy;
            s.seed = p.seed;
            s.parameters.server_count = 0;
            s.parameters.load_factor = base.parameters.load_factor * p.load_factor;
            // An overloaded point is no answer whatever its figures: its run stops once that is
            // established (section 7.9).
            s.parameters.stop_when_overloaded = request.overload_drain_share;
            s.parameters.stop_when_missed = missed_stops;
            if (resample != "none")
                s.parameters.transforms.push_back("resample=" + resample + "@" + std::to_string(p.seed));
            try {
                refuseOtherPlansPoint(store, options.prefix, s);
            } catch (const StoreError&) {
                forgetRefusedPlan(store, options.prefix, added_clusters, prefix_was_new);
                throw;
            }
            specs.push_back(std::move(s));
        }
        std::vector<std::optional<SimResult>> out(points.size());
        if (options.missing) {
            const std::vector<ScenarioInfo> infos = createSweepScenarios(store, specs);
            const std::string version = engineVersion();
            for (std::size_t k = 0; k < infos.size(); ++k) {
                if (auto run = store.finishedRunWithHash(infos[k].content_hash, version))
                    out[k] = store.loadRun(run->id, /*with_segments=*/false);
                else
                    options.missing->push_back(infos[k]);
            }
            if (!options.missing->empty()) emitting_stop.store(true);
            return out;
        }
        SweepOptions sweep;
        sweep.threads = options.threads;
        sweep.stop = options.stop;
        sweep.progress = options.runs;
        // A plan reads a point's figures, not its timeline (section 7.9, "Storage"); a run just
        // simulated is read as it is, not loaded back.
        sweep.record_segments = false;
        sweep.series_samples = kPlanSeriesSamples;
        sweep.series_queue_only = true;
        // Longest first, by the run of the nearest count of the same server type and policy
        // (unknown ones first): a batch waits for its slowest run, and a long run started last
        // leaves a core idle.
        std::vector<std::size_t> order(points.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return expected(points[a]) > expected(points[b]);
        });
        std::vector<ScenarioSpec> ordered;
        for (std::size_t k : order) ordered.push_back(specs[k]);
        sweep.finished = [&](std::size_t k, SimResult r) {
            const PlanPoint& p = points[order[k]];
            run_seconds[{p.server_type, p.policy}][p.servers] = r.wall_seconds;
            out[order[k]] = std::move(r);
        };
        const SweepReport report = runSweep(store, ordered, sweep);
        for (std::size_t k = 0; k < order.size(); ++k) {
            std::optional<SimResult>& o = out[order[k]];
            if (report.run_ids[k] == 0)
                o.reset();  // failed or cancelled while storing: no figures
            else if (!o)
                o = store.loadRun(report.run_ids[k], /*with_segments=*/false);
        }
        return out;
    };
    refuseOtherPlansPrefix(store, options.prefix, base);
    recordCandidateCluster(store, options.prefix, std::nullopt);
    PlanReport report =
        planCapacity(planned, evaluate, options.phase, options.missing ? &emitting_stop : options.stop);
    report.seeds_vary = seeds_vary;
    report.resample = resample;
    return report;
}

}  // namespace cl
