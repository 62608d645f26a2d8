#pragma once
// Human-readable formatting of simulation quantities for the views.
#include <QString>

namespace cl::views {

// A duration in seconds in the largest unit that keeps it readable: "45 s", "12.5 min",
// "3.2 h", "4.1 d". NaN or a negative value gives an en dash (no value).
QString formatDuration(double seconds);

// The same value spelled out exactly, for tooltips: "11,520 s (3.20 h)".
QString formatDurationExact(double seconds);

// A fraction as a percentage: 0.734 -> "73.4 %".
QString formatPercent(double fraction);

}  // namespace cl::views
