#pragma once
// The one number-to-text conversion of the project: the shortest decimal text that reads back as
// the same double ("2", "0.5", "86400", "1e+20"), locale-independent; for files, specs,
// provenance lines and messages.
#include <array>
#include <charconv>
#include <cmath>
#include <string>

namespace cl {

inline std::string formatNumber(double value) {
    std::array<char, 64> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    return std::string(buf.data(), res.ptr);
}

// The same, in plain notation across the range of durations and ratios ("100000", not "1e+05"),
// which keeps CSV files friendly to spreadsheets and eyes; only extreme magnitudes get an
// exponent.
inline std::string formatNumberPlain(double value) {
    const double a = std::fabs(value);
    if (!(a == 0.0 || (a >= 1e-6 && a < 1e16))) return formatNumber(value);
    std::array<char, 128> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::fixed);
    return std::string(buf.data(), res.ptr);
}

}  // namespace cl
