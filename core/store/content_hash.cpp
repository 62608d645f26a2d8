#include "core/store/content_hash.h"

#include <bit>
#include <cstdint>
#include <cstdio>

namespace cl {

namespace {
constexpr unsigned long long kFnvPrime = 1099511628211ULL;
}

ContentHasher& ContentHasher::add(std::string_view text) {
    for (unsigned char c : text) {
        h_ ^= c;
        h_ *= kFnvPrime;
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    h_ ^= 0xff;
    h_ *= kFnvPrime;
    return *this;
}

ContentHasher& ContentHasher::add(double value) {
    if (value == 0.0) value = 0.0;  // -0 and +0 are the same figure
    auto bits = std::bit_cast<std::uint64_t>(value);
    char buf[8];
    for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
    return add(std::string_view(buf, 8));
}

ContentHasher& ContentHasher::add(long long value) {
    return add(std::to_string(value));
}

std::string ContentHasher::hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", h_);
    return buf;
}

}  // namespace cl
