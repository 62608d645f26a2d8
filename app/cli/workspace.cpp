#include "cli/workspace.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/trace_loading.h"
#include "core/io/builtin_data.h"
#include "core/policies/scheduler_registry.h"
#include "core/sim/conventions.h"
#include "core/store/cluster_names.h"
#include "core/store/profile_set_versions.h"

namespace cli {

OptionSpec dbOption() {
    return {"db", "FILE",
            "workspace file (default $CLUSTERLOOM_DB or " + cl::ScenarioStore::defaultPath() + ")"};
}

cl::ScenarioStore openWorkspace(const Args& args, bool must_exist) {
    const std::string path = args.has("db") ? args.get("db") : cl::ScenarioStore::defaultPath();
    if (must_exist && !std::filesystem::exists(path))
        throw std::runtime_error(path +
                                 ": no workspace there (create one with 'clusterloom-cli scenario create')");
    return cl::ScenarioStore(path);
}

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void onInterrupt(int) {
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);
}
}  // namespace

InterruptFlag::InterruptFlag() {
    g_interrupted.store(false);
    std::signal(SIGINT, onInterrupt);
}
InterruptFlag::~InterruptFlag() {
    std::signal(SIGINT, SIG_DFL);
}
const std::atomic<bool>* InterruptFlag::flag() const {
    return &g_interrupted;
}
bool InterruptFlag::raised() const {
    return g_interrupted.load();
}

double interferenceRatio(const Args& args) {
    const double xi = args.getDouble("xi");
    if (!(xi == 0 || (xi >= 1 && xi <= 100)))
        throw UsageError(
            "--xi must be 0 (the profile's ratios) or 1..100 (how much slower each of two jobs "
            "sharing a GPU runs), not " +
            args.get("xi"));
    return xi;
}

std::vector<OptionSpec> scenarioSettingOptions() {
    return {{"trace", "FILE", "trace file to import (required for a new scenario)"},
            {"format", "F",
             "trace format (auto, muri, tiresias, synergy, philly-json, pollux-philly, "
             "pollux-workload, helios, alibaba, json, csv)",
             false, "auto"},
            {"model-seed", "N", "seed assigning models to imported jobs without one", false, "1"},
            {"cluster", "C", "cluster preset name or layout file", false, "muri-testbed-64"},
            {"cluster-name", "NAME", "store the --cluster layout under NAME (its own name is taken)"},
            {"policy", "P", "scheduling policy", false, "srtf"},
            {"conventions", "NAME", "clean, muri-artifact or synergy-artifact", false, "clean"},
            {"profiles", "NAME",
             "built-in profile set (muri, synergy, sjf-bsbf), a profile JSON file, or a profile set stored "
             "in the workspace",
             false, "muri"},
            {"measure", "FIRST-LAST", "summarize only these jobs (positions), e.g. 4000-4999"},
            {"load", "F", "load factor: submit times divided by F", false, "1"},
            {"servers", "N", "resize the cluster to N servers (0 = as is)", false, "0"},
            {"group-size", "K", "Muri group-size cap 1..4 (0 = the policy's own)", false, "0"},
            {"xi", "X", "SJF-BSBF interference ratio of jobs sharing a GPU, 1..100 (0 = the profile's)",
             false, "0"},
            {"seed", "N", "seed of model reassignment and profiling noise", false, "1"},
            {"reassign-models", "", "draw every job's model again with the scenario's seed"},
            {"transform", "SPEC", "trace transform applied before the load factor", true},
            {"notes", "TEXT", "free text kept with the scenario"}};
}

namespace {

// The --cluster layout, renamed by --cluster-name. A layout whose name a different stored
// cluster has is refused rather than stored as a second cluster of that name: stored clusters
// never change and are told apart by name (docs/architecture.md section 9.3).
std::int64_t storeCluster(const Args& args, cl::ScenarioStore& store) {
    cl::Cluster cluster = cl::resolveCluster(args.get("cluster"));
    if (args.has("cluster-name")) {
        cluster.name = args.get("cluster-name");
        if (cluster.name.empty()) throw UsageError("--cluster-name must not be empty");
    }
    if (const auto clash = cl::clusterNameClash(store, cluster))
        throw UsageError("--cluster " + args.get("cluster") + ": a different cluster named \"" +
                         cluster.name + "\" is already stored in " + store.path() + " (#" +
                         std::to_string(clash->id) +
                         "); stored clusters do not change, so store this one under another name with "
                         "--cluster-name NAME");
    return store.putCluster(cluster);
}

}  // namespace

std::pair<cl::ProfileSet, std::optional<cl::StoredItem>> resolveProfilesIn(cl::ScenarioStore& store,
                                                                           const std::string& name) {
    const auto builtin = cl::builtinProfileNames();
    if (std::find(builtin.begin(), builtin.end(), name) == builtin.end() && !std::filesystem::exists(name))
        if (auto stored = cl::latestProfileSet(store, name)) return {store.profiles(stored->id), stored};
    return {resolveProfiles(name), std::nullopt};
}

