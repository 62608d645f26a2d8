#pragma once
// Figures of the comparison view that core/metrics does not provide: the JCT CDF of one run,
// the large/small split at a threshold the user picks, and values relative to a baseline.
// Qt-free: it reads finished job records and never schedules anything.
#include <vector>

#include "core/metrics/comparison.h"
#include "core/metrics/job_size.h"
#include "core/model/sim_result.h"

namespace cl::views {

// The empirical CDF of the completed jobs' JCTs: x sorted ascending, y[i] = (i + 1) / n,
// so the last point is (max JCT, 1). Empty when nothing completed.
struct JctCdf {
    std::vector<double> x;
    std::vector<double> y;
};
JctCdf jctCdf(const std::vector<JobRecord>& jobs);

// The default threshold of the large/small split (cl::isLargeJob): core's, more than one 8-GPU
// server, as in the Muri and Synergy evaluations.
inline constexpr int kDefaultLargeJobThreshold = kLargeJobAboveGpus;

// Jobs split by size: small asks for at most `threshold` GPUs, large for more. Averages are
// over the completed jobs of each kind; NaN when none of that kind completed.
struct SizeSplit {
    int threshold = kDefaultLargeJobThreshold;
    int small_jobs = 0, large_jobs = 0;            // all jobs of the run
    int small_completed = 0, large_completed = 0;  // those that finished
    double small_avg_jct = 0.0, large_avg_jct = 0.0;
    // Nearest-rank percentiles of the completed jobs' JCTs (docs/architecture.md 7.2); NaN for
    // a class without a completed job, like the averages.
    double small_p95_jct = 0.0, small_p99_jct = 0.0, large_p95_jct = 0.0, large_p99_jct = 0.0;
};
SizeSplit splitBySize(const std::vector<JobRecord>& jobs, int threshold = kDefaultLargeJobThreshold);

// value / baseline: 1 for the baseline itself, < 1 where a run is faster. NaN when the
// baseline is not positive (it completed nothing), where a ratio would mean nothing.
double relativeTo(double value, double baseline);

}  // namespace cl::views
