#pragma once
// Clusters built from a topology generator and a mix of server architectures.
#include <string>
#include <vector>

#include "core/model/cluster.h"

namespace cl {

struct ArchitectureShare {
    std::string preset;     // an architecturePresets() name
    double fraction = 1.0;  // of the servers of each pod
};

// "power8" (all power8-4gpu, the paper default), "dgx1", "uneven", "mixed" (per pod 20%
// small-2gpu, 40% power8-4gpu, 40% dgx1-8gpu, multi-agent placement paper Sec. VI-D).
// Throws std::invalid_argument listing the valid names.
std::vector<ArchitectureShare> architectureMix(const std::string& name);
std::vector<std::string> architectureMixNames();

// Sets the architecture and makes gpus / cpu_cores agree with it.
void applyArchitecture(Server& server, const ServerArchitecture& architecture);

// One server per topology server, named after its place (fat-tree "p03-e07-h1"), rack = its
// edge / ToR switch name; each pod's servers take the mix's architectures in order, counts by
// largest remainder. Throws std::invalid_argument on a bad spec or mix.
Cluster makeTopologyCluster(const std::string& name, const TopologySpec& spec,
                            const std::vector<ArchitectureShare>& mix, const std::string& gpu_type = "V100");

}  // namespace cl
