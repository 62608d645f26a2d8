#pragma once
// The exclusive mechanism: every job gets its GPUs to itself. Jobs are admitted in priority
// order; a job that does not fit is skipped and later ones are still tried (backfill).
//
// With keep_running_in_place (clean conventions) running jobs keep their GPUs:
//  1. if every waiting job fits on the free GPUs next to the running ones, all of them run
//     (nothing is preempted when nobody has to wait);
//  2. otherwise the admitted set is what packing the ranked jobs into an empty cluster
//     admits; running jobs outside it are preempted, and the newcomers are placed around
//     the running ones; only if one of them cannot fit that way do jobs move to the packed
//     placement (and pay the restart overhead).
// Without it (muri-artifact) the placement is recomputed from an empty cluster at every event.
// Non-preemptive orders never stop a running job: waiting jobs fill the free GPUs in order.
#include <memory>

#include "core/policies/gpu_pool.h"
#include "core/policies/placement.h"
#include "core/policies/priority_order.h"
#include "core/sim/scheduler.h"

namespace cl {

struct ExclusiveOptions {
    bool keep_running_in_place = true;
};

class ExclusiveScheduler : public Scheduler {
public:
    ExclusiveScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                       std::unique_ptr<Placement> placement, ExclusiveOptions options);
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& input) override;

private:
    void ensurePool(const Cluster& cluster);
    // Packs `jobs` (in order) into an empty cluster; the admitted ones are returned.
    std::vector<Assignment> packFresh(const SchedulerInput& in, const std::vector<int>& jobs);
    // The same walk, either collecting the placements or (placed == nullptr) only the admitted jobs.
    void packFresh(const SchedulerInput& in, const std::vector<int>& jobs, std::vector<Assignment>* placed,
                   std::vector<int>* admitted);
    // Running jobs of `jobs` keep their GPUs, the others are placed around them in order.
    // With skip_unfit, jobs that do not fit wait; otherwise returns false at the first one.
    // all_running: `jobs` holds every running job (the pool then starts from occupied_).
    bool packAround(const SchedulerInput& in, const std::vector<int>& jobs, Decision& d, bool skip_unfit,
                    bool all_running);
    // Places one job on the servers its request allows (JobState::excluded_servers).
    bool place(const JobState& job, std::vector<int>& out);
    void forgetCompleted(const SchedulerInput& in);
    void noteDecision(const SchedulerInput& in, const Decision& d);
    Decision decide(const SchedulerInput& in);
    void keepHeldGpusWithinServers(const SchedulerInput& in, std::vector<Assignment>& plan);

    std::string name_;
    std::unique_ptr<PriorityOrder> order_;
    std::unique_ptr<Placement> placement_;
    ExclusiveOptions options_;
    std::unique_ptr<GpuPool> pool_;
    std::unique_ptr<GpuPool> occupied_;      // GPUs held by running jobs (after the last decision)
    std::vector<std::vector<int>> held_of_;  // per job index: the GPUs its last start gave it
    std::vector<char> kept_;                 // scratch marks per job index
    // keepHeldGpusWithinServers scratch: (server, plan index, GPUs there) per job and server.
    struct Entry {
        int server = 0;
        int plan = 0;
        int count = 0;
    };
    std::vector<Entry> entries_, by_server_;
    std::vector<int> server_count_, server_begin_, fill_, touched_;
    std::vector<char> taken_;
    const Cluster* pool_cluster_ = nullptr;
    FreeCounts counts_;           // the admission walk's pool when the placement allows it
    bool counts_decide_ = false;  // equal servers and a placement that decides by free counts
    std::vector<int> ranked_;
    std::vector<int> suffix_min_;
    std::vector<int> demand_;  // packFresh: GPUs of each job of the walk
    std::vector<int> admitted_;
    std::vector<int> scratch_gpus_;
    std::size_t running_ = 0;  // running jobs at this event, counted by decide()
};

}  // namespace cl
