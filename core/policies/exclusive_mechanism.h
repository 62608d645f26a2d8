#pragma once
// The exclusive mechanism: every job gets its GPUs to itself. Jobs are admitted in priority
// order; a job that does not fit is skipped and later ones are still tried (backfill).
#include <memory>

#include "core/policies/gpu_pool.h"
#include "core/policies/placement.h"
#include "core/policies/priority_order.h"
#include "core/policies/scheduler.h"

namespace cl {

struct ExclusiveOptions {
    // Running jobs keep their GPUs when they stay admitted (clean conventions); otherwise the
    // placement is recomputed from an empty cluster at every event (muri-artifact).
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
    // Packs the ranked jobs into an empty cluster; returns the admitted assignments.
    std::vector<Assignment> packFresh(const SchedulerInput& in);
    // Keeps `kept` jobs where they run and places `fresh` on the remaining free GPUs;
    // false if one of them does not fit.
    bool packSticky(const SchedulerInput& in, const std::vector<int>& kept, const std::vector<int>& fresh,
                    std::vector<Assignment>& out, bool skip_unfit);

    std::string name_;
    std::unique_ptr<PriorityOrder> order_;
    std::unique_ptr<Placement> placement_;
    ExclusiveOptions options_;
    std::unique_ptr<GpuPool> pool_;
    const Cluster* pool_cluster_ = nullptr;
    std::vector<int> ranked_;
};

}  // namespace cl
