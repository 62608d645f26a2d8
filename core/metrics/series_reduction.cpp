#include "core/metrics/series_reduction.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {

// The time-weighted mean of samples [first, last) of the series, each holding until the next,
// with the largest queue and running-job counts among them.
TimeSample merged(const std::vector<TimeSample>& series, std::size_t first, std::size_t last) {
    TimeSample m;
    m.t = series[first].t;
    const double span = series[last].t - series[first].t;
    if (!(span > 0)) {  // all at one instant: the last of them is what held
        m = series[last - 1];
        m.t = series[first].t;
    } else {
        m.queue_length = 0;
        m.running_jobs = 0;
        m.blocking_index = m.gpu_utilization = m.storage_utilization = m.cpu_utilization = 0;
        m.gpu_compute_utilization = m.network_utilization = m.cpu_allocated = m.memory_allocated = 0;
        for (std::size_t i = first; i < last; ++i) {
            const TimeSample& s = series[i];
            const double w = (series[i + 1].t - s.t) / span;
            m.queue_length = std::max(m.queue_length, s.queue_length);
            m.running_jobs = std::max(m.running_jobs, s.running_jobs);
            m.blocking_index += w * s.blocking_index;
            m.gpu_utilization += w * s.gpu_utilization;
            m.storage_utilization += w * s.storage_utilization;
            m.cpu_utilization += w * s.cpu_utilization;
            m.gpu_compute_utilization += w * s.gpu_compute_utilization;
            m.network_utilization += w * s.network_utilization;
            m.cpu_allocated += w * s.cpu_allocated;
            m.memory_allocated += w * s.memory_allocated;
        }
    }
    return m;
}

}  // namespace

std::vector<TimeSample> reduceSeries(const std::vector<TimeSample>& series, std::size_t max_samples,
                                     double exact_from) {
    if (series.size() <= max_samples + 3) return series;
    const double start = series.front().t, span = series.back().t - start;
    const double share = span / static_cast<double>(max_samples);
    // The sample holding at exact_from stands alone, so that the integral from exact_from on
    // reads it exactly as the full series does.
    const auto holding = std::upper_bound(series.begin(), series.end(), exact_from,
                                          [](double t, const TimeSample& s) { return t < s.t; });
    const std::size_t alone =
        holding == series.begin() ? 0 : static_cast<std::size_t>(holding - series.begin()) - 1;
    std::vector<TimeSample> out;
    out.reserve(max_samples + 3);
    const std::size_t last = series.size() - 1;  // holds until no later time: kept as it is
    std::size_t first = 0;
    while (first < last) {
        std::size_t end = first + 1;
        if (first != alone) {
            const double until = start + share * (std::floor((series[first].t - start) / share) + 1);
            while (end < last && end != alone && series[end].t < until) ++end;
        }
        out.push_back(merged(series, first, end));
        first = end;
    }
    out.push_back(series[last]);
    return out;
}

}  // namespace cl
