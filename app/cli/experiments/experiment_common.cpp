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

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream s(text);
    std::string item;
    while (std::getline(s, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

void parallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (threads <= 0) threads = cores;
    threads =
        std::min<long long>({threads, 4LL * cores, static_cast<long long>(std::max<std::size_t>(n, 1))});
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> pool;
    std::exception_ptr error;
    std::mutex error_mutex;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (std::size_t i = next++; i < n; i = next++) {
                try {
                    body(i);
                } catch (...) {
                    std::lock_guard lock(error_mutex);
                    if (!error) error = std::current_exception();
                }
            }
        });
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

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
