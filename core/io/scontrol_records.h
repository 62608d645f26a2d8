#pragma once
// The line structure scontrol's listings share (`show node`, `show partition`): one record per
// line with --oneliner, or a record's first line starting with its key (NodeName=,
// PartitionName=) and indented lines continuing it; a blank line ends a record.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cl::io {

// "a,b,,c" split at sep -> {"a", "b", "", "c"} (views into s).
std::vector<std::string_view> splitAt(std::string_view s, char sep);

// Walks the lines of `text`: end_record() before each record starts and once at the end,
// begin_record(line) at a record's first line, tokens(body, line) for every line of a record
// (trimmed). A byte-order mark and '\r' line ends are ignored. Throws ParseError (file, line,
// field `key`) for a line that neither starts nor continues a record; `what` names a record
// ("node") and `listing` the command that writes them, for that message.
void forEachScontrolRecordLine(std::string_view text, const std::string& file, const std::string& key,
                               const std::string& what, const std::string& listing,
                               const std::function<void()>& end_record,
                               const std::function<void(int)>& begin_record,
                               const std::function<void(std::string_view, int)>& tokens);

}  // namespace cl::io
