// readCluster: picks the layout reader by extension, else by the first character.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/io/csv_table.h"
#include "core/io/layout_io.h"
#include "core/io/parse_error.h"

namespace cl {

Cluster readCluster(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".json") return readLayoutJson(path);
    if (ext == ".csv") return readMuriClusterSpecCsv(path);
    // No telling extension: a layout JSON starts with '{', a spec CSV with its header.
    const std::string text = readWholeFile(path);
    auto first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first != std::string::npos && text[first] == '{') return readLayoutJson(path);
    if (text.find("num_switch") != std::string::npos) return readMuriClusterSpecCsv(path);
    throw ParseError(
        path, 0, "",
        "not a cluster file: expected a layout JSON (.json, \"format\": \"clusterloom-cluster\") or a "
        "Muri cluster spec CSV (.csv, num_switch,num_node_p_switch,...)");
}

}  // namespace cl
