#include "core/policies/exclusive_mechanism.h"

#include <algorithm>

namespace cl {

ExclusiveScheduler::ExclusiveScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                       std::unique_ptr<Placement> placement, ExclusiveOptions options)
    : name_(std::move(name)), order_(std::move(order)), placement_(std::move(placement)), options_(options) {}

void ExclusiveScheduler::ensurePool(const Cluster& cluster) {
    if (pool_ && pool_cluster_ == &cluster) return;
    pool_ = std::make_unique<GpuPool>(cluster);
    pool_cluster_ = &cluster;
}

std::vector<Assignment> ExclusiveScheduler::packFresh(const SchedulerInput& in) {
    pool_->reset();
    std::vector<Assignment> out;
    for (int j : ranked_) {
        if (pool_->totalFree() == 0) break;
        Assignment a{j, {}};
        if (placement_->place(in.by_index[j]->gpus, *pool_, a.gpus)) out.push_back(std::move(a));
    }
    return out;
}

bool ExclusiveScheduler::packSticky(const SchedulerInput& in, const std::vector<int>& kept,
                                    const std::vector<int>& fresh, std::vector<Assignment>& out, bool skip_unfit) {
    pool_->reset();
    out.clear();
    for (int j : kept) {
        const JobState& s = *in.by_index[j];
        for (int g : s.held) pool_->take(g);
        out.push_back({j, std::vector<int>(s.held.begin(), s.held.end())});
    }
    for (int j : fresh) {
        if (pool_->totalFree() == 0 && skip_unfit) break;
        Assignment a{j, {}};
        if (placement_->place(in.by_index[j]->gpus, *pool_, a.gpus)) {
            out.push_back(std::move(a));
        } else if (!skip_unfit) {
            return false;
        }
    }
    return true;
}

Decision ExclusiveScheduler::schedule(const SchedulerInput& in) {
    ensurePool(*in.cluster);
    order_->rank(in, ranked_);
    Decision d;

    if (!order_->preemptive()) {
        // Running jobs keep their GPUs; waiting ones fill the rest in priority order.
        std::vector<int> kept, waiting;
        for (int j : ranked_) (in.by_index[j]->running ? kept : waiting).push_back(j);
        packSticky(in, kept, waiting, d.run, /*skip_unfit=*/true);
        d.wakeup = order_->nextChange(in, d.run);
        return d;
    }

    std::vector<Assignment> fresh = packFresh(in);
    if (!options_.keep_running_in_place) {
        d.run = std::move(fresh);
        d.wakeup = order_->nextChange(in, d.run);
        return d;
    }
    // Same admitted set, but without moving running jobs when the newcomers fit around them.
    std::vector<int> kept, started;
    for (const auto& a : fresh) (in.by_index[a.job]->running ? kept : started).push_back(a.job);
    std::vector<Assignment> sticky;
    if (packSticky(in, kept, started, sticky, /*skip_unfit=*/false)) {
        d.run = std::move(sticky);
    } else {
        d.run = std::move(fresh);
    }
    d.wakeup = order_->nextChange(in, d.run);
    return d;
}

}  // namespace cl
