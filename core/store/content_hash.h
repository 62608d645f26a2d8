#pragma once
// Content hashes of stored items: 64-bit FNV-1a over a canonical text, as 16 hex digits.
// Used to find identical inputs and scenarios, not for security.
#include <string>
#include <string_view>

namespace cl {

class ContentHasher {
public:
    ContentHasher& add(std::string_view text);
    ContentHasher& add(double value);  // exact bits, so 0.1 + 0.2 != 0.3 hashes differently
    ContentHasher& add(long long value);
    std::string hex() const;

private:
    unsigned long long h_ = 1469598103934665603ULL;
};

}  // namespace cl
