#pragma once
// The event-driven engine (docs/architecture.md section 2). Deterministic for a given input.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/sim_result.h"
#include "core/model/trace.h"
#include "core/sim/conventions.h"
#include "core/sim/scheduler.h"

namespace cl {

struct GroupingLog;  // core/model/grouping_explanation.h

struct SimOptions {
    Conventions conventions = Conventions::clean();
    // Called now and then with the fraction of jobs finished; return false to cancel.
    std::function<bool(double fraction_done)> progress;
    bool record_segments = true;
    // When set (and record_segments), segments are handed over here as soon as they can no
    // longer change, in the order SimResult::segments would list them, and the result keeps
    // none: a run with tens of millions of segments can write them to a file as it goes
    // (docs/architecture.md section 2.8). Called on the simulating thread.
    std::function<void(std::span<const GpuSegment>)> segment_sink;
    bool record_series = true;
    // Each sample records only the queue, the running jobs and the GPU utilisation (the other
    // figures NaN, as in runs stored before they existed): what a plan reads, without a pass
    // over the jobs at every event (docs/architecture.md 7.9, "Storage").
    bool series_queue_only = false;
    // Skip periodic rounds while nobody waits under a policy whose rounds only place waiting
    // jobs (Scheduler::roundsOnlyPlaceWaitingJobs). Off only to test that skipping changes
    // no result.
    bool skip_idle_rounds = true;
    // The jobs the summary measures, by position in the trace (inclusive; last < 0 = to the
    // end): e.g. Synergy's steady-state window, jobs 4000-4999.
    int measure_first = 0;
    int measure_last = -1;
    // A job that can never fit the cluster (too many GPUs, no server of its partitions or GPU
    // type, docs/architecture.md 2.10) is left out and listed in SimResult::left_out; strict
    // refuses the whole run instead, naming it.
    bool strict = false;
    // Servers marked down, drained or failing (Server::unavailable) are no capacity: they stay in
    // the cluster (GPU numbers, network and timeline rows unchanged) but no job may use them,
    // unless kept (docs/architecture.md 2.10).
    bool keep_unavailable = false;
    // When > 0, the run stops as soon as it is known to be overloaded with this drain share (the
    // planner's criterion, docs/architecture.md 7.9 "Overload"): once the GPU time busy after the
    // last arrival, less the work each job alone from its submission would still have had then,
    // exceeds this share of the arrival window at full capacity (GPUs weighted by the profile
    // set's gpu_type_speed). It can only grow, so the verdict is final. Needs record_series; not
    // applied to a burst (arrival window under 10 median job run times). The run then ends with
    // unfinished jobs and a note starting kStoppedOverloadedNote.
    double stop_when_overloaded = 0.0;
    // The run stops as soon as one of these is sure to be missed (a plan's targets,
    // docs/architecture.md 7.9 "Stopping early"): metric p95_queueing, median_jct, p95_jct or
    // p99_jct over all jobs, above `seconds`. A job's queueing (or time in the system) is at least
    // how long it has waited (or been in) so far, so once enough jobs are past `seconds` the
    // percentile is. Not applied with time limits or a measured window, where the jobs a metric
    // counts are not known in advance. The run then ends with unfinished jobs and a note starting
    // kStoppedTargetMissedNote.
    struct MissedTarget {
        std::string metric;
        double seconds = 0.0;
        bool operator==(const MissedTarget&) const = default;
    };
    std::vector<MissedTarget> stop_when_missed;
    // When set, a Muri scheduler built by simulatePolicy records here why it grouped jobs as it
    // did (docs/architecture.md 5.1, "Why this grouping"); the results are the same either way.
    GroupingLog* grouping_log = nullptr;
};
// The metrics SimOptions::stop_when_missed accepts.
bool stopsWhenMissed(const std::string& metric);

// Runs the trace under the scheduler (which must have been built for options.conventions; see
// simulatePolicy in core/policies/simulate_policy.h to build one by name). The run is named after
// scheduler.name(). Every decision is checked: a GPU given twice or not free, a job that is not
// waiting or has finished, a job given the wrong number of GPUs throws SimulationError naming the
// policy. Throws SimulationError for inputs the engine cannot run (a job larger than the cluster
// — the whole run is refused, naming the job and both GPU counts —, a job no placement can ever
// satisfy, a job longer than 10 years alone) and std::invalid_argument for a scheduler the
// conventions cannot run. Zero jobs give an empty result; a job of zero iterations ends on arrival.
SimResult simulate(const Cluster& cluster, const Trace& trace, const ProfileSet& profiles,
                   Scheduler& scheduler, const SimOptions& options = {});

class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace cl
