#pragma once
// Times in milliseconds as the Profiles view, its charts and the profiler-trace import show them
// (profiles and profiler traces state milliseconds, docs/architecture.md section 8.6).
#include <QString>

namespace cl::views {

// How many decimals a time in milliseconds gets.
enum class MsDecimals {
    // 0 from 100 ms, 1 from 10 ms, else 2 ("250", "12.5", "3.25"): tables and charts, where
    // figures of very different sizes stand side by side.
    ByMagnitude,
    // 1 from 100 ms, else 2 ("250.0", "12.50"): the import summary, one run's measured medians.
    Measured,
};

// Whether the text ends in " ms"; a table cell leaves it to its column header.
enum class MsUnit { Shown, Omitted };

// A time in milliseconds in the user's locale: "12.5 ms".
QString msText(double ms, MsDecimals decimals = MsDecimals::ByMagnitude, MsUnit unit = MsUnit::Shown);

}  // namespace cl::views
