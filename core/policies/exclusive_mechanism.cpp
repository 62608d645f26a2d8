#include "core/policies/exclusive_mechanism.h"

#include <algorithm>
#include <limits>

#include "core/policies/node_placement.h"

namespace cl {

ExclusiveScheduler::ExclusiveScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                       std::unique_ptr<Placement> placement, ExclusiveOptions options)
    : name_(std::move(name)), order_(std::move(order)), placement_(std::move(placement)), options_(options) {}

void ExclusiveScheduler::ensurePool(const Cluster& cluster) {
    if (pool_ && pool_cluster_ == &cluster) return;
    pool_ = std::make_unique<GpuPool>(cluster);
    occupied_ = std::make_unique<GpuPool>(cluster);
    held_of_.clear();
    pool_cluster_ = &cluster;
    counts_decide_ = placement_->decidesByFreeCounts() && counts_.assign(cluster);
}

// The GPUs that running jobs hold, kept from decision to decision: a job holds what its last
// start gave it until it stops (the engine applies every decision as given).
void ExclusiveScheduler::forgetCompleted(const SchedulerInput& in) {
    if (held_of_.size() < in.by_index.size()) held_of_.resize(in.by_index.size());
    for (int j : in.completed) {
        for (int g : held_of_[j]) occupied_->release(g);
        held_of_[j].clear();
    }
}

void ExclusiveScheduler::noteDecision(const SchedulerInput& in, const Decision& d) {
    if (d.keep.size() != running_) {  // some running job stops or moves
        if (kept_.size() < in.by_index.size()) kept_.resize(in.by_index.size(), 0);
        for (int j : d.keep) kept_[j] = 1;
        for (const JobState& s : in.active) {
            if (!s.running || kept_[s.index]) continue;
            for (int g : held_of_[s.index]) occupied_->release(g);
            held_of_[s.index].clear();
        }
        for (int j : d.keep) kept_[j] = 0;
    }
    for (const Assignment& a : d.start) {
        held_of_[a.job] = a.gpus;
        for (int g : a.gpus) occupied_->take(g);
    }
}

std::vector<Assignment> ExclusiveScheduler::packFresh(const SchedulerInput& in,
                                                      const std::vector<int>& jobs) {
    std::vector<Assignment> out;
    packFresh(in, jobs, &out, nullptr);
    return out;
}

void ExclusiveScheduler::packFresh(const SchedulerInput& in, const std::vector<int>& jobs,
                                   std::vector<Assignment>* placed, std::vector<int>* admitted) {
    // Smallest demand among the jobs not yet considered: once the free GPUs fall below it,
    // nobody else can fit and the walk stops.
    demand_.resize(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) demand_[i] = in.by_index[jobs[i]]->gpus;
    suffix_min_.resize(jobs.size() + 1);
    suffix_min_[jobs.size()] = std::numeric_limits<int>::max();
    for (std::size_t i = jobs.size(); i-- > 0;) suffix_min_[i] = std::min(suffix_min_[i + 1], demand_[i]);
    if (!placed && counts_decide_ && !in.servers_requested) {  // admission only, by free counts
        counts_.reset();
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            if (counts_.total_free < suffix_min_[i]) break;
            if (placement_->admit(demand_[i], counts_)) admitted->push_back(jobs[i]);
        }
        return;
    }
    pool_->reset();
    pool_->setCountsOnly(placed == nullptr);  // admission depends on free counts alone
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (pool_->totalFree() < suffix_min_[i]) break;
        const JobState& job = *in.by_index[jobs[i]];
        if (placed) {
            Assignment a{jobs[i], {}};
            a.gpus.reserve(job.gpus);
            if (place(job, a.gpus)) placed->push_back(std::move(a));
        } else {
            scratch_gpus_.clear();
            if (place(job, scratch_gpus_)) admitted->push_back(jobs[i]);
        }
    }
    pool_->setCountsOnly(false);
}

bool ExclusiveScheduler::place(const JobState& job, std::vector<int>& out) {
    const GpuPool::Restriction to_its_servers(*pool_, job.excluded_servers);
    return placeJob(*placement_, job.gpus, job.nodes, *pool_, out);
}

bool ExclusiveScheduler::packAround(const SchedulerInput& in, const std::vector<int>& jobs, Decision& d,
                                    bool skip_unfit, bool all_running) {
    // The pool starts as what the running jobs among `jobs` hold: what all running jobs hold,
    // less those of the others. The same busy GPUs as taking each one's, with less work.
    pool_->copyStateFrom(*occupied_);
    if (!all_running) {
        if (kept_.size() < in.by_index.size()) kept_.resize(in.by_index.size(), 0);
        for (int j : jobs) kept_[j] = 1;
        for (const JobState& s : in.active)
            if (s.running && !kept_[s.index])
                for (int g : s.held) pool_->release(g);
        for (int j : jobs) kept_[j] = 0;
    }
    d.keep.clear();
    d.start.clear();
    for (int j : jobs)
        if (in.by_index[j]->running) d.keep.push_back(j);
    for (int j : jobs) {
        const JobState& s = *in.by_index[j];
        if (s.running) continue;
        if (pool_->totalFree() == 0) {
            if (skip_unfit) break;
            return false;
        }
        Assignment a{j, {}};
        a.gpus.reserve(s.gpus);
        if (place(s, a.gpus)) {
            d.start.push_back(std::move(a));
        } else if (!skip_unfit) {
            return false;
        }
    }
    return true;
}

