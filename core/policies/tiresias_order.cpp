#include "core/policies/tiresias_order.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cl {

TiresiasOrder::TiresiasOrder(bool artifact_rounding, bool starvation_guard)
    : artifact_rounding_(artifact_rounding), starvation_guard_(starvation_guard) {}

void TiresiasOrder::ensureSize(int job) {
    if (job < static_cast<int>(queue_of_.size())) return;
    queue_of_.resize(job + 1, 0);
    attained_base_.resize(job + 1, 0.0);
    last_running_.resize(job + 1, -1.0);
    demote_at_.resize(job + 1, std::numeric_limits<double>::infinity());
}

double TiresiasOrder::serviceInQueue(const JobState& j) const {
    return (j.attained - attained_base_[j.index]) * j.gpus;
}

double TiresiasOrder::starvedAt(const JobState& j) const {
    // The wait is measured against all the service the job ever received, not the service
    // since its last promotion: with the latter an overloaded cluster turns into round robin
    // with a quantum of one queue pass and a preemption per pass (architecture.md 4.2).
    if (j.attained <= 0) return std::numeric_limits<double>::infinity();
    return last_running_[j.index] + kStarvationFactor * j.attained;
}

void TiresiasOrder::observe(const SchedulerInput& in) {
    // What the previous decision left: finished jobs leave, waiting jobs move behind running ones.
    for (auto& q : queues_) {
        std::erase_if(q, [&](int j) { return in.by_index[j] == nullptr; });
        std::stable_partition(q.begin(), q.end(), [&](int j) { return in.by_index[j]->running; });
    }
    for (int j : in.arrived) {
        if (!in.by_index[j]) continue;
        ensureSize(j);
        queue_of_[j] = 0;
        attained_base_[j] = 0.0;
        last_running_[j] = in.now;
        queues_[0].push_back(j);
    }
    for (const JobState& j : in.active) {
        int q = queue_of_[j.index];
        if (j.running) {
            last_running_[j.index] = in.now;
            if (artifact_rounding_) {
                // The authors' test, one level per event (their demotion events can fall a
                // rounding error short; reproducing that keeps the published numbers).
                if (q < 2 && serviceInQueue(j) >= kLimits[q]) demote(in, j.index, q);
                continue;
            }
            // Clean: the wake-up time asked for is the demotion time, whatever the rounding.
            bool due = in.now >= demote_at_[j.index];
            while (q < 2 && (due || serviceInQueue(j) >= kLimits[q])) {
                demote(in, j.index, q);
                q = queue_of_[j.index];
                due = false;
            }
        } else if (starvation_guard_ && q > 0) {
            // Same expression as the wake-up in nextChange(), so the check is exact there.
            if (in.now >= starvedAt(j)) {
                std::erase(queues_[q], j.index);
                queues_[0].push_back(j.index);
                queue_of_[j.index] = 0;
                attained_base_[j.index] = j.attained;
            }
        }
    }
}

void TiresiasOrder::demote(const SchedulerInput& in, int job, int from) {
    std::erase(queues_[from], job);
    auto& to = queues_[from + 1];
    // The authors' simulator appends the demoted job behind the waiting jobs of its new queue,
    // so they preempt it at once. Clean: a running job keeps running among its new peers,
    // which is what FIFO without preemption inside a queue means (architecture.md 4.2).
    auto at = to.end();
    if (!artifact_rounding_)
        at = std::find_if(to.begin(), to.end(),
                          [&](int j) { return in.by_index[j] == nullptr || !in.by_index[j]->running; });
    to.insert(at, job);
    queue_of_[job] = from + 1;
}

void TiresiasOrder::rank(const SchedulerInput&, std::vector<int>& ranked) {
    ranked.clear();
    for (const auto& q : queues_) ranked.insert(ranked.end(), q.begin(), q.end());
}

double TiresiasOrder::nextChange(const SchedulerInput& in, const Decision& d) const {
    double next = std::numeric_limits<double>::infinity();
    runs_after_.assign(in.by_index.size(), 0);
    for (int j : d.keep) runs_after_[j] = 1;
    for (const auto& a : d.start) runs_after_[a.job] = 1;
    for (const JobState& j : in.active) {
        int q = queue_of_[j.index];
        bool runs = runs_after_[j.index] != 0;
        demote_at_[j.index] = std::numeric_limits<double>::infinity();
        if (runs && q < 2) {
            double executed = j.attained - attained_base_[j.index];
            double wall_limit = kLimits[q] / j.gpus;
            if (artifact_rounding_) wall_limit = std::ceil(wall_limit);
            double at = in.now + (wall_limit - executed);
            demote_at_[j.index] = at;
            next = std::min(next, at);
        } else if (!runs && starvation_guard_ && q > 0) {
            next = std::min(next, starvedAt(j));
        }
    }
    return next;
}

}  // namespace cl
