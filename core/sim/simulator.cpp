// The event loop (docs/architecture.md section 2.2). Between events every running job advances
// elapsed / current_iteration_time iterations; events are arrivals, exact completions, the policy's
// own wake-up requests (e.g. a Tiresias demotion) and periodic rounds when a policy has them.
#include "core/sim/simulator.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>

#include "core/metrics/jct_stats.h"
#include "core/metrics/overload_check.h"
#include "core/sim/job_requests.h"
#include "core/sim/job_resolution.h"
#include "core/sim/run_recorder.h"

namespace cl {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxSoloSeconds = 10 * 365.25 * 24 * 3600;
constexpr double kMaxSubmitSeconds = 1e12;

std::string formatSeconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", s);
    return buf;
}

// Chosen: a running job that the decision being applied keeps or starts (apply() only).
enum class Status : std::uint8_t { Future, Pending, Running, Done, Chosen };

// Whether two GPU lists are equal: a loop the compiler inlines, as lists hold one to a few dozen
// ids and a memcmp call per job and decision was a twentieth of a Muri run.
inline bool sameGpus(std::span<const int> a, std::span<const int> b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

// A job's record, laid out by who reads it (docs/architecture.md section 2.9): the loop visits
// hundreds to thousands of running jobs per event, so each pass should touch few cache lines.
struct alignas(64) EngineJob {
    // What every event reads of a running job (advance, predicted ends, the scheduler's input).
    int gpus = 1;
    int held_count = 0;                   // held() is empty or all gpus of the job
    double current_iteration_time = 0.0;  // on the GPUs it holds now
    double overhead = 0.0;                // restart overhead it pays now (a group may pay more)
    double remaining = 0.0;
    double attained = 0.0;
    double last_update = 0.0;
    double debt = 0.0;  // restart overhead still to pay (clean conventions)
    double predicted_end = kInf;
    // What applying a decision reads: the GPUs it holds, sorted. A job's GPU count never
    // changes, so the list is in the record when it is short (most jobs have at most
    // kInlineGpus GPUs; a list on the heap was a cache miss per job in every pass), else in the
    // engine's arena. held_ids points into the record, which jobs_ never moves after
    // prepareJobs().
    static constexpr int kInlineGpus = 8;
    std::array<int, kInlineGpus> held_inline{};
    int* held_ids = nullptr;
    double speed = 1.0;                // speedOn(held), set when it takes its GPUs
    double solo_iteration_time = 0.0;  // reference-GPU iteration time
    double own_overhead = 0.0;         // its profile's restart overhead
    // What sample() adds up per job at every event.
    std::array<double, 4> gpus_x_shares{};  // shares x gpus: what sample() adds per job
    double cpus = 0.0;                      // auxiliary resources held while running (cores, GB)
    double memory_gb = 0.0;
    double submit = 0.0;
    double iterations = 0.0;
    std::array<double, 4> shares{};  // resource use per held GPU while running (TimeSample)
    double speedup = 0.0;            // last recorded AllocationChange's speedup (0 = none recorded)
    double interference = 0.0;
    int sub_batch = 0;  // last recorded BatchChange (0 = none recorded)
    // Counted here and copied into the job's record at the end: a record is a cache line away,
    // and Muri restarts thousands of jobs per event.
    int restarts = 0;
    int preemptions = 0;
    bool allocation_from_gpus = false;   // cpus and memory_gb are held's GPU-proportional share
    std::uint8_t share_stage_count = 0;  // stage_times.size() when 3 or 4 (resourceShares()), else 0
    double first_start = std::numeric_limits<double>::quiet_NaN();
    // Its time limit (0 = none; docs/architecture.md 2.10), and whether its predicted end is that
    // limit rather than the end of its work.
    double time_limit = 0.0;
    bool timing_out = false;
    bool first_start_free = false;  // ResolvedJob::first_start_free
    std::vector<double> stage_times;
    // The stage times resourceShares() reads, in the record: a sharing run recomputes the
    // shares of hundreds of jobs per event, and the vector's heap block was a cache miss each.
    std::array<double, 4> share_stages{};

    std::span<const int> held() const { return {held_ids, static_cast<std::size_t>(held_count)}; }
};

class Engine {
public:
    Engine(const Cluster& cluster, const Trace& trace, const ProfileSet& profiles, Scheduler& scheduler,
           const SimOptions& options)
        : cluster_(cluster),
          trace_(trace),
          profiles_(profiles),
          options_(options),
          conv_(options.conventions),
          scheduler_(&scheduler),
          requests_(cluster, trace, options.keep_unavailable) {
        const std::string policy = scheduler.name();
        max_jobs_per_gpu_ = scheduler_->maxJobsPerGpu();
        recorder_.emplace(cluster, options.record_segments, options.record_series, max_jobs_per_gpu_,
                          options.record_segments ? options.segment_sink : SegmentSink{});
        gpu_holders_.assign(cluster.totalGpus(), 0);
        round_interval_ = scheduler_->roundInterval();
        // Under conventions that charge the restart overhead in every interval between events,
        // each round is such an interval: skipping one would change the result.
        skip_rounds_ = options.skip_idle_rounds && !conv_.overhead_every_interval;
        rounds_only_place_waiting_ = skip_rounds_ && scheduler_->roundsOnlyPlaceWaitingJobs();
        result_.policy = policy;
        result_.conventions = conv_.name;
        gpu_type_.reserve(cluster.totalGpus());
        for (const auto& s : cluster.servers) {
            auto known = std::find(gpu_type_names_.begin(), gpu_type_names_.end(), s.gpu_type);
            const int type = static_cast<int>(known - gpu_type_names_.begin());
            if (known == gpu_type_names_.end()) gpu_type_names_.push_back(s.gpu_type);
            for (int g = 0; g < s.gpus; ++g) {
                gpu_type_.push_back(type);
                gpu_cpu_share_.push_back(static_cast<double>(s.cpu_cores) / s.gpus);
                gpu_memory_share_.push_back(s.memory_gb / s.gpus);
            }
        }
        total_gpus_ = cluster.totalGpus();
        total_cpus_ = cluster.totalCpuCores();
        total_memory_gb_ = cluster.totalMemoryGb();
        if (conv_.round_quantized && round_interval_ <= 0)
            throw std::invalid_argument("conventions '" + conv_.name +
                                        "' need a policy with scheduling rounds; '" + policy +
                                        "' has none (use a Synergy mechanism, e.g. fifo+tune)");
        prepareJobs();
        prepareSpeedTable();
    }

    SimResult run() {
        auto started = std::chrono::steady_clock::now();
        prepareOverloadStop();
        prepareMissedStops();
        loop();
        for (std::size_t j = 0; j < records_.size(); ++j) {
            records_[j].restarts = jobs_[j].restarts;
            records_[j].preemptions = jobs_[j].preemptions;
            records_[j].first_start = jobs_[j].first_start;
        }
        result_.jobs = std::move(records_);
        result_.summary = measuredSummary();
        recorder_->moveInto(result_);
        result_.wall_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return std::move(result_);
    }

private:
    // SimOptions::stop_when_overloaded: the last arrival and the busy share (GPU utilisation
    // times seconds) after it beyond which the run is overloaded; kInf when not applied.
    void prepareOverloadStop() {
        if (!(options_.stop_when_overloaded > 0) || !options_.record_series || jobs_.empty()) return;
        double first = kInf, last = -kInf, capacity = 0.0;
        std::vector<double> alone;
        for (const EngineJob& j : jobs_) {
            first = std::min(first, j.submit);
            last = std::max(last, j.submit);
            alone.push_back(j.iterations * j.solo_iteration_time);
        }
        for (const Server& s : cluster_.servers) {
            const auto it = profiles_.gpu_type_speed.find(s.gpu_type);
            capacity += s.gpus * (it == profiles_.gpu_type_speed.end() ? 1.0 : it->second);
        }
        const double window = last - first;
        std::vector<double> positive;
        for (double a : alone)
            if (a > 0) positive.push_back(a);
        if (!(window > 0) || !(capacity > 0) || positive.empty() ||
            window < kSteadyStateJobLifetimes * median(positive))
            return;
        double tail = 0.0;  // reference GPU-seconds
        for (std::size_t j = 0; j < jobs_.size(); ++j)
            if (alone[j] > 0)
                tail += jobs_[j].gpus * std::clamp(jobs_[j].submit + alone[j] - last, 0.0, alone[j]);
        last_arrival_ = last;
        overload_busy_share_ = options_.stop_when_overloaded * window + tail / capacity;
        overload_window_ = window;
    }

    // SimOptions::stop_when_missed: per target, how many jobs past its seconds make it missed
    // for sure. Nearest-rank percentiles (jct_stats.h): the p-th is above S once more than
    // n - ceil(p n) jobs are; the median once the lower middle one is.
    void prepareMissedStops() {
        if (options_.stop_when_missed.empty() || options_.measure_first != 0 || options_.measure_last >= 0)
            return;
        for (const EngineJob& j : jobs_)
            if (j.time_limit > 0) return;
        const int n = static_cast<int>(arrival_order_.size());
        if (n == 0) return;
        for (const SimOptions::MissedTarget& target : options_.stop_when_missed) {
            if (!stopsWhenMissed(target.metric))
                throw std::invalid_argument("stop_when_missed: no early stop for metric '" + target.metric +
                                            "'");
            MissedStop m;
            m.metric = target.metric;
            m.seconds = target.seconds;
            m.until_end = target.metric != "p95_queueing";
            if (target.metric == "median_jct") {
                m.needed = n - (n % 2 ? n / 2 : n / 2 - 1);
            } else {
                const double p = target.metric == "p99_jct" ? 0.99 : 0.95;
                m.needed = n - std::clamp(static_cast<int>(std::ceil(p * n)), 1, n) + 1;
            }
            missed_stops_.push_back(m);
        }
    }

    struct MissedStop {
        std::string metric;
        double seconds = 0.0;
        bool until_end = false;  // time in the system (JCT); else until the first start
        int needed = 0;          // jobs past `seconds` that make the metric above it
        int late = 0;            // jobs known past it so far
        std::size_t next = 0;    // in arrival_order_: the first job not yet looked at
    };

    // The first target of stop_when_missed now sure to be missed at t, or null. Each job is
    // looked at once, when t passes its submission plus the target's seconds.
    const MissedStop* missedTarget(double t) {
        for (MissedStop& m : missed_stops_) {
            while (m.next < arrival_order_.size()) {
                const int j = arrival_order_[m.next];
                const double due = jobs_[j].submit + m.seconds;
                if (!(due < t)) break;
                const double done = m.until_end
                                        ? (status_[j] == Status::Done ? records_[j].end : kInf)
                                        : (std::isnan(jobs_[j].first_start) ? kInf : jobs_[j].first_start);
                if (done > due) ++m.late;
                ++m.next;
            }
            if (m.late >= m.needed) return &m;
        }
        return nullptr;
    }

    // The note of a run stopped on a missed target, durations as a reader says them.
    std::string missedNote(const MissedStop& missed, double t) const {
        auto readable = [](double seconds) {
            char text[40];
            if (seconds >= 3600)
                std::snprintf(text, sizeof text, "%.3g h", seconds / 3600);
            else if (seconds >= 60)
                std::snprintf(text, sizeof text, "%.3g min", seconds / 60);
            else
                std::snprintf(text, sizeof text, "%.3g s", seconds);
            return std::string(text);
        };
        char note[240];
        std::snprintf(note, sizeof note, "%s: %s is above %s already %s into the run (%d jobs past it)",
                      kStoppedTargetMissedNote, missed.metric.c_str(), readable(missed.seconds).c_str(),
                      readable(t - jobs_[arrival_order_.front()].submit).c_str(), missed.late);
        return note;
    }

    // Called with each sample after the last arrival: adds the busy share since the previous one.
    bool overloaded(const TimeSample& s) {
        if (overload_busy_share_ == kInf) return false;
        if (s.t > last_arrival_)
            busy_share_after_ += last_utilization_ * (s.t - std::max(last_sample_t_, last_arrival_));
        last_utilization_ = s.gpu_utilization;
        last_sample_t_ = s.t;
        return busy_share_after_ > overload_busy_share_;
    }

    Summary measuredSummary() const {
        if (measure_first_ == 0 && measure_last_ == static_cast<int>(result_.jobs.size()) - 1)
            return summarize(result_.jobs);
        std::vector<JobRecord> window(result_.jobs.begin() + measure_first_,
                                      result_.jobs.begin() + measure_last_ + 1);
        return summarize(window);
    }

    void prepareJobs() {
        const int n = static_cast<int>(trace_.jobs.size());
        jobs_.resize(n);
        std::size_t held_arena_size = 0;
        status_.assign(n, Status::Future);
        records_.resize(n);
        for (int i = 0; i < n; ++i) {
            const Job& src = trace_.jobs[i];
            if (src.gpus <= 0)
                throw SimulationError("job '" + src.id + "' (#" + std::to_string(i) + ") asks for " +
                                      std::to_string(src.gpus) + " GPUs");
            const std::string never_fits = requests_.neverFits(i);
            if (!never_fits.empty()) {
                if (options_.strict) throw SimulationError(never_fits);
                result_.left_out.push_back({i, src.id, never_fits});
            }
            if (!std::isfinite(src.submit_time) || src.submit_time < 0)
                throw SimulationError("job '" + src.id + "' (#" + std::to_string(i) +
                                      ") has an invalid submit time");
            // Beyond this, round numbers (time / interval) stop being exact doubles.
            if (src.submit_time > kMaxSubmitSeconds)
                throw SimulationError("job '" + src.id + "' (#" + std::to_string(i) + ") is submitted at " +
                                      formatSeconds(src.submit_time) +
                                      " s, later than the 1e12 s (31,700 years) a simulation accepts");
            ResolvedJob r = resolveJob(src, i, profiles_, conv_);
            if (!std::isfinite(r.solo_iteration_time) || r.solo_iteration_time <= 0 ||
                !std::isfinite(r.iterations * r.solo_iteration_time) || !std::isfinite(r.restart_overhead) ||
                r.restart_overhead < 0)
                throw SimulationError(
                    "job '" + src.id + "' (#" + std::to_string(i) +
                    ") has a non-finite or non-positive length, iteration time or overhead");
            // A job longer than this alone is a unit mistake or a corrupt row, and under a
            // policy with periodic rounds it would cost millions of rounds.
            if (r.iterations * r.solo_iteration_time > kMaxSoloSeconds)
                throw SimulationError("job '" + src.id + "' (#" + std::to_string(i) + ") would run " +
                                      formatSeconds(r.iterations * r.solo_iteration_time) +
                                      " s alone, more than the 10 years (3.2e8 s) a simulation accepts");
            EngineJob& j = jobs_[i];
            j.gpus = src.gpus;
            j.submit = src.submit_time;
            j.iterations = r.iterations;
            j.remaining = r.iterations;
            j.solo_iteration_time = r.solo_iteration_time;
            j.current_iteration_time = r.solo_iteration_time;
            j.overhead = conv_.free_restarts ? 0.0 : r.restart_overhead;
            j.own_overhead = j.overhead;
            j.stage_times = std::move(r.stage_times);
            j.first_start_free = r.first_start_free;
            j.time_limit = requests_.timeLimit(i);
            if (j.stage_times.size() == 3 || j.stage_times.size() == 4) {
                j.share_stage_count = static_cast<std::uint8_t>(j.stage_times.size());
                std::copy(j.stage_times.begin(), j.stage_times.end(), j.share_stages.begin());
            }
            held_arena_size += src.gpus > EngineJob::kInlineGpus ? static_cast<std::size_t>(src.gpus) : 0;
            JobRecord& rec = records_[i];
            rec.index = i;
            rec.id = src.id;
            rec.model = src.model;
            rec.gpus = src.gpus;
            rec.iterations = r.iterations;
            rec.solo_iteration_time = r.solo_iteration_time;
            rec.submit = src.submit_time;
        }
        held_arena_.assign(held_arena_size, 0);
        for (std::size_t i = 0, next = 0; i < jobs_.size(); ++i) {
            EngineJob& j = jobs_[i];
            if (j.gpus <= EngineJob::kInlineGpus) {
                j.held_ids = j.held_inline.data();
            } else {
                j.held_ids = held_arena_.data() + next;
                next += static_cast<std::size_t>(j.gpus);
            }
        }
        arrival_order_.resize(n);
        std::iota(arrival_order_.begin(), arrival_order_.end(), 0);
        // Jobs left out never arrive; they count as finished from the start.
        for (const LeftOutJob& left : result_.left_out) {
            status_[left.index] = Status::Done;
            arrival_order_[left.index] = -1;
            ++finished_;
        }
        std::erase(arrival_order_, -1);
        std::stable_sort(arrival_order_.begin(), arrival_order_.end(),
                         [&](int a, int b) { return jobs_[a].submit < jobs_[b].submit; });
        by_index_.assign(n, nullptr);
        measure_first_ = options_.measure_first;
        measure_last_ = options_.measure_last < 0 ? n - 1 : options_.measure_last;
        if (n > 0 && (measure_first_ < 0 || measure_first_ > measure_last_ || measure_last_ >= n))
            throw SimulationError("the measured jobs " + std::to_string(options_.measure_first) + ".." +
                                  std::to_string(options_.measure_last) + " are not within the trace's " +
                                  std::to_string(n) + " jobs");
        measured_left_ = n > 0 ? measure_last_ - measure_first_ + 1 : 0;
        for (const LeftOutJob& left : result_.left_out)
            if (left.index >= measure_first_ && left.index <= measure_last_) --measured_left_;
    }

    void advanceRoundIndex(double now) {
        if (round_interval_ <= 0) return;
        // Straight to the first round after `now` (after years of idle time, not round by
        // round), then exact to the last bit as the product k x interval is compared.
        if (round_index_ * round_interval_ <= now)
            round_index_ = std::max(round_index_, std::floor(now / round_interval_));
        while (round_index_ * round_interval_ <= now) ++round_index_;
        while (round_index_ > 1 && (round_index_ - 1) * round_interval_ > now) --round_index_;
    }

    double nextEventTime(double now) const {
        if (conv_.round_quantized) return nextBoundary(now);
        double t = next_arrival_ < arrival_order_.size() ? jobs_[arrival_order_[next_arrival_]].submit : kInf;
        t = std::min(t, earliest_end_);  // running_ and its predicted ends are as apply() left them
        if (wakeup_ > now) t = std::min(t, wakeup_);
        // Periodic rounds (k x interval) while jobs run; with nothing running a round could
        // not change anything that the last event did not already try, nor with nobody
        // waiting under a policy whose rounds only place waiting jobs.
        const bool nobody_waits = active_.size() == running_.size();
        const bool idle_round =
            nobody_waits &&
            (rounds_only_place_waiting_ ||
             (skip_rounds_ && !decision_changed_ && scheduler_->roundsRepeatWhenUnchanged(running_.size())));
        if (round_interval_ > 0 && !running_.empty() && !idle_round)
            t = std::min(t, round_index_ * round_interval_);
        return t;
    }

    // Round-quantized engine: the next round boundary while jobs run; when nothing runs, the
    // boundary at or after the next arrival (nothing else can change anything).
    double nextBoundary(double now) const {
        if (!running_.empty()) return round_index_ * round_interval_;
        if (next_arrival_ >= arrival_order_.size()) return kInf;
        const double arrival = std::max(now, jobs_[arrival_order_[next_arrival_]].submit);
        return std::ceil(arrival / round_interval_) * round_interval_;
    }

    // Whole iterations per elapsed time; completions are noticed at the boundary.
    void advanceQuantized(double t) {
        for (int j : running_) {
            EngineJob& job = jobs_[j];
            const double elapsed = t - job.last_update;
            job.attained = (job.attained + t) - job.last_update;
            job.last_update = t;
            const double steps = std::floor(elapsed / job.current_iteration_time + 1e-9);
            // Whole iterations only: one longer than a round would never progress.
            if (steps <= 0 && elapsed >= round_interval_)
                throw SimulationError(
                    "job '" + trace_.jobs[j].id + "' takes " + std::to_string(job.current_iteration_time) +
                    " s per iteration, longer than a round (" + std::to_string(round_interval_) +
                    " s): under conventions '" + conv_.name + "' it would never finish");
            job.remaining -= steps;
            if (job.remaining <= 1e-9) {
                job.remaining = 0.0;
                completed_now_.push_back(j);
            }
            refreshState(j);
        }
    }

    // Progress of every running job up to `t`; jobs whose predicted end is `t` complete.
    void advance(double t) {
        if (conv_.round_quantized) return advanceQuantized(t);
        for (int j : running_) {
            EngineJob& job = jobs_[j];
            double elapsed = t - job.last_update;
            // Summed as (attained + t) - last, the authors' order of operations: Tiresias
            // demotion times depend on the last bit.
            job.attained = (job.attained + t) - job.last_update;
            job.last_update = t;
            if (job.predicted_end == t) {
                job.remaining = 0.0;
                completed_now_.push_back(j);
                continue;
            }
            double lost;
            if (conv_.overhead_every_interval) {
                lost = std::min(elapsed, job.overhead);
            } else {
                lost = std::min(elapsed, job.debt);
                job.debt -= lost;
            }
            job.remaining = std::max(0.0, job.remaining - (elapsed - lost) / job.current_iteration_time);
            refreshState(j);
        }
    }

    void complete(int j, double t) {
        EngineJob& job = jobs_[j];
        recorder_->stopJob(j, job.held(), t);
        releaseGpus(job);
        status_[j] = Status::Done;
        job.predicted_end = kInf;
        if (std::isnan(job.first_start)) job.first_start = t;
        JobRecord& rec = records_[j];
        rec.end = t;
        rec.jct = t - job.submit;
        rec.running_time = job.attained;
        rec.pending_time = rec.jct - job.attained;
        rec.completed = !job.timing_out;
        rec.timed_out = job.timing_out;
        rec.queueing_delay = job.first_start - job.submit;
        ++finished_;
        if (j >= measure_first_ && j <= measure_last_) --measured_left_;
    }

    // The job no longer holds its GPUs (it stopped, moves or finished).
    void releaseGpus(EngineJob& job) {
        for (int g : job.held()) busy_gpus_ -= --gpu_holders_[g] == 0;
        job.held_count = 0;
    }

    // The profile's speed factor of the job's model on each GPU type, looked up once per model
    // and type (a map lookup by name per GPU and decision was a tenth of a queued run).
    double speedOn(int j, std::span<const int> gpus) const {
        double speed = kInf;
        const double* factors =
            &speed_table_[static_cast<std::size_t>(model_of_job_[j]) * gpu_type_names_.size()];
        for (int g : gpus) speed = std::min(speed, factors[gpu_type_[g]]);
        return (speed > 0 && std::isfinite(speed)) ? speed : 1.0;
    }

    void prepareSpeedTable() {
        std::vector<const std::string*> models;
        model_of_job_.resize(trace_.jobs.size());
        std::unordered_map<std::string_view, int> model_id;
        for (std::size_t i = 0; i < trace_.jobs.size(); ++i) {
            const std::string& m = trace_.jobs[i].model;
            auto [it, fresh] = model_id.emplace(m, static_cast<int>(models.size()));
            if (fresh) models.push_back(&m);
            model_of_job_[i] = it->second;
        }
        speed_table_.clear();
        speed_table_.reserve(models.size() * gpu_type_names_.size());
        for (const std::string* m : models)
            for (const std::string& type : gpu_type_names_)
                speed_table_.push_back(profiles_.speedFactor(*m, type));
    }

    [[noreturn]] void invalidDecision(const std::string& why) const {
        throw SimulationError("policy '" + result_.policy + "' returned an invalid decision: " + why);
    }

    // Checks a decision before anything changes (docs/architecture.md section 2.4) and marks
    // its jobs: running jobs it keeps or starts become Status::Chosen, started jobs are marked
    // in scratch_chosen_ (cleared again by apply()). Per start it notes whether the job runs on
    // exactly the GPUs it holds (scratch_same_), else its GPUs sorted (scratch_targets_), and
    // which running jobs move (movers_).
    void checkAndMark(const Decision& d) {
        // Marks of the jobs this decision starts; cleared again in apply() (a whole-trace fill
        // per event was a tenth of a run's time on a large trace). Running jobs it keeps or
        // starts are marked Status::Chosen instead until the stops are done, so that the passes
        // over the (hundreds of) running jobs read one array.
        std::vector<char>& chosen = scratch_chosen_;
        if (chosen.size() != jobs_.size()) chosen.assign(jobs_.size(), 0);
        // Locals: a store through the byte array may alias anything, so the compiler would
        // reload jobs_.size() and status_.data() at every job otherwise.
        const int job_count = static_cast<int>(jobs_.size());
        Status* const status = status_.data();
        for (int j : d.keep) {
            if (j < 0 || j >= job_count || status[j] != Status::Running)
                invalidDecision("keeps job #" + std::to_string(j) + " which is not running");
            status[j] = Status::Chosen;
        }
        // Once per decision: totalGpus() walks the servers, and a 1,024-GPU job on 256 servers
        // checked it per GPU made each decision O(GPUs x servers).
        const int total_gpus = total_gpus_;
        // Each start's GPUs, sorted: checked here, taken in apply() (buffers reused across
        // decisions).
        std::vector<std::vector<int>>& target = scratch_targets_;
        if (target.size() < d.start.size()) target.resize(d.start.size());
        // Per start: 1 when the job runs on and keeps exactly its GPUs (no target then).
        std::vector<char>& same = scratch_same_;
        same.assign(d.start.size(), 0);
        movers_.clear();  // the running jobs given other GPUs (indices into d.start)
        running_started_ = 0;
        for (std::size_t i = 0; i < d.start.size(); ++i) {
            const Assignment& a = d.start[i];
            if (a.job < 0 || a.job >= static_cast<int>(jobs_.size()) || chosen[a.job] ||
                (status_[a.job] != Status::Pending && status_[a.job] != Status::Running) ||
                static_cast<int>(a.gpus.size()) != jobs_[a.job].gpus)
                invalidDecision("start of job #" + std::to_string(a.job));
            chosen[a.job] = 1;
            const bool was_running = status_[a.job] == Status::Running;
            if (was_running) status_[a.job] = Status::Chosen;
            running_started_ += was_running;
            // A running job given exactly the GPUs it holds (sorted, distinct, in range: checked
            // when it took them) needs no sorted copy. Sharing mechanisms re-assign thousands of
            // running jobs per event, most of them in place (docs/architecture.md section 2.9).
            if (was_running && sameGpus(a.gpus, jobs_[a.job].held())) {
                same[i] = 1;
                continue;
            }
            for (int g : a.gpus)
                if (g < 0 || g >= total_gpus)
                    invalidDecision("GPU id " + std::to_string(g) + " out of range");
            std::vector<int>& sorted = target[i];
            sorted.assign(a.gpus.begin(), a.gpus.end());
            std::sort(sorted.begin(), sorted.end());
            if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
                invalidDecision("job #" + std::to_string(a.job) + " given the same GPU twice");
            if (requests_.constrained(a.job))
                if (const std::string why = requests_.violation(a.job, sorted); !why.empty())
                    invalidDecision(why);
            same[i] = was_running && sameGpus(sorted, jobs_[a.job].held());
            if (was_running && !same[i]) movers_.push_back(i);
        }
    }

    // Every running job that the decision neither keeps nor starts stops and waits again.
    void stopUnchosen(double t, const Decision& d) {
        // The kept and the started running jobs are distinct running jobs (checkAndMark): when
        // they are as many as the running jobs, none stops, and the pass over them is saved (a
        // non-preemptive policy keeps hundreds at every event; docs/architecture.md 2.9).
        if (d.keep.size() + running_started_ == running_.size()) return;
        const Status* const status = status_.data();
        for (int j : running_) {
            if (status[j] == Status::Chosen) continue;
            EngineJob& job = jobs_[j];
            recorder_->stopJob(j, job.held(), t);
            releaseGpus(job);
            status_[j] = Status::Pending;
            job.predicted_end = kInf;
            job.current_iteration_time =
                job.solo_iteration_time;  // waiting jobs are ranked at reference speed
            job.overhead = job.own_overhead;
            job.speedup = 0.0;
            job.sub_batch = 0;
            ++job.preemptions;
            decision_changed_ = true;
            stopped_.push_back(j);
        }
    }

    void apply(const Decision& d, double t) {
        checkAndMark(d);
        std::vector<char>& chosen = scratch_chosen_;
        const std::vector<std::vector<int>>& target = scratch_targets_;
        const std::vector<char>& same = scratch_same_;
        Status* const status = status_.data();
        decision_changed_ = false;
        // Stop first so that GPUs are free for the jobs that start or move.
        stopUnchosen(t, d);
        // Jobs that move release their old GPUs before anyone takes new ones. (Started jobs
        // stay marked until they are applied below; kept jobs until their ends are predicted.)
        for (std::size_t i : movers_) {
            const Assignment& a = d.start[i];
            EngineJob& job = jobs_[a.job];
            recorder_->stopJob(a.job, job.held(), t);
            releaseGpus(job);
        }
        // Kept jobs were running, so advance(t) has set their last_update to t already.
        running_.assign(d.keep.begin(), d.keep.end());
        // Predicted ends are computed as each start is applied, while its record is in cache; a
        // time overflow is still reported for the first such job in running_'s order.
        double earliest = kInf;  // a local: the member would be stored back at every job
        int first_overflow = -1;
        const auto predictEnd = [&](int j, EngineJob& job) {
            if (conv_.round_quantized) {
                job.predicted_end = kInf;  // completions are noticed at round boundaries
                return;
            }
            double debt = conv_.overhead_every_interval ? 0.0 : job.debt;
            job.predicted_end = t + debt + job.remaining * job.current_iteration_time;
            // Ended at its limit, counted in wall time holding GPUs (Slurm's run time).
            // A job whose work ends at its limit times out, as Slurm records it (TIMEOUT); "at"
            // allows for the rounding of a run time turned into iterations and back, relative to
            // the limit (not to the clock, which may be epoch seconds).
            const double limit_end = t + (job.time_limit - job.attained);
            job.timing_out =
                job.time_limit > 0 && limit_end <= job.predicted_end + 1e-9 * std::max(1.0, job.time_limit);
            if (job.timing_out) job.predicted_end = std::max(t, t + (job.time_limit - job.attained));
            if (!std::isfinite(job.predicted_end) && first_overflow < 0) first_overflow = j;
            earliest = std::min(earliest, job.predicted_end);
        };
        for (int j : d.keep) {  // one pass over the kept jobs: their status back, their ends
            status[j] = Status::Running;
            predictEnd(j, jobs_[j]);
        }
        const int keep_overflow = first_overflow;
        for (std::size_t i = 0; i < d.start.size(); ++i) {
            const Assignment& a = d.start[i];
            EngineJob& job = jobs_[a.job];
            chosen[a.job] = 0;
            job.overhead =
                conv_.free_restarts ? 0.0 : (a.restart_overhead >= 0 ? a.restart_overhead : job.own_overhead);
            if (!same[i]) {
                decision_changed_ = true;
                for (int g : target[i]) {
                    if (++gpu_holders_[g] > max_jobs_per_gpu_)
                        invalidDecision("job #" + std::to_string(a.job) + " given GPU " + std::to_string(g) +
                                        ", which is not free (the policy runs at most " +
                                        std::to_string(max_jobs_per_gpu_) + " job(s) per GPU)");
                    busy_gpus_ += gpu_holders_[g] == 1;
                }
                std::copy(target[i].begin(), target[i].end(), job.held_ids);
                job.held_count = job.gpus;
                job.speed = speedOn(a.job, job.held());
                recorder_->startJob(a.job, job.held(), t);
                if (!conv_.overhead_every_interval)
                    job.debt = job.first_start_free && std::isnan(job.first_start) ? 0.0 : job.overhead;
                ++job.restarts;
                if (std::isnan(job.first_start)) job.first_start = t;
            }
            // The mechanism's speed model: shared iteration time, or the job's own. A job that
            // keeps its GPUs keeps its speed on them, and its shares and GPU-proportional
            // allocation while its iteration time stays (the same arithmetic would give the
            // same bits again).
            const double old_iter_time = job.current_iteration_time, old_cpus = job.cpus,
                         old_memory = job.memory_gb;
            const double speed = job.speed;
            job.current_iteration_time =
                (a.shared_iteration_time > 0 ? a.shared_iteration_time : job.solo_iteration_time) / speed;
            const bool unchanged = same[i] && job.current_iteration_time == old_iter_time;
            if (options_.record_series && !unchanged) {
                job.shares = resourceShares(a.job, speed);
                for (int r = 0; r < 4; ++r) job.gpus_x_shares[r] = job.shares[r] * job.gpus;
            }
            if (!(same[i] && job.allocation_from_gpus && a.cpus <= 0 && a.memory_gb <= 0))
                takeAllocation(a, job, t);
            if (job.current_iteration_time != old_iter_time || job.cpus != old_cpus ||
                job.memory_gb != old_memory)
                decision_changed_ = true;
            recordBatch(a, job, t);
            status_[a.job] = Status::Running;
            job.last_update = t;
            running_.push_back(a.job);
            predictEnd(a.job, job);
        }
        if (first_overflow >= 0)
            throw SimulationError("job '" +
                                  trace_.jobs[keep_overflow >= 0 ? keep_overflow : first_overflow].id +
                                  "' would never finish (time overflow)");
        earliest_end_ = earliest;
    }

    // The CPU and memory a starting or re-allocated job holds: the mechanism's allocation, else
    // its GPU-proportional share of the servers it runs on. Changes of a mechanism's allocation
    // are recorded.
    void takeAllocation(const Assignment& a, EngineJob& job, double t) {
        if (a.cpus > 0 || a.memory_gb > 0) {
            const double speedup =
                a.shared_iteration_time > 0 ? job.solo_iteration_time / a.shared_iteration_time : 1.0;
            if (job.speedup == 0.0 || job.cpus != a.cpus || job.memory_gb != a.memory_gb ||
                job.speedup != speedup)
                allocations_.push_back({a.job, t, a.cpus, a.memory_gb, speedup});
            job.cpus = a.cpus;
            job.memory_gb = a.memory_gb;
            job.speedup = speedup;
            job.allocation_from_gpus = false;
            return;
        }
        job.allocation_from_gpus = true;
        job.cpus = 0.0;
        job.memory_gb = 0.0;
        for (int g : job.held()) {
            job.cpus += gpu_cpu_share_[g];
            job.memory_gb += gpu_memory_share_[g];
        }
    }

    void recordBatch(const Assignment& a, EngineJob& job, double t) {
        if (a.sub_batch <= 0) return;
        const double xi = a.interference > 0 ? a.interference : 1.0;
        if (job.sub_batch == a.sub_batch && job.interference == xi) return;
        batches_.push_back({a.job, t, a.sub_batch, std::max(a.accumulation_steps, 1), xi});
        job.sub_batch = a.sub_batch;
        job.interference = xi;
    }

    // Per running job: the share of its iteration each resource (storage, CPU, GPU, network)
    // is busy, from its stage times (TimeSample documents the rule).
    std::array<double, 4> resourceShares(int j, double speed) const {
        const EngineJob& job = jobs_[j];
        const std::array<double, 4>& st = job.share_stages;
        if (job.share_stage_count == 0 || job.current_iteration_time <= 0) return {0.0, 0.0, 1.0, 0.0};
        const double period = job.current_iteration_time * speed;  // in reference-GPU time
        const auto share = [&](double stage) { return std::clamp(stage / period, 0.0, 1.0); };
        if (job.share_stage_count == 4) return {share(st[0]), share(st[1]), share(st[2]), share(st[3])};
        return {share(st[0]), share(st[0]), share(st[1]),
                share(st[2])};  // Muri: loading+preprocessing, GPU, network
    }

    void sample(double t) {
        if (!options_.record_series) return;
        if (options_.series_queue_only) {
            sampleQueue(t);
            return;
        }
        int pending = 0;
        double blocking = 0.0;
        const bool nobody_waits = active_.size() == running_.size();  // the loop would add nothing
        for (int j : nobody_waits ? std::span<const int>() : std::span<const int>(active_)) {
            if (status_[j] == Status::Running) continue;
            const EngineJob& job = jobs_[j];
            ++pending;
            double waited = (t - job.submit) - job.attained;
            double remaining = job.remaining * job.current_iteration_time;
            if (remaining > 0) blocking += waited / remaining;
        }
        // Busy GPUs and resource use in GPUs' worth. Jobs that share GPUs add up per GPU, and a
        // GPU counts once and is at most fully busy on each resource.
        int busy = 0;
        std::array<double, 4> used{};
        double cpus = 0.0, memory = 0.0;
        if (max_jobs_per_gpu_ <= 1) {
            for (int j : running_) {  // one pass; every sum still adds in running_ order
                const EngineJob& job = jobs_[j];
                cpus += job.cpus;
                memory += job.memory_gb;
                busy += job.gpus;
                for (int r = 0; r < 4; ++r) used[r] += job.gpus_x_shares[r];
            }
        } else {
            if (gpu_load_.size() != static_cast<std::size_t>(total_gpus_))
                gpu_load_.assign(total_gpus_, {-1.0, 0.0, 0.0, 0.0});
            // Without a branch per GPU (whether it is touched first depends on the grouping):
            // a GPU touched first takes the job's shares (what 0 + share gives, but for a
            // negative zero, which the sums below cannot tell apart) and is listed.
            touched_.resize(static_cast<std::size_t>(total_gpus_) + 1);
            std::size_t touched = 0;
            for (int j : running_) {  // one pass; every sum still adds in running_ order
                const EngineJob& job = jobs_[j];
                cpus += job.cpus;
                memory += job.memory_gb;
                const auto& shares = job.shares;
                for (int g : job.held()) {
                    auto& load = gpu_load_[g];
                    const bool first = load[0] < 0;
                    touched_[touched] = g;
                    touched += first;
                    for (int r = 0; r < 4; ++r) load[r] = first ? shares[r] : load[r] + shares[r];
                }
            }
            busy = static_cast<int>(touched);
            for (int g : std::span<const int>(touched_.data(), touched)) {
                for (int r = 0; r < 4; ++r) used[r] += std::min(1.0, gpu_load_[g][r]);
                gpu_load_[g][0] = -1.0;  // untouched again
            }
        }
        TimeSample s;
        s.t = t;
        s.queue_length = pending;
        s.running_jobs = static_cast<int>(running_.size());
        s.blocking_index = pending ? blocking / pending : 0.0;
        const double all = total_gpus_;
        s.gpu_utilization = all > 0 ? busy / all : 0.0;
        s.storage_utilization = all > 0 ? used[0] / all : 0.0;
        s.cpu_utilization = all > 0 ? used[1] / all : 0.0;
        s.gpu_compute_utilization = all > 0 ? used[2] / all : 0.0;
        s.network_utilization = all > 0 ? used[3] / all : 0.0;
        s.cpu_allocated = total_cpus_ > 0 ? cpus / total_cpus_ : 0.0;
        s.memory_allocated = total_memory_gb_ > 0 ? memory / total_memory_gb_ : 0.0;
        recorder_->sample(s);
        if (overloaded(s)) stopped_overloaded_ = true;
    }

    // SimOptions::series_queue_only: what needs no pass over the jobs. Every active job is
    // running or waiting, and a GPU is busy while a job holds it (busy_gpus_).
    void sampleQueue(double t) {
        constexpr double kNotRecorded = std::numeric_limits<double>::quiet_NaN();
        TimeSample s;
        s.t = t;
        s.queue_length = static_cast<int>(active_.size() - running_.size());
        s.running_jobs = static_cast<int>(running_.size());
        s.gpu_utilization = total_gpus_ > 0 ? static_cast<double>(busy_gpus_) / total_gpus_ : 0.0;
        s.blocking_index = s.storage_utilization = s.cpu_utilization = s.gpu_compute_utilization =
            s.network_utilization = s.cpu_allocated = s.memory_allocated = kNotRecorded;
        recorder_->sample(s);
        if (overloaded(s)) stopped_overloaded_ = true;
    }

    // The scheduler's view of an active job: all of it when the job arrives, then only what an
    // event can change (progress, speed, GPUs), for the jobs whose state changed.
    void fillState(JobState& s, int j) const {
        const EngineJob& job = jobs_[j];
        s.index = j;
        s.gpus = job.gpus;
        s.submit = job.submit;
        s.iterations = job.iterations;
        s.duration = trace_.jobs[j].duration;
        s.solo_iteration_time = job.solo_iteration_time;
        s.restart_overhead = job.own_overhead;
        s.stage_times = job.stage_times;
        s.model = trace_.jobs[j].model;
        s.batch_size = trace_.jobs[j].batch_size;
        s.excluded_servers = requests_.excludedServers(j);
        s.nodes = trace_.jobs[j].nodes;
        s.time_limit = job.time_limit;
        s.account = trace_.jobs[j].account;
        s.partition = requests_.partitionOf(j);
        refreshState(s, j);
    }

    // The state of an active job whose progress or holding changed: the running ones as
    // advance() moves them on, those a decision stopped in buildInput(). by_index_ is right
    // then: states_ changes only after advance(), and buildInput() resets the index first.
    void refreshState(int j) {
        if (const JobState* s = by_index_[j])
            refreshState(states_[static_cast<std::size_t>(s - states_.data())], j);
    }

    void refreshState(JobState& s, int j) const {
        const EngineJob& job = jobs_[j];
        s.remaining = job.remaining;
        s.current_iteration_time = job.current_iteration_time;
        s.attained = job.attained;
        s.running = status_[j] == Status::Running;
        s.held = job.held();
    }

    // states_ follows active_ from event to event (docs/architecture.md section 2.9): arrivals
    // are appended and completed jobs erased in loop(); only the jobs whose state can have
    // changed since the last event are refreshed: the running ones (they progressed; advance()
    // refreshes them) and those the last decision stopped. Pending jobs do not change while
    // they wait. Rebuilding every
    // active job's state per event was a fifth of the engine's own time.
    void buildInput(double t, SchedulerInput& in) {
        if (states_.data() != states_base_) {
            stale_from_ = 0;
            states_base_ = states_.data();
        }
        for (std::size_t i = stale_from_; i < states_.size(); ++i) by_index_[states_[i].index] = &states_[i];
        stale_from_ = states_.size();
        for (std::size_t i = fresh_from_; i < states_.size(); ++i) fillState(states_[i], states_[i].index);
        fresh_from_ = states_.size();
        for (int j : stopped_) refreshState(j);  // the running ones advance() refreshed
        stopped_.clear();
        in.now = t;
        in.cluster = &cluster_;
        in.active = states_;
        in.arrived = arrived_now_;
        in.completed = completed_now_;
        in.by_index = by_index_;
        in.profiles = &profiles_;
        in.servers_requested = requests_.anyConstrained() || requests_.anyNodeCount();
    }

    // Completed jobs leave active_ and states_ (the same positions) and the scheduler's index.
    void dropCompleted() {
        const auto done = [&](int j) { return status_[j] == Status::Done; };
        std::erase_if(running_, done);
        auto first = std::find_if(active_.begin(), active_.end(), done);
        const std::size_t from = static_cast<std::size_t>(first - active_.begin());
        for (std::size_t i = from; i < active_.size(); ++i)
            if (done(active_[i])) by_index_[active_[i]] = nullptr;
        std::erase_if(active_, done);
        std::erase_if(states_, [&](const JobState& st) { return done(st.index); });
        stale_from_ = std::min(stale_from_, from);
        fresh_from_ = std::min(fresh_from_, states_.size());
    }

    [[noreturn]] void stuck() const {
        for (int j : active_) {
            if (status_[j] != Status::Pending) continue;
            throw SimulationError("job '" + trace_.jobs[j].id + "' (" + std::to_string(jobs_[j].gpus) +
                                  " GPUs) can never be placed by policy '" + result_.policy +
                                  "' on cluster '" + cluster_.name +
                                  "' (nothing runs and nothing else will happen)");
        }
        throw SimulationError("simulation stalled");
    }

    void loop() {
        double now = 0.0;
        const std::size_t n = jobs_.size();
        while (finished_ < n) {
            advanceRoundIndex(now);
            double t = nextEventTime(now);
            if (t == kInf) stuck();
            advance(t);
            now = t;
            ++result_.events;

            for (int j : completed_now_) complete(j, t);
            if (!completed_now_.empty()) dropCompleted();
            while (next_arrival_ < arrival_order_.size() &&
                   jobs_[arrival_order_[next_arrival_]].submit <= t) {
                int j = arrival_order_[next_arrival_++];
                EngineJob& job = jobs_[j];
                job.last_update = t;
                if (job.iterations <= 0) {  // nothing to compute: done on arrival
                    status_[j] = Status::Running;
                    complete(j, t);
                    continue;
                }
                status_[j] = Status::Pending;
                active_.push_back(j);
                states_.emplace_back().index = j;  // filled by buildInput()
                arrived_now_.push_back(j);
            }

            SchedulerInput in;
            buildInput(t, in);
            Decision& d = decision_;
            scheduler_->scheduleInto(in, d);
            wakeup_ = conv_.round_quantized ? kInf : d.wakeup;
            apply(d, t);
            sample(t);
            arrived_now_.clear();
            completed_now_.clear();
            if (conv_.stop_when_measured_done && measured_left_ == 0) break;
            if (const MissedStop* missed = missedTarget(t)) {
                result_.notes.push_back(missedNote(*missed, t));
                break;
            }
            if (stopped_overloaded_) {
                char note[200];
                std::snprintf(note, sizeof note,
                              "%s: the backlog after the last arrival already takes more than %.0f%% of the "
                              "%.1f-day arrival window to drain",
                              kStoppedOverloadedNote, options_.stop_when_overloaded * 100,
                              overload_window_ / 86400);
                result_.notes.push_back(note);
                break;
            }

            if (options_.progress && (result_.events % 512) == 0 &&
                !options_.progress(n ? static_cast<double>(finished_) / n : 1.0)) {
                result_.cancelled = true;
                break;
            }
        }
        recorder_->finish(now);
        result_.allocations = std::move(allocations_);
        result_.batches = std::move(batches_);
        if (options_.progress && !result_.cancelled) options_.progress(1.0);
    }

    const Cluster& cluster_;
    const Trace& trace_;
    const ProfileSet& profiles_;
    const SimOptions& options_;
    Conventions conv_;
    std::optional<RunRecorder> recorder_;
    // sample()'s per-GPU resource load when jobs share GPUs ([0] < 0: not touched this sample).
    std::vector<std::array<double, 4>> gpu_load_;
    std::vector<int> touched_;
    Scheduler* scheduler_ = nullptr;  // not owned
    int max_jobs_per_gpu_ = 1;        // Scheduler::maxJobsPerGpu()
    std::vector<int> gpu_holders_;    // per GPU: the running jobs that hold it
    int busy_gpus_ = 0;               // GPUs with a holder
    SimResult result_;

    JobRequests requests_;  // what each job asked for: servers, node count, time limit
    std::vector<EngineJob> jobs_;
    std::vector<int> held_arena_;  // the held GPUs of jobs with more than EngineJob::kInlineGpus
    // Per job, apart from the rest: the loops over active jobs test it for every one of them,
    // and 64 share a cache line here.
    std::vector<Status> status_;
    std::vector<JobRecord> records_;
    std::vector<std::string> gpu_type_names_;  // distinct GPU types of the cluster
    std::vector<int> gpu_type_;                // per GPU: index into gpu_type_names_
    std::vector<int> model_of_job_;            // per job: row of speed_table_
    std::vector<double> speed_table_;          // per model and GPU type: the speed factor
    std::vector<double> gpu_cpu_share_;        // per GPU: its server's cores / GPUs
    std::vector<double> gpu_memory_share_;     // per GPU: its server's GB / GPUs
    double total_cpus_ = 0.0;
    double total_memory_gb_ = 0.0;
    std::vector<AllocationChange> allocations_;
    std::vector<BatchChange> batches_;
    int measure_first_ = 0;
    int measure_last_ = -1;
    int measured_left_ = 0;
    std::vector<int> arrival_order_;
    std::size_t next_arrival_ = 0;
    std::size_t finished_ = 0;
    std::vector<int> active_;  // pending + running, arrival order
    std::vector<int> running_;
    std::vector<int> arrived_now_;
    std::vector<int> completed_now_;
    std::vector<JobState> states_;  // per active job, in active_'s order
    std::vector<const JobState*> by_index_;
    const JobState* states_base_ = nullptr;  // states_.data() when by_index_ was last set
    std::size_t stale_from_ = 0;             // by_index_ is right for states_ before this
    std::size_t fresh_from_ = 0;             // states_ from here on are arrivals not yet filled
    std::vector<int> stopped_;               // jobs the last decision stopped
    std::vector<char> scratch_chosen_;
    std::vector<std::vector<int>> scratch_targets_;
    std::vector<char> scratch_same_;
    std::vector<std::size_t> movers_;
    std::size_t running_started_ = 0;  // started jobs of the decision that were running
    Decision decision_;                // the scheduler writes each decision here, reusing its buffers
    int total_gpus_ = 0;
    double earliest_end_ = kInf;  // the smallest predicted end of a running job, set by apply()
    double wakeup_ = kInf;
    double round_interval_ = 0.0;
    bool rounds_only_place_waiting_ = false;
    bool skip_rounds_ = true;       // SimOptions::skip_idle_rounds
    bool decision_changed_ = true;  // the last decision started, stopped, moved or re-sped a job
    double round_index_ = 1.0;
    // SimOptions::stop_when_overloaded (prepareOverloadStop).
    double last_arrival_ = 0.0;
    double overload_busy_share_ = kInf;
    double overload_window_ = 0.0;
    double busy_share_after_ = 0.0;
    double last_utilization_ = 0.0;
    double last_sample_t_ = 0.0;
    bool stopped_overloaded_ = false;
    std::vector<MissedStop> missed_stops_;  // SimOptions::stop_when_missed (prepareMissedStops)
};

}  // namespace

bool stopsWhenMissed(const std::string& metric) {
    return metric == "p95_queueing" || metric == "median_jct" || metric == "p95_jct" || metric == "p99_jct";
}

SimResult simulate(const Cluster& cluster, const Trace& trace, const ProfileSet& profiles,
                   Scheduler& scheduler, const SimOptions& options) {
    if (cluster.totalGpus() <= 0) throw SimulationError("cluster '" + cluster.name + "' has no GPUs");
    Engine engine(cluster, trace, profiles, scheduler, options);
    return engine.run();
}

}  // namespace cl
