#include "core/policies/backfill_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace cl {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace

BackfillScheduler::BackfillScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                     BackfillKind kind, SlurmConfig config)
    : name_(std::move(name)),
      order_(std::move(order)),
      kind_(kind),
      config_(config),
      next_main_(config.sched_interval),
      next_backfill_(config.bf_interval) {}

namespace {

// Slurm's clock counts whole seconds: an event a few ulp before a tick (a measured run time that
// became a model's iterations ends at 20.999999999999996 s instead of 21 s) is at that tick.
constexpr double kTickTolerance = 1e-9;

// The ticks of `interval` at or before `now`.
double ticksUpTo(double now, double interval) {
    return std::floor(now / interval + kTickTolerance);
}

}  // namespace

double BackfillScheduler::nextTick(double now, double interval) const {
    if (interval <= 0) return now;
    return (ticksUpTo(now, interval) + 1.0) * interval;
}

// The first tick at or after now.
double BackfillScheduler::tickAtOrAfter(double now, double interval) const {
    return std::ceil(now / interval - kTickTolerance) * interval;
}

double BackfillScheduler::expectedEnd(double now, double time_limit, double attained) const {
    if (time_limit <= 0) return kNever;
    return now + std::max(0.0, time_limit - attained);
}

// One ending per server the GPUs (sorted by server, as pools hand them out) are on.
void BackfillScheduler::addEnding(const SchedulerInput& in, std::span<const int> gpus, double at) {
    for (std::size_t i = 0; i < gpus.size();) {
        const int server = pool_->serverOf(gpus[i]);
        int n = 0;
        while (i < gpus.size() && pool_->serverOf(gpus[i]) == server) ++n, ++i;
        ready(in, server);
        endings_[static_cast<std::size_t>(server)].push_back({at, n});
    }
}

// A running job's GPUs, and on each server how many.
void BackfillScheduler::hold(int job, std::span<const int> gpus) {
    holding_[job].assign(gpus.begin(), gpus.end());
    for (std::size_t i = 0; i < gpus.size();) {
        const int server = pool_->serverOf(gpus[i]);
        int n = 0;
        while (i < gpus.size() && pool_->serverOf(gpus[i]) == server) ++n, ++i;
        holders_[static_cast<std::size_t>(server)].push_back({job, n});
    }
}

void BackfillScheduler::release(int job) {
    const auto it = holding_.find(job);
    if (it == holding_.end()) return;
    if (const auto r = std::find(running_.begin(), running_.end(), job); r != running_.end())
        running_.erase(r);
    for (int g : it->second) {
        pool_->release(g);
        std::erase_if(holders_[static_cast<std::size_t>(pool_->serverOf(g))],
                      [&](const Holder& h) { return h.job == job; });
    }
    holding_.erase(it);
}

// A pass tests a few jobs, each on the servers of its partitions: only those servers' lists are
// made, when first needed, instead of every running job's end at every pass (docs/architecture.md
// 2.9). The order within a list does not matter (its ends are summed, or sorted).
void BackfillScheduler::ready(const SchedulerInput& in, int s) {
    const auto server = static_cast<std::size_t>(s);
    if (ready_in_[server] == pass_) return;
    ready_in_[server] = pass_;
    std::vector<Ending>& ends = endings_[server];
    ends.clear();
    reservations_[server].clear();
    for (const Holder& h : holders_[server])
        if (const JobState* j = in.by_index[h.job])
            ends.push_back({expectedEnd(in.now, j->time_limit, j->attained), h.gpus});
}

const std::vector<int>& BackfillScheduler::allowedServers(const JobState& job) {
    if (job.excluded_servers.empty()) return all_servers_;
    auto [it, fresh] = allowed_at_.try_emplace(job.excluded_servers.data(), allowed_.size());
    if (fresh) allowed_.emplace_back();
    Allowed& allowed = allowed_[it->second];
    // The same marks at the same address are the same request (an address can be reused by a
    // later run's requests, so the marks are compared).
    if (!fresh && std::ranges::equal(allowed.excluded, job.excluded_servers)) return allowed.servers;
    allowed.excluded.assign(job.excluded_servers.begin(), job.excluded_servers.end());
    allowed.servers.clear();
    for (int s = 0; s < pool_->servers(); ++s)
        if (static_cast<std::size_t>(s) >= allowed.excluded.size() ||
            !allowed.excluded[static_cast<std::size_t>(s)])
            allowed.servers.push_back(s);
    return allowed.servers;
}

