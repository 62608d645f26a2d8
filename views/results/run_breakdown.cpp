#include "views/results/run_breakdown.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/metrics/jct_stats.h"

namespace cl::views {

JctCdf jctCdf(const std::vector<JobRecord>& jobs) {
    JctCdf cdf;
    for (const JobRecord& j : jobs)
        if (j.completed) cdf.x.push_back(j.jct);
    std::sort(cdf.x.begin(), cdf.x.end());
    const double n = static_cast<double>(cdf.x.size());
    cdf.y.reserve(cdf.x.size());
    for (std::size_t i = 0; i < cdf.x.size(); ++i) cdf.y.push_back(static_cast<double>(i + 1) / n);
    return cdf;
}

SizeSplit splitBySize(const std::vector<JobRecord>& jobs, int threshold) {
    SizeSplit s;
    s.threshold = threshold;
    double small_sum = 0.0, large_sum = 0.0;
    std::vector<double> small_jcts, large_jcts;
    for (const JobRecord& j : jobs) {
        const bool large = isLargeJob(j.gpus, threshold);
        (large ? s.large_jobs : s.small_jobs) += 1;
        if (!j.completed) continue;
        (large ? s.large_completed : s.small_completed) += 1;
        (large ? large_sum : small_sum) += j.jct;
        (large ? large_jcts : small_jcts).push_back(j.jct);
    }
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    s.small_avg_jct = s.small_completed > 0 ? small_sum / s.small_completed : kNone;
    s.large_avg_jct = s.large_completed > 0 ? large_sum / s.large_completed : kNone;
    s.small_p95_jct = small_jcts.empty() ? kNone : percentile(small_jcts, 0.95);
    s.small_p99_jct = small_jcts.empty() ? kNone : percentile(small_jcts, 0.99);
    s.large_p95_jct = large_jcts.empty() ? kNone : percentile(large_jcts, 0.95);
    s.large_p99_jct = large_jcts.empty() ? kNone : percentile(large_jcts, 0.99);
    return s;
}

double relativeTo(double value, double baseline) {
    if (!(baseline > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    return value / baseline;
}

}  // namespace cl::views
