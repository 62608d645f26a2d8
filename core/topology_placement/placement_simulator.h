#pragma once
// A non-preemptive simulation of data-parallel jobs placed by per-pod schedulers on a
// topology (multi-agent placement paper, Sec. VI-A): one scheduler per pod places the jobs that
// arrived in each 30-minute interval, forwarding a job to the next pod when its own has no room;
// a placed job runs to completion. One step of a job = the slowest worker's compute time x its
// interference slowdown + its gradient exchange / the bottleneck bandwidth of its flows,
// where each direction of a network link is shared equally by the flows crossing it that way.
#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/interference/interference_model.h"
#include "core/model/cluster.h"
#include "core/topology/network_topology.h"
#include "core/topology_placement/distributed_models.h"
#include "core/topology_placement/distributed_workload.h"
#include "core/topology_placement/placement_policies.h"

namespace cl {

struct PlacementSimOptions {
    PlacementPolicy policy;
    double interval_seconds = 1800.0;  // the paper's scheduling interval
    InterferenceCoefficients interference = defaultInterferenceCoefficients();
    std::uint64_t seed = 1;  // server-level device draws
    // Polled between events: when it turns true the run stops with PlacementCancelled.
    const std::atomic<bool>* cancel = nullptr;
    // Called now and then with the share of jobs finished (0..1), on the simulating thread.
    std::function<void(double)> progress;
};

struct PlacementCancelled : std::runtime_error {
    PlacementCancelled() : std::runtime_error("placement simulation cancelled") {}
};

struct PlacedJobRecord {
    int id = 0;
    double submit = 0.0;
    double start = -1.0;
    double end = -1.0;
    int pod_submitted = 0;
    int pod_placed = -1;
    int forwards = 0;            // pods it was passed on to before one placed it
    int servers = 0;             // distinct servers its tasks run on
    double alone_seconds = 0.0;  // steps x step time: no interference, no communication
    double jct() const { return end - submit; }
    // Running time over the running time alone on dedicated GPUs without communication.
    double slowdown() const { return alone_seconds > 0 ? (end - start) / alone_seconds : 1.0; }
};

struct PlacementRunResult {
    std::string policy;
    std::vector<PlacedJobRecord> jobs;  // in input order
    double average_jct = 0.0;           // seconds
    double average_slowdown = 0.0;
    double makespan = 0.0;  // last end - first submit
    // Time-averaged load / capacity of each tier's links over the makespan (0..1), both
    // directions of a link counted (capacity = 2 x bandwidth per link).
    std::vector<double> tier_utilization;
    int forwarded_jobs = 0;
    int multi_server_jobs = 0;
    std::size_t events = 0;
};

// Throws std::invalid_argument when the cluster and topology disagree, a job names an unknown
// model or needs more GPUs than any pod has, and std::runtime_error if the jobs left can never
// be placed.
PlacementRunResult simulatePlacement(const Cluster& cluster, const NetworkTopology& topology,
                                     const std::vector<DistributedJob>& jobs,
                                     const std::vector<DistributedModelType>& models,
                                     const PlacementSimOptions& options);

}  // namespace cl
