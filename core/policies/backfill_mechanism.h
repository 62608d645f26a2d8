#pragma once
// Backfill: jobs start in priority order; a job that cannot start now gets a reservation at the
// earliest time its GPUs are expected to be free (running jobs end at their start plus their
// time limit), and a lower-priority job starts early only if it delays no reservation
// (docs/architecture.md 4.8). Three kinds:
//  - easy:         only the first job that cannot start gets a reservation (EASY backfill);
//  - conservative: every waiting job gets one, in priority order;
//  - slurm:        what Slurm 22.05 does with sched/backfill: the main scheduler starts jobs in
//                  priority order per partition until one does not fit (at every arrival and
//                  completion, and every sched_interval), and every bf_interval the backfill
//                  pass reserves whole servers for up to bf_max_job_test jobs, on a bf_resolution
//                  time grid, at most bf_window ahead. sched/builtin runs the main scheduler only.
// Easy and conservative decide at every event and reserve GPUs, not whole servers, at exact
// times. All three are non-preemptive and keep what each job asked for (partitions, GPU type,
// node count; docs/architecture.md 2.10). A job without a time limit is expected to run forever.
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/policies/gpu_pool.h"
#include "core/policies/node_placement.h"
#include "core/policies/priority_order.h"
#include "core/policies/slurm_config.h"
#include "core/sim/scheduler.h"

namespace cl {

enum class BackfillKind { Easy, Conservative, Slurm };

class BackfillScheduler : public Scheduler {
public:
    BackfillScheduler(std::string name, std::unique_ptr<PriorityOrder> order, BackfillKind kind,
                      SlurmConfig config = {});
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& input) override;
    // The same decision into the engine's kept one, reusing its buffers.
    void scheduleInto(const SchedulerInput& input, Decision& out) override;

    using Take = ServerTake;

private:
    struct Reservation {
        double from = 0.0, to = 0.0;
        int gpus = 0;  // whole servers: the server's capacity
    };
    struct Ending {
        double at = 0.0;
        int gpus = 0;
    };
    // The servers one request allows, in index order (jobs with the same request share their
    // marks, JobState::excluded_servers): the passes look at these only (docs/architecture.md 2.9).
    struct Allowed {
        std::vector<char> excluded;
        std::vector<int> servers;
    };

    void decide(const SchedulerInput& in, Decision& d);
    void mainPass(const SchedulerInput& in, Decision& d, bool event);
    void backfillPass(const SchedulerInput& in, Decision& d);
    // Places the job on GPUs free now; on success takes them and adds its start to d.
    bool startNow(const SchedulerInput& in, const JobState& job, Decision& d, bool honour_reservations);
    // The GPUs of each of `servers` the job could use over [from, from + length), counting the
    // running jobs expected to hold them and the reservations made so far.
    void availableOver(const std::vector<int>& servers, double from, double length,
                       std::vector<int>& avail) const;
    // Where the job fits given avail_ over `servers` (into takes_); false when it does not.
    bool place(const JobState& job, const std::vector<int>& servers);
    void findNodes(const Cluster& cluster);
    int nodeFirst(int server) const;  // the servers of its node: nodeFirst..nodeLast
    int nodeLast(int server) const;
    // The times after now, within the horizon, at which a running job or a reservation on one of
    // `servers` is expected to end, sorted, each once.
    void endTimes(const std::vector<int>& servers, double now, double horizon);
    const std::vector<int>& allowedServers(const JobState& job);
    void hold(int job, std::span<const int> gpus);
    void release(int job);
    // The expected ends of the running jobs on server s as of this pass, and no reservations
    // yet, made when the pass first looks at s.
    void ready(const SchedulerInput& in, int s);
    void addEnding(const SchedulerInput& in, std::span<const int> gpus, double at);
    double expectedEnd(double now, double time_limit, double attained) const;
    double tickAtOrAfter(double now, double interval) const;
    double nextTick(double now, double interval) const;
    bool started(int job) const;  // started by this decision
    Decision& wakeAt(Decision& d, bool time_matters) const;

    std::string name_;
    std::unique_ptr<PriorityOrder> order_;
    BackfillKind kind_;
    SlurmConfig config_;
    std::unique_ptr<GpuPool> pool_;
    const Cluster* pool_cluster_ = nullptr;
    std::vector<char> started_;                          // per job index: started by this decision
    std::unordered_map<int, std::vector<int>> holding_;  // running job -> the GPUs it was given
    // The running jobs in the order of SchedulerInput::active (the decision's keep list): jobs
    // keep their order there, so a started job is inserted once and a completed one erased.
    std::vector<int> running_;
    struct Holder {
        int job = 0;
        int gpus = 0;
    };
    std::vector<std::vector<Holder>> holders_;  // per server: the running jobs on it
    std::deque<Allowed> allowed_;               // per distinct request seen (stable references)
    std::unordered_map<const char*, std::size_t> allowed_at_;  // request marks -> allowed_ entry
    std::vector<int> all_servers_;
    // Per server, its node's first server when some Slurm node is several servers (section
    // 8.7); empty otherwise.
    std::vector<int> node_of_;
    std::vector<int> ranked_;
    std::vector<std::vector<Ending>> endings_;            // per server: running jobs' expected ends
    std::vector<std::vector<Reservation>> reservations_;  // per server, this pass
    std::vector<std::uint64_t> ready_in_;                 // per server: the backfill pass its lists are of
    std::uint64_t pass_ = 0;                              // backfill passes so far
    bool endings_built_ = false;                          // in a backfill pass: starts add their ends
    std::vector<int> avail_;                              // per server of the job's allowed list
    std::vector<Take> takes_;
    std::vector<int> order_buffer_;
    std::vector<double> times_;
    std::vector<char> blocked_;  // per partition (+1 for none): blocked in this main pass
    double next_main_ = 0.0;
    double event_pass_at_ = std::numeric_limits<double>::infinity();  // a main pass an event asked for
    double next_backfill_ = 0.0;
    double next_recalc_ = 0.0;        // multifactor priorities' next recalculation
    bool main_deferred_ = false;      // a periodic main pass fell due before an event was acted on
    bool backfill_deferred_ = false;  // the same for a backfill pass
    bool changed_ = true;             // something arrived, ended or started since the last backfill pass
};

}  // namespace cl
