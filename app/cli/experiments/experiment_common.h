#pragma once
// Shared by the paper experiments (clusterloom-cli experiment ...).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cli {

// Throw UsageError naming the option when the text is not a positive integer / a ratio >= 1.
int parsePositiveInt(const std::string& option, const std::string& text);
double parseRatio(const std::string& option, const std::string& text);

}  // namespace cli
