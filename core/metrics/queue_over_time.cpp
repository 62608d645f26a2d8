#include "core/metrics/queue_over_time.h"

#include <algorithm>

namespace cl {

std::vector<QueueSample> queueOverTime(const std::vector<TimeSample>& series, std::size_t max_samples) {
    std::vector<QueueSample> out;
    if (series.empty() || max_samples == 0) return out;
    const double origin = series.front().t;
    const double span = series.back().t - origin;
    const auto sampleOf = [&](const TimeSample& s) {
        return QueueSample{s.t - origin, s.queue_length, s.queue_length + s.running_jobs};
    };
    if (series.size() <= max_samples || !(span > 0)) {
        for (const TimeSample& s : series) out.push_back(sampleOf(s));
        return out;
    }
    // Buckets of equal time; a bucket's sample sits at its start and holds its largest values.
    const double width = span / static_cast<double>(max_samples);
    std::size_t i = 0;
    for (std::size_t b = 0; b < max_samples; ++b) {
        const double start = origin + width * static_cast<double>(b);
        const double end = b + 1 == max_samples ? series.back().t + 1.0 : start + width;
        QueueSample q{start - origin, 0, 0};
        // The sample holding at the bucket's start counts too: a step series holds until the next.
        if (i > 0) {
            q.waiting_jobs = series[i - 1].queue_length;
            q.unfinished_jobs = series[i - 1].queue_length + series[i - 1].running_jobs;
        }
        for (; i < series.size() && series[i].t < end; ++i) {
            q.waiting_jobs = std::max(q.waiting_jobs, series[i].queue_length);
            q.unfinished_jobs = std::max(q.unfinished_jobs, series[i].queue_length + series[i].running_jobs);
        }
        out.push_back(q);
    }
    return out;
}

}  // namespace cl
