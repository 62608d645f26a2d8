#pragma once
// Just enough of a JSON scanner to walk a text by hand, without building values: to find where a
// member of an already validated document starts (json_doc's line lookup) or to sniff the start of
// a long file (looksLikeSacct). Every step returns false when the text ends first, as a prefix of
// a long file does. Internal to core/io.
#include <cstddef>
#include <string_view>

namespace cl::io {

struct JsonScanner {
    std::string_view s;
    std::size_t i = 0;

    bool at(char c) const { return i < s.size() && s[i] == c; }
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
    }
    bool skipString() {
        ++i;  // opening quote
        while (i < s.size()) {
            const char c = s[i++];
            if (c == '\\')
                ++i;
            else if (c == '"')
                return true;
        }
        return false;
    }
    bool skipValue() {
        ws();
        if (i >= s.size()) return false;
        if (s[i] == '"') return skipString();
        if (s[i] == '{' || s[i] == '[') {
            int depth = 0;
            while (i < s.size()) {
                const char c = s[i];
                if (c == '"') {
                    if (!skipString()) return false;
                    continue;
                }
                if (c == '{' || c == '[') ++depth;
                if ((c == '}' || c == ']') && --depth == 0) {
                    ++i;
                    return true;
                }
                ++i;
            }
            return false;
        }
        while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' &&
               s[i] != '\r' && s[i] != '\t')
            ++i;
        return i < s.size();
    }
};

}  // namespace cl::io
