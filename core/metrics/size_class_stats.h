#pragma once
// Average JCT and queueing time overall and for large and small jobs, the breakdown of the
// SJF-BSBF paper's Tables III-IV (large = more than 4 GPUs). Only completed jobs count.
#include "core/metrics/job_size.h"
#include "core/model/sim_result.h"

namespace cl {

struct SizeClassStats {
    int jobs = 0;
    double avg_jct = 0.0;  // seconds
    // Seconds spent waiting: before the first start and, for preemptive policies, after every
    // preemption (the paper attributes Tiresias' queueing to its migrations).
    double avg_queueing = 0.0;
};

struct SizeBreakdown {
    SizeClassStats all, large, small;
};

SizeBreakdown breakdownBySize(const SimResult& result, int large_above_gpus = kSjfBsbfLargeJobAboveGpus);

}  // namespace cl
