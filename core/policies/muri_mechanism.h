#pragma once
// The Muri mechanism (paper section 4, docs/architecture.md section 4.5): jobs with the same GPU
// count share GPUs in groups of up to four and interleave their storage, CPU, GPU and network
// stages. At every event:
//  1. jobs are ranked by the order (Muri-S: SRSF, Muri-L: 2D-LAS); walking that ranking,
//     every job that still fits opens a slot of its GPU count and request that admits the
//     next max_group_size jobs of that count and request as candidates;
//  2. the candidates are grouped (muri_grouping.h);
//  3. "autopack": a group slower than its members one after the other is split again;
//  4. groups are admitted in priority order (a group's priority is its best member's)
//     while they fit, then placed in descending GPU count, consolidated;
//  5. each member runs at the group's iteration time and pays the sum of the members'
//     restart overheads (the authors' convention).
// What a job asked for (its partitions and GPU type, docs/architecture.md 2.10) is kept: jobs
// are bucketed by GPU count and request, so only jobs of the same request share, and every
// fit and placement is on the pool restricted to the request's servers.
// Under muri-artifact conventions jobs that never ran are ranked by the trace's stated
// duration, as the authors' simulator does.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/policies/gpu_pool.h"
#include "core/policies/muri_group_timer.h"
#include "core/policies/muri_grouping.h"
#include "core/policies/node_placement.h"
#include "core/policies/placement.h"
#include "core/sim/scheduler.h"

namespace cl {

struct GroupingLog;  // core/model/grouping_explanation.h

struct MuriOptions {
    std::string order = "srsf";  // srsf, srtf, las2d, las, fifo, sjf
    MuriGroupingOptions grouping;
    Contention contention;
    bool autopack = true;
    bool artifact_keys = false;  // rank never-run jobs by the trace's duration
    // Clean conventions: when nobody waits and nobody shares, everyone keeps running as is
    // (the full pass would only re-place the same singles).
    bool keep_when_nobody_waits = true;
    // Profiling noise n_p (ablation): the scheduler groups by stage times multiplied by a
    // seeded U[1 - n_p, 1 + n_p] per job and stage; groups then run at their true speed.
    double profiling_noise = 0.0;
    std::uint64_t noise_seed = 1;
};

class MuriScheduler : public Scheduler {
public:
    MuriScheduler(std::string name, MuriOptions options, std::unique_ptr<Placement> placement);
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& input) override;
    void scheduleInto(const SchedulerInput& input, Decision& out) override;
    int maxJobsPerGpu() const override { return options_.grouping.max_group_size; }

    static std::vector<std::string> orderNames();

    // Records into `log` (nullptr: nothing) why each decision grouped its jobs as it did
    // (grouping_explanation.h); the decisions are the same either way.
    void setGroupingLog(GroupingLog* log);

private:
    double key(const JobState& job) const;
    void ensurePool(const Cluster& cluster);
    void rankByKey(bool any_nan);
    int requestOf(std::span<const char> excluded_servers, int nodes);
    // The servers request r may not use (empty for -1 and for a node count alone: every server).
    std::span<const char> excludedOf(int request) const {
        if (request < 0 || !requests_[static_cast<std::size_t>(request)].excluded) return {};
        return {requests_[static_cast<std::size_t>(request)].excluded,
                static_cast<std::size_t>(pool_->servers())};
    }
    int nodesOf(int request) const {
        return request < 0 ? 0 : requests_[static_cast<std::size_t>(request)].nodes;
    }
    std::vector<int>& bucketsOf(int request) {
        const auto r = static_cast<std::size_t>(request + 1);
        if (bucket_of_gpus_.size() <= r) bucket_of_gpus_.resize(r + 1);
        return bucket_of_gpus_[r];
    }
    // The placement on the pool restricted to the servers of the request (every placement of
    // a job or pack: the engine refuses a GPU on a server its job may not use).
    bool placeOnItsServers(int gpus, int request, std::vector<int>& out) {
        const GpuPool::Restriction to_its_servers(*pool_, excludedOf(request));
        return placeJob(*placement_, gpus, nodesOf(request), *pool_, out);
    }

