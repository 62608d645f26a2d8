#pragma once
// Whether a cluster keeps up with a trace's arrivals (docs/architecture.md 7.9, "Overload"). A
// first-start metric can pass on a cluster whose backlog grows for the whole trace (SRTF starts
// every job soon and then starves the long ones), so the planner refuses a candidate whose
// backlog at the last arrival would take more than a share of the arrival window to drain.
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

// The share of the arrival window a backlog may take to drain by default (the planner's
// --overload-drain).
inline constexpr double kDefaultOverloadDrainShare = 0.1;

struct PlanLoadCheck {
    // False when the trace has no arrival process to keep up with: its jobs arrive within a burst
    // shorter than kSteadyStateJobLifetimes median job run times (see the architecture document).
    // Nothing is refused for overload then.
    bool assessed = false;
    // The work the jobs bring within the arrival window (each alone from its submission, cut at
    // the last arrival) over the window, per GPU: 1 = every GPU busy all the time.
    double offered_load = 0.0;  // in reference GPUs (section 8.7's speeds)
    // GPU-hours the cluster was busy after the last arrival, beyond the work no cluster could
    // have done by then (each job alone from its submission): the backlog it built up.
    double backlog_gpu_hours = 0.0;        // reference-GPU hours
    double drain_share = 0.0;              // that backlog at full capacity / the arrival window
    double arrival_window_s = 0.0;         // first to last submission
    double last_end_after_window_s = 0.0;  // the last end minus the last submission
    bool overloaded = false;
    // The run stopped as soon as overload was established (SimOptions::stop_when_overloaded):
    // its figures cover the jobs that finished by then.
    bool stopped_early = false;
};

// An arrival window shorter than this many median job run times (alone) is a burst, not a
// steady arrival process.
inline constexpr double kSteadyStateJobLifetimes = 10.0;

// The check of one run on a cluster of `capacity` reference GPUs (its GPUs, each weighted by its
// type's speed; jobs' run times alone are on the reference GPU): the work is each job's GPUs
// times its run time alone; the backlog is the run's GPU utilisation series
// integrated from the last submission to its end, less what each job alone from its submission
// would still have had to do then. Overloaded when assessed and the drain share
// exceeds `drain_share_limit`.
PlanLoadCheck overloadCheck(const SimResult& run, double capacity, double drain_share_limit);

}  // namespace cl
