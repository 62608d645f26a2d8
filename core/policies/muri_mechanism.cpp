#include "core/policies/muri_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>

#include "core/model/grouping_explanation.h"
#include "core/util/portable_random.h"
#include "core/util/stable_sort_by_key.h"

namespace cl {

MuriScheduler::MuriScheduler(std::string name, MuriOptions options, std::unique_ptr<Placement> placement)
    : name_(std::move(name)),
      options_(std::move(options)),
      placement_(std::move(placement)),
      timer_(options_.contention),
      true_timer_(options_.contention) {
    if (options_.profiling_noise < 0 || options_.profiling_noise >= 1)
        throw std::invalid_argument("profiling noise must be in [0, 1)");
    if (options_.profiling_noise > 0) options_.grouping.force_full_graph = true;  // no two jobs alike
    auto valid = orderNames();
    auto it = std::find(valid.begin(), valid.end(), options_.order);
    if (it == valid.end())
        throw std::invalid_argument("the muri mechanism cannot use order '" + options_.order + "'");
    order_ = static_cast<Order>(it - valid.begin());
}

std::vector<std::string> MuriScheduler::orderNames() {
    return {"fifo", "sjf", "srtf", "srsf", "las", "las2d"};
}

void MuriScheduler::ensurePool(const Cluster& cluster) {
    if (pool_ && pool_cluster_ == &cluster) return;
    pool_ = std::make_unique<GpuPool>(cluster);
    pool_cluster_ = &cluster;
}

// The id of a request (docs/architecture.md 2.10): jobs with the same request share the data of
// their excluded_servers, so the pointer names it.
// A node count is part of the request: a pack is placed on its jobs' number of servers.
int MuriScheduler::requestOf(std::span<const char> excluded_servers, int nodes) {
    if (excluded_servers.empty() && nodes <= 0) return -1;
    const Request request{excluded_servers.empty() ? nullptr : excluded_servers.data(), std::max(nodes, 0)};
    const auto it = std::find(requests_.begin(), requests_.end(), request);
    if (it != requests_.end()) return static_cast<int>(it - requests_.begin());
    requests_.push_back(request);
    return static_cast<int>(requests_.size()) - 1;
}

double MuriScheduler::key(const JobState& j) const {
    switch (order_) {
        case Order::Fifo:
            return j.submit;
        case Order::Sjf:
            return j.iterations * j.solo_iteration_time;
        case Order::Las:
            return j.attained;
        case Order::Las2d:
            return j.attained * j.gpus;
        case Order::Srtf:
        case Order::Srsf:
            break;
    }
    // Remaining time at solo speed; the authors' simulator ranks a job that never ran by
    // the duration its trace states.
    double remaining = (options_.artifact_keys && j.attained == 0.0 && j.duration > 0)
                           ? j.duration
                           : j.remaining * j.solo_iteration_time;
    return order_ == Order::Srsf ? remaining * j.gpus : remaining;
}

// The ranking at this event: the list stably sorted by key. The authors' ranking is one
// persistent list that is sorted by key and then, for placement, by descending GPU count, so
// that ties in key keep the GPU order of the last event (docs/architecture.md section 5.1).
// Sorting the last key ranking by (key, then for jobs already ranked descending GPU count) is
// the same order without the second sort of the whole list, and as the last ranking is nearly
// sorted, the adaptive sort does little work (util/stable_sort_by_key.h). Jobs that arrived
// since keep their arrival order among equal keys, after the ranked ones.
void MuriScheduler::rankByKey(bool any_nan) {
    if (any_nan) {
        // No strict weak order: do literally what the authors' list does (the sorts' NaN
        // fallback decides ties as it always did).
        keyed_.clear();
        for (std::size_t i = 0; i < ranked_; ++i)
            keyed_.emplace_back(-static_cast<double>(job_[list_[i]].gpus), list_[i]);
        mergeSortByKey(keyed_, sort_buffer_);
        for (std::size_t i = 0; i < ranked_; ++i) list_[i] = keyed_[i].second;
        keyed_.clear();
        for (int j : list_) keyed_.emplace_back(job_[j].key, j);
        mergeSortByKey(keyed_, sort_buffer_);
        for (std::size_t i = 0; i < keyed_.size(); ++i) list_[i] = keyed_[i].second;
    } else {
        // The last ranking and the arrivals are sorted apart, then merged (a ranked job first
        // on a tie): an arrival with a small key would otherwise move across the whole list.
        const auto less = [](const RankEntry& a, const RankEntry& b) {
            return a.key < b.key || (a.key == b.key && a.tie < b.tie);
        };
        ranking_.clear();
        arrivals_.clear();
        for (std::size_t i = 0; i < list_.size(); ++i) {
            const int j = list_[i];
            if (i < ranked_)
                ranking_.push_back({job_[j].key, -job_[j].gpus, j});
            else
                arrivals_.push_back({job_[j].key, 0, j});
        }
        stableSortBy(ranking_, ranking_buffer_, less);
        stableSortBy(arrivals_, ranking_buffer_, less);
        std::size_t a = 0, b = 0, out = 0;
        while (a < ranking_.size() && b < arrivals_.size())
            list_[out++] = less(arrivals_[b], ranking_[a]) ? arrivals_[b++].job : ranking_[a++].job;
        while (a < ranking_.size()) list_[out++] = ranking_[a++].job;
        while (b < arrivals_.size()) list_[out++] = arrivals_[b++].job;
    }
    ranked_ = list_.size();
}

Decision MuriScheduler::schedule(const SchedulerInput& in) {
    Decision d;
    scheduleInto(in, d);
    return d;
}

// The ranking, step 1 of the header's list: one persistent list, stably sorted by the order's
// key. Completed jobs leave it in place; arrivals join at its end and get their record.
inline void MuriScheduler::updateList(const SchedulerInput& in) {
    if (!in.completed.empty()) {
        std::size_t kept = 0, kept_ranked = 0;
        for (std::size_t i = 0; i < list_.size(); ++i) {
            if (in.by_index[list_[i]] == nullptr) continue;
            if (i < ranked_) ++kept_ranked;
            list_[kept++] = list_[i];
        }
        list_.resize(kept);
        ranked_ = kept_ranked;
    }
    for (int j : in.arrived)
        if (in.by_index[j]) list_.push_back(j);
    if (job_.size() < in.by_index.size()) job_.resize(in.by_index.size());
    for (int j : in.arrived) {
        const JobState* s = in.by_index[j];
        if (!s) continue;
        MuriJob& job = job_[j];
        job.gpus = s->gpus;
        job.restart_overhead = s->restart_overhead;
        job.request = requestOf(s->excluded_servers, s->nodes);
        job.true_type = true_timer_.typeOf(s->stage_times, s->solo_iteration_time);
        if (options_.profiling_noise > 0) {
            PortableRng rng(deriveSeed(options_.noise_seed, static_cast<std::uint64_t>(j)));
            std::vector<double> noisy(s->stage_times.begin(), s->stage_times.end());
            for (double& t : noisy) t *= 1.0 + options_.profiling_noise * (2.0 * rng.uniform01() - 1.0);
            job.type = timer_.typeOf(noisy, s->solo_iteration_time);
        } else {
            job.type = timer_.typeOf(s->stage_times, s->solo_iteration_time);
        }
    }
}

// Clean conventions: when every active job runs and none shares, the decision keeps them all
// (true, d written); false when the full pass must run.
inline bool MuriScheduler::keepAllWhenQuiet(const SchedulerInput& in, Decision& d) {
    for (const JobState& s : in.active)
        if (!s.running || job_[s.index].shares) return false;
    d.start.clear();
    for (const JobState& s : in.active) d.keep.push_back(s.index);
    return true;
}

// Per-job scratch arrays live across events and only the active jobs' entries are touched
// (three whole-trace arrays per event were most of a deep queue's time).
inline void MuriScheduler::rankActiveJobs(const SchedulerInput& in) {
    bool any_nan = false;
    for (int j : list_) {
        double& job_key = job_[j].key;
        job_key = key(*in.by_index[j]);
        any_nan = any_nan || std::isnan(job_key);
    }
    rankByKey(any_nan);
}

// Candidates: every job that fits opens a slot admitting the next k jobs of its GPU count and
// request (only jobs that may use the same servers share them). Buckets in the order their GPU
// count and request first appear in the ranking; their vectors are kept from event to event.
// The ranking is read into the buckets only as far as the slots need (a deep queue's tail
// cannot be admitted): a bucket first seen further down would have had no candidate and comes
// after every bucket that has one, so the groups are the same.
inline void MuriScheduler::collectCandidates() {
    const int k = options_.grouping.max_group_size;
    std::vector<MuriBucket>& buckets = buckets_;
    std::size_t bucket_count = 0;
    std::vector<int>& chosen = chosen_;
    std::vector<int>& slots = slots_;
    chosen.clear();
    slots.clear();
    std::size_t read = 0;  // list_[0, read) is in the buckets
    const auto readNext = [&] {
        const int j = list_[read++];
        const MuriJob& job = job_[j];
        std::vector<int>& bucket_of_gpus = bucketsOf(job.request);
        if (bucket_of_gpus.size() <= static_cast<std::size_t>(job.gpus))
            bucket_of_gpus.resize(job.gpus + 1, -1);
        int& b = bucket_of_gpus[job.gpus];
        if (b < 0) {
            b = static_cast<int>(bucket_count++);
            if (buckets.size() < bucket_count) buckets.emplace_back();
            buckets[b].gpus = job.gpus;
            buckets[b].request = job.request;
            buckets[b].candidates.clear();
            chosen.push_back(0);
            slots.push_back(0);
        }
        buckets[b].candidates.push_back({j, job.type});
    };
    // The candidate and admission walks only ask whether jobs fit, which every placement
    // decides by free counts per server: the pool lists no GPU until the placement walk.
    pool_->reset();
    pool_->setCountsOnly(true);
    std::vector<int>& scratch = scratch_;
    for (std::size_t i = 0; i < list_.size(); ++i) {
        if (pool_->totalFree() == 0) break;  // nobody else fits (every job needs a GPU)
        while (read <= i) readNext();
        const MuriJob& job = job_[list_[i]];
        if (job.used) continue;
        scratch.clear();
        if (!placeOnItsServers(job.gpus, job.request, scratch)) continue;
        const int b = bucketsOf(job.request)[job.gpus];
        while (buckets[b].candidates.size() < static_cast<std::size_t>(chosen[b] + k) && read < list_.size())
            readNext();
        int up = std::min<int>(chosen[b] + k, static_cast<int>(buckets[b].candidates.size()));
        for (int c = chosen[b]; c < up; ++c) job_[buckets[b].candidates[c].job].used = true;
        chosen[b] = up;
        ++slots[b];
    }
    buckets.resize(bucket_count);
    for (std::size_t b = 0; b < buckets.size(); ++b) {
        buckets[b].candidates.resize(chosen[b]);
        bucketsOf(buckets[b].request)[buckets[b].gpus] = -1;
        buckets[b].request_gpus = 0;  // what the grouping compares a request's demand with
        if (buckets[b].request >= 0) {
            const std::span<const char> excluded = excludedOf(buckets[b].request);
            for (int s = 0; s < pool_->servers(); ++s)
                if (excluded.empty() || !excluded[static_cast<std::size_t>(s)])
                    buckets[b].request_gpus += pool_->serverCapacity(s);
        }
        for (const MuriCandidate& c : buckets[b].candidates) {
            job_[c.job].used = false;  // all clear again for the next event
            job_[c.job].pack = -1;
        }
    }
}

// Autopack: split groups slower than running their members one after the other. The packs
// end up sorted by priority, ties in pack order.
inline void MuriScheduler::autopack(const MuriGrouping& grouping) {
    const std::vector<MuriBucket>& buckets = buckets_;
    std::vector<Pack>& packs = packs_;
    packs.clear();
    pack_jobs_.clear();
    pack_types_.clear();
    for (std::size_t gi = 0; gi < grouping.groups.size(); ++gi) {
        const MuriGrouping::Group& g = grouping.groups[gi];
        const int first = static_cast<int>(pack_jobs_.size());
        double solo_sum = 0.0;
        for (int m : grouping.membersOf(g)) {
            const MuriCandidate& c = buckets[g.bucket].candidates[m];
            pack_jobs_.push_back(c.job);
            pack_types_.push_back(job_[c.job].true_type);
            solo_sum += true_timer_.soloTime(pack_types_.back());
        }
        const std::span<const int> types(pack_types_.data() + first, static_cast<std::size_t>(g.size));
        // The group's time in its best ordering, which is also its shared time unless the
        // worst ordering is asked for (computed once, not again at placement).
        double together = -1.0;
        if (options_.autopack && g.size > 1) {
            together = true_timer_.iterationTime(types, false);
            if (together / solo_sum > 1.0) {
                for (int i = first; i < first + g.size; ++i)
                    packs.push_back({g.gpus, g.bucket, i, 1, job_[pack_jobs_[i]].key});
                continue;
            }
        }
        double priority = job_[pack_jobs_[first]].key;
        for (int i = first; i < first + g.size; ++i) priority = std::min(priority, job_[pack_jobs_[i]].key);
        packs.push_back({g.gpus, g.bucket, first, g.size, priority});
        packs.back().group = static_cast<int>(gi);
        if (!options_.grouping.worst_ordering) packs.back().shared_time = together;
    }
    keyed_.clear();
    for (std::size_t p = 0; p < packs.size(); ++p)
        keyed_.emplace_back(packs[p].priority, static_cast<int>(p));
    // By priority, ties in pack order. Packs come bucket by bucket, in no order a comparison sort
    // could exploit, so a radix sort (stable_sort_by_key.h) does it without mispredicting every
    // other comparison.
    radixSortByKey(keyed_, sort_buffer_);
    sorted_packs_.clear();
    for (const auto& [priority, p] : keyed_) sorted_packs_.push_back(packs[p]);
    packs.swap(sorted_packs_);
}

inline std::span<const int> MuriScheduler::jobsOf(const Pack& pack) const {
    return std::span<const int>(pack_jobs_.data() + pack.first, static_cast<std::size_t>(pack.size));
}

// Admission in priority order: marks each admitted job with its pack; returns how many jobs
// were admitted.
inline std::size_t MuriScheduler::admitPacks() {
    const std::vector<Pack>& packs = packs_;
    std::vector<int>& scratch = scratch_;
    pool_->reset();
    std::size_t admitted_jobs = 0;
    for (std::size_t p = 0; p < packs.size(); ++p) {
        scratch.clear();
        if (!placeOnItsServers(packs[p].gpus, buckets_[packs[p].bucket].request, scratch)) continue;
        for (int j : jobsOf(packs[p])) job_[j].pack = static_cast<int>(p);  // -1 before (above)
        admitted_jobs += static_cast<std::size_t>(packs[p].size);
    }
    return admitted_jobs;
}

// Clean conventions: a group (or single) that already runs together keeps its GPUs.
inline void MuriScheduler::keepPacksInPlace(const SchedulerInput& in) {
    const std::vector<Pack>& packs = packs_;
    std::vector<std::vector<int>>& pack_gpus = pack_gpus_;
    for (std::size_t p = 0; p < packs.size(); ++p) {
        const auto jobs = jobsOf(packs[p]);
        const JobState& first = *in.by_index[jobs[0]];
        if (!first.running || static_cast<int>(first.held.size()) != packs[p].gpus) continue;
        // The other members hold the same GPUs (compared in a loop: lists are short, and a
        // memcmp call per job was a twentieth of a deep queue's time).
        bool together = std::all_of(jobs.begin() + 1, jobs.end(), [&](int j) {
            const JobState& s = *in.by_index[j];
            if (!s.running || s.held.size() != first.held.size()) return false;
            for (std::size_t g = 0; g < s.held.size(); ++g)
                if (s.held[g] != first.held[g]) return false;
            return true;
        });
        bool free =
            std::all_of(first.held.begin(), first.held.end(), [&](int g) { return pool_->isFree(g); });
        bool admitted = job_[jobs[0]].pack == static_cast<int>(p);
        if (!together || !free || !admitted) continue;
        pool_->takeAll(first.held);
        pack_gpus[p].assign(first.held.begin(), first.held.end());
    }
}

// Placement of the admitted packs in descending GPU count, ties in ranking order: the buckets
// by descending GPU count, each in its candidates' (ranking) order. One assignment per placed
// job.
inline void MuriScheduler::placePacks(const SchedulerInput& in, Decision& d, std::size_t admitted_jobs) {
    const std::vector<MuriBucket>& buckets = buckets_;
    std::vector<Pack>& packs = packs_;
    bucket_order_.clear();
    for (std::size_t b = 0; b < buckets.size(); ++b) bucket_order_.push_back(static_cast<int>(b));
    // GPU counts differ but between buckets of different requests, which keep their order.
    std::sort(bucket_order_.begin(), bucket_order_.end(), [&](int a, int b) {
        return buckets[a].gpus > buckets[b].gpus || (buckets[a].gpus == buckets[b].gpus && a < b);
    });
    // The assignments of the last decision are reused with their GPU lists: allocating and
    // growing them at every event was a fifth of a deep queue's time.
    d.start.reserve(admitted_jobs);
    std::size_t starts = 0;
    std::vector<std::vector<int>>& pack_gpus = pack_gpus_;
    if (pack_gpus.size() < packs.size()) pack_gpus.resize(packs.size());
    for (std::size_t p = 0; p < packs.size(); ++p) pack_gpus[p].clear();
    pool_->reset();
    pool_->setCountsOnly(false);
    if (options_.keep_when_nobody_waits) keepPacksInPlace(in);
    for (const int b : bucket_order_)
        for (const MuriCandidate& c : buckets[b].candidates) {
            const int j = c.job;
            const int p = job_[j].pack;
            if (p < 0) continue;
            Pack& pack = packs[p];
            if (pack_gpus[p].empty() && !placeOnItsServers(pack.gpus, buckets[b].request, pack_gpus[p]))
                continue;
            if (starts == d.start.size()) d.start.emplace_back();
            Assignment& a = d.start[starts++];
            std::vector<int> gpus = std::move(a.gpus);
            a = Assignment{};
            a.gpus = std::move(gpus);
            a.gpus.assign(pack_gpus[p].begin(), pack_gpus[p].end());
            a.job = j;
            a.group = p;
            if (pack.size > 1 && pack.shared_time < 0)  // once per group, not per member
                pack.shared_time =
                    true_timer_.iterationTime(std::span<const int>(pack_types_.data() + pack.first,
                                                                   static_cast<std::size_t>(pack.size)),
                                              options_.grouping.worst_ordering);
            a.shared_iteration_time = pack.size > 1 ? pack.shared_time : in.by_index[j]->solo_iteration_time;
            if (pack.restart_overhead < 0) {  // once per group, in member order
                pack.restart_overhead = 0.0;
                for (int member : jobsOf(pack)) pack.restart_overhead += job_[member].restart_overhead;
            }
            a.restart_overhead = pack.restart_overhead;
        }
    d.start.resize(starts);
}

// Marks the jobs that share a GPU after decision d (what keepAllWhenQuiet reads next time).
// Only the jobs of the last decision's groups were marked (the quiet path returns only when
// none is).
inline void MuriScheduler::markSharingJobs(const Decision& d) {
    for (int j : sharing_) job_[j].shares = false;
    sharing_.clear();
    for (const auto& a : d.start)
        if (packs_[a.group].size > 1) {
            job_[a.job].shares = true;
            sharing_.push_back(a.job);
        }
}

// The steps of the header's list, each a member above.
void MuriScheduler::scheduleInto(const SchedulerInput& in, Decision& d) {
    d.keep.clear();
    d.wakeup = std::numeric_limits<double>::infinity();
    ensurePool(*in.cluster);
    updateList(in);
    if (options_.keep_when_nobody_waits && keepAllWhenQuiet(in, d)) return;
    rankActiveJobs(in);
    collectCandidates();
    const MuriGrouping& grouping =
        grouper_.group(buckets_, slots_, in.cluster->totalGpus(), options_.grouping, timer_);
    autopack(grouping);
    const std::size_t admitted_jobs = admitPacks();
    placePacks(in, d, admitted_jobs);
    markSharingJobs(d);
    if (log_) recordGroups(in, d);
}

void MuriScheduler::setGroupingLog(GroupingLog* log) {
    log_ = log;
    grouper_.setExplain(log != nullptr);
}

// The groups decision d placed, with the grouper's notes, as GroupingRecords (job indices,
// weights back from fixed point).
void MuriScheduler::recordGroups(const SchedulerInput& in, const Decision& d) {
    std::vector<char> seen(packs_.size(), 0);
    const auto fromFixed = [](std::int64_t w) { return static_cast<double>(w) / 1e6; };
    for (const Assignment& a : d.start) {
        const Pack& pack = packs_[static_cast<std::size_t>(a.group)];
        if (pack.size < 2 || seen[static_cast<std::size_t>(a.group)]) continue;
        seen[static_cast<std::size_t>(a.group)] = 1;
        GroupingRecord r;
        r.time = in.now;
        r.gpus = pack.gpus;
        std::vector<int> types;
        double solo_sum = 0.0;
        for (int j : jobsOf(pack)) {
            r.jobs.push_back(j);
            types.push_back(job_[j].type);
            solo_sum += true_timer_.soloTime(job_[j].true_type);
        }
        r.gamma = timer_.efficiency(types, options_.grouping.worst_ordering);
        r.speedup = pack.shared_time > 0 ? solo_sum / pack.shared_time : 0.0;
        const MuriBucket& bucket = buckets_[static_cast<std::size_t>(pack.bucket)];
        const MuriGroupNote* note =
            pack.group >= 0 ? grouper_.noteOf(static_cast<std::size_t>(pack.group)) : nullptr;
        if (!note) {
            r.round = -1;
            r.matching_weight = std::numeric_limits<double>::quiet_NaN();
        } else {
            r.round = note->round;
            r.matching_weight = fromFixed(note->matching_weight);
            r.tied_partners = note->tied_partners;
            for (const MuriGroupNote::Alternative& alt : note->alternatives) {
                GroupingAlternative out;
                for (int m : alt.members)
                    out.jobs.push_back(bucket.candidates[static_cast<std::size_t>(m)].job);
                out.gamma = fromFixed(alt.weight);
                out.matching_weight = fromFixed(alt.matching_weight);
                r.alternatives.push_back(std::move(out));
            }
        }
        log_->records.push_back(std::move(r));
    }
}

}  // namespace cl
