#pragma once
// Shortest round-trip decimal text of a double ("2", "0.5", "86400"), locale-independent;
// used in provenance lines and specs.
#include <charconv>
#include <string>

namespace cl {

inline std::string formatNumber(double value) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, res.ptr);
}

}  // namespace cl
