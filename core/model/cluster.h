#pragma once
// Cluster layout: servers with GPUs of a named type, CPU cores, memory and a NIC.
#include <map>
#include <string>
#include <vector>

#include "core/model/server_architecture.h"
#include "core/model/server_price.h"
#include "core/topology/topology_spec.h"

namespace cl {

struct Server {
    std::string name;
    std::string rack;  // optional grouping; empty when the layout has no racks
    std::string gpu_type = "V100";
    int gpus = 8;
    int cpu_cores = 24;
    double memory_gb = 500.0;
    double gpu_memory_gb = 32.0;
    double network_gbps = 100.0;
    ServerArchitecture architecture;  // not described = one socket, one GPU group
    // What the scheduler said about the server when it was imported (docs/architecture.md 8.7):
    // its state ("IDLE+DRAIN"; empty = not known) and whether it was down, drained, failing or
    // not responding. Only marks: the simulator uses the server like any other.
    std::string state;
    bool unavailable = false;
    // What the server costs (docs/architecture.md 7.8); never read by the simulator.
    ServerPrice price;
    // The partitions it belongs to (Slurm's Partitions= of a node; a server may be in several).
    std::vector<std::string> partitions;

    bool operator==(const Server&) const = default;
};

// A named set of servers that jobs ask for (Slurm's partition, docs/architecture.md 2.10): its
// members are the servers that list it. PriorityTier orders the main scheduler's partitions and
// weighs in multifactor priority; MaxTime caps (and, for a job without one, is) a job's limit.
struct Partition {
    std::string name;
    int priority_tier = 1;
    double max_time = 0.0;  // seconds; 0 = unlimited
    bool is_default = false;

    bool operator==(const Partition&) const = default;
};

struct Cluster {
    std::string name;
    std::vector<Server> servers;
    std::vector<Partition> partitions;  // empty = none described: every job may use every server
    // Flat = no network described. Otherwise servers[i] is topology server i.
    TopologySpec topology;

    int totalGpus() const;
    int totalCpuCores() const;
    double totalMemoryGb() const;
    int maxGpusPerServer() const;
    // First global GPU index of each server (size servers+1; last entry = totalGpus()).
    std::vector<int> gpuOffsets() const;
    std::map<std::string, int> gpusByType() const;
    std::vector<std::string> racks() const;                     // distinct, in first-seen order
    const Partition* partition(const std::string& name) const;  // nullptr when it has none of that name
};

// The cluster resized to n servers: the first n of its servers, then copies of its last one
// (named after it) — "what if we add 16 servers".
Cluster withServerCount(const Cluster& cluster, int servers);

}  // namespace cl
