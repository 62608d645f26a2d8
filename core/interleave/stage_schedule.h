#pragma once
// The per-iteration Gantt chart of one interleaved group, for the teaching view: which job
// holds which resource when. It is the time expansion of the same rule that gives the
// group's time (stage_time_rules.h), built by list scheduling in time order with Muri's
// synchronisation barriers (paper section 4.1: "We add a synchronization barrier after the
// overlapped stages of different jobs").
//
// Resources: k explicit stages -> resource s is stage s (for k = 4 the paper's storage,
// CPU, GPU, network). 3-stage built-in jobs -> 0 storage, 1 CPU, 2 GPU, 3 network; stage 0
// (load+preprocess) occupies storage AND CPU, stage 1 the GPU, stage 2 the network.
//
// Patterns (job at position i of `order` is stages[order[i]]):
//  - Eq. 3 (k explicit stages): phases of length max_i t_i^{(i+j) mod k}; in phase j the
//    job at position i runs its stage (i + j) mod k (so it starts with stage i, offset i).
//    The period is exactly explicitStageGroupTime.
//  - slot rule (3 stages, p <= 4): slot i starts at the latest end of the stages that end
//    there (the f[] recurrence); in slot i the job at position i mod 4 starts stage 0 (it
//    spans slots i and i+1), position (i+2) mod 4 the GPU, position (i+1) mod 4 the
//    network. Positions therefore start staggered with stage 0, network, GPU and (the tail
//    of stage 0, not drawn) GPU. Where the recurrence leaves a slot's start before the
//    resource is free (only possible for p < 4, whose recurrence is not monotone) the stage
//    waits for the resource, so the chart is always feasible. At most two jobs are in
//    stage 0 at once (storage and CPU slots): while two overlap, the newer is drawn on
//    storage and the older on CPU; a job alone in stage 0 is drawn on both.
//  - split pair (3 stages, p = 2, split_pair): phase A: order[0] loads while order[1] runs
//    GPU then network; phase B the other way round. The period is splitPairGroupTime.
// Simplifications: stages of zero duration are not emitted; contention is not drawn (the
// chart uses the stage-derived times; the simulator scales the whole group's time); the
// first slot-rule iteration contains the start-up transient.
// Steady state: for Eq. 3 and the split pair the period equals the group time exactly. For
// the slot rule it equals the steady state of the recurrence, which equals
// slotRuleGroupTime for 1-3 jobs; for 4 jobs the rule stops after 8 slots and in some
// orderings (about 5% of 4-job orderings of the built-in profiles) reports less than the
// steady state (never more, on the built-in profiles). Use schedulePeriod to show the
// chart's own period.
#include <string>
#include <vector>

#include "core/interleave/ordering.h"

namespace cl {

struct StageInterval {
    int job;        // index into `stages`
    int resource;   // see above
    int iteration;  // group iteration (period) in which the stage starts, 0-based
    double t0, t1;  // start and end, same unit as the stage times
};

// `iterations` group iterations (periods). Output sorted by (t0, resource, job).
// Throws std::invalid_argument for invalid jobs, an `order` that is not a permutation of
// 0..p-1, p > k (explicit) or p > 4 (3 stages), split_pair without 2 jobs of 3 stages, or
// iterations < 0.
std::vector<StageInterval> stageSchedule(const std::vector<std::vector<double>>& stages,
                                         const std::vector<int>& order, int iterations,
                                         bool split_pair = false);
// Same with a computed ordering (uses ordering.order and ordering.split_pair).
std::vector<StageInterval> stageSchedule(const std::vector<std::vector<double>>& stages,
                                         const Ordering& ordering, int iterations);

// The same chart started cold: a job joins the pipeline with its first stage (its first
// interval on the resource of stage 0: storage or CPU for 3-stage jobs, resource 0 otherwise),
// so every interval of a job that starts before that is dropped. The steady pattern is reached
// once every job has joined; the first iterations show the pipeline forming (the teaching
// view's animation).
std::vector<StageInterval> coldStartSchedule(const std::vector<StageInterval>& schedule, bool slot_rule);

// Number of resources (rows of the chart) for these jobs: 4 for 3 stages, else k.
int scheduleResourceCount(const std::vector<std::vector<double>>& stages);
// "storage", "CPU", "GPU", "network" for 4 resources; "resource N" otherwise.
std::string scheduleResourceName(int resource, int resource_count);

// Mean period of the chart: (first start of `job` in iteration `last_iteration` - first
// start in `first_iteration`) / (last_iteration - first_iteration). Throws
// std::invalid_argument when the job has no interval in either iteration or
// last_iteration <= first_iteration.
double schedulePeriod(const std::vector<StageInterval>& schedule, int job, int first_iteration,
                      int last_iteration);

}  // namespace cl
