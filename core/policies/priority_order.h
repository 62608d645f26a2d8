#pragma once
// Priority orders rank the active jobs, highest priority first. Orders keep their own
// ranking between events so that ties keep the previous relative order (the authors'
// simulators sort one persistent list with a stable sort; reproducing that matters).
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/sim/scheduler.h"

namespace cl {

class PriorityOrder {
public:
    virtual ~PriorityOrder() = default;
    virtual std::string name() const = 0;
    // Non-preemptive orders never stop a running job for a higher-priority one.
    virtual bool preemptive() const { return true; }
    // False when the ranking depends only on the jobs and their allocations, never on the
    // time that passes (fifo, sjf, drf, tetris): unchanged state, unchanged ranking.
    virtual bool rankingChangesWithTime() const { return true; }
    // Called at every event: take note of arrivals, completions and attained service.
    virtual void observe(const SchedulerInput& input) = 0;
    // The ranking as of the last observe(); only called when a choice has to be made.
    virtual void rank(const SchedulerInput& input, std::vector<int>& ranked) = 0;
    // Next time the ranking changes without an arrival or completion (infinity = never),
    // given this event's decision.
    virtual double nextChange(const SchedulerInput&, const Decision&) const {
        return std::numeric_limits<double>::infinity();
    }
};

// An order by a scalar key, smaller first; ties keep the previous order, then arrival order.
class KeyedOrder : public PriorityOrder {
public:
    void observe(const SchedulerInput& input) override;
    void rank(const SchedulerInput& input, std::vector<int>& ranked) override;

protected:
    // Called before the keys of one ranking are computed (orders whose keys need context).
    virtual void prepare(const SchedulerInput&) {}
    virtual double key(const JobState& job) const = 0;
    // Appends (key, job) for every listed job, in list order. By key() per job unless an order
    // computes them in one loop without a virtual call per job (docs/architecture.md 2.9).
    virtual void keys(const SchedulerInput& input, const std::vector<int>& list,
                      std::vector<std::pair<double, int>>& out) const;

private:
    std::vector<int> list_;
    std::vector<std::pair<double, int>> scratch_;
    std::vector<std::pair<double, int>> sort_buffer_;
};

std::unique_ptr<PriorityOrder> makeFifoOrder();
std::unique_ptr<PriorityOrder> makeSjfOrder();
std::unique_ptr<PriorityOrder> makeSrtfOrder();
std::unique_ptr<PriorityOrder> makeSrsfOrder();
std::unique_ptr<PriorityOrder> makeLasOrder();
std::unique_ptr<PriorityOrder> makeLas2dOrder();
std::unique_ptr<PriorityOrder> makeFtfOrder();
// Synergy section 5.7's big-data orders on each job's best-case demand vector
// (core/policies/drf_order.cpp, tetris_order.cpp).
std::unique_ptr<PriorityOrder> makeDrfOrder();
std::unique_ptr<PriorityOrder> makeTetrisOrder();

}  // namespace cl
