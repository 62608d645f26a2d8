#include "core/policies/backfill_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace cl {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace

std::vector<BackfillScheduler::Take> placeOnServers(int gpus, int nodes, const std::vector<int>& avail) {
    std::vector<BackfillScheduler::Take> takes;
    const int servers = static_cast<int>(avail.size());
    if (nodes <= 1) {
        int best = -1;
        for (int s = 0; s < servers; ++s)
            if (avail[static_cast<std::size_t>(s)] >= gpus &&
                (best < 0 || avail[static_cast<std::size_t>(s)] < avail[static_cast<std::size_t>(best)]))
                best = s;
        if (best >= 0) return {{best, gpus}};
        if (nodes == 1) return {};
    }
    std::vector<int> order;
    for (int s = 0; s < servers; ++s)
        if (avail[static_cast<std::size_t>(s)] > 0) order.push_back(s);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return avail[static_cast<std::size_t>(a)] > avail[static_cast<std::size_t>(b)];
    });
    if (nodes > 1) {
        if (static_cast<int>(order.size()) < nodes || gpus < nodes) return {};
        order.resize(static_cast<std::size_t>(nodes));
        int left = gpus - nodes;  // one GPU on each first
        for (int s : order) {
            const int more = std::min(left, avail[static_cast<std::size_t>(s)] - 1);
            takes.push_back({s, 1 + more});
            left -= more;
        }
        return left == 0 ? takes : std::vector<BackfillScheduler::Take>{};
    }
    int left = gpus;
    for (int s : order) {
        if (left == 0) break;
        const int n = std::min(left, avail[static_cast<std::size_t>(s)]);
        takes.push_back({s, n});
        left -= n;
    }
    return left == 0 ? takes : std::vector<BackfillScheduler::Take>{};
}

BackfillScheduler::BackfillScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                     BackfillKind kind, SlurmConfig config)
    : name_(std::move(name)),
      order_(std::move(order)),
      kind_(kind),
      config_(config),
      next_main_(config.sched_interval),
      next_backfill_(config.bf_interval) {}

double BackfillScheduler::nextTick(double now, double interval) const {
    if (interval <= 0) return now;
    return (std::floor(now / interval) + 1.0) * interval;
}

double BackfillScheduler::expectedEnd(double now, double time_limit, double attained) const {
    if (time_limit <= 0) return kNever;
    return now + std::max(0.0, time_limit - attained);
}

// One ending per server the GPUs (sorted by server, as pools hand them out) are on.
void BackfillScheduler::addEnding(std::span<const int> gpus, double at) {
    for (std::size_t i = 0; i < gpus.size();) {
        const int server = pool_->serverOf(gpus[i]);
        int n = 0;
        while (i < gpus.size() && pool_->serverOf(gpus[i]) == server) ++n, ++i;
        endings_[static_cast<std::size_t>(server)].push_back({at, n});
    }
}

void BackfillScheduler::buildEndings(const SchedulerInput& in) {
    endings_.assign(static_cast<std::size_t>(pool_->servers()), {});
    reservations_.assign(static_cast<std::size_t>(pool_->servers()), {});
    for (const JobState& j : in.active) {
        if (!j.running) continue;
        addEnding(j.held, expectedEnd(in.now, j.time_limit, j.attained));
    }
}

bool BackfillScheduler::startNow(const SchedulerInput& in, const JobState& job, Decision& d,
                                 bool honour_reservations) {
    if (honour_reservations) {
        const double length = job.time_limit > 0 ? job.time_limit : kNever;
        availableOver(job, in.now, length, avail_);
    } else {
        avail_.assign(static_cast<std::size_t>(pool_->servers()), 0);
        for (int s = 0; s < pool_->servers(); ++s)
            if (job.excluded_servers.empty() || !job.excluded_servers[static_cast<std::size_t>(s)])
                avail_[static_cast<std::size_t>(s)] = pool_->serverFree(s);
    }
    takes_ = placeOnServers(job.gpus, job.nodes, avail_);
    if (takes_.empty()) return false;
    Assignment& a = d.start.emplace_back();
    a.job = job.index;
    started_[static_cast<std::size_t>(job.index)] = 1;
    const double end = expectedEnd(in.now, job.time_limit, 0.0);
    for (const Take& t : takes_) {
        pool_->takeOnServer(t.server, t.gpus, a.gpus);
        if (!endings_.empty()) endings_[static_cast<std::size_t>(t.server)].push_back({end, t.gpus});
    }
    changed_ = true;
    return true;
}

void BackfillScheduler::availableOver(const JobState& job, double from, double length,
                                      std::vector<int>& avail) const {
    const int servers = pool_->servers();
    avail.assign(static_cast<std::size_t>(servers), 0);
    const double to = from + length;
    for (int s = 0; s < servers; ++s) {
        if (!job.excluded_servers.empty() && job.excluded_servers[static_cast<std::size_t>(s)]) continue;
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
            // Slurm's backfill reserves whole servers: one reservation over the window closes it,
            // and a job ending exactly when a reservation begins collides with it (backfill.c
            // tests begin_time <= end_time).
            const bool reserved = std::any_of(
                held.begin(), held.end(), [&](const Reservation& r) { return r.from <= to && r.to > from; });
            avail[static_cast<std::size_t>(s)] = reserved ? 0 : freeAt(from);
            continue;
        }
        // Free GPUs only grow as jobs end; reservations take some back from their start on.
        int least = freeAt(from) - reservedAt(from);
        for (const Reservation& r : held)
            if (r.from > from && r.from < to) least = std::min(least, freeAt(r.from) - reservedAt(r.from));
        avail[static_cast<std::size_t>(s)] = std::max(0, least);
    }
}

