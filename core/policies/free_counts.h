#pragma once
// How many servers have each number of free GPUs, for a cluster whose servers all have the same
// number of GPUs. Placements that choose a server by its free count alone decide from this
// whether jobs fit (Placement::admit), without telling the servers apart: the admission walk of
// the exclusive mechanism asks that for every ranked job at every event (docs/architecture.md
// section 2.9).
#include <algorithm>
#include <vector>

#include "core/model/cluster.h"

namespace cl {

struct FreeCounts {
    int capacity = 0;               // GPUs per server
    int servers = 0;                // servers in the cluster
    int total_free = 0;             // free GPUs in all
    std::vector<int> servers_with;  // [f]: servers with f free GPUs, f = 0..capacity

    // The cluster's servers all free; false (and nothing to use) when their sizes differ.
    bool assign(const Cluster& cluster) {
        servers = static_cast<int>(cluster.servers.size());
        capacity = servers > 0 ? cluster.servers.front().gpus : 0;
        const bool uniform = std::all_of(cluster.servers.begin(), cluster.servers.end(),
                                         [&](const Server& s) { return s.gpus == capacity; });
        if (!uniform || capacity <= 0) return false;
        servers_with.assign(capacity + 1, 0);
        reset();
        return true;
    }
    void reset() {
        std::fill(servers_with.begin(), servers_with.end(), 0);
        servers_with[capacity] = servers;
        total_free = servers * capacity;
    }
};

}  // namespace cl
