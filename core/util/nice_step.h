#pragma once
// Axis ticks: the round step (1, 2 or 5 x 10^k) that cuts `span` into about `intervals` parts.
// One rule for every chart, drawn by Qt (views/common/chart_style.h) or written as SVG (core/io).
#include <algorithm>
#include <cmath>

namespace cl {

inline double niceStep(double span, int intervals) {
    if (!(span > 0.0)) return 1.0;
    const double raw = span / std::max(1, intervals);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude) return m * magnitude;
    return 10.0 * magnitude;
}

}  // namespace cl
