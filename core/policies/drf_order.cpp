// Dominant Resource Fairness as a priority order (Synergy, OSDI 2022, section 5.7).
//
// What the paper says: DRF (Ghodsi et al., NSDI 2011) offers resources to the user whose
// dominant share -- the largest, over resource types, of the fraction of the cluster's
// capacity the user holds -- is smallest; Synergy compares against DRF fed with each job's
// best-case CPU and memory demand from its profile.
//
// What we decided: every job is a user with one task whose demand is its GPUs and its
// best-case CPU and memory (core/policies/job_demand.h). The order ranks by the dominant
// share that task would hold, smaller first:
//   dominant share = max(gpus / G, cpus / C, memory / M)   over the cluster's totals.
// (A waiting one-task user holds nothing, so DRF's progressive filling would see every
// waiting job at share 0 and break the tie arbitrarily; ranking by the share after
// admission keeps DRF's preference for the user that ends up with the smaller dominant
// share.) The key depends only on the job, so ties (same demand shape) keep the previous
// order, i.e. arrival order. Preemptive like the other orders of round-based Synergy
// mechanisms: a newly arrived job with a smaller dominant share ranks before running ones;
// the mechanism decides what moves.
#include "core/policies/job_demand.h"
#include "core/policies/priority_order.h"

#include <algorithm>

namespace cl {

namespace {

class DrfOrder : public KeyedOrder {
public:
    std::string name() const override { return "drf"; }
    bool rankingChangesWithTime() const override { return false; }

protected:
    void prepare(const SchedulerInput& in) override { demands_.prepare(in); }
    double key(const JobState& j) const override {
        const DemandVector d = demands_.demand(j);
        const DemandVector& cap = demands_.capacity();
        double share = 0.0;
        if (cap.gpus > 0) share = std::max(share, d.gpus / cap.gpus);
        if (cap.cpus > 0) share = std::max(share, d.cpus / cap.cpus);
        if (cap.memory_gb > 0) share = std::max(share, d.memory_gb / cap.memory_gb);
        return share;
    }

private:
    JobDemands demands_;
};

}  // namespace

std::unique_ptr<PriorityOrder> makeDrfOrder() {
    return std::make_unique<DrfOrder>();
}

}  // namespace cl
