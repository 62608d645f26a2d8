#pragma once
// Non-preemptive task placement for jobs of workers and parameter servers (the multi-agent
// placement paper's Sec. VI-A baselines): Tetris, load balancing, least interference first and
// Kubernetes-like least-allocated, each choosing a server (the GPU group then drawn at random, as
// the paper's server-level variant) or a device (socket and GPU group chosen by the same score).
#include <string>
#include <vector>

#include "core/topology_placement/cluster_occupancy.h"
#include "core/util/portable_random.h"

namespace cl {

enum class PlacementPolicyKind { Tetris, LoadBalancing, LeastInterference, LeastAllocated };
enum class PlacementLevel { Server, Device };

struct PlacementPolicy {
    PlacementPolicyKind kind = PlacementPolicyKind::Tetris;
    PlacementLevel level = PlacementLevel::Server;
    std::string name() const;  // "tetris", "lb", "lif", "k8s", with "@device" at device level
    bool operator==(const PlacementPolicy&) const = default;
};

// The four policies at server level, then at device level.
std::vector<PlacementPolicy> allPlacementPolicies();
// "tetris", "lb" / "load-balancing", "lif" / "least-interference", "k8s" / "least-allocated",
// optionally followed by "@server" or "@device". Throws std::invalid_argument listing names.
PlacementPolicy placementPolicyFromName(const std::string& name);

// Tetris' bonus for a server that already holds a task of the job, or, for the job's first
// task, has room for all its workers (half for one in the same rack as the job): keeps a
// job's workers together, the locality Tetris is credited with in the paper.
inline constexpr double kTetrisSameServerBonus = 1.0;
inline constexpr double kTetrisSameRackBonus = 0.5;

struct TaskRequest {
    int job = -1;  // as in PlacedTask::job: the job's own tasks do not interfere with it
    bool worker = true;
    double cpu_cores = 0.0;
    double pcie_gbps = 0.0;
    int workers_left = 1;  // the job's workers not placed yet, this one included
};

// The best slot for the task among `servers` (in that order; ties keep the first), or an
// invalid slot when none fits. `job_servers` are the servers already holding the job's tasks.
DeviceSlot chooseSlot(const PlacementPolicy& policy, const ClusterOccupancy& occupancy,
                      const std::vector<int>& servers, const TaskRequest& task,
                      const std::vector<int>& job_servers, PortableRng& rng);

}  // namespace cl
