// clusterloom-cli compare: the paper-style table of stored scenarios' latest runs.
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/workspace.h"
#include "core/io/builtin_data.h"
#include "core/io/json_doc.h"
#include "core/metrics/cluster_cost.h"
#include "core/metrics/comparison.h"
#include "core/runs/scenario_runner.h"

namespace cli {

namespace {

// Scenarios that differ only by seed form one group: its label drops a trailing "/s<seed>".
std::string seedlessLabel(const std::vector<std::string>& names) {
    if (names.size() == 1) return names[0];
    std::string common;
    for (const auto& n : names) {
        auto slash = n.rfind("/s");
        std::string stem = slash == std::string::npos ? n : n.substr(0, slash);
        if (common.empty()) common = stem;
        if (stem != common) return names[0] + " (+" + std::to_string(names.size() - 1) + " seeds)";
    }
    return common;
}

bool sameButSeed(const cl::ScenarioSpec& a, const cl::ScenarioSpec& b) {
    return a.cluster_id == b.cluster_id && a.trace_id == b.trace_id && a.profiles_id == b.profiles_id &&
           a.policy == b.policy && a.conventions == b.conventions && a.parameters == b.parameters;
}

}  // namespace

int compareCommand(const std::vector<std::string>& argv) {
    Args args(
        "compare",
        "Compare the latest finished runs of stored scenarios: avg JCT, makespan and p99 JCT with their "
        "speedup over the baseline, p95 JCT and queueing, per-model and small/large breakdowns, and the "
        "cluster's cost per month and for each run's span. Scenarios that differ only by seed are one "
        "column: mean and 95% confidence interval.",
        {dbOption(),
         {"baseline", "NAME", "scenario the others are compared with (default the first)"},
         {"csv", "FILE", "also write the table as CSV"},
         {"json", "FILE", "also write the table as JSON"}});
    args.positionals("SCENARIO...", 1, 1000);
    if (!args.parse(argv)) return 0;
    cl::ScenarioStore store = openWorkspace(args, true);

    struct Pending {
        cl::ScenarioSpec spec;
        std::vector<std::string> names;
        cl::ComparisonGroup group;
    };
    std::vector<Pending> groups;
    std::string baseline_label;
    for (const auto& name : args.positional()) {
        cl::ScenarioInfo info = store.scenario(name);
        // An identical scenario's run counts (a sweep reuses runs rather than repeating them);
        // else the scenario's own latest, even from another engine version.
        std::optional<cl::RunInfo> last = store.finishedRunWithHash(info.content_hash, cl::engineVersion());
        if (!last)
            for (const auto& r : store.runs(info.id))
                if (r.status == cl::RunStatus::Finished) last = r;
        if (!last)
            throw std::runtime_error("scenario '" + name +
                                     "' has no finished run; run it first with "
                                     "'clusterloom-cli run --db " +
                                     store.path() + " --scenario " + name + "'");
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const Pending& p) { return sameButSeed(p.spec, info.spec); });
        if (it == groups.end()) {
            groups.push_back({info.spec, {}, {}});
            it = std::prev(groups.end());
            // The seeds of a group share the cluster, so it is priced once.
            const cl::Cluster cluster = cl::scenarioCluster(store, info.spec);
            it->group.cost = cl::clusterCost(cluster);
            it->group.cluster_servers = static_cast<int>(cluster.servers.size());
        }
        for (auto s : it->group.seeds)
            if (s == info.spec.seed)
                throw UsageError("scenarios '" + it->names.front() + "' and '" + name +
                                 "' are the same settings");
        it->names.push_back(name);
        it->group.seeds.push_back(info.spec.seed);
        it->group.runs.push_back(store.loadRun(last->id, /*with_segments=*/false));
        if (args.has("baseline") && args.get("baseline") == name)
            baseline_label = "#" + std::to_string(it - groups.begin());
    }
    if (args.has("baseline") && baseline_label.empty())
        throw UsageError("--baseline '" + args.get("baseline") + "' is not one of the compared scenarios");
    std::vector<cl::ComparisonGroup> final_groups;
    for (auto& p : groups) {
        p.group.label = seedlessLabel(p.names);
        final_groups.push_back(std::move(p.group));
    }
    std::string baseline;
    if (!baseline_label.empty()) baseline = final_groups[std::stoul(baseline_label.substr(1))].label;
    cl::Comparison c = cl::compareGroups(final_groups, baseline);
    std::cout << cl::formatComparisonText(c);
    if (args.has("csv")) cl::io::writeTextFile(args.get("csv"), cl::formatComparisonCsv(c));
    if (args.has("json")) cl::io::writeTextFile(args.get("json"), cl::comparisonJson(c).dump(2) + "\n");
    return 0;
}

}  // namespace cli