void BackfillScheduler::findNodes(const Cluster& cluster) {
    // The servers NODE:TYPE of a node with GPUs of several types come one after another
    // (clusterFromSlurmNodes, section 8.7); every other server is a node of its own.
    node_of_.clear();
    const auto nodeName = [&](std::size_t s) {
        const std::string& name = cluster.servers[s].name;
        return std::string_view(name).substr(0, name.find(':'));
    };
    bool split = false;
    for (std::size_t s = 1; s < cluster.servers.size() && !split; ++s)
        split = cluster.servers[s].name.find(':') != std::string::npos && nodeName(s) == nodeName(s - 1);
    if (!split) return;
    node_of_.resize(cluster.servers.size());
    for (std::size_t s = 0; s < cluster.servers.size(); ++s)
        node_of_[s] =
            s > 0 && cluster.servers[s].name.find(':') != std::string::npos && nodeName(s) == nodeName(s - 1)
                ? node_of_[s - 1]
                : static_cast<int>(s);
}

int BackfillScheduler::nodeFirst(int server) const {
    return node_of_.empty() ? server : node_of_[static_cast<std::size_t>(server)];
}

int BackfillScheduler::nodeLast(int server) const {
    if (node_of_.empty()) return server;
    int last = server;
    while (static_cast<std::size_t>(last + 1) < node_of_.size() &&
           node_of_[static_cast<std::size_t>(last + 1)] == node_of_[static_cast<std::size_t>(server)])
        ++last;
    return last;
}

bool BackfillScheduler::place(const JobState& job, const std::vector<int>& servers) {
    return placeOnServers(job.gpus, job.nodes, avail_, servers, takes_, order_buffer_, node_of_);
}

bool BackfillScheduler::startNow(const SchedulerInput& in, const JobState& job, Decision& d,
                                 bool honour_reservations) {
    const std::vector<int>& servers = allowedServers(job);
    if (honour_reservations) {
        const double length = job.time_limit > 0 ? job.time_limit : kNever;
        availableOver(servers, in.now, length, avail_);
    } else {
        avail_.resize(servers.size());
        for (std::size_t i = 0; i < servers.size(); ++i) avail_[i] = pool_->serverFree(servers[i]);
    }
    if (!place(job, servers)) return false;
    Assignment& a = d.start.emplace_back();
    a.job = job.index;
    started_[static_cast<std::size_t>(job.index)] = 1;
    const double end = expectedEnd(in.now, job.time_limit, 0.0);
    for (const Take& t : takes_) {
        pool_->takeOnServer(t.server, t.gpus, a.gpus);
        if (endings_built_) endings_[static_cast<std::size_t>(t.server)].push_back({end, t.gpus});
    }
    changed_ = true;
    return true;
}

void BackfillScheduler::availableOver(const std::vector<int>& servers, double from, double length,
                                      std::vector<int>& avail) const {
    avail.resize(servers.size());
    const double to = from + length;
    for (std::size_t i = 0; i < servers.size(); ++i) {
        const int s = servers[i];
        const auto& ends = endings_[static_cast<std::size_t>(s)];
        const auto& held = reservations_[static_cast<std::size_t>(s)];
        const auto freeAt = [&](double t) {
            int free = pool_->serverFree(s);
            for (const Ending& e : ends)
                if (e.at <= t) free += e.gpus;
            return free;
        };
        const auto reservedAt = [&](double t) {
            int n = 0;
            for (const Reservation& r : held)
                if (r.from <= t && t < r.to) n += r.gpus;
            return n;
        };
        if (kind_ == BackfillKind::Slurm) {
            // Slurm's backfill reserves whole nodes: one reservation over the window closes the
            // node, every server of it (section 8.7), and a job ending exactly when a reservation
            // begins collides with it (backfill.c tests begin_time <= end_time).
            bool reserved = false;
            for (int t = nodeFirst(s); !reserved && t <= nodeLast(s); ++t)
                reserved = std::any_of(reservations_[static_cast<std::size_t>(t)].begin(),
                                       reservations_[static_cast<std::size_t>(t)].end(),
                                       [&](const Reservation& r) { return r.from <= to && r.to > from; });
            avail[i] = reserved ? 0 : freeAt(from);
            continue;
        }
        // Free GPUs only grow as jobs end; reservations take some back from their start on.
        int least = freeAt(from) - reservedAt(from);
        for (const Reservation& r : held)
            if (r.from > from && r.from < to) least = std::min(least, freeAt(r.from) - reservedAt(r.from));
        avail[i] = std::max(0, least);
    }
}

