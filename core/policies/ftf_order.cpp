// Themis-like finish-time fairness (FTF), the baseline of the Muri paper's evaluation.
//
// What the papers say: Themis (Mahajan et al., NSDI 2020) gives each job the finish-time
// fairness rho = T_shared / T_ideal, the time it takes in the shared cluster over the time it
// would take with a 1/N share of the cluster, and auctions GPUs to the jobs with the largest
// rho in short leases. The Muri paper uses it as a duration-unaware baseline (section 6).
//
// What we decided: no auction and no leases; at every event jobs are ranked by rho, largest
// first (preemptive), with
//   T_shared = (now - submit) + remaining solo time,
//   T_ideal  = total solo time x max(1, GPUs wanted by all active jobs / GPUs in the cluster),
// so a job that has waited long relative to its size and the cluster's contention goes first.
// Like Themis it needs an estimate of the remaining time (Themis gets it from the
// hyper-parameter tuner); we use the job's remaining iterations.
#include <algorithm>

#include "core/policies/priority_order.h"

namespace cl {

namespace {

class FtfOrder : public KeyedOrder {
public:
    std::string name() const override { return "ftf"; }

protected:
    void prepare(const SchedulerInput& in) override {
        now_ = in.now;
        long long wanted = 0;
        for (const JobState& j : in.active) wanted += j.gpus;
        int total = in.cluster ? in.cluster->totalGpus() : 1;
        contention_ = std::max(1.0, static_cast<double>(wanted) / std::max(1, total));
    }
    double key(const JobState& j) const override {
        double ideal = j.totalTime() * contention_;
        double shared = (now_ - j.submit) + j.remainingTime();
        return ideal > 0 ? -(shared / ideal) : 0.0;
    }

private:
    double now_ = 0.0;
    double contention_ = 1.0;
};

}  // namespace

std::unique_ptr<PriorityOrder> makeFtfOrder() {
    return std::make_unique<FtfOrder>();
}

}  // namespace cl
