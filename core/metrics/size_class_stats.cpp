#include "core/metrics/size_class_stats.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {
void add(SizeClassStats& s, const JobRecord& j) {
    ++s.jobs;
    s.avg_jct += j.jct;
    s.avg_queueing += std::max(0.0, j.pending_time);
}
void finish(SizeClassStats& s) {
    if (s.jobs == 0) return;
    s.avg_jct /= s.jobs;
    s.avg_queueing /= s.jobs;
}
}  // namespace

SizeBreakdown breakdownBySize(const SimResult& result, int large_above_gpus) {
    SizeBreakdown b;
    for (const JobRecord& j : result.jobs) {
        if (!j.completed || !std::isfinite(j.jct)) continue;
        add(b.all, j);
        add(isLargeJob(j.gpus, large_above_gpus) ? b.large : b.small, j);
    }
    finish(b.all);
    finish(b.large);
    finish(b.small);
    return b;
}

}  // namespace cl
