#include "core/model/trace.h"

#include <algorithm>
#include <limits>

namespace cl {

double Trace::firstSubmit() const {
    double t = std::numeric_limits<double>::infinity();
    for (const auto& j : jobs) t = std::min(t, j.submit_time);
    return jobs.empty() ? 0.0 : t;
}

double Trace::lastSubmit() const {
    double t = 0.0;
    for (const auto& j : jobs) t = std::max(t, j.submit_time);
    return t;
}

long long Trace::totalGpuDemand() const {
    long long n = 0;
    for (const auto& j : jobs) n += j.gpus;
    return n;
}

}  // namespace cl
