#pragma once
// A Slurm node inventory turned into a cluster layout (docs/architecture.md section 8.7):
// one server per GPU node, grouped by its first partition (Server::rack) and in all of its
// partitions (Server::partitions, each declared in Cluster::partitions with default attributes
// until a partition file, core/io/slurm_partitions.h, describes them), GPU types mapped to ours by
// the table of core/model/gpu_type_table.h.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/slurm_nodes.h"
#include "core/model/cluster.h"

namespace cl {

struct SlurmLayoutOptions {
    std::string name;                  // the cluster's name ("slurm" when empty)
    bool exclude_unavailable = false;  // leave out down, drained, failing, not-responding nodes
};

struct SlurmLayout {
    Cluster cluster;                               // may have no servers (no usable GPU node)
    int cpu_only_nodes = 0;                        // nodes without GPUs, left out
    int excluded_unavailable = 0;                  // left out by exclude_unavailable
    std::map<std::string, int> unknown_gpu_types;  // Slurm type not in the table -> its GPUs
    std::vector<std::string> warnings;
};

SlurmLayout clusterFromSlurmNodes(const SlurmNodeInventory& inventory,
                                  const SlurmLayoutOptions& options = {});

// Our GPU type name for a Slurm gres type ("a100", "nvidia_a100-sxm4-80gb" -> "A100"); a type the
// table does not know comes back as Slurm names it.
std::string gpuTypeFromSlurm(std::string_view slurm_type);

}  // namespace cl
