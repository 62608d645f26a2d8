#include "core/topology_placement/placement_policies.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cl {

std::string PlacementPolicy::name() const {
    std::string base;
    switch (kind) {
        case PlacementPolicyKind::Tetris:
            base = "tetris";
            break;
        case PlacementPolicyKind::LoadBalancing:
            base = "lb";
            break;
        case PlacementPolicyKind::LeastInterference:
            base = "lif";
            break;
        case PlacementPolicyKind::LeastAllocated:
            base = "k8s";
            break;
    }
    return level == PlacementLevel::Device ? base + "@device" : base;
}

std::vector<PlacementPolicy> allPlacementPolicies() {
    std::vector<PlacementPolicy> all;
    for (auto level : {PlacementLevel::Server, PlacementLevel::Device})
        for (auto kind : {PlacementPolicyKind::Tetris, PlacementPolicyKind::LoadBalancing,
                          PlacementPolicyKind::LeastInterference, PlacementPolicyKind::LeastAllocated})
            all.push_back({kind, level});
    return all;
}

PlacementPolicy placementPolicyFromName(const std::string& text) {
    PlacementPolicy p;
    std::string base = text;
    if (const auto at = text.find('@'); at != std::string::npos) {
        base = text.substr(0, at);
        const std::string level = text.substr(at + 1);
        if (level == "device")
            p.level = PlacementLevel::Device;
        else if (level != "server")
            throw std::invalid_argument("unknown placement level '" + level + "' in '" + text +
                                        "' (valid: server, device)");
    }
    if (base == "tetris")
        p.kind = PlacementPolicyKind::Tetris;
    else if (base == "lb" || base == "load-balancing")
        p.kind = PlacementPolicyKind::LoadBalancing;
    else if (base == "lif" || base == "least-interference")
        p.kind = PlacementPolicyKind::LeastInterference;
    else if (base == "k8s" || base == "least-allocated")
        p.kind = PlacementPolicyKind::LeastAllocated;
    else
        throw std::invalid_argument("unknown placement policy '" + text +
                                    "' (valid: tetris, lb, lif, k8s, each optionally @server or @device)");
    return p;
}

namespace {

// Used and total GPUs, logical cores and PCIe of what a candidate offers: the whole server
// at server level, its socket and GPU group at device level.
struct Capacity {
    double gpu_used, gpu_cap, cpu_used, cpu_cap, pcie_used, pcie_cap;
};

Capacity capacityOf(const ClusterOccupancy& o, const DeviceSlot& slot, PlacementLevel level) {
    const int s = slot.server;
    if (level == PlacementLevel::Server || slot.socket < 0)
        return {double(o.serverGpus(s) - o.freeGpus(s)),
                double(std::max(o.serverGpus(s), 1)),
                o.serverCpu(s),
                o.cpuCapacity(s),
                o.serverPcie(s),
                o.serverPcieCapacity(s)};
    Capacity c{0, 1, o.socketCpu(slot.socket), o.socketCpuCapacity(slot.socket), 0, 1};
    if (slot.group >= 0) {
        c.gpu_used = o.groupGpus(slot.group) - o.groupFreeGpus(slot.group);
        c.gpu_cap = std::max(o.groupGpus(slot.group), 1);
        c.pcie_used = o.groupPcie(slot.group);
        c.pcie_cap = o.groupPcieCapacity(slot.group);
    }
    return c;
}

class SlotScorer {
public:
    SlotScorer(const PlacementPolicy& p, const ClusterOccupancy& o, const TaskRequest& t,
               const std::vector<int>& js)
        : policy_(p), o_(o), task_(t), job_servers_(js) {}

