#include "cli/experiments/experiment_common.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/args.h"

namespace cli {

int parsePositiveInt(const std::string& option, const std::string& text) {
    try {
        std::size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used == text.size() && v > 0 && v <= 1'000'000'000) return static_cast<int>(v);
    } catch (const std::exception&) {
    }
    throw UsageError(option + ": '" + text + "' is not a positive whole number");
}

double parseRatio(const std::string& option, const std::string& text) {
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v) && v >= 1.0 && v <= 100.0) return v;
    } catch (const std::exception&) {
    }
    throw UsageError(option + ": '" + text + "' is not a ratio between 1 and 100");
}

}  // namespace cli
