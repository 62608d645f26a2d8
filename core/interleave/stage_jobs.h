#pragma once
// Shared checks for the interleaving code (Muri, docs/architecture.md section 4.5): a "job" here is
// the vector of its per-iteration stage times (seconds), one entry per stage.
//  - 3 stages = the built-in profiles (0 = load+preprocess, 1 = GPU, 2 = network) on
//    4 resource slots (storage, CPU, GPU, network); their group time is the slot rule.
//  - any other stage count k = explicit stages, stage s on resource s; group time Eq. 3.
#include <span>
#include <vector>

namespace cl {

inline constexpr int kSlotRuleStages = 3;     // stage count of the built-in profiles
inline constexpr int kSlotRuleResources = 4;  // storage, CPU, GPU, network
inline constexpr int kSlotRuleMaxJobs = 4;

// Throws std::invalid_argument (message starts with `where`) unless there is at least one
// job, every job has the same non-zero number of stages and every time is finite and >= 0.
// Returns the common stage count.
int checkStageJobs(std::span<const std::vector<double>> jobs, const char* where);

// True when the jobs have the built-in 3-stage layout (slot rule), after checkStageJobs.
bool usesSlotRule(std::span<const std::vector<double>> jobs);

// Resources a group of these jobs shares: 4 slots for 3-stage jobs, else k.
int interleaveResourceCount(std::span<const std::vector<double>> jobs);

}  // namespace cl
