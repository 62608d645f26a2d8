#pragma once
// The server presets file (data/server_presets.json; docs/architecture.md 7.8):
// {"format":"clusterloom-server-presets","version":1,"presets":[{"id","label","source","server":{...}}]}
// where "server" holds a layout server's fields without name and rack, price included.
#include <string>
#include <vector>

#include "core/model/server_preset.h"

namespace cl {

// Throws ParseError naming file, line and field; ids must be unique and non-empty.
std::vector<ServerPreset> readServerPresetsJson(const std::string& path);
std::vector<ServerPreset> parseServerPresetsJson(const std::string& text, const std::string& source);

}  // namespace cl