void BackfillScheduler::mainPass(const SchedulerInput& in, Decision& d, bool event) {
    // Slurm's main scheduler: strict priority order; once a job of a partition cannot start, no
    // later job of that partition starts in this pass (sched_config: "once any job ... in a
    // partition is left pending, no other jobs in that partition will be scheduled").
    std::set<int> blocked;
    int tested = 0;
    for (int j : ranked_) {
        const JobState& job = *in.by_index[j];
        if (job.running || started(j)) continue;
        if (event && ++tested > config_.default_queue_depth) break;
        if (blocked.contains(job.partition)) continue;
        if (!startNow(in, job, d, false)) blocked.insert(job.partition);
    }
}

void BackfillScheduler::backfillPass(const SchedulerInput& in, Decision& d) {
    buildEndings(in);
    for (const Assignment& a : d.start) {  // what the main pass started in this decision
        const JobState& job = *in.by_index[a.job];
        addEnding(a.gpus, expectedEnd(in.now, job.time_limit, 0.0));
    }
    const bool slurm = kind_ == BackfillKind::Slurm;
    const double resolution = slurm ? config_.bf_resolution : 0.0;
    const auto onGrid = [&](double t) {
        return resolution > 0 ? std::floor(t / resolution) * resolution : t;
    };
    const double horizon = slurm ? in.now + config_.bf_window : kNever;
    bool reserved_any = false;
    int tested = 0;
    std::vector<double> times;
    for (int j : ranked_) {
        const JobState& job = *in.by_index[j];
        if (job.running || started(j)) continue;
        if (slurm && ++tested > config_.bf_max_job_test) break;
        const double length = job.time_limit > 0 ? job.time_limit : kNever;
        // When it could start: now, or when a running job or a reservation ends.
        times.assign(1, in.now);
        if (!(kind_ == BackfillKind::Easy && reserved_any)) {
            for (const auto& ends : endings_)
                for (const Ending& e : ends)
                    if (e.at > in.now && e.at <= horizon) times.push_back(e.at);
            for (const auto& held : reservations_)
                for (const Reservation& r : held)
                    if (r.to > in.now && r.to <= horizon) times.push_back(r.to);
            std::sort(times.begin(), times.end());
            times.erase(std::unique(times.begin(), times.end()), times.end());
        }
        for (double t : times) {
            if (t <= in.now) {
                if (startNow(in, job, d, true)) break;
                continue;
            }
            availableOver(job, t, length, avail_);
            const std::vector<Take> takes = placeOnServers(job.gpus, job.nodes, avail_);
            if (takes.empty()) continue;
            const double from = onGrid(t), to = length == kNever ? kNever : onGrid(t + length);
            for (const Take& take : takes)
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
    // The pool follows the running jobs from call to call: only the GPUs of the jobs that ended
    // go back (taking every running job's GPUs at every event was a fifth of a replay's time).
    const bool fresh = !pool_ || pool_cluster_ != in.cluster;
    if (fresh) {
        pool_ = std::make_unique<GpuPool>(*in.cluster);
        pool_cluster_ = in.cluster;
        holding_.clear();
    }
    for (int j : in.completed) {
        if (auto it = holding_.find(j); it != holding_.end()) {
            for (int g : it->second) pool_->release(g);
            holding_.erase(it);
        }
    }
    Decision d;
    int pending = 0;
    for (const JobState& j : in.active) {
        if (j.running) {
            d.keep.push_back(j.index);
            if (fresh) {
                pool_->takeAll(j.held);
                holding_[j.index].assign(j.held.begin(), j.held.end());
            }
        } else {
            ++pending;
        }
    }
    order_->observe(in);
    const bool event = !in.arrived.empty() || !in.completed.empty();
    if (event) changed_ = true;
    const bool slurm = kind_ == BackfillKind::Slurm;
    // slurmctld acts on a submission or completion at its agent's next tick, not at once
    // (SlurmConfig::event_latency).
    if (slurm && event) event_pass_at_ = std::min(event_pass_at_, nextTick(in.now, config_.event_latency));
    if (pending == 0) {
        event_pass_at_ = kNever;  // nothing to act on; the next event starts its own latency
        return d;
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
            next_main_ = std::ceil(in.now / config_.sched_interval) * config_.sched_interval;
        if (next_backfill_ < in.now && !backfill_deferred_)
            next_backfill_ = std::ceil(in.now / config_.bf_interval) * config_.bf_interval;
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
    if (!main && !backfill) return wakeAt(d, time_matters);
    order_->rank(in, ranked_);
    if (started_.size() != in.by_index.size()) started_.assign(in.by_index.size(), 0);
    endings_.clear();
    if (main) mainPass(in, d, event_pass);
    const std::size_t started_by_main = d.start.size();
    if (backfill) {
        changed_ = false;
        backfillPass(in, d);
        if (d.start.size() > started_by_main) changed_ = true;
    }
    for (const Assignment& a : d.start) {
        started_[static_cast<std::size_t>(a.job)] = 0;
        holding_[a.job] = a.gpus;
    }
    if (static_cast<int>(d.start.size()) == pending) return d;
    return slurm ? wakeAt(d, time_matters) : d;
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