    // Higher is better.
    double score(const DeviceSlot& slot) const {
        const Capacity c = capacityOf(o_, slot, policy_.level);
        const double d_gpu = task_.worker ? 1.0 : 0.0;
        switch (policy_.kind) {
            case PlacementPolicyKind::Tetris: {
                // Dot product of the demand with the load after placing it: fuller places win
                // (packing), as the paper describes Tetris, plus the locality bonus.
                double s = d_gpu / c.gpu_cap * (c.gpu_used + d_gpu) / c.gpu_cap +
                           task_.cpu_cores / c.cpu_cap * (c.cpu_used + task_.cpu_cores) / c.cpu_cap +
                           task_.pcie_gbps / c.pcie_cap * (c.pcie_used + task_.pcie_gbps) / c.pcie_cap;
                return s + locality(slot.server);
            }
            case PlacementPolicyKind::LoadBalancing:
                // Least normalized load, summed over the resource types (seed Sec. VI-A).
                return -(c.gpu_used / c.gpu_cap + c.cpu_used / c.cpu_cap + c.pcie_used / c.pcie_cap);
            case PlacementPolicyKind::LeastInterference: {
                const PlacedTask extra{task_.job, slot, task_.worker, task_.cpu_cores, task_.pcie_gbps};
                return -o_.serverInterference(slot.server, &extra);
            }
            case PlacementPolicyKind::LeastAllocated:
                // Kubernetes' LeastAllocated score: mean free fraction after placing, over CPU
                // and (in place of memory) GPUs.
                return ((c.cpu_cap - c.cpu_used - task_.cpu_cores) / c.cpu_cap +
                        (c.gpu_cap - c.gpu_used - d_gpu) / c.gpu_cap) /
                       2.0;
        }
        return 0.0;
    }

private:
    double locality(int server) const {
        if (job_servers_.empty())
            return task_.worker && o_.freeGpus(server) >= task_.workers_left ? kTetrisSameServerBonus : 0.0;
        double bonus = 0;
        for (int s : job_servers_) {
            if (s == server) return kTetrisSameServerBonus;
            if (o_.rackOf(s) == o_.rackOf(server)) bonus = kTetrisSameRackBonus;
        }
        return bonus;
    }

    const PlacementPolicy& policy_;
    const ClusterOccupancy& o_;
    const TaskRequest& task_;
    const std::vector<int>& job_servers_;
};

// The paper's server-level variant: a random GPU group with a free GPU (a random socket for a
// parameter server).
DeviceSlot randomDevice(const ClusterOccupancy& o, int server, const TaskRequest& t, PortableRng& rng) {
    if (!t.worker) {
        const int n = o.socketEnd(server) - o.socketBegin(server);
        return {server, o.socketBegin(server) + static_cast<int>(rng.below(static_cast<std::uint64_t>(n))),
                -1};
    }
    int free_groups = 0;
    for (int g = o.groupBegin(server); g < o.groupEnd(server); ++g) free_groups += o.groupFreeGpus(g) > 0;
    auto pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(free_groups)));
    for (int g = o.groupBegin(server); g < o.groupEnd(server); ++g)
        if (o.groupFreeGpus(g) > 0 && pick-- == 0) return {server, o.groupSocket(g), g};
    return {};
}

bool serverCanHost(const ClusterOccupancy& o, int s, const TaskRequest& t) {
    if (o.serverCpu(s) + t.cpu_cores > o.cpuCapacity(s) + 1e-9) return false;
    return !t.worker || o.freeGpus(s) > 0;
}

}  // namespace

DeviceSlot chooseSlot(const PlacementPolicy& policy, const ClusterOccupancy& o,
                      const std::vector<int>& servers, const TaskRequest& task,
                      const std::vector<int>& job_servers, PortableRng& rng) {
    const SlotScorer scorer(policy, o, task, job_servers);
    DeviceSlot best;
    double best_score = -std::numeric_limits<double>::infinity();
    auto consider = [&](const DeviceSlot& slot) {
        const double s = scorer.score(slot);
        if (s > best_score) {
            best_score = s;
            best = slot;
        }
    };
    for (int server : servers) {
        if (!serverCanHost(o, server, task)) continue;
        if (policy.level == PlacementLevel::Server) {
            if (policy.kind == PlacementPolicyKind::LeastInterference) {
                // The interference depends on the device, which is drawn first.
                consider(randomDevice(o, server, task, rng));
            } else {
                consider({server, -1, -1});
            }
        } else if (task.worker) {
            for (int g = o.groupBegin(server); g < o.groupEnd(server); ++g)
                if (o.groupFreeGpus(g) > 0) consider({server, o.groupSocket(g), g});
        } else {
            for (int k = o.socketBegin(server); k < o.socketEnd(server); ++k) consider({server, k, -1});
        }
    }
    if (best.valid() && best.socket < 0) best = randomDevice(o, best.server, task, rng);
    return best;
}

}  // namespace cl