void BackfillScheduler::endTimes(const std::vector<int>& servers, double now, double horizon) {
    times_.clear();
    for (int s : servers) {
        for (const Ending& e : endings_[static_cast<std::size_t>(s)])
            if (e.at > now && e.at <= horizon) times_.push_back(e.at);
        for (const Reservation& r : reservations_[static_cast<std::size_t>(s)])
            if (r.to > now && r.to <= horizon) times_.push_back(r.to);
    }
    std::sort(times_.begin(), times_.end());
    times_.erase(std::unique(times_.begin(), times_.end()), times_.end());
}

void BackfillScheduler::mainPass(const SchedulerInput& in, Decision& d, bool event) {
    // Slurm's main scheduler: strict priority order; once a job of a partition cannot start, no
    // later job of that partition starts in this pass (sched_config: "once any job ... in a
    // partition is left pending, no other jobs in that partition will be scheduled").
    blocked_.assign(in.cluster->partitions.size() + 1, 0);
    int tested = 0;
    for (int j : ranked_) {
        const JobState& job = *in.by_index[j];
        if (job.running || started(j)) continue;
        if (event && ++tested > config_.default_queue_depth) break;
        const auto partition = static_cast<std::size_t>(job.partition + 1);  // -1: none
        if (partition >= blocked_.size()) blocked_.resize(partition + 1, 0);
        if (blocked_[partition]) continue;
        if (!startNow(in, job, d, false)) blocked_[partition] = 1;
    }
}

void BackfillScheduler::backfillPass(const SchedulerInput& in, Decision& d) {
    ++pass_;
    endings_built_ = true;
    for (const Assignment& a : d.start) {  // what the main pass started in this decision
        const JobState& job = *in.by_index[a.job];
        addEnding(in, a.gpus, expectedEnd(in.now, job.time_limit, 0.0));
    }
    const bool slurm = kind_ == BackfillKind::Slurm;
    const double resolution = slurm ? config_.bf_resolution : 0.0;
    const auto onGrid = [&](double t) {
        return resolution > 0 ? std::floor(t / resolution) * resolution : t;
    };
    const double horizon = slurm ? in.now + config_.bf_window : kNever;
    bool reserved_any = false;
    int tested = 0;
    for (int j : ranked_) {
        const JobState& job = *in.by_index[j];
        if (job.running || started(j)) continue;
        if (slurm && ++tested > config_.bf_max_job_test) break;
        for (int s : allowedServers(job)) ready(in, s);
        if (startNow(in, job, d, true)) continue;
        if (kind_ == BackfillKind::Easy && reserved_any) continue;
        // When it could start later: when a running job or a reservation ends. Only ends on the
        // job's own servers are tried: between two of them its servers only lose GPUs (other
        // reservations reach into its window), so where it did not fit at the earlier one it does
        // not fit at the later (placeOnServers needs no more than the GPUs and servers it had),
        // and the first time it fits is the same as over every end (docs/architecture.md 2.9).
        const std::vector<int>& servers = allowedServers(job);
        const double length = job.time_limit > 0 ? job.time_limit : kNever;
        endTimes(servers, in.now, horizon);
        for (double t : times_) {
            availableOver(servers, t, length, avail_);
            if (!place(job, servers)) continue;
            const double from = onGrid(t), to = length == kNever ? kNever : onGrid(t + length);
            for (const Take& take : takes_)
                reservations_[static_cast<std::size_t>(take.server)].push_back(
                    {from, to, slurm ? pool_->serverCapacity(take.server) : take.gpus});
            reserved_any = true;
            break;
        }
    }
}

bool BackfillScheduler::started(int job) const {
    return job < static_cast<int>(started_.size()) && started_[static_cast<std::size_t>(job)];
}

Decision BackfillScheduler::schedule(const SchedulerInput& in) {
    Decision d;
    decide(in, d);
    return d;
}

void BackfillScheduler::scheduleInto(const SchedulerInput& in, Decision& out) {
    out.keep.clear();
    out.start.clear();
    out.wakeup = kNever;
    decide(in, out);
}

