#pragma once
// Human-readable formatting of simulation quantities for the views.
#include <QString>

namespace cl::views {

// A duration in seconds in the largest unit that keeps it readable: "45 s", "12.5 min",
// "3.2 h", "4.1 d". NaN or a negative value gives an en dash (no value).
QString formatDuration(double seconds);

// The same value spelled out exactly, for tooltips: "11,520 s (3.20 h)".
QString formatDurationExact(double seconds);

// A moment of a run (seconds since its start) as a clock: "22:05:30" during the first day,
// "3 d 22:05:30" from the second on (whole days passed, then the time of day), rounded to the
// second first so that 86,399.7 s reads "1 d 00:00:00". The spaces around the "d" are
// no-break spaces. NaN gives an en dash (no value), an infinite time "∞".
QString formatRunTime(double seconds);

// A number as a reader expects it: digits grouped, at most `decimals` decimals, no trailing
// zeros ("2,014.6", "80", "13.25").
QString formatDecimal(double value, int decimals);

// A fraction as a percentage: 0.734 -> "73.4 %".
QString formatPercent(double fraction);

}  // namespace cl::views
