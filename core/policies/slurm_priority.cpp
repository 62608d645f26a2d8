#include "core/policies/slurm_priority.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/util/stable_sort_by_key.h"

namespace cl {

namespace {

class SlurmPriorityOrder final : public KeyedOrder {
public:
    explicit SlurmPriorityOrder(const SlurmConfig& config) : config_(config) {}
    std::string name() const override { return config_.multifactor ? "slurm-multifactor" : "slurm-basic"; }
    bool preemptive() const override { return false; }
    bool rankingChangesWithTime() const override { return config_.multifactor; }

    // Only waiting jobs are ranked: the slurm policy never stops a running job (the order is
    // made for its backfill mechanism alone), so a job that started leaves the list for good. A
    // stable sort keeps the waiting jobs in the order it would give them among all active jobs
    // (their previous order, then key), so the ranking's waiting part is the same, for a third
    // of the keys (docs/architecture.md 2.9, 4.8). Accounts are numbered as jobs arrive, in
    // arrival order (the order the fair-share sums add up in), once per job.
    void observe(const SchedulerInput& in) override {
        if (!in.completed.empty()) std::erase_if(waiting_, [&](int j) { return in.by_index[j] == nullptr; });
        for (int j : in.arrived)
            if (in.by_index[j]) waiting_.push_back(j);
        if (!config_.multifactor || config_.weight_fairshare <= 0) return;
        for (int j : in.arrived)
            if (const JobState* state = in.by_index[j]) accountOf(*state);
    }

    void rank(const SchedulerInput& in, std::vector<int>& ranked) override {
        std::erase_if(waiting_, [&](int j) { return in.by_index[j] == nullptr || in.by_index[j]->running; });
        prepare(in);
        scratch_.clear();
        keys(in, waiting_, scratch_);
        stableSortByKey(scratch_, sort_buffer_);
        for (std::size_t i = 0; i < scratch_.size(); ++i) waiting_[i] = scratch_[i].second;
        ranked = waiting_;
    }

protected:
    void prepare(const SchedulerInput& in) override {
        // Slurm recomputes the factors every PriorityCalcPeriod, not at every pass.
        const double now = std::floor(in.now / config_.priority_calc_period) * config_.priority_calc_period;
        const int total_gpus = std::max(1, in.cluster->totalGpus());
        int max_tier = 1;
        tiers_scratch_.clear();
        for (const Partition& p : in.cluster->partitions) {
            max_tier = std::max(max_tier, p.priority_tier);
            tiers_scratch_.push_back(p.priority_tier);
        }
        // Keys are kept until something they are computed from changes (a new run, a
        // recalculation, other tiers): between two recalculations a job's key is the same number
        // at every pass (docs/architecture.md 2.9).
        bool changed = now != now_ || total_gpus != total_gpus_ || max_tier != max_tier_ ||
                       tiers_scratch_ != tiers_ || in.by_index.data() != run_ ||
                       in.by_index.size() != keys_.size();
        now_ = now;
        total_gpus_ = total_gpus;
        max_tier_ = max_tier;
        tiers_.swap(tiers_scratch_);
        run_ = in.by_index.data();
        if (config_.multifactor && config_.weight_fairshare > 0 &&
            (now_ > last_decay_ || fair_share_.empty())) {
            decayUsage(in);
            changed = true;
        }
        if (!changed) return;
        ++generation_;
        if (keys_.size() != in.by_index.size()) keys_.assign(in.by_index.size(), {});
    }

    double key(const JobState& j) const override {
        const double tier = j.partition >= 0 ? tiers_[static_cast<std::size_t>(j.partition)] : 1.0;
        // Smaller keys first: the tier dominates, then the priority (Slurm sorts the queue so).
        return -(tier * 1e9 + priority(j));
    }

    // key() per job, computed once per job and generation (and again for another job at the
    // same index, should a scheduler serve a second run).
    void keys(const SchedulerInput& in, const std::vector<int>& list,
              std::vector<std::pair<double, int>>& out) const override {
        const std::size_t first = out.size();
        out.resize(first + list.size());
        std::pair<double, int>* to = out.data() + first;
        for (int j : list) {
            const JobState& job = *in.by_index[j];
            Key& kept = keys_[static_cast<std::size_t>(j)];
            if (kept.generation != generation_ || kept.submit != job.submit || kept.gpus != job.gpus ||
                kept.partition != job.partition)
                kept = {key(job), generation_, job.submit, job.gpus, job.partition};
            *to++ = {kept.key, j};
        }
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
    std::vector<int> tiers_scratch_;
    const JobState* const* run_ = nullptr;  // the run's job index, to tell a new run
    std::uint64_t generation_ = 0;          // of the inputs keys are computed from
    struct Key {
        double key = 0.0;
        std::uint64_t generation = 0;  // of the inputs it was computed from (0 = none)
        double submit = 0.0;           // and the job's own
        int gpus = 0;
        int partition = -1;
    };
    mutable std::vector<Key> keys_;  // per job index
    std::vector<int> waiting_;       // waiting jobs, in the last ranking's order, then arrivals
    std::vector<std::pair<double, int>> scratch_;
    std::vector<std::pair<double, int>> sort_buffer_;
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
