#include "core/topology/topology_spec.h"

#include <stdexcept>

namespace cl {

std::string topologyKindName(TopologyKind kind) {
    switch (kind) {
        case TopologyKind::Flat:
            return "flat";
        case TopologyKind::FatTree:
            return "fat-tree";
        case TopologyKind::VL2:
            return "vl2";
        case TopologyKind::BCube:
            return "bcube";
    }
    return "flat";
}

TopologyKind topologyKindFromName(const std::string& name) {
    for (TopologyKind k : {TopologyKind::Flat, TopologyKind::FatTree, TopologyKind::VL2, TopologyKind::BCube})
        if (topologyKindName(k) == name) return k;
    throw std::invalid_argument("unknown topology kind '" + name + "' (valid: flat, fat-tree, vl2, bcube)");
}

TopologySpec fatTreeSpec(int k, std::vector<double> tier_gbps) {
    TopologySpec s;
    s.kind = TopologyKind::FatTree;
    s.k = k;
    s.tier_gbps = std::move(tier_gbps);
    return s;
}

TopologySpec vl2Spec(int d_a, int d_i, int servers_per_tor, std::vector<double> tier_gbps) {
    TopologySpec s;
    s.kind = TopologyKind::VL2;
    s.k = d_a;
    s.n = d_i;
    s.servers_per_tor = servers_per_tor;
    s.tier_gbps = std::move(tier_gbps);
    return s;
}

TopologySpec bcubeSpec(int n, int k, std::vector<double> tier_gbps) {
    TopologySpec s;
    s.kind = TopologyKind::BCube;
    s.n = n;
    s.k = k;
    s.tier_gbps = std::move(tier_gbps);
    return s;
}

}  // namespace cl
