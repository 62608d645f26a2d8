#include "core/policies/sjf_bsbf_mechanism.h"

#include <algorithm>
#include <limits>

#include "core/policies/sharing_benefit.h"

namespace cl {

namespace {
constexpr int kFree = -1;
}

SharingScheduler::SharingScheduler(std::string name, std::unique_ptr<PriorityOrder> order, SharingOptions options,
                                   std::unique_ptr<Placement> placement)
    : name_(std::move(name)), order_(std::move(order)), options_(options), placement_(std::move(placement)) {}

const SharingScheduler::JobSpeed& SharingScheduler::speedOf(const JobState& s, const SchedulerInput& in) {
    JobSpeed& sp = speed_[s.index];
    if (sp.known) return sp;
    sp.known = true;
    const ModelProfile* model = in.profiles ? in.profiles->find(std::string(s.model)) : nullptr;
    if (model) {
        sp.acc = accumulationProfileOf(*model);
        sp.fixed_memory_mb = model->gpu_memory_mb;
    }
    if (sp.acc) {
        sp.batch = s.batch_size > 0 ? s.batch_size : sp.acc->default_batch;
        sp.local = localBatch(sp.batch, s.gpus);
        sp.servers = consolidatedServers(s.gpus, sp.acc->reference_gpus_per_server);
        const int ref = std::max(1, largestFittingSubBatch(*sp.acc, sp.local, sp.acc->reference_gpu_memory_mb));
        sp.reference_time = accumulatedIterationTime(*sp.acc, s.gpus, sp.servers, sp.batch, ref);
    }
    return sp;
}

// The job's own solo iteration time (as the engine resolved it) scaled by Eq. 7 from the
// reference sub-batch to `sub_batch`.
double SharingScheduler::soloTimeAt(const JobState& s, const JobSpeed& sp, int sub_batch) const {
    if (!sp.acc || sp.reference_time <= 0) return s.base_iter_time;
    return s.base_iter_time * accumulatedIterationTime(*sp.acc, s.gpus, sp.servers, sp.batch, sub_batch) /
           sp.reference_time;
}

double SharingScheduler::memoryAt(const JobSpeed& sp, int sub_batch) const {
    return sp.acc ? workerMemoryMb(*sp.acc, sub_batch) : sp.fixed_memory_mb;
}

int SharingScheduler::fullSubBatch(const JobSpeed& sp, double gpu_memory_mb) const {
    if (!sp.acc) return 1;
    return std::max(1, largestFittingSubBatch(*sp.acc, sp.local, gpu_memory_mb));
}

double SharingScheduler::interference(std::string_view, std::string_view partner, const JobSpeed& sp) const {
    if (options_.interference > 0) return options_.interference;
    if (sp.acc) {
        auto it = sp.acc->interference.find(std::string(partner));
        if (it != sp.acc->interference.end()) return it->second;
    }
    return kDefaultInterference;
}

bool SharingScheduler::startShared(const JobState& n, const SchedulerInput& in, std::vector<int>& holder,
                                   Decision& d) {
    const int total = static_cast<int>(holder.size()) / 2;
    const JobSpeed& spn = speedOf(n, in);
    int free_count = 0;
    int single_count = 0;
    for (int g = 0; g < total; ++g) {
        if (holder[2 * g] == kFree) ++free_count;
        else if (holder[2 * g + 1] == kFree) ++single_count;
    }
    if (free_count + single_count < n.gpus) return false;

    // Candidate partners: running jobs alone on at least one GPU, each with the GPUs where it
    // is alone (in index order) and the sub-batch N would train at next to it.
    struct Candidate {
        int job;
        std::vector<int> gpus;
        int sub_batch;
        double jct_sum;
    };
    std::vector<Candidate> candidates;
    std::vector<int> slot(in.by_index.size(), -1);
    for (int g = 0; g < total; ++g) {
        const int r = holder[2 * g];
        if (r == kFree || holder[2 * g + 1] != kFree) continue;
        if (slot[r] < 0) {
            slot[r] = static_cast<int>(candidates.size());
            candidates.push_back({r, {}, 0, 0.0});
        }
        candidates[slot[r]].gpus.push_back(g);
    }
    std::vector<Candidate> sharers;
    for (Candidate& c : candidates) {
        const JobState& r = *in.by_index[c.job];
        const JobSpeed& spr = speedOf(r, in);
        double room = std::numeric_limits<double>::infinity();
        for (int g : c.gpus) room = std::min(room, gpu_memory_mb_[g]);
        room -= memoryAt(spr, running_[c.job].sub_batch);
        auto fits = [&](int b) { return memoryAt(spn, b) <= room; };
        const double xi_n = interference(n.model, r.model, spn);
        const double xi_r = interference(r.model, n.model, spr);
        const double remaining_n = n.remaining > 0 ? n.remaining : n.iterations;
        auto solo = [&](int b) { return remaining_n * soloTimeAt(n, spn, b); };
        if (options_.mode == SharingMode::FirstFit) {
            for (int b : halvingSubBatches(spn.local))
                if (fits(b)) {
                    c.sub_batch = b;
                    c.jct_sum = sharedJctSum({r.remaining * r.base_iter_time, solo(b), xi_r, xi_n});
                    break;
                }
            if (c.sub_batch > 0) sharers.push_back(std::move(c));
            continue;
        }
        SubBatchChoice choice = bestSubBatch(spn.local, r.remaining * r.base_iter_time, xi_r, xi_n, solo, fits);
        if (!choice.share) continue;
        c.sub_batch = choice.sub_batch;
        c.jct_sum = choice.jct_sum;
        sharers.push_back(std::move(c));
    }
    // Both take partners in ascending order of the pair's JCT sum (Algorithm 1, line 16); FFS
    // differs only in taking every partner that fits, at the largest sub-batch that fits.
    std::stable_sort(sharers.begin(), sharers.end(),
                     [](const Candidate& a, const Candidate& b) { return a.jct_sum < b.jct_sum; });

    std::vector<int> chosen;
    for (int g = 0; g < total && static_cast<int>(chosen.size()) < n.gpus; ++g)
        if (holder[2 * g] == kFree) chosen.push_back(g);
    int sub_batch = std::numeric_limits<int>::max();
    for (const Candidate& c : sharers) {
        if (static_cast<int>(chosen.size()) >= n.gpus) break;
        sub_batch = std::min(sub_batch, c.sub_batch);
        for (int g : c.gpus) {
            if (static_cast<int>(chosen.size()) >= n.gpus) break;
            chosen.push_back(g);
        }
    }
    if (static_cast<int>(chosen.size()) < n.gpus) return false;

    for (int g : chosen) {
        if (holder[2 * g] == kFree) {
            holder[2 * g] = n.index;
            free_->take(g);
        } else {
            holder[2 * g + 1] = n.index;
        }
    }
    running_[n.index] = {sub_batch, 1.0};
    d.start.push_back({n.index, std::move(chosen)});
    return true;
}

Decision SharingScheduler::schedule(const SchedulerInput& in) {
    const int total = in.cluster->totalGpus();
    if (cluster_ != in.cluster) {
        free_ = std::make_unique<GpuPool>(*in.cluster);
        gpu_memory_mb_.assign(total, 0.0);
        const std::vector<int> offsets = in.cluster->gpuOffsets();
        for (std::size_t s = 0; s < in.cluster->servers.size(); ++s)
            for (int g = offsets[s]; g < offsets[s + 1]; ++g)
                gpu_memory_mb_[g] = in.cluster->servers[s].gpu_memory_gb * 1024.0;
        cluster_ = in.cluster;
    }
    if (speed_.size() < in.by_index.size()) {
        speed_.resize(in.by_index.size());
        running_.resize(in.by_index.size());
    }
    order_->observe(in);

    // Up to two holders per GPU: holder[2g], holder[2g+1].
    std::vector<int> holder(2 * static_cast<std::size_t>(total), kFree);
    free_->reset();
    for (const JobState& s : in.active) {
        if (!s.running) continue;
        for (int g : s.held) {
            if (holder[2 * g] == kFree) {
                holder[2 * g] = s.index;
                free_->take(g);
            } else {
                holder[2 * g + 1] = s.index;
            }
        }
    }

    Decision d;
    order_->rank(in, ranked_);
    for (int j : ranked_) {
        const JobState& s = *in.by_index[j];
        if (s.running || s.gpus > total) continue;
        Assignment a{j, {}};
        if (free_->totalFree() >= s.gpus && placement_->place(s.gpus, *free_, a.gpus)) {
            for (int g : a.gpus) holder[2 * g] = j;
            running_[j] = {0, 1.0};
            d.start.push_back(std::move(a));
        } else {
            startShared(s, in, holder, d);
        }
    }

    // Every running job's speed from who shares its GPUs now: sharing jobs run at xi times
    // their time at their sub-batch; a job alone returns to its full batch.
    auto emit = [&](int j, std::vector<int> gpus) {
        const JobState& s = *in.by_index[j];
        const JobSpeed& sp = speedOf(s, in);
        double xi = 1.0;
        double room = std::numeric_limits<double>::infinity();
        for (int g : gpus) {
            room = std::min(room, gpu_memory_mb_[g]);
            const int other = holder[2 * g] == j ? holder[2 * g + 1] : holder[2 * g];
            if (other == kFree) continue;
            xi = std::max(xi, interference(s.model, in.by_index[other]->model, sp));
        }
        Running& state = running_[j];
        if (xi == 1.0 || state.sub_batch <= 0) state.sub_batch = fullSubBatch(sp, room);
        state.xi = xi;
        Assignment a{j, std::move(gpus)};
        a.iteration_time = xi * soloTimeAt(s, sp, state.sub_batch);
        if (sp.acc) {
            a.sub_batch = state.sub_batch;
            a.accumulation_steps = (sp.local + state.sub_batch - 1) / state.sub_batch;
            a.interference = xi;
        }
        return a;
    };
    std::vector<Assignment> started = std::move(d.start);
    d.start.clear();
    for (const JobState& s : in.active)
        if (s.running) d.start.push_back(emit(s.index, std::vector<int>(s.held.begin(), s.held.end())));
    for (Assignment& a : started) d.start.push_back(emit(a.job, std::move(a.gpus)));
    return d;
}

}  // namespace cl
