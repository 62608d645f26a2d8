#include "core/policies/slurm_priority.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace cl {

namespace {

class SlurmPriorityOrder final : public KeyedOrder {
public:
    explicit SlurmPriorityOrder(const SlurmConfig& config) : config_(config) {}
    std::string name() const override { return config_.multifactor ? "slurm-multifactor" : "slurm-basic"; }
    bool preemptive() const override { return false; }
    bool rankingChangesWithTime() const override { return config_.multifactor; }

protected:
    void prepare(const SchedulerInput& in) override {
        now_ = in.now;
        total_gpus_ = std::max(1, in.cluster->totalGpus());
        max_tier_ = 1;
        for (const Partition& p : in.cluster->partitions) max_tier_ = std::max(max_tier_, p.priority_tier);
        tiers_.clear();
        for (const Partition& p : in.cluster->partitions) tiers_.push_back(p.priority_tier);
        if (config_.multifactor && config_.weight_fairshare > 0) decayUsage(in);
    }

    double key(const JobState& j) const override {
        const double tier = j.partition >= 0 ? tiers_[static_cast<std::size_t>(j.partition)] : 1.0;
        // Smaller keys first: the tier dominates, then the priority (Slurm sorts the queue so).
        return -(tier * 1e9 + priority(j));
    }

private:
    double priority(const JobState& j) const {
        if (!config_.multifactor) return 0.0;
        const double waited = std::max(0.0, now_ - j.submit);
        const double age = config_.max_age > 0 ? std::min(waited, config_.max_age) / config_.max_age : 1.0;
        const double share = static_cast<double>(j.gpus) / total_gpus_;
        const double size = config_.favor_small ? 1.0 - share + 1.0 / total_gpus_ : share;
        const double tier = j.partition >= 0 ? tiers_[static_cast<std::size_t>(j.partition)] : 1.0;
        double p = config_.weight_age * age + config_.weight_job_size * size +
                   config_.weight_partition * tier / max_tier_;
        if (config_.weight_fairshare > 0) p += config_.weight_fairshare * fairShare(j.account);
        return p;
    }

    double fairShare(std::string_view account) const {
        const auto it = usage_.find(std::string(account));
        const double used = it == usage_.end() ? 0.0 : it->second;
        const double shares = 1.0 / std::max<std::size_t>(1, usage_.size());
        const double normalized = total_usage_ > 0 ? used / total_usage_ : 0.0;
        return std::exp2(-normalized / shares);
    }

    // Decays every account's usage to now and adds what its running jobs used since the last call.
    void decayUsage(const SchedulerInput& in) {
        const double dt = std::max(0.0, in.now - last_decay_);
        const double factor = config_.decay_half_life > 0 ? std::exp2(-dt / config_.decay_half_life) : 1.0;
        total_usage_ = 0.0;
        for (auto& [account, used] : usage_) used *= factor;
        for (const JobState& j : in.active) {
            double& used = usage_[std::string(j.account)];
            if (j.running) used += j.gpus * dt;
        }
        for (const auto& [account, used] : usage_) total_usage_ += used;
        last_decay_ = in.now;
    }

    SlurmConfig config_;
    double now_ = 0.0;
    int total_gpus_ = 1;
    int max_tier_ = 1;
    std::vector<int> tiers_;
    std::map<std::string, double> usage_;  // per account: decayed GPU-seconds
    double total_usage_ = 0.0;
    double last_decay_ = 0.0;
};

}  // namespace

std::unique_ptr<PriorityOrder> makeSlurmPriorityOrder(const SlurmConfig& config) {
    return std::make_unique<SlurmPriorityOrder>(config);
}

}  // namespace cl
