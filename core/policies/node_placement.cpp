#include "core/policies/node_placement.h"

#include <algorithm>
#include <numeric>

namespace cl {

bool placeOnServers(int gpus, int nodes, std::span<const int> avail, std::span<const int> servers,
                    std::vector<ServerTake>& takes, std::vector<int>& order, std::span<const int> node_of) {
    takes.clear();
    const std::size_t n = avail.size();
    if (nodes <= 1) {
        // The fullest node that fits; on a node of several servers (one per GPU type, section
        // 8.7) its first server that fits, as Slurm gives GPUs in index order within a node.
        std::size_t best = n;
        int best_free = 0;
        for (std::size_t i = 0; i < n;) {
            std::size_t end = i + 1;
            int node_free = avail[i];
            if (!node_of.empty())
                for (const int node = node_of[static_cast<std::size_t>(servers[i])];
                     end < n && node_of[static_cast<std::size_t>(servers[end])] == node; ++end)
                    node_free += avail[end];
            for (std::size_t k = i; k < end; ++k)
                if (avail[k] >= gpus) {
                    if (best == n || node_free < best_free) {
                        best = k;
                        best_free = node_free;
                    }
                    break;
                }
            i = end;
        }
        if (best < n) {
            takes.push_back({servers[best], gpus});
            return true;
        }
        if (nodes == 1) return false;
    }
    order.clear();
    long long total = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (avail[i] > 0) {
            order.push_back(static_cast<int>(i));
            total += avail[i];
        }
    // The fill below succeeds exactly when the GPUs add up: most tries of a backfill pass fail,
    // and this answers them without sorting (docs/architecture.md 2.9).
    if (nodes <= 0 && total < gpus) return false;
    if (nodes > 1 && (static_cast<int>(order.size()) < nodes || gpus < nodes)) return false;
    // Emptiest first, ties by index (any stable sort gives this order): by insertion for the few
    // dozen servers of a partition, without std::stable_sort's buffer.
    const auto emptier = [&](int a, int b) {
        return avail[static_cast<std::size_t>(a)] > avail[static_cast<std::size_t>(b)];
    };
    if (order.size() > 64) {
        std::stable_sort(order.begin(), order.end(), emptier);
    } else {
        for (std::size_t k = 1; k < order.size(); ++k) {
            const int v = order[k];
            std::size_t m = k;
            for (; m > 0 && emptier(v, order[m - 1]); --m) order[m] = order[m - 1];
            order[m] = v;
        }
    }
    if (nodes > 1) {
        order.resize(static_cast<std::size_t>(nodes));
        int left = gpus - nodes;  // one GPU on each first
        for (int i : order) {
            const int more = std::min(left, avail[static_cast<std::size_t>(i)] - 1);
            takes.push_back({servers[static_cast<std::size_t>(i)], 1 + more});
            left -= more;
        }
        if (left != 0) takes.clear();
        return left == 0;
    }
    int left = gpus;
    for (int i : order) {
        if (left == 0) break;
        const int taken = std::min(left, avail[static_cast<std::size_t>(i)]);
        takes.push_back({servers[static_cast<std::size_t>(i)], taken});
        left -= taken;
    }
    if (left != 0) takes.clear();
    return left == 0;
}

bool placeOnNodes(int gpus, int nodes, GpuPool& pool, std::vector<int>& out) {
    std::vector<int> avail(static_cast<std::size_t>(pool.servers()));
    for (int s = 0; s < pool.servers(); ++s) avail[static_cast<std::size_t>(s)] = pool.serverFree(s);
    std::vector<int> servers(avail.size());
    std::iota(servers.begin(), servers.end(), 0);
    std::vector<ServerTake> takes;
    std::vector<int> order;
    if (!placeOnServers(gpus, nodes, avail, servers, takes, order)) return false;
    for (const ServerTake& t : takes) pool.takeOnServer(t.server, t.gpus, out);
    return true;
}

bool placeJob(const Placement& placement, int gpus, int nodes, GpuPool& pool, std::vector<int>& out) {
    if (nodes <= 0) return placement.place(gpus, pool, out);
    return placeOnNodes(gpus, nodes, pool, out);
}

}  // namespace cl
