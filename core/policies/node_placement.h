#pragma once
// Placing a job on a number of servers: its node count (docs/architecture.md 2.10), which every
// policy keeps. The backfill mechanisms place every job this way; the other mechanisms use their
// placement's choice for a job without a node count (placeJob).
#include <span>
#include <vector>

#include "core/policies/gpu_pool.h"
#include "core/policies/placement.h"

namespace cl {

// GPUs per server of one placement.
struct ServerTake {
    int server = 0;
    int gpus = 0;
};

// The servers and GPU counts a job of `gpus` GPUs on `nodes` servers (0 = any) takes given the
// GPUs available per server (0 for a server it may not use): one server, the fullest that fits
// (ties to the lower index), else (nodes 0) the emptiest servers first, as few as possible; with
// nodes > 1 the `nodes` emptiest servers, one GPU each first. Empty when it does not fit.
// avail[i] GPUs on servers[i] (ascending), into `takes` (cleared; empty when it does not fit,
// then false). `order` is a buffer.
// node_of: per server index, its node's first server (servers of one Slurm node with GPUs of
// several types, docs/architecture.md 8.7); empty = every server a node of its own.
bool placeOnServers(int gpus, int nodes, std::span<const int> avail, std::span<const int> servers,
                    std::vector<ServerTake>& takes, std::vector<int>& order,
                    std::span<const int> node_of = {});

// Takes `gpus` GPUs of the pool (as restricted) on exactly `nodes` servers, as placeOnServers
// chooses them; false, the pool unchanged, when they do not fit.
bool placeOnNodes(int gpus, int nodes, GpuPool& pool, std::vector<int>& out);
// The placement's choice for a job without a node count (nodes <= 0), else placeOnNodes.
bool placeJob(const Placement& placement, int gpus, int nodes, GpuPool& pool, std::vector<int>& out);

}  // namespace cl
