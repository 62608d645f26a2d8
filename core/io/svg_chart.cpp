#include "core/io/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include "core/io/result_writers.h"
#include "core/io/svg_text.h"
#include "core/util/series_thinning.h"

namespace cl {

namespace {

constexpr int kWidth = 960;
constexpr int kPanelHeight = 260;
constexpr int kLeft = 70, kRight = 170, kTop = 50, kGap = 60;

// A step series, thinned to about four samples per horizontal pixel (cl::thinMinMax) so big runs
// stay small and spikes stay visible.
std::string polyline(const std::vector<TimeSample>& series,
                     const std::function<double(const TimeSample&)>& value, double t_max, double y_max,
                     int top) {
    const int plot_w = kWidth - kLeft - kRight;
    std::vector<double> t, v;
    t.reserve(series.size());
    v.reserve(series.size());
    for (const auto& s : series) {
        t.push_back(s.t);
        v.push_back(value(s));
    }
    std::ostringstream pts;
    const auto emit = [&](double time, double y_value) {
        const int px = kLeft + static_cast<int>(t_max > 0 ? time / t_max * plot_w : 0);
        const double y = top + kPanelHeight - (y_max > 0 ? y_value / y_max : 0) * kPanelHeight;
        pts << px << ',' << std::lround(y * 10) / 10.0 << ' ';
    };
    bool first = true;
    double previous = 0.0;
    for (std::size_t i : thinMinMax(t, v, plot_w)) {
        if (!first) emit(t[i], previous);  // the step: the old value holds until this sample
        emit(t[i], v[i]);
        previous = v[i];
        first = false;
    }
    return pts.str();
}

}  // namespace

std::string utilizationSvg(const std::vector<SimResult>& results, const std::string& title) {
    double t_max = 0, q_max = 1;
    for (const auto& r : results)
        for (const auto& s : r.series) {
            t_max = std::max(t_max, s.t);
            q_max = std::max(q_max, static_cast<double>(s.queue_length));
        }
    const double hours = t_max / 3600.0;
    const int height = kTop + 2 * kPanelHeight + kGap + 50;
    std::ostringstream o;
    o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth << "' height='" << height
      << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' fill='white'/>\n";
    o << "<text x='" << kLeft << "' y='28' font-size='17' font-weight='bold'>" << svgEscape(title)
      << "</text>\n";
    struct Panel {
        const char* label;
        double y_max;
        std::function<double(const TimeSample&)> value;
        const char* unit;
    };
    Panel panels[2] = {
        {"GPU utilization", 100.0, [](const TimeSample& s) { return s.gpu_utilization * 100; }, "%"},
        {"Queue length", q_max, [](const TimeSample& s) { return double(s.queue_length); }, "jobs"}};
    for (int p = 0; p < 2; ++p) {
        int top = kTop + p * (kPanelHeight + kGap);
        int plot_w = kWidth - kLeft - kRight;
        o << "<rect x='" << kLeft << "' y='" << top << "' width='" << plot_w << "' height='" << kPanelHeight
          << "' fill='none' stroke='#888'/>\n";
        o << "<text x='" << kLeft << "' y='" << top - 8 << "' font-weight='bold'>" << panels[p].label << " ("
          << panels[p].unit << ")</text>\n";
        for (int k = 0; k <= 4; ++k) {
            double v = panels[p].y_max * k / 4;
            int y = top + kPanelHeight - kPanelHeight * k / 4;
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.0f", v);
            o << "<text x='" << kLeft - 8 << "' y='" << y + 4 << "' text-anchor='end' fill='#444'>" << buf
              << "</text><line x1='" << kLeft << "' x2='" << kLeft + plot_w << "' y1='" << y << "' y2='" << y
              << "' stroke='#eee'/>\n";
            char tb[32];
            std::snprintf(tb, sizeof tb, "%.1f h", hours * k / 4);
            o << "<text x='" << kLeft + plot_w * k / 4 << "' y='" << top + kPanelHeight + 18
              << "' text-anchor='middle' fill='#444'>" << tb << "</text>\n";
        }
        for (std::size_t r = 0; r < results.size(); ++r) {
            o << "<polyline fill='none' stroke-width='1.5' stroke='"
              << kSvgSeriesColors[r % kSvgSeriesColorCount] << "' points='"
              << polyline(results[r].series, panels[p].value, t_max, panels[p].y_max, top) << "'/>\n";
        }
    }
    for (std::size_t r = 0; r < results.size(); ++r) {
        int y = kTop + 10 + static_cast<int>(r) * 22;
        int x = kWidth - kRight + 16;
        o << "<line x1='" << x << "' x2='" << x + 22 << "' y1='" << y << "' y2='" << y
          << "' stroke-width='3' stroke='" << kSvgSeriesColors[r % kSvgSeriesColorCount] << "'/><text x='"
          << x + 28 << "' y='" << y + 4 << "'>" << svgEscape(results[r].policy) << "</text>\n";
    }
    o << "</svg>\n";
    return o.str();
}

void writeUtilizationSvg(const std::vector<SimResult>& results, const std::string& title,
                         const std::string& path) {
    AtomicFile f(path);
    f.stream() << utilizationSvg(results, title);
    f.commit();
}

}  // namespace cl
