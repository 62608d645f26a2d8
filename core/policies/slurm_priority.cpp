#include "core/policies/slurm_priority.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

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
        // Slurm recomputes the factors every PriorityCalcPeriod, not at every pass.
        now_ = std::floor(in.now / config_.priority_calc_period) * config_.priority_calc_period;
        total_gpus_ = std::max(1, in.cluster->totalGpus());
        max_tier_ = 1;
        tiers_.clear();
        for (const Partition& p : in.cluster->partitions) {
            max_tier_ = std::max(max_tier_, p.priority_tier);
            tiers_.push_back(p.priority_tier);
        }
        if (!config_.multifactor || config_.weight_fairshare <= 0) return;
        for (const JobState& j : in.active) accountOf(j);
        if (now_ > last_decay_ || fair_share_.empty()) decayUsage(in);
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
        if (config_.weight_fairshare > 0) {
            // An account first seen since the last recalculation has used nothing yet: 2^0.
            const auto account = static_cast<std::size_t>(account_of_[static_cast<std::size_t>(j.index)]);
            p += config_.weight_fairshare * (account < fair_share_.size() ? fair_share_[account] : 1.0);
        }
        return p;
    }

    // The account of each active job as a small number, found once per job (a name lookup per
    // job and pass was a third of a replay's time).
    int accountOf(const JobState& j) {
        const auto index = static_cast<std::size_t>(j.index);
        if (index >= account_of_.size()) account_of_.resize(index + 1, -1);
        int& id = account_of_[index];
        if (id < 0) {
            auto [it, fresh] =
                account_ids_.try_emplace(std::string(j.account), static_cast<int>(usage_.size()));
            if (fresh) usage_.push_back(0.0);
            id = it->second;
        }
        return id;
    }

    // Decays every account's usage to now, adds what its running jobs used since the last call,
    // and computes each account's factor 2^(-U/S) once.
    void decayUsage(const SchedulerInput& in) {
        const double dt = std::max(0.0, now_ - last_decay_);
        const double factor = config_.decay_half_life > 0 ? std::exp2(-dt / config_.decay_half_life) : 1.0;
        for (double& used : usage_) used *= factor;
        for (const JobState& j : in.active)
            if (j.running) usage_[static_cast<std::size_t>(accountOf(j))] += j.gpus * dt;
        double total = 0.0;
        for (double used : usage_) total += used;
        const double shares = 1.0 / static_cast<double>(std::max<std::size_t>(1, usage_.size()));
        fair_share_.resize(usage_.size());
        for (std::size_t a = 0; a < usage_.size(); ++a)
            fair_share_[a] = std::exp2(-(total > 0 ? usage_[a] / total : 0.0) / shares);
        last_decay_ = now_;
    }

    SlurmConfig config_;
    double now_ = 0.0;
    int total_gpus_ = 1;
    int max_tier_ = 1;
    std::vector<int> tiers_;
    std::unordered_map<std::string, int> account_ids_;
    std::vector<int> account_of_;     // per job index: account id (-1 = not seen yet)
    std::vector<double> usage_;       // per account id: decayed GPU-seconds
    std::vector<double> fair_share_;  // per account id: 2^(-usage share / shares)
    double last_decay_ = 0.0;
};

}  // namespace

std::unique_ptr<PriorityOrder> makeSlurmPriorityOrder(const SlurmConfig& config) {
    return std::make_unique<SlurmPriorityOrder>(config);
}

}  // namespace cl
