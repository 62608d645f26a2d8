#include "core/io/scontrol_records.h"

#include <cctype>

#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"

namespace cl::io {

std::vector<std::string_view> splitAt(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t from = 0;
    while (true) {
        const std::size_t at = s.find(sep, from);
        if (at == std::string_view::npos) {
            parts.push_back(s.substr(from));
            return parts;
        }
        parts.push_back(s.substr(from, at - from));
        from = at + 1;
    }
}

void forEachScontrolRecordLine(std::string_view text, const std::string& file, const std::string& key,
                               const std::string& what, const std::string& listing,
                               const std::function<void()>& end_record,
                               const std::function<void(int)>& begin_record,
                               const std::function<void(std::string_view, int)>& tokens) {
    const std::vector<std::string_view> lines = splitAt(text, '\n');
    bool in_record = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string_view raw = lines[i];
        if (i == 0 && raw.substr(0, 3) == "\xEF\xBB\xBF") raw.remove_prefix(3);
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        const int line = static_cast<int>(i) + 1;
        const std::string_view body = trim(raw);
        if (body.empty()) {
            end_record();
            in_record = false;
            continue;
        }
        if (body.rfind(key + "=", 0) == 0) {
            end_record();
            begin_record(line);
            in_record = true;
        } else if (!in_record || !std::isspace(static_cast<unsigned char>(raw.front()))) {
            // Only the indented lines of scontrol's multi-line form continue a record.
            throw ParseError(file, line, key,
                             "missing: a " + what + " record starts with " + key + "= (" + listing +
                                 "), found '" + std::string(trim(body.substr(0, 40))) + "'");
        }
        tokens(body, line);
    }
    end_record();
}

}  // namespace cl::io
