#pragma once
// The server types file (data/server_types.json; docs/architecture.md 7.8):
// {"format":"clusterloom-server-presets","version":1,"presets":[{"id","label","source","server":{...}}]}
// where "server" holds a layout server's fields without name and rack, price included.
#include <string>
#include <vector>

#include "core/model/server_type.h"

namespace cl {

// Throws ParseError naming file, line and field; ids must be unique and non-empty.
std::vector<ServerType> readServerTypesJson(const std::string& path);
std::vector<ServerType> parseServerTypesJson(const std::string& text, const std::string& source);

}  // namespace cl
