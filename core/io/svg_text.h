#pragma once
// What the dependency-free SVG charts share: escaping text for SVG and the series palette.
#include <iterator>
#include <string>

namespace cl {

inline constexpr const char* kSvgSeriesColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};
inline constexpr std::size_t kSvgSeriesColorCount = std::size(kSvgSeriesColors);

inline std::string svgEscape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '<')
            o += "&lt;";
        else if (c == '>')
            o += "&gt;";
        else if (c == '&')
            o += "&amp;";
        else if (c == '\'')
            o += "&apos;";
        else
            o += c;
    }
    return o;
}

}  // namespace cl
