#pragma once
// A dependency-free SVG line chart of y over x with one line (and point markers) per series:
// e.g. average JCT against load, the Synergy paper's Fig. 9 style.
#include <string>
#include <utility>
#include <vector>

namespace cl {

struct LineSeries {
    std::string name;
    std::vector<std::pair<double, double>> points;  // (x, y), drawn in the given order
};

std::string lineChartSvg(const std::string& title, const std::string& x_label, const std::string& y_label,
                         const std::vector<LineSeries>& series);
// Written atomically (a failure leaves an existing file untouched).
void writeLineChartSvg(const std::string& path, const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<LineSeries>& series);

}  // namespace cl
