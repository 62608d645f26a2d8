#pragma once
// Data-centre networks of the multi-agent placement paper (Sec. VI-A, VI-D; docs/architecture.md
// section 6.1): fat-tree(k), VL2 and BCube, with one bandwidth per link tier. Servers are nodes
// [0, serverCount()) in the cluster's server order; switches follow. Routes are deterministic,
// so a placement always loads the same links.
#include <string>
#include <vector>

#include "core/topology/topology_spec.h"

namespace cl {

struct NetworkNode {
    std::string name;
    int tier = 0;  // 0 = server, 1 = edge / ToR / BCube level-0 switch, ...
    int pod = -1;  // the partition one scheduler manages; -1 for switches above pods
};

struct NetworkLink {
    int a = 0;     // lower node
    int b = 0;     // upper node
    int tier = 0;  // index into tier_gbps
    double gbps = 0.0;
};

class NetworkTopology {
public:
    NetworkTopology() = default;
    // Throws std::invalid_argument with a message naming the bad parameter.
    static NetworkTopology build(const TopologySpec& spec);
    // The number of servers `spec` generates (throws like build()).
    static int serverCount(const TopologySpec& spec);

    const TopologySpec& spec() const { return spec_; }
    int serverCount() const { return servers_; }
    int switchCount() const { return static_cast<int>(nodes_.size()) - servers_; }
    int switchCount(int tier) const;
    int tierCount() const { return static_cast<int>(spec_.tier_gbps.size()); }
    int podCount() const { return pods_; }
    int podOf(int server) const { return nodes_[static_cast<std::size_t>(server)].pod; }
    std::vector<int> serversOfPod(int pod) const;
    const std::vector<NetworkNode>& nodes() const { return nodes_; }
    const std::vector<NetworkLink>& links() const { return links_; }

    // Link indices of the route from server a to server b, appended to `out` (nothing when
    // a == b). Equal-cost choices are made by a fixed hash of (a, b).
    void appendPath(int a, int b, std::vector<int>& out) const;
    std::vector<int> path(int a, int b) const;
    // Smallest link bandwidth on that route; +infinity when a == b.
    double bottleneckGbps(int a, int b) const;

private:
    TopologySpec spec_;
    int servers_ = 0;
    int pods_ = 0;
    std::vector<NetworkNode> nodes_;
    std::vector<NetworkLink> links_;
    friend struct TopologyBuilder;
};

}  // namespace cl
