#pragma once
// The queue of a run over time, for a chart (the Plan view's queue over time, docs/architecture.md
// 7.9): the run's series of pending and running jobs reduced to a bounded number of samples that
// keep every peak.
#include <cstddef>
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

// Jobs waiting and in the system at one time of a run.
struct QueueSample {
    double time_s = 0.0;      // since the run's first sample (its first submission)
    int waiting_jobs = 0;     // submitted and not running: not yet started, or preempted
    int unfinished_jobs = 0;  // submitted and not yet ended (waiting or running)
};

// At most `max_samples` samples over the series' span: each is the largest queue within its share
// of the span, so a peak shorter than a share is not lost. Empty for an empty series.
std::vector<QueueSample> queueOverTime(const std::vector<TimeSample>& series, std::size_t max_samples = 200);

}  // namespace cl
