#include "core/io/read_helpers.h"
#include "core/util/number_format.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>

namespace cl::io {

namespace {

// std::isspace in the C locale, without its call (the readers' most frequent test).
constexpr bool space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::string_view trim(std::string_view s) {
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::optional<long long> wholeNumber(std::string_view s) {
    s = trim(s);
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

std::string fileStem(const std::string& path) {
    return std::filesystem::path(path).stem().string();
}

std::string directoryOf(const std::string& path) {
    auto dir = std::filesystem::path(path).parent_path();
    return dir.empty() ? std::string(".") : dir.string();
}

void warn(const TraceReadOptions& opts, std::string message) {
    if (opts.warnings) opts.warnings->push_back(std::move(message));
}

namespace {
// Reads exactly `width` digits at `pos`; advances pos.
bool digits(std::string_view s, std::size_t& pos, int width, int& out) {
    if (pos + width > s.size()) return false;
    int v = 0;
    for (int k = 0; k < width; ++k) {
        char c = s[pos + k];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    pos += width;
    out = v;
    return true;
}

bool expect(std::string_view s, std::size_t& pos, char c) {
    if (pos >= s.size() || s[pos] != c) return false;
    ++pos;
    return true;
}
}  // namespace

std::optional<double> parseDateTime(std::string_view s) {
    // Hand-written rather than std::get_time/mktime: those are slow (locale, time zone) and
    // the Philly CSV has 82k timestamps.
    std::size_t p = 0;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (!digits(s, p, 4, y) || !expect(s, p, '-') || !digits(s, p, 2, mo) || !expect(s, p, '-') ||
        !digits(s, p, 2, d))
        return std::nullopt;
    if (p >= s.size() || (s[p] != ' ' && s[p] != 'T')) return std::nullopt;
    ++p;
    if (!digits(s, p, 2, h) || !expect(s, p, ':') || !digits(s, p, 2, mi) || !expect(s, p, ':') ||
        !digits(s, p, 2, sec))
        return std::nullopt;
    double fraction = 0.0;
    if (p < s.size() && s[p] == '.') {
        std::size_t start = ++p;
        double scale = 1.0;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
            scale /= 10.0;
            fraction += (s[p] - '0') * scale;
            ++p;
        }
        if (p == start) return std::nullopt;
    }
    if (p != s.size() || h > 23 || mi > 59 || sec > 60) return std::nullopt;
    using namespace std::chrono;
    year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
    if (!ymd.ok()) return std::nullopt;
    double days = static_cast<double>(sys_days{ymd}.time_since_epoch().count());
    return days * 86400.0 + h * 3600.0 + mi * 60.0 + sec + fraction;
}

void checkJobGpus(long long gpus, const std::string& file, int line, const std::string& field) {
    if (gpus <= 0)
        throw ParseError(file, line, field, "GPU count must be positive, found " + std::to_string(gpus));
    if (gpus > kMaxJobGpus)
        throw ParseError(
            file, line, field,
            "implausible GPU count " + std::to_string(gpus) + " (limit " + std::to_string(kMaxJobGpus) + ")");
}

int jobGpus(const CsvTable& table, const CsvRow& row, int col) {
    long long v = table.integer(row, col);
    checkJobGpus(v, table.file(), row.line, table.fieldName(col));
    return static_cast<int>(v);
}

int nonNegativeInt(const CsvTable& table, const CsvRow& row, int col) {
    long long v = table.integer(row, col);
    if (v < 0)
        throw ParseError(table.file(), row.line, table.fieldName(col),
                         "must not be negative, found " + std::to_string(v));
    if (v > 2147483647LL)
        throw ParseError(table.file(), row.line, table.fieldName(col),
                         "value too large: " + std::to_string(v));
    return static_cast<int>(v);
}

std::optional<std::string> unknownModel(const TraceReadOptions& opts, const std::string& model) {
    if (!opts.profiles || model.empty() || opts.profiles->has(model)) return std::nullopt;
    const auto names = opts.profiles->modelNames();
    std::string known;
    constexpr std::size_t kShown = 8;
    for (std::size_t k = 0; k < names.size() && k < kShown; ++k) known += (k ? ", " : "") + names[k];
    if (names.size() > kShown) known += ", ... (" + std::to_string(names.size()) + " in all)";
    if (names.empty()) known = "none";
    return "unknown model '" + model + "' (known models: " + known + ")";
}

void checkModel(const TraceReadOptions& opts, const std::string& model, const std::string& file, int line,
                const std::string& field) {
    if (auto message = unknownModel(opts, model)) throw ParseError(file, line, field, *message);
}

void finishImport(Trace& trace, const std::string& path, const std::string& format, int skipped_rows) {
    trace.name = fileStem(path);
    std::string line =
        "imported " + fileName(path) + " as " + format + " (" + std::to_string(trace.jobs.size()) + " jobs";
    if (skipped_rows > 0) line += ", " + std::to_string(skipped_rows) + " invalid rows skipped";
    trace.provenance.push_back(line + ")");
}

double msTextToSeconds(std::string_view text) {
    // "d.ddd[e±x]" -> "d.ddd e(x-3)": same digits, exponent three lower.
    const auto divided = [text] {
        double ms = 0.0;  // underflow or odd text: plain division is the best we can do
        std::from_chars(text.data(), text.data() + text.size(), ms);
        return ms / 1000.0;
    };
    const auto e = text.find_first_of("eE");
    std::string_view mantissa = text.substr(0, e);
    int exponent = 0;
    if (e != std::string_view::npos) {
        std::string_view exp_text = text.substr(e + 1);
        if (!exp_text.empty() && exp_text.front() == '+') exp_text.remove_prefix(1);
        const auto [exp_end, exp_ec] =
            std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
        // An exponent beyond int (e.g. "1e-2147483649", which JSON allows and reads as 0) was
        // once read as 0, turning the value into 1 ms; one at INT_MIN overflowed below. Any
        // exponent this far out means 0 or infinity, which plain division gets right.
        if (exp_ec != std::errc() || exp_end != exp_text.data() + exp_text.size() || exponent < -100000 ||
            exponent > 100000)
            return divided();
    }
    const std::string shifted = std::string(mantissa) + "e" + std::to_string(exponent - 3);
    double seconds = 0.0;
    auto [end, ec] = std::from_chars(shifted.data(), shifted.data() + shifted.size(), seconds);
    if (ec != std::errc() || end != shifted.data() + shifted.size()) return divided();
    return seconds;
}

std::string secondsToMsText(double seconds) {
    if (seconds == 0.0 || !std::isfinite(seconds)) return formatNumber(seconds);
    // Shortest digits of `seconds` in scientific form, e.g. "5.17e-01", then the decimal
    // point moves three places right; the digits stay the same, so reading is exact.
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, seconds, std::chars_format::scientific);
    std::string_view sci(buf, static_cast<std::size_t>(end - buf));
    std::string sign;
    if (sci.front() == '-') {
        sign = "-";
        sci.remove_prefix(1);
    }
    const auto e = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, e))
        if (c != '.') digits += c;
    int exponent = 0;
    std::string_view exp_text = sci.substr(e + 1);
    if (exp_text.front() == '+') exp_text.remove_prefix(1);
    std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
    exponent += 3;
    // Value = 0.digits x 10^point.
    const int n = static_cast<int>(digits.size());
    const int point = exponent + 1;
    if (point <= 0 && point > -6) return sign + "0." + std::string(-point, '0') + digits;
    if (point > 0 && point < n) return sign + digits.substr(0, point) + "." + digits.substr(point);
    if (point >= n && point <= 21) return sign + digits + std::string(point - n, '0');
    return sign + digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") + "e" +
           std::to_string(exponent);
}

}  // namespace cl::io
