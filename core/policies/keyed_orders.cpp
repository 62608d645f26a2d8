// FIFO, SJF, SRTF, SRSF, LAS and 2D-LAS: orders by one key per job.
#include <algorithm>

#include "core/policies/priority_order.h"
#include "core/util/stable_sort_by_key.h"

namespace cl {

void KeyedOrder::observe(const SchedulerInput& in) {
    if (!in.completed.empty()) std::erase_if(list_, [&](int j) { return in.by_index[j] == nullptr; });
    for (int j : in.arrived)
        if (in.by_index[j]) list_.push_back(j);
}

void KeyedOrder::rank(const SchedulerInput& in, std::vector<int>& ranked) {
    prepare(in);
    scratch_.clear();
    scratch_.reserve(list_.size());
    keys(in, list_, scratch_);
    stableSortByKey(scratch_, sort_buffer_);
    for (std::size_t i = 0; i < scratch_.size(); ++i) list_[i] = scratch_[i].second;
    ranked = list_;
}

void KeyedOrder::keys(const SchedulerInput& in, const std::vector<int>& list,
                      std::vector<std::pair<double, int>>& out) const {
    for (int j : list) out.emplace_back(key(*in.by_index[j]), j);
}

namespace {

// The orders below compute their keys in one loop with Order::key inlined (Order is final).
template <class Order>
class ScalarKeyedOrder : public KeyedOrder {
protected:
    void keys(const SchedulerInput& in, const std::vector<int>& list,
              std::vector<std::pair<double, int>>& out) const override {
        const Order& order = static_cast<const Order&>(*this);
        const std::size_t first = out.size();
        out.resize(first + list.size());
        std::pair<double, int>* to = out.data() + first;
        for (int j : list) *to++ = {order.key(*in.by_index[j]), j};
    }
};

class FifoOrder final : public ScalarKeyedOrder<FifoOrder> {
public:
    std::string name() const override { return "fifo"; }
    bool preemptive() const override { return false; }
    bool rankingChangesWithTime() const override { return false; }

public:
    double key(const JobState& j) const override { return j.submit; }
};

// Shortest job first by expected solo run time; non-preemptive as in the SJF-BSBF paper.
class SjfOrder final : public ScalarKeyedOrder<SjfOrder> {
public:
    std::string name() const override { return "sjf"; }
    bool preemptive() const override { return false; }
    bool rankingChangesWithTime() const override { return false; }

public:
    double key(const JobState& j) const override { return j.totalTime(); }
};

class SrtfOrder final : public ScalarKeyedOrder<SrtfOrder> {
public:
    std::string name() const override { return "srtf"; }

public:
    double key(const JobState& j) const override { return j.remainingTime(); }
};

// Shortest remaining service (remaining time x GPUs), Muri-S's order.
class SrsfOrder final : public ScalarKeyedOrder<SrsfOrder> {
public:
    std::string name() const override { return "srsf"; }

public:
    double key(const JobState& j) const override { return j.remainingTime() * j.gpus; }
};

class LasOrder final : public ScalarKeyedOrder<LasOrder> {
public:
    std::string name() const override { return "las"; }

public:
    double key(const JobState& j) const override { return j.attained; }
};

// Least attained GPU service (attained time x GPUs), Muri-L's order.
class Las2dOrder final : public ScalarKeyedOrder<Las2dOrder> {
public:
    std::string name() const override { return "las2d"; }

public:
    double key(const JobState& j) const override { return j.attained * j.gpus; }
};

}  // namespace

std::unique_ptr<PriorityOrder> makeFifoOrder() {
    return std::make_unique<FifoOrder>();
}
std::unique_ptr<PriorityOrder> makeSjfOrder() {
    return std::make_unique<SjfOrder>();
}
std::unique_ptr<PriorityOrder> makeSrtfOrder() {
    return std::make_unique<SrtfOrder>();
}
std::unique_ptr<PriorityOrder> makeSrsfOrder() {
    return std::make_unique<SrsfOrder>();
}
std::unique_ptr<PriorityOrder> makeLasOrder() {
    return std::make_unique<LasOrder>();
}
std::unique_ptr<PriorityOrder> makeLas2dOrder() {
    return std::make_unique<Las2dOrder>();
}

}  // namespace cl
