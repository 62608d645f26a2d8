#pragma once
// AntMan-like FIFO GPU sharing, a baseline of the Muri paper's evaluation.
//
// What the papers say: AntMan (Xiao et al., OSDI 2020) runs resource-guaranteed jobs and
// packs opportunistic jobs onto the spare GPU memory and cycles of busy GPUs, scaling them
// down so that guaranteed jobs keep their speed; the Muri paper notes that it schedules in
// FIFO order and is non-preemptive (section 6.2).
//
// What we decided (AntMan's scheduler is not open source):
//  - jobs are taken in FIFO order (backfilling) and never preempted;
//  - a job that finds enough idle GPUs gets them and is guaranteed;
//  - otherwise it may run opportunistically on GPUs each held by exactly one guaranteed job
//    (at most two jobs per GPU), at kOpportunisticSlowdown times its solo iteration time,
//    while the guaranteed job keeps its full speed;
//  - an opportunistic job whose partners have all finished becomes guaranteed (full speed).
//  - a job that asked for partitions or a GPU type (docs/architecture.md 2.10) takes idle or
//    shareable GPUs only on its servers.
#include <memory>
#include <vector>

#include "core/policies/gpu_pool.h"
#include "core/policies/placement.h"
#include "core/policies/priority_order.h"
#include "core/sim/scheduler.h"

namespace cl {

class AntmanScheduler : public Scheduler {
public:
    static constexpr double kOpportunisticSlowdown = 2.0;

    AntmanScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                    std::unique_ptr<Placement> placement);
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& input) override;
    int maxJobsPerGpu() const override { return 2; }

private:
    std::string name_;
    std::unique_ptr<PriorityOrder> order_;
    std::unique_ptr<Placement> placement_;
    std::unique_ptr<GpuPool> idle_;
    std::unique_ptr<GpuPool> shareable_;
    const Cluster* cluster_ = nullptr;
    std::vector<char> opportunistic_;  // per job index
    std::vector<int> ranked_;
};

}  // namespace cl