void applyScenarioSettings(const Args& args, cl::ScenarioStore& store, cl::ScenarioSpec& spec, bool creating,
                           bool quiet) {
    // A new scenario takes every setting the command declares (given or default); a copy only
    // what was given.
    auto given = [&](const char* name) { return args.has(name) || (creating && args.declares(name)); };
    // --profiles may also name a profile set stored in the workspace (such as one `profile import
    // --db` made); its newest version is used as stored (docs/architecture.md section 8.6).
    const std::string profiles_name = args.declares("profiles") ? args.get("profiles") : "muri";
    auto [profiles, stored_set] = resolveProfilesIn(store, profiles_name);
    if (given("profiles")) spec.profiles_id = stored_set ? stored_set->id : store.putProfiles(profiles);
    if (args.has("measure")) {
        const auto [first, last] = parseMeasureWindow(args.get("measure"));
        spec.parameters.measure_first = first;
        spec.parameters.measure_last = last;
    }
    if (args.has("trace")) {
        if (args.getInt("model-seed") < 0) throw UsageError("--model-seed must be 0 or more");
        cl::Trace trace = loadTrace(args.get("trace"), args.get("format"), profiles,
                                    static_cast<unsigned long long>(args.getInt("model-seed")), quiet);
        spec.trace_id = store.putTrace(trace);
    } else if (creating) {
        throw UsageError("a new scenario needs --trace FILE");
    }
    if (args.has("cluster-name") && !given("cluster"))
        throw UsageError("--cluster-name names the layout of --cluster; give --cluster too");
    if (given("cluster")) spec.cluster_id = storeCluster(args, store);
    if (given("conventions")) spec.conventions = cl::Conventions::byName(args.get("conventions")).name;
    if (given("policy")) {
        // Unknown names fail here, with the list, under the conventions the scenario runs with.
        cl::checkPolicy(args.get("policy"), cl::Conventions::byName(spec.conventions));
        spec.policy = args.get("policy");
    }
    if (given("load")) spec.parameters.load_factor = args.getDouble("load");
    auto bounded = [&](const char* name, long long lo, long long hi) {
        long long v = args.getInt(name);
        if (v < lo || v > hi)
            throw UsageError(std::string("--") + name + " must be " + std::to_string(lo) + ".." +
                             std::to_string(hi) + ", not " + std::to_string(v));
        return static_cast<int>(v);
    };
    if (given("servers")) spec.parameters.server_count = bounded("servers", 0, 100000);
    if (given("group-size")) spec.parameters.max_group_size = bounded("group-size", 0, 4);
    if (given("xi")) spec.parameters.interference = interferenceRatio(args);
    if (given("seed")) {
        long long seed = args.getInt("seed");
        if (seed < 0) throw UsageError("--seed must be 0 or more");
        spec.seed = static_cast<std::uint64_t>(seed);
    }
    if (args.has("reassign-models")) spec.parameters.reassign_models = true;
    if (args.has("transform")) spec.parameters.transforms = args.getAll("transform");
    if (args.has("notes")) spec.notes = args.get("notes");
}

std::string describeScenario(cl::ScenarioStore& store, const cl::ScenarioInfo& info) {
    const cl::ScenarioSpec& s = info.spec;
    std::ostringstream out;
    auto name_of = [](const std::vector<cl::StoredItem>& items, std::int64_t id, const char* unit) {
        for (const auto& i : items)
            if (i.id == id) return i.name + " (" + std::to_string(i.size) + " " + unit + ")";
        return std::string("? (missing)");
    };
    out << "scenario     " << s.name << "\n"
        << "cluster      " << name_of(store.clusters(), s.cluster_id, "servers") << "\n"
        << "trace        " << name_of(store.traces(), s.trace_id, "jobs") << "\n"
        << "policy       " << s.policy << "\n"
        << "conventions  " << s.conventions << "\n"
        << "parameters   " << s.parameters.toJson().dump() << "\n"
        << "seed         " << s.seed << "\n"
        << "content hash " << info.content_hash << "\n"
        << "created      " << info.created << " (modified " << info.modified << ")\n";
    if (!s.notes.empty()) out << "notes        " << s.notes << "\n";
    auto runs = store.runs(info.id);
    out << "runs         " << runs.size() << "\n";
    for (const auto& r : runs) {
        out << "  #" << r.id << " " << cl::runStatusName(r.status) << " " << r.started << " engine "
            << r.engine_version;
        if (r.status == cl::RunStatus::Finished)
            out << "  avg JCT " << r.summary.avg_jct << " s, makespan " << r.summary.makespan << " s";
        if (!r.message.empty()) out << "  (" << r.message << ")";
        out << "\n";
    }
    return out.str();
}

}  // namespace cli