    std::string name_;
    MuriOptions options_;
    // options_.order, resolved once (the key is computed per job and event).
    enum class Order { Fifo, Sjf, Srtf, Srsf, Las, Las2d } order_ = Order::Srsf;
    std::unique_ptr<Placement> placement_;
    MuriGroupTimer timer_;       // what the scheduler believes (noisy profiles in the ablation)
    MuriGroupTimer true_timer_;  // what groups achieve
    MuriGrouper grouper_;        // keeps its round cache for the whole simulation
    std::unique_ptr<GpuPool> pool_;
    const Cluster* pool_cluster_ = nullptr;
    std::vector<int> list_;   // persistent ranking (stable sorts keep ties in their last order)
    std::size_t ranked_ = 0;  // list_[0, ranked_) is the last ranking, the rest arrived since
    struct RankEntry {
        double key = 0.0;
        int tie = 0;  // -GPU count for jobs ranked before, 0 for arrivals since
        int job = 0;
    };
    std::vector<RankEntry> ranking_;
    std::vector<RankEntry> arrivals_;
    std::vector<RankEntry> ranking_buffer_;
    // What the mechanism keeps per job index, in one record: a decision visits thousands of
    // jobs in ranking order, and an array per field was a cache miss per field and job
    // (docs/architecture.md section 2.9).
    struct MuriJob {
        double key = 0.0;               // the order's key at this decision (active jobs)
        double restart_overhead = 0.0;  // its own (JobState::restart_overhead), set on arrival
        int gpus = 0;                   // set on arrival
        int type = -1;                  // MuriGroupTimer type (-1 = not yet known)
        int true_type = -1;
        int request = -1;     // its request (requests_), -1 = every server; set on arrival
        int pack = -1;        // its pack in this decision (-1 = none); -1 between decisions
        bool used = false;    // admitted as a candidate in this decision; false between decisions
        bool shares = false;  // ran in a group after the last decision
    };
    std::vector<MuriJob> job_;
    std::vector<int> sharing_;  // the jobs marked MuriJob::shares
    std::vector<MuriBucket> buckets_;
    std::vector<int> chosen_;  // per bucket: candidates admitted so far
    std::vector<int> slots_;   // per bucket: slots opened
    std::vector<int> scratch_;
    std::vector<int> bucket_order_;  // buckets by descending GPU count
    // Per request + 1 (0 = every server): bucket per GPU count (-1 = none this event).
    std::vector<std::vector<int>> bucket_of_gpus_;
    // The requests seen, by the data of their excluded_servers (jobs of one request share it;
    // nullptr = every server) and their node count (0 = any): few, and a job's is looked up
    // once, on arrival.
    struct Request {
        const char* excluded = nullptr;
        int nodes = 0;
        bool operator==(const Request&) const = default;
    };
    std::vector<Request> requests_;
    std::vector<std::pair<double, int>> keyed_;  // sort scratch
    std::vector<std::pair<double, int>> sort_buffer_;
    // A decision's packs (groups after autopack), flat: pack p's jobs and true types are
    // pack_jobs_[packs_[p].first, + size) and pack_types_ likewise.
    struct Pack {
        int gpus = 0;
        int bucket = 0;
        int first = 0;
        int size = 0;
        double priority = 0.0;
        double shared_time = -1.0;       // the group's iteration time, once computed
        double restart_overhead = -1.0;  // the sum of its members' restart overheads, once computed
        int group = -1;                  // the grouping's group it keeps whole (-1: split by autopack)
    };
    std::vector<Pack> packs_;
    std::vector<Pack> sorted_packs_;
    std::vector<int> pack_jobs_;
    std::vector<int> pack_types_;
    std::vector<std::vector<int>> pack_gpus_;

    // The steps of scheduleInto, in the order it takes them (the list above), defined in
    // muri_mechanism.cpp beside their only caller. Inline, so not interposable: the core library
    // is position-independent, and only then may the compiler fold a step into its caller where
    // that pays (docs/architecture.md section 2.9).
    inline void updateList(const SchedulerInput& in);
    inline bool keepAllWhenQuiet(const SchedulerInput& in, Decision& d);
    inline void rankActiveJobs(const SchedulerInput& in);
    inline void collectCandidates();
    inline void autopack(const MuriGrouping& grouping);
    inline std::span<const int> jobsOf(const Pack& pack) const;
    inline std::size_t admitPacks();
    inline void keepPacksInPlace(const SchedulerInput& in);
    inline void placePacks(const SchedulerInput& in, Decision& d, std::size_t admitted_jobs);
    inline void markSharingJobs(const Decision& d);
    void recordGroups(const SchedulerInput& in, const Decision& d);

    GroupingLog* log_ = nullptr;
};

}  // namespace cl