Decision ExclusiveScheduler::decide(const SchedulerInput& in) {
    Decision d;
    int waiting = 0;
    int waiting_gpus = 0;
    int running_gpus = 0;
    for (const JobState& s : in.active) {
        if (s.running) {
            running_gpus += s.gpus;
            continue;
        }
        ++waiting;
        waiting_gpus += s.gpus;
    }
    running_ = in.active.size() - static_cast<std::size_t>(waiting);
    d.keep.reserve(running_);
    const bool sticky = options_.keep_running_in_place || !order_->preemptive();
    if (waiting == 0 && sticky) {
        for (const JobState& s : in.active) d.keep.push_back(s.index);
        return d;
    }
    order_->rank(in, ranked_);
    if (!order_->preemptive()) {
        packAround(in, ranked_, d, /*skip_unfit=*/true, /*all_running=*/true);
        return d;
    }
    if (!options_.keep_running_in_place) {
        d.start = packFresh(in, ranked_);
        return d;
    }
    const int free_gpus = pool_->totalGpus() - running_gpus;  // Cluster::totalGpus() walks the servers
    if (waiting_gpus <= free_gpus && packAround(in, ranked_, d, /*skip_unfit=*/false, /*all_running=*/true))
        return d;

    // Which jobs the packing admits is all packAround needs; the packed GPUs themselves only
    // when the admitted jobs do not fit around the running ones (the same walk, done again).
    admitted_.clear();
    packFresh(in, ranked_, nullptr, &admitted_);
    if (packAround(in, admitted_, d, /*skip_unfit=*/false, /*all_running=*/false)) return d;
    std::vector<Assignment> packed = packFresh(in, ranked_);
    d.keep.clear();
    d.start = std::move(packed);
    keepHeldGpusWithinServers(in, d.start);
    return d;
}

void ExclusiveScheduler::keepHeldGpusWithinServers(const SchedulerInput& in, std::vector<Assignment>& plan) {
    // The packed plan fixes how many GPUs each job gets on each server; which ids on that
    // server is free to choose, so running jobs keep the ones they hold. (Per server, the
    // plan's jobs in plan order; flat scratch arrays instead of a vector per server and job.)
    const int servers = pool_->servers();
    server_count_.resize(servers, 0);
    entries_.clear();
    for (std::size_t i = 0; i < plan.size(); ++i) {
        touched_.clear();
        for (int g : plan[i].gpus)
            if (server_count_[pool_->serverOf(g)]++ == 0) touched_.push_back(pool_->serverOf(g));
        std::sort(touched_.begin(), touched_.end());
        for (int s : touched_) {
            entries_.push_back({s, static_cast<int>(i), server_count_[s]});
            server_count_[s] = 0;
        }
        plan[i].gpus.clear();
    }
    // Entries by server, keeping plan order within a server (a counting sort).
    server_begin_.assign(servers + 1, 0);
    for (const Entry& e : entries_) ++server_begin_[e.server + 1];
    for (int s = 0; s < servers; ++s) server_begin_[s + 1] += server_begin_[s];
    by_server_.resize(entries_.size());
    fill_.assign(server_begin_.begin(), server_begin_.end() - 1);
    for (const Entry& e : entries_) by_server_[fill_[e.server]++] = e;
    for (int s = 0; s < servers; ++s) {
        const int first = server_begin_[s], last = server_begin_[s + 1];
        if (first == last) continue;
        taken_.assign(pool_->serverCapacity(s), 0);
        for (int k = first; k < last; ++k) {
            Entry& e = by_server_[k];
            Assignment& a = plan[e.plan];
            const JobState& job = *in.by_index[a.job];
            if (job.running)
                for (int g : job.held) {
                    if (e.count == 0) break;
                    if (pool_->serverOf(g) != s) continue;
                    taken_[g - pool_->firstGpu(s)] = 1;
                    a.gpus.push_back(g);
                    --e.count;  // now: still to choose
                }
        }
        int next = 0;
        for (int k = first; k < last; ++k) {
            for (int n = by_server_[k].count; n > 0; --n) {
                while (taken_[next]) ++next;
                taken_[next] = 1;
                plan[by_server_[k].plan].gpus.push_back(pool_->firstGpu(s) + next);
            }
        }
    }
}

Decision ExclusiveScheduler::schedule(const SchedulerInput& in) {
    ensurePool(*in.cluster);
    forgetCompleted(in);
    order_->observe(in);
    Decision d = decide(in);
    noteDecision(in, d);
    d.wakeup = order_->nextChange(in, d);
    return d;
}

}  // namespace cl
