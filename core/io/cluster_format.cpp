// readCluster: picks the layout reader by content where a Slurm node inventory could hide behind
// the extension, else by extension, else by the first character.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/io/csv_table.h"
#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_partitions.h"

namespace cl {

namespace {

// A node inventory (scontrol show node --oneliner, or sinfo/scontrol --json) read as a layout
// with every node kept (docs/architecture.md section 8.7); `import slurm` reports the details.
Cluster clusterFromSlurmText(const std::string& text, const std::string& path) {
    const std::string file = io::fileName(path);
    SlurmLayoutOptions options;
    options.name = io::fileStem(path);
    SlurmLayout layout = clusterFromSlurmNodes(parseSlurmNodes(text, file), options);
    if (layout.cluster.servers.empty())
        throw ParseError(file, 0, "",
                         "the Slurm node list has no GPU node a layout can hold (" +
                             std::to_string(layout.cpu_only_nodes) + " CPU-only)");
    return std::move(layout.cluster);
}

}  // namespace

Cluster readCluster(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".csv") return readMuriClusterSpecCsv(path);
    const std::string text = readWholeFile(path);
    if (looksLikeSlurmNodes(text)) return clusterFromSlurmText(text, path);
    // The partition list alone has no servers; say what to give instead (docs/architecture.md 8.7).
    if (looksLikeSlurmPartitions(text))
        throw ParseError(
            io::fileName(path), 1, "PartitionName",
            "this is Slurm's partition list (scontrol show partition), which has no servers: read "
            "the node list (scontrol show node --oneliner) as the cluster, and lay the partitions "
            "over it with import slurm --nodes NODES --partitions FILE");
    if (ext == ".json") return readLayoutJson(path);
    // No telling extension: a layout JSON starts with '{', a spec CSV with its header.
    auto first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first != std::string::npos && text[first] == '{') return readLayoutJson(path);
    if (text.find("num_switch") != std::string::npos) return readMuriClusterSpecCsv(path);
    throw ParseError(
        path, 0, "",
        "not a cluster file: expected a layout JSON (.json, \"format\": \"clusterloom-cluster\"), a "
        "Muri cluster spec CSV (.csv, num_switch,num_node_p_switch,...) or Slurm's node list (scontrol "
        "show node --oneliner, or --json)");
}

}  // namespace cl
