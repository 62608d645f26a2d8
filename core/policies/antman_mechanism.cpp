#include "core/policies/antman_mechanism.h"

#include <algorithm>

#include "core/policies/node_placement.h"

namespace cl {

AntmanScheduler::AntmanScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                 std::unique_ptr<Placement> placement)
    : name_(std::move(name)), order_(std::move(order)), placement_(std::move(placement)) {}

Decision AntmanScheduler::schedule(const SchedulerInput& in) {
    if (cluster_ != in.cluster) {
        idle_ = std::make_unique<GpuPool>(*in.cluster);
        shareable_ = std::make_unique<GpuPool>(*in.cluster);
        cluster_ = in.cluster;
    }
    if (opportunistic_.size() < in.by_index.size()) opportunistic_.resize(in.by_index.size(), 0);
    order_->observe(in);

    // Who holds each GPU now (running jobs are never stopped).
    const int gpus = in.cluster->totalGpus();
    std::vector<int> holders(gpus, 0);
    std::vector<int> guaranteed_holder(gpus, -1);
    for (const JobState& s : in.active) {
        if (!s.running) continue;
        for (int g : s.held) {
            ++holders[g];
            if (!opportunistic_[s.index]) guaranteed_holder[g] = s.index;
        }
    }
    // An opportunistic job left alone on its GPUs is guaranteed from now on.
    for (const JobState& s : in.active)
        if (s.running && opportunistic_[s.index] &&
            std::all_of(s.held.begin(), s.held.end(), [&](int g) { return holders[g] == 1; })) {
            opportunistic_[s.index] = 0;
            for (int g : s.held) guaranteed_holder[g] = s.index;
        }

    idle_->reset();
    shareable_->reset();
    for (int g = 0; g < gpus; ++g) {
        if (holders[g] > 0) idle_->take(g);
        if (!(holders[g] == 1 && guaranteed_holder[g] >= 0)) shareable_->take(g);
    }

    Decision d;
    for (const JobState& s : in.active) {
        if (!s.running) continue;
        Assignment a{s.index, std::vector<int>(s.held.begin(), s.held.end())};
        if (opportunistic_[s.index]) a.shared_iteration_time = s.solo_iteration_time * kOpportunisticSlowdown;
        d.start.push_back(std::move(a));
    }
    order_->rank(in, ranked_);
    for (int j : ranked_) {
        const JobState& s = *in.by_index[j];
        if (s.running) continue;
        Assignment a{j, {}};
        // Both pools offer only the servers of the job's partitions with its GPU type
        // (docs/architecture.md 2.10).
        const GpuPool::Restriction idle_on_its_servers(*idle_, s.excluded_servers);
        const GpuPool::Restriction shareable_on_its_servers(*shareable_, s.excluded_servers);
        if (placeJob(*placement_, s.gpus, s.nodes, *idle_, a.gpus)) {
            for (int g : a.gpus) shareable_->take(g);  // a new guaranteed job can host a sharer later
            opportunistic_[j] = 0;
        } else if (placeJob(*placement_, s.gpus, s.nodes, *shareable_, a.gpus)) {
            opportunistic_[j] = 1;
            a.shared_iteration_time = s.solo_iteration_time * kOpportunisticSlowdown;
        } else {
            continue;
        }
        d.start.push_back(std::move(a));
    }
    return d;
}

}  // namespace cl
