#pragma once
// Shared by the paper experiments (clusterloom-cli experiment ...).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cli {

// "a,b,,c" -> {"a", "b", "c"}
std::vector<std::string> splitList(const std::string& text);
// Runs body(0..n-1) on `threads` workers (0 = all cores); each call fills its own slot. The
// first exception is rethrown after all workers stop.
void parallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body);
// Throw UsageError naming the option when the text is not a positive integer / a ratio >= 1.
int parsePositiveInt(const std::string& option, const std::string& text);
double parseRatio(const std::string& option, const std::string& text);

}  // namespace cli
