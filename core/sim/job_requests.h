#pragma once
// What each job of a trace asked the scheduler for, resolved against the cluster it runs on
// (docs/architecture.md 2.10): the servers it may use (those of its partitions, with its GPU
// type), its partition (for priorities), its time limit (its own, capped by its partition's
// MaxTime, or that MaxTime when it has none) and whether it can ever fit.
#include <span>
#include <string>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/trace.h"

namespace cl {

class JobRequests {
public:
    // Throws SimulationError naming the job and the partition when a job asks for a partition the
    // cluster does not describe (a cluster without partitions ignores them). Servers marked
    // unavailable (Server::unavailable) are excluded for every job unless keep_unavailable.
    JobRequests(const Cluster& cluster, const Trace& trace, bool keep_unavailable = false);

    // Whether some job is limited to some servers.
    bool anyConstrained() const { return !masks_.empty(); }
    // Whether some job asks for a number of nodes (servers).
    bool anyNodeCount() const { return any_node_count_; }
    // Whether the job is limited to some servers.
    bool constrained(int job) const { return mask_of_[static_cast<std::size_t>(job)] >= 0; }
    // One mark per server, 1 = the job may not use it; empty when it may use every server.
    std::span<const char> excludedServers(int job) const;
    int partitionOf(int job) const { return partition_of_[static_cast<std::size_t>(job)]; }
    double timeLimit(int job) const { return time_limit_[static_cast<std::size_t>(job)]; }
    // Why the job can never run on this cluster (more GPUs than its servers hold, fewer servers
    // than its node count); empty when it can.
    std::string neverFits(int job) const;
    // Why GPUs (sorted) break the job's request; empty when they keep it.
    std::string violation(int job, std::span<const int> gpus) const;

private:
    std::string describe(int job) const;  // "its partitions 'a,b' with GPU type 'A100'"

    const Cluster& cluster_;
    const Trace& trace_;
    std::vector<int> server_of_gpu_;
    std::vector<std::vector<char>> masks_;  // distinct exclusion masks
    bool any_node_count_ = false;
    std::vector<int> mask_of_;        // per job: index into masks_, -1 = every server
    std::vector<int> partition_of_;   // per job: its first partition, -1 = none
    std::vector<double> time_limit_;  // per job, seconds, 0 = none
    // Per request (index mask + 1; 0 = every server): the allowed servers' GPU counts, largest
    // first, and their sum.
    std::vector<std::vector<int>> allowed_sizes_;
    std::vector<int> allowed_gpus_;
    int unavailable_servers_ = 0;  // servers excluded for every job (down, drained, failing)
};

}  // namespace cl
