#pragma once
// Tiresias (discretized 2D-LAS): queues by attained GPU service. A job enters queue 0 and is
// demoted when its GPU-seconds reach 3,250 (to queue 1) and 7,200 (to queue 2) — the
// thresholds of the Muri artifact's Tiresias. Inside a queue, running jobs stay ahead of
// waiting ones and waiting ones keep their order of entering the queue (the authors'
// simulator; it amounts to FIFO without preempting peers of the same queue).
//
// Two variants, chosen by the conventions:
//  - artifact: demotion times rounded up to whole seconds of wall time as the authors do;
//    no starvation guard.
//  - clean: exact demotion times; a job demoted while running stays ahead of the waiting jobs
//    of its new queue; and a starvation guard: a job waiting in a lower queue for at least
//    kStarvationFactor times all the service it has received goes back to queue 0, where it
//    gets a full queue-0 quantum (docs/architecture.md section 4.2 says why each).
#include <vector>

#include "core/policies/priority_order.h"

namespace cl {

class TiresiasOrder : public PriorityOrder {
public:
    static constexpr double kLimits[2] = {3250.0, 7200.0};
    static constexpr double kStarvationFactor = 10.0;

    explicit TiresiasOrder(bool artifact_rounding, bool starvation_guard);
    std::string name() const override { return "tiresias"; }
    void observe(const SchedulerInput& input) override;
    void rank(const SchedulerInput& input, std::vector<int>& ranked) override;
    double nextChange(const SchedulerInput& input, const Decision& decision) const override;

    int queueOf(int job) const { return job < static_cast<int>(queue_of_.size()) ? queue_of_[job] : 0; }

private:
    double serviceInQueue(const JobState& j) const;  // GPU-seconds since entering queue 0
    double starvedAt(const JobState& j) const;       // when a waiting job counts as starved
    void ensureSize(int job);
    void demote(const SchedulerInput& in, int job, int from);

    bool artifact_rounding_;
    bool starvation_guard_;
    std::vector<int> queues_[3];
    std::vector<int> queue_of_;
    std::vector<double> attained_base_;      // attained wall time when last (re)entering queue 0
    std::vector<double> last_running_;       // last event time the job was seen running
    mutable std::vector<double> demote_at_;  // wake-up asked for each running job's demotion
    mutable std::vector<char> runs_after_;   // scratch: job runs after the current decision
};

}  // namespace cl
