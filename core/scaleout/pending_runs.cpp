#include "core/scaleout/pending_runs.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "core/io/builtin_data.h"
#include "core/runs/scenario_runner.h"

namespace cl {

std::vector<ScenarioInfo> pendingRuns(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios,
                                      bool force) {
    std::vector<ScenarioInfo> pending;
    const std::string version = engineVersion();
    for (const auto& info : scenarios)
        if (force || !store.finishedRunWithHash(info.content_hash, version)) pending.push_back(info);
    return pending;
}

long long largestTraceJobs(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios) {
    long long largest = 0;
    for (const auto& trace : store.traces())
        if (std::any_of(scenarios.begin(), scenarios.end(),
                        [&](const ScenarioInfo& info) { return info.spec.trace_id == trace.id; }))
            largest = std::max(largest, trace.size);
    return largest;
}

SlowestPolicy timeSlowestPolicy(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios) {
    SlowestPolicy slowest;
    std::set<std::string> policies;
    for (const auto& info : scenarios) {
        if (!policies.insert(info.spec.policy).second) continue;
        const ScenarioInputs in = resolveScenario(store, info);
        const auto start = std::chrono::steady_clock::now();
        simulatePolicy(in.cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > slowest.seconds) {
            slowest.seconds = seconds;
            slowest.scenario = info.spec.name;
        }
    }
    slowest.policies = policies.size();
    return slowest;
}

}  // namespace cl
