#pragma once
// Non-preemptive GPU sharing with gradient accumulation (SJF-BSBF, docs/architecture.md
// section 4.7). Jobs are taken in the order's ranking (sjf for the paper's presets). A job that
// finds enough free GPUs takes them (consolidated). Otherwise it may start on GPUs that hold
// exactly one job (at most two jobs per GPU):
//  - bsbf: Algorithm 1. Every running job on singly-occupied GPUs is tested once with
//    Algorithm 2 (Theorem 1's pair test at each memory-feasible sub-batch); those where
//    sharing beats waiting are taken in ascending order of their JCT sum, their
//    singly-occupied GPUs added until the job has enough (free GPUs first).
//  - ffs: SJF-FFS, sharing whenever it fits: no benefit test, full batch if it fits next to
//    the partner, else the largest sub-batch that does. Partners are taken in the same order
//    as bsbf's (ascending JCT sum of the pair), so the two differ only in the test and the
//    sub-batch rule: Fig. 6(b) shows them equal at xi <= 1.25, where the test always passes,
//    which a different partner order (e.g. by GPU index) would not give.
// A job that cannot start waits and later jobs are still tried. Sharing jobs run at xi times
// their iteration time at the chosen sub-batch; a job whose partners have all finished
// returns to solo speed and its full batch (the largest sub-batch that fits alone).
// Decisions of ours where the paper is silent:
//  - a new job sharing with several running jobs trains at the smallest of their chosen
//    sub-batches (it fits next to every partner) and is slowed by the largest ratio;
//  - jobs whose model has no extra.sjf_bsbf section have one fixed configuration: their
//    profile's solo time and GPU memory (gpu_memory_mb, 0 if unknown);
//  - Eq. 7's all-reduce term assumes the job's GPUs are consolidated on as few servers as
//    possible (4-GPU servers), wherever its GPUs actually are: the pair test then compares
//    like with like for every placement.
//  - a job that asked for partitions or a GPU type (docs/architecture.md 2.10) takes free GPUs
//    only on its servers and shares only with partners whose GPUs are all there.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/accumulation_speed.h"
#include "core/policies/gpu_pool.h"
#include "core/policies/placement.h"
#include "core/policies/priority_order.h"
#include "core/sim/scheduler.h"

namespace cl {

enum class SharingMode { BestBenefit, FirstFit };

struct SharingOptions {
    SharingMode mode = SharingMode::BestBenefit;
    // Interference ratio of every sharing job; 0 = the profile's per-pair matrix where it has
    // an entry, else kDefaultInterference.
    double interference = 0.0;
    double round_seconds = 60.0;  // SJF-BSBF schedules at arrivals, completions and every 60 s
};

class SharingScheduler : public Scheduler {
public:
    static constexpr double kDefaultInterference = 1.8;

    SharingScheduler(std::string name, std::unique_ptr<PriorityOrder> order, SharingOptions options,
                     std::unique_ptr<Placement> placement);
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& input) override;
    double roundInterval() const override { return options_.round_seconds; }
    // Non-preemptive, and a sharing job's speed changes only when a partner arrives or leaves.
    bool roundsOnlyPlaceWaitingJobs() const override { return true; }
    int maxJobsPerGpu() const override { return 2; }

private:
    struct JobSpeed {  // per job index, filled on first sight
        bool known = false;
        std::optional<AccumulationProfile> acc;
        int batch = 0;
        int local = 1;
        int servers = 1;
        double reference_time = 0.0;     // Eq. 7 at the sub-batch the engine's solo time assumes
        bool plain_interference = true;  // no per-pair ratios: every ratio is the default
        // Algorithm 2's candidates, largest first ({1} without a speed model): solo seconds
        // per iteration and worker memory at each, and the fastest from each on.
        std::vector<int> subs;
        std::vector<double> iter_at;
        std::vector<double> memory_at;
        std::vector<int> fastest_from;
    };
    struct Running {  // per running job index, the mechanism's own state
        int sub_batch = 0;
        double xi = 1.0;
    };
    struct Partner {  // a running job alone on some GPUs, as a new job's candidate partner
        int job = 0;
        std::vector<int> gpus;        // the GPUs it holds alone, in index order
        double room_mb = 0.0;         // GPU memory it leaves free on the tightest of them
        double remaining_solo = 0.0;  // P_R, seconds
    };

    const JobSpeed& speedOf(const JobState& s, const SchedulerInput& in);
    int subIndex(const JobSpeed& sp, int sub_batch) const;
    // The largest candidate sub-batch whose worker fits alone on every one of the GPUs.
    // Throws std::invalid_argument naming the job when not even one sample fits.
    int fullSubBatch(const JobState& s, const JobSpeed& sp, const std::vector<int>& gpus) const;
    double interference(std::string_view partner, const JobSpeed& sp) const;
    void collectPartners(const SchedulerInput& in, const std::vector<int>& holder);
    bool startShared(const JobState& s, const SchedulerInput& in, std::vector<int>& holder, Decision& d);

    std::string name_;
    std::unique_ptr<PriorityOrder> order_;
    SharingOptions options_;
    std::unique_ptr<Placement> placement_;
    std::unique_ptr<GpuPool> free_;
    const Cluster* cluster_ = nullptr;
    std::vector<double> gpu_memory_mb_;
    std::vector<JobSpeed> speed_;
    std::vector<Running> running_;
    std::vector<int> ranked_;
    std::vector<Partner> partners_;  // valid until a job starts
    bool partners_valid_ = false;
    std::vector<int> slot_scratch_;
    int free_gpus_ = 0;
    int single_gpus_ = 0;
};

}  // namespace cl
