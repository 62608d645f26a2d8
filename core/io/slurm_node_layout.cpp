#include "core/io/slurm_node_layout.h"

#include "core/model/gpu_type_table.h"
#include "core/util/number_format.h"

namespace cl {

namespace {

// The layout format's limit (core/io/layout_json.cpp).
constexpr int kMaxGpusPerServer = 64;
// Slurm's RealMemory default is 1 (MB): a node whose memory was never configured.
constexpr double kMinPlausibleMemoryGb = 1.0;

std::string where(const SlurmNodeInventory& inventory, const SlurmNode& n) {
    return (inventory.file.empty() ? "line " : inventory.file + ":") + std::to_string(n.line) + ": node " +
           n.name;
}

std::string nameList(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 10; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 10) s += " and " + std::to_string(names.size() - 10) + " more";
    return s;
}

// Every partition a server is in, with default attributes (docs/architecture.md 8.7): the node
// list names partitions but says nothing of them; a partition file (slurm_partitions.h) gives
// their PriorityTier, MaxTime and default. Partitions only CPU-only or left-out nodes are in
// have no server here and are not declared.
void declarePartitions(Cluster& cluster) {
    for (const Server& s : cluster.servers)
        for (const std::string& p : s.partitions)
            if (!cluster.partition(p)) cluster.partitions.push_back(Partition{p, 1, 0.0, false});
}

}  // namespace

std::string gpuTypeFromSlurm(std::string_view slurm_type) {
    const auto match = matchGpuType(slurm_type);
    return match ? match->name : std::string(slurm_type);
}

SlurmLayout clusterFromSlurmNodes(const SlurmNodeInventory& inventory, const SlurmLayoutOptions& options) {
    SlurmLayout out;
    out.cluster.name = options.name.empty() ? "slurm" : options.name;
    std::vector<std::string> cpu_only, excluded;
    std::map<std::string, std::vector<std::string>> unknown_nodes;  // Slurm type -> node names
    for (const SlurmNode& n : inventory.nodes) {
        if (n.gpus <= 0) {
            ++out.cpu_only_nodes;
            cpu_only.push_back(n.name);
            continue;
        }
        if (n.unavailable && options.exclude_unavailable) {
            ++out.excluded_unavailable;
            excluded.push_back(n.name + " (" + n.state + ")");
            continue;
        }
        if (n.gpus > kMaxGpusPerServer) {
            out.warnings.push_back(where(inventory, n) + " has " + std::to_string(n.gpus) +
                                   " GPUs; a server holds at most " + std::to_string(kMaxGpusPerServer) +
                                   ", so it is left out");
            continue;
        }
        // A node with GPUs of several types (Gres=gpu:a100:8,gpu:v100:8) becomes one server per
        // type, named NODE:TYPE, with the node's CPUs and memory shared by GPU count: a job asks
        // Slurm for one type, and a server has one (docs/architecture.md 8.7).
        const bool split = n.gpus_by_type.size() > 1;
        const std::vector<std::pair<std::string, int>> parts =
            split ? n.gpus_by_type : std::vector<std::pair<std::string, int>>{{n.gpu_type, n.gpus}};
        const bool states_memory = n.memory_gb >= kMinPlausibleMemoryGb;
        if (!states_memory)
            out.warnings.push_back(where(inventory, n) + " states no memory (RealMemory " +
                                   formatNumber(n.memory_gb * 1024) + " MB); it keeps the default " +
                                   formatNumber(Server{}.memory_gb) + " GB");
        for (const auto& [type, gpus] : parts) {
            Server s;
            const std::string slurm_type = type.empty() ? std::string("gpu") : type;
            s.name = split ? n.name + ":" + slurm_type : n.name;
            // A node in several partitions joins the first one Slurm lists (docs/architecture.md 8.7).
            s.rack = n.partitions.empty() ? std::string() : n.partitions.front();
            s.gpus = gpus;
            const double share = static_cast<double>(gpus) / n.gpus;
            if (n.cpus > 0) s.cpu_cores = split ? std::max(1, static_cast<int>(n.cpus * share)) : n.cpus;
            if (states_memory) s.memory_gb = split ? n.memory_gb * gpus / n.gpus : n.memory_gb;
            if (const auto match = matchGpuType(type)) {
                s.gpu_type = match->name;
                s.gpu_memory_gb = match->memory_gb;
            } else {
                s.gpu_type = slurm_type;
                out.unknown_gpu_types[slurm_type] += gpus;
                unknown_nodes[slurm_type].push_back(n.name);
            }
            s.state = n.state;
            s.unavailable = n.unavailable;
            s.partitions = n.partitions;
            out.cluster.servers.push_back(std::move(s));
        }
    }
    declarePartitions(out.cluster);
    if (!cpu_only.empty())
        out.warnings.push_back(std::to_string(cpu_only.size()) + " CPU-only node" +
                               (cpu_only.size() == 1 ? "" : "s") + " left out: " + nameList(cpu_only));
    if (!excluded.empty())
        out.warnings.push_back(std::to_string(excluded.size()) + " unavailable node" +
                               (excluded.size() == 1 ? "" : "s") + " left out: " + nameList(excluded));
    for (const auto& [type, names] : unknown_nodes)
        out.warnings.push_back((type == "gpu" ? std::string("GPUs without a type (gres gpu:N)")
                                              : "unknown GPU type '" + type + "'") +
                               " on " + nameList(names) + ": kept as '" + type + "' with speed 1.0 and " +
                               formatNumber(Server().gpu_memory_gb) + " GB per GPU until you set them");
    return out;
}

}  // namespace cl