void BackfillScheduler::decide(const SchedulerInput& in, Decision& d) {
    // The pool follows the running jobs from call to call: only the GPUs of the jobs that ended
    // go back (taking every running job's GPUs at every event was a fifth of a replay's time).
    const bool fresh = !pool_ || pool_cluster_ != in.cluster;
    if (fresh) {
        pool_ = std::make_unique<GpuPool>(*in.cluster);
        pool_cluster_ = in.cluster;
        holding_.clear();
        running_.clear();
        const auto servers = static_cast<std::size_t>(pool_->servers());
        holders_.assign(servers, {});
        endings_.assign(servers, {});
        reservations_.assign(servers, {});
        ready_in_.assign(servers, 0);
        pass_ = 0;
        allowed_.clear();
        allowed_at_.clear();
        all_servers_.resize(servers);
        std::iota(all_servers_.begin(), all_servers_.end(), 0);
        findNodes(*in.cluster);
    }
    for (int j : in.completed) release(j);
    if (fresh)
        for (const JobState& j : in.active)
            if (j.running) {
                pool_->takeAll(j.held);
                hold(j.index, j.held);
                running_.push_back(j.index);
            }
    // Every running job stays (no preemption), in the active jobs' order: the kept list, not a
    // pass over every active job's state at every event (docs/architecture.md 2.9).
    d.keep.assign(running_.begin(), running_.end());
    const int pending = static_cast<int>(in.active.size() - running_.size());
    order_->observe(in);
    const bool event = !in.arrived.empty() || !in.completed.empty();
    if (event) changed_ = true;
    const bool slurm = kind_ == BackfillKind::Slurm;
    // slurmctld acts on a submission or completion at its agent's next tick, not at once
    // (SlurmConfig::event_latency).
    if (slurm && event) event_pass_at_ = std::min(event_pass_at_, nextTick(in.now, config_.event_latency));
    if (pending == 0) {
        event_pass_at_ = kNever;  // nothing to act on; the next event starts its own latency
        return;
    }
    // Priorities that change with time change every PriorityCalcPeriod (Slurm's recalculation):
    // a pass between two recalculations over an unchanged queue would decide nothing new.
    const bool time_matters = slurm && order_->rankingChangesWithTime();
    if (time_matters && in.now >= next_recalc_) {
        changed_ = true;
        next_recalc_ = nextTick(in.now, config_.priority_calc_period);
    }
    const bool event_pass = slurm && in.now >= event_pass_at_;
    // Until slurmctld has acted on the event, no pass sees it (nor the GPUs a completion frees):
    // a tick that falls due meanwhile is deferred to the event pass, not lost.
    const bool acting = !slurm || event_pass_at_ == kNever || event_pass;
    if (acting) {
        // A tick that passed while nobody called (nothing changed, so its pass would have
        // decided nothing) is not made up now: the next one is the first at or after now.
        if (next_main_ < in.now && !main_deferred_)
            next_main_ = tickAtOrAfter(in.now, config_.sched_interval);
        if (next_backfill_ < in.now && !backfill_deferred_)
            next_backfill_ = tickAtOrAfter(in.now, config_.bf_interval);
    }
    if (event_pass) event_pass_at_ = kNever;
    const bool main_due = in.now >= next_main_ || main_deferred_;
    const bool backfill_due = in.now >= next_backfill_ || backfill_deferred_;
    const bool main = slurm && config_.main_scheduler && acting && (event_pass || main_due);
    const bool backfill = !slurm || (acting && config_.backfill && backfill_due && changed_);
    main_deferred_ = slurm && !acting && main_due;
    backfill_deferred_ = slurm && !acting && backfill_due;
    if (in.now >= next_main_) next_main_ = nextTick(in.now, config_.sched_interval);
    if (slurm && in.now >= next_backfill_) next_backfill_ = nextTick(in.now, config_.bf_interval);
    if (!main && !backfill) {
        wakeAt(d, time_matters);
        return;
    }
    order_->rank(in, ranked_);
    if (started_.size() != in.by_index.size()) started_.assign(in.by_index.size(), 0);
    endings_built_ = false;
    if (main) mainPass(in, d, event_pass);
    const std::size_t started_by_main = d.start.size();
    if (backfill) {
        changed_ = false;
        backfillPass(in, d);
        if (d.start.size() > started_by_main) changed_ = true;
    }
    for (const Assignment& a : d.start) {
        started_[static_cast<std::size_t>(a.job)] = 0;
        hold(a.job, a.gpus);
        // Where it is among the active jobs: its state's place in SchedulerInput::active.
        const JobState* state = in.by_index[a.job];
        running_.insert(std::upper_bound(running_.begin(), running_.end(), state,
                                         [&](const JobState* s, int j) { return s < in.by_index[j]; }),
                        a.job);
    }
    if (static_cast<int>(d.start.size()) != pending && slurm) wakeAt(d, time_matters);
}

Decision& BackfillScheduler::wakeAt(Decision& d, bool time_matters) const {
    if (kind_ != BackfillKind::Slurm) return d;
    d.wakeup = event_pass_at_;
    // Slurm's passes come at its intervals; a pass over an unchanged queue would decide nothing new.
    if (changed_)
        d.wakeup = std::min(d.wakeup, config_.backfill ? std::min(next_backfill_, next_main_) : next_main_);
    if (time_matters) d.wakeup = std::min(d.wakeup, next_recalc_);
    return d;
}

}  // namespace cl
