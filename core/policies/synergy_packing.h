#pragma once
// Packing a round's runnable jobs onto servers along GPUs, CPU cores and DRAM (Synergy,
// Mohan et al., OSDI 2022, sections 3.3 and 4.2; docs/architecture.md section 4.6). Pure
// bookkeeping: the mechanism (synergy_mechanism.h) decides who runs and what each job asks for;
// this file decides where it goes and what it gets.
//
// A job gets its CPU and memory per GPU, the same on every server it spans (its processes
// train in lock step: section 4.2, "allocations must be proportional to GPU allocations across
// servers"). Two kinds of grant:
//  - its ask (best-case demand, or OPT's choice): ask.cpus / ask.memory_gb per GPU;
//  - its GPU-proportional share: on each server, that server's cores / GPUs and GB / GPUs per
//    GPU, but never more than its fair_cap (a language model asking for 1 core keeps 1 core;
//    the authors' simulator does the same). Only the proportional baseline hands out the full
//    share regardless. Proportional shares of all jobs on a server always fit together, so a job whose GPUs
//    fit can always run at least at proportional share (after peers above it are reverted).
#include <limits>
#include <span>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/sensitivity.h"

namespace cl {

enum class Grant { None, Ask, Proportional };

struct PackJob {
    int job = 0;  // trace index
    int gpus = 1;
    AuxShare ask;  // per GPU
    // Proportional share never exceeds this per GPU (a job that asks for less than its share
    // keeps what it asks for); infinite = the full share.
    AuxShare fair_cap{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    std::span<const int> pinned;  // GPUs it must keep (a running job renewing its lease); empty = free choice
    // Servers it may not use (JobState::excluded_servers, docs/architecture.md 2.10: its
    // partitions and GPU type); empty = every server. The packing never chooses one of them.
    std::span<const char> excluded;
    // Servers it runs on (JobState::nodes, docs/architecture.md 2.10); 0 = as few as it fits.
    int nodes = 0;
    // Lesser points worth taking when the ask fits nowhere (clean TUNE), best first; each does
    // better than proportional share. Empty = none.
    std::span<const SensitivityMatrix::Point> lesser;
    // Results.
    Grant grant = Grant::None;
    std::vector<int> gpu_ids;                // sorted
    std::vector<std::pair<int, int>> parts;  // (server, GPUs there)
    AuxShare per_gpu;   // what it got per GPU (the smallest over its servers for Proportional)
    double cpus = 0.0;  // totals over its servers
    double memory_gb = 0.0;
    bool capped = false;  // got less than its ask (Proportional while asking for more)
};

struct PackingOptions {
    // Server choice for a job that fits on one server: the one with the least free resources
    // that still fits (best fit, TUNE) or the lowest-indexed one (first fit, GREEDY).
    bool first_fit = false;
    // On failure fall back to proportional share, then revert peers above proportional (TUNE);
    // without it a job whose ask does not fit waits (GREEDY skips it).
    bool fall_back = true;
    // Proportional only (the GPU-proportional baseline): every job gets proportional share.
    bool proportional_only = false;
    // Which peers give back resources when a job only fits by reverting them (TUNE step 2):
    //  clean: repeatedly the peer whose excess over proportional covers most of what is missing;
    //  artifact (the authors' simulator): the peers by most cores per GPU, then most memory per
    //    GPU, each reverted in turn (even one whose excess is in the other resource) until their
    //    excess covers what is missing.
    bool artifact_revert = false;
    // Clean TUNE, between its steps 1 and 2 (the paper is silent on asks that no server can
    // hold, e.g. 4 ResNet-18 GPUs asking 36 of a server's 24 cores): the best of the job's
    // lesser points that fits on one server while every other free GPU there keeps at least
    // `reserve` per GPU (the smallest profiled allocation) for the jobs still to come.
    bool take_lesser_points = false;
    AuxShare reserve;
    // The authors' OPT: jobs get their asks wherever their GPUs are, CPU and memory are not
    // checked per server (the ILP already kept the cluster's totals): an upper bound.
    bool ignore_aux_capacity = false;
    // Clean TUNE: a running job whose ask does not fit where it runs moves to a server that
    // holds all of it, if one does.
    bool move_for_ask = false;
};

class AuxLedger {
public:
    explicit AuxLedger(const Cluster& cluster);
    void reset();
    // Packs the jobs in the given order; every job's results are filled in (grant None = waits).
    void pack(std::span<PackJob> jobs, const PackingOptions& options);

    int servers() const { return static_cast<int>(gpus_.size()); }
    double freeCpus(int s) const { return free_cpus_[s]; }
    double freeMemory(int s) const { return free_memory_[s]; }
    int freeGpus(int s) const { return free_gpus_[s]; }
    int serverOf(int gpu) const { return server_of_[gpu]; }
    AuxShare proportional(int s) const { return {cpus_[s] / gpus_[s], memory_[s] / gpus_[s]}; }

private:
    bool placePinned(PackJob& job, const PackingOptions& o);
    bool placeFree(PackJob& job, const PackingOptions& o);
    bool placeLesser(PackJob& job, const PackingOptions& o);
    // Servers for the job's GPUs that can also give it what `grant` means (None = GPUs only).
    bool chooseServers(const PackJob& job, Grant grant, bool first_fit,
                       std::vector<std::pair<int, int>>& parts, bool one_server_only = false) const;
    AuxShare shareOf(const PackJob& job, Grant grant, int s) const;
    static bool mayUse(const PackJob& job, int s) { return job.excluded.empty() || !job.excluded[s]; }
    bool fits(int s, const PackJob& job, Grant grant) const;
    void take(PackJob& job, Grant grant, bool take_gpus);
    void release(PackJob& job);  // its CPU and memory only
    // Makes room for what `job`'s grant means on its servers by reverting peers holding more
    // than proportional to proportional; false when even that is not enough.
    bool revertPeersFor(const PackJob& job, bool artifact_order);
    void revertToProportional(PackJob& peer);
    void setReserved(std::span<const int> gpus, bool reserved);

    std::vector<int> gpus_, first_gpu_, free_gpus_;
    std::vector<double> cpus_, memory_, free_cpus_, free_memory_;
    std::vector<char> busy_;
    std::vector<int> server_of_;
    std::vector<std::vector<PackJob*>> on_server_;
    int total_free_gpus_ = 0;
    bool proportional_only_ = false;
};

}  // namespace cl
