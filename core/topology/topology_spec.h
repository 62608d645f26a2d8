#pragma once
// How a layout describes its network (docs/architecture.md section 6.1): the generator and its
// parameters. A plain value that the cluster model stores (core/model/cluster.h) and
// NetworkTopology builds its links from; it holds no routing code, so the value types of
// core/model reach no network algorithm.
#include <string>
#include <vector>

namespace cl {

enum class TopologyKind { Flat, FatTree, VL2, BCube };

// What a layout stores: the generator and its parameters, not the thousands of links.
struct TopologySpec {
    TopologyKind kind = TopologyKind::Flat;
    // Flat: k = the number of servers (one pod, no links). FatTree: k (even, >= 2). VL2: k = D_A (aggregation
    // switch ports, even), n = D_I (intermediate switch ports, even). BCube: k = levels above BCube_0, n =
    // switch ports.
    int k = 0;
    int n = 0;
    int servers_per_tor = 20;       // VL2 only
    std::vector<double> tier_gbps;  // index 0 = the links at servers, then upwards
    int servers_per_pod = 0;        // BCube only: 0 = two BCube_{k-1} units per pod

    bool operator==(const TopologySpec&) const = default;
};

std::string topologyKindName(TopologyKind kind);  // "flat", "fat-tree", "vl2", "bcube"
// Throws std::invalid_argument naming the valid kinds.
TopologyKind topologyKindFromName(const std::string& name);

// Paper defaults: fat-tree k=20 (2,000 servers, 500 switches, 10/20/40 Gbps); VL2 D_A=D_I=20,
// 20 servers per ToR (2,000 servers, 1/10/10 Gbps); BCube n=36, k=1 (1,296 servers, 18 pods of
// two BCube_0, 10/20 Gbps).
TopologySpec fatTreeSpec(int k = 20, std::vector<double> tier_gbps = {10, 20, 40});
TopologySpec vl2Spec(int d_a = 20, int d_i = 20, int servers_per_tor = 20,
                     std::vector<double> tier_gbps = {1, 10, 10});
TopologySpec bcubeSpec(int n = 36, int k = 1, std::vector<double> tier_gbps = {10, 20});

}  // namespace cl
