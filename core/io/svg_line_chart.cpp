#include "core/io/svg_line_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/io/atomic_file.h"
#include "core/io/svg_text.h"
#include "core/util/nice_step.h"

namespace cl {

namespace {

constexpr int kWidth = 820, kHeight = 520;
constexpr int kLeft = 80, kRight = 190, kTop = 56, kBottom = 64;

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", std::round(v * 1000.0) / 1000.0);
    return buf;
}

}  // namespace

std::string lineChartSvg(const std::string& title, const std::string& x_label, const std::string& y_label,
                         const std::vector<LineSeries>& series) {
    double x_min = std::numeric_limits<double>::infinity(), x_max = -x_min, y_max = 0.0;
    for (const auto& s : series)
        for (const auto& [x, y] : s.points) {
            if (!std::isfinite(x) || !std::isfinite(y)) continue;
            x_min = std::min(x_min, x);
            x_max = std::max(x_max, x);
            y_max = std::max(y_max, y);
        }
    if (!std::isfinite(x_min)) x_min = 0, x_max = 1;
    if (x_max <= x_min) x_max = x_min + 1;
    const double y_step = niceStep(y_max, 4);
    const double y_top = std::max(y_step, std::ceil(y_max / y_step) * y_step);
    const int plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
    const auto px = [&](double x) { return kLeft + (x - x_min) / (x_max - x_min) * plot_w; };
    const auto py = [&](double y) { return kTop + plot_h - y / y_top * plot_h; };

    std::ostringstream o;
    o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth << "' height='" << kHeight
      << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' fill='white'/>\n";
    o << "<text x='" << kLeft << "' y='30' font-size='17' font-weight='bold'>" << svgEscape(title)
      << "</text>\n";
    o << "<rect x='" << kLeft << "' y='" << kTop << "' width='" << plot_w << "' height='" << plot_h
      << "' fill='none' stroke='#888'/>\n";
    for (double v = 0; v <= y_top + y_step / 2; v += y_step) {
        o << "<line x1='" << kLeft << "' x2='" << kLeft + plot_w << "' y1='" << py(v) << "' y2='" << py(v)
          << "' stroke='#eee'/><text x='" << kLeft - 8 << "' y='" << py(v) + 4
          << "' text-anchor='end' fill='#444'>" << number(v) << "</text>\n";
    }
    const double x_step = niceStep(x_max - x_min, 4);
    for (double v = std::ceil(x_min / x_step) * x_step; v <= x_max + x_step / 1000; v += x_step)
        o << "<text x='" << px(v) << "' y='" << kTop + plot_h + 20 << "' text-anchor='middle' fill='#444'>"
          << number(v) << "</text>\n";
    o << "<text x='" << kLeft + plot_w / 2 << "' y='" << kHeight - 18 << "' text-anchor='middle'>"
      << svgEscape(x_label) << "</text>\n";
    o << "<text transform='translate(22," << kTop + plot_h / 2 << ") rotate(-90)' text-anchor='middle'>"
      << svgEscape(y_label) << "</text>\n";
    for (std::size_t i = 0; i < series.size(); ++i) {
        const char* color = kSvgSeriesColors[i % kSvgSeriesColorCount];
        o << "<polyline fill='none' stroke-width='2' stroke='" << color << "' points='";
        for (const auto& [x, y] : series[i].points)
            if (std::isfinite(x) && std::isfinite(y)) o << px(x) << ',' << py(y) << ' ';
        o << "'/>\n";
        for (const auto& [x, y] : series[i].points)
            if (std::isfinite(x) && std::isfinite(y))
                o << "<circle cx='" << px(x) << "' cy='" << py(y) << "' r='3.5' fill='" << color << "'/>\n";
        const int ly = kTop + 12 + static_cast<int>(i) * 22, lx = kWidth - kRight + 16;
        o << "<line x1='" << lx << "' x2='" << lx + 22 << "' y1='" << ly << "' y2='" << ly
          << "' stroke-width='3' stroke='" << color << "'/><text x='" << lx + 28 << "' y='" << ly + 4 << "'>"
          << svgEscape(series[i].name) << "</text>\n";
    }
    o << "</svg>\n";
    return o.str();
}

void writeLineChartSvg(const std::string& path, const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<LineSeries>& series) {
    AtomicFile f(path);
    f.stream() << lineChartSvg(title, x_label, y_label, series);
    f.commit();
}

}  // namespace cl
