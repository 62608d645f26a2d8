#pragma once
// The scheduler boundary (docs/architecture.md section 2.3): events in, decisions out. A policy reads a
// snapshot of the active jobs and returns which jobs run on which GPUs; only the engine
// mutates job state.
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"

namespace cl {

struct JobState {
    int index = 0;  // position in the trace; stable identity
    int gpus = 1;
    double submit = 0.0;
    double iterations = 0.0;
    double remaining = 0.0;  // iterations left
    // Seconds per iteration on the GPUs it holds now (shared or alone); a waiting job: alone on
    // reference GPUs (= solo_iteration_time).
    double current_iteration_time = 0.0;
    double attained = 0.0;             // wall seconds spent holding GPUs so far
    double duration = 0.0;             // the trace's stated solo duration (0 = not given)
    double solo_iteration_time = 0.0;  // seconds per iteration alone on reference GPUs
    double restart_overhead = 0.0;     // its own (profile) restart overhead
    std::string_view model;
    int batch_size = 0;                   // the trace's global batch (0 = the profile's default)
    std::span<const double> stage_times;  // seconds; the trace's own, else the profile's
    bool running = false;
    std::span<const int> held;  // GPU ids while running
    // What the job asked for (docs/architecture.md 2.10): servers it may not use (one mark per
    // server, 1 = not allowed; empty = every server), the servers it spans (0 = any), its time
    // limit (seconds; 0 = none) and its account and first partition (for priorities).
    std::span<const char> excluded_servers;
    int nodes = 0;
    double time_limit = 0.0;
    std::string_view account;
    int partition = -1;  // index into the cluster's partitions (-1 = none)

    double remainingTime() const { return remaining * current_iteration_time; }
    double totalTime() const { return iterations * current_iteration_time; }
};

struct SchedulerInput {
    double now = 0.0;
    const Cluster* cluster = nullptr;
    std::span<const JobState> active;           // pending and running jobs, in arrival order
    std::span<const int> arrived;               // job indices that arrived at this event
    std::span<const int> completed;             // job indices that completed at this event
    std::span<const JobState* const> by_index;  // job index -> state (nullptr when not active)
    const ProfileSet* profiles = nullptr;       // the run's profile set (sensitivity matrices)
    // True when some job of the trace may use only some servers (JobState::excluded_servers) or
    // asks for a number of them (JobState::nodes):
    // whether jobs fit then depends on which servers are free, not only on how many GPUs each
    // has, and shortcuts that count free GPUs alone (FreeCounts) do not apply.
    bool servers_requested = false;
};

struct Assignment {
    int job = 0;
    std::vector<int> gpus;
    // Set by sharing mechanisms (the mechanism's speed model): the job's seconds per
    // iteration on reference GPUs while it shares, and the restart overhead it pays
    // (e.g. a Muri group pays the sum of its members'). 0 / negative = the job's own.
    double shared_iteration_time = 0.0;
    double restart_overhead = -1.0;
    int group = -1;  // jobs of one group share their GPUs
    // Auxiliary resources the job holds in total across its servers (Synergy mechanisms);
    // 0 = its GPU-proportional share of the servers it runs on.
    double cpus = 0.0;
    double memory_gb = 0.0;
    // Gradient accumulation (SJF-BSBF mechanisms): the per-GPU sub-batch the job trains with,
    // its accumulation steps and the interference ratio it runs at (1 = alone); 0 = not set.
    int sub_batch = 0;
    int accumulation_steps = 0;
    double interference = 0.0;
};

struct Decision {
    std::vector<int> keep;          // running jobs that continue on the GPUs they hold
    std::vector<Assignment> start;  // jobs that start, resume or move to these GPUs
    // Every running job in neither list is preempted and waits.
    // Ask to be called again at this time even if nothing else happens (e.g. a priority
    // threshold crossing); infinity = no request.
    double wakeup = std::numeric_limits<double>::infinity();
};

class Scheduler {
public:
    virtual ~Scheduler() = default;
    virtual std::string name() const = 0;
    virtual Decision schedule(const SchedulerInput& input) = 0;
    // The same decision written into `out`, which the engine keeps from event to event: a
    // mechanism that decides for every running job at every event can reuse the assignments'
    // buffers instead of allocating them again (docs/architecture.md section 2.9). `out` holds
    // the previous decision; every field must be set.
    virtual void scheduleInto(const SchedulerInput& input, Decision& out) { out = schedule(input); }
    // Periodic scheduling round in seconds (0 = only on events).
    virtual double roundInterval() const { return 0.0; }
    // True when a periodic round can only place waiting jobs (a non-preemptive policy whose
    // running jobs' speeds change only at arrivals and completions): the engine then skips
    // rounds while nobody waits, so a job of months or years costs a few events, not one per
    // round.
    virtual bool roundsOnlyPlaceWaitingJobs() const { return false; }
    // True when, with nobody waiting and these many jobs running, a decision that changed
    // nothing (no job started, stopped, moved or changed speed or resources) would be decided
    // again at the next round: the engine then skips rounds until something happens.
    virtual bool roundsRepeatWhenUnchanged(std::size_t /*running_jobs*/) const { return false; }
    // How many jobs may hold one GPU at the same time (1 = exclusive).
    virtual int maxJobsPerGpu() const { return 1; }
};

}  // namespace cl
