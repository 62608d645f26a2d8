#pragma once
// What an emitted folder must run and how long its Slurm jobs may take (docs/architecture.md
// section 9.7): the decisions behind `sweep --emit` and `plan --emit`, here so that they are
// tested with the rest of the scale-out code and not buried in a command.
#include <cstddef>
#include <string>
#include <vector>

#include "core/store/scenario_store.h"

namespace cl {

// The scenarios still to run: all of them with force, else those without a finished run of the
// same content hash by this engine version (the runs the store would reuse).
std::vector<ScenarioInfo> pendingRuns(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios,
                                      bool force);

// The jobs of the largest trace among the scenarios (0 for none): what the merge job's time
// limit grows with (mergeTimeLimitMinutes).
long long largestTraceJobs(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios);

// The slowest policy's first simulation among the scenarios, timed here.
struct SlowestPolicy {
    double seconds = -1;   // -1 when there was nothing to time
    std::string scenario;  // the scenario that took them
    std::size_t policies = 0;
};
// Simulates the first scenario of each policy once and keeps the slowest: policies differ by
// far more than the time limit's 3x margin (Muri-L simulates Muri's trace1 in 67 times SRTF's
// time, README "Scaling out"), and specs are emitted policy by policy, so an array task may hold
// only the slowest policy's specs. What an array task's time limit is estimated from
// (taskTimeLimitMinutes).
SlowestPolicy timeSlowestPolicy(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios);

}  // namespace cl
