#include "core/metrics/gpu_utilization.h"

#include <limits>

namespace cl {

double meanGpuUtilization(const std::vector<TimeSample>& series) {
    if (series.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double span = series.back().t - series.front().t;
    if (!(span > 0)) return series.front().gpu_utilization;
    double busy = 0;
    for (std::size_t i = 0; i + 1 < series.size(); ++i)
        busy += series[i].gpu_utilization * (series[i + 1].t - series[i].t);
    return busy / span;
}

}  // namespace cl
