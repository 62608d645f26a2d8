#include "core/policies/sjf_bsbf_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/policies/node_placement.h"
#include "core/policies/sharing_benefit.h"

namespace cl {

namespace {
constexpr int kFree = -1;
}

SharingScheduler::SharingScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                   SharingOptions options, std::unique_ptr<Placement> placement)
    : name_(std::move(name)), order_(std::move(order)), options_(options), placement_(std::move(placement)) {}

// The job's speed tables: its own solo iteration time (as the engine resolved it) scaled by
// Eq. 7 from the reference sub-batch to each candidate sub-batch.
const SharingScheduler::JobSpeed& SharingScheduler::speedOf(const JobState& s, const SchedulerInput& in) {
    JobSpeed& sp = speed_[s.index];
    if (sp.known) return sp;
    sp.known = true;
    const ModelProfile* model = in.profiles ? in.profiles->find(std::string(s.model)) : nullptr;
    if (model) sp.acc = accumulationProfileOf(*model);
    if (!sp.acc) {
        sp.subs = {1};
        sp.iter_at = {s.solo_iteration_time};
        sp.memory_at = {model ? model->gpu_memory_mb : 0.0};
        sp.fastest_from = {0};
        return sp;
    }
    sp.plain_interference = sp.acc->interference.empty();
    sp.batch = jobBatch(*sp.acc, s.batch_size, s.gpus);
    sp.local = localBatch(sp.batch, s.gpus);
    sp.servers = consolidatedServers(s.gpus, sp.acc->reference_gpus_per_server);
    const int ref = std::max(1, largestFittingSubBatch(*sp.acc, sp.local, sp.acc->reference_gpu_memory_mb));
    sp.reference_time = accumulatedIterationTime(*sp.acc, s.gpus, sp.servers, sp.batch, ref);
    sp.subs = halvingSubBatches(sp.local);
    for (int b : sp.subs) {
        const double t = accumulatedIterationTime(*sp.acc, s.gpus, sp.servers, sp.batch, b);
        const bool scalable = sp.reference_time > 0 && std::isfinite(t / sp.reference_time);
        sp.iter_at.push_back(s.solo_iteration_time * (scalable ? t / sp.reference_time : 1.0));
        sp.memory_at.push_back(workerMemoryMb(*sp.acc, b));
    }
    sp.fastest_from = fastestFrom(sp.iter_at);
    return sp;
}

int SharingScheduler::fullSubBatch(const JobState& s, const JobSpeed& sp,
                                   const std::vector<int>& gpus) const {
    double memory = std::numeric_limits<double>::infinity();
    for (int g : gpus) memory = std::min(memory, gpu_memory_mb_[g]);
    for (std::size_t i = 0; i < sp.subs.size(); ++i)
        if (sp.memory_at[i] <= memory) return sp.subs[i];
    if (!sp.acc) return 1;  // no memory model: the profile's figure is informative only
    throw std::invalid_argument("job #" + std::to_string(s.index) + " (model '" + std::string(s.model) +
                                "'): one sample needs " +
                                std::to_string(static_cast<long long>(sp.memory_at.back())) +
                                " MB of GPU memory, more than its GPUs have (" +
                                std::to_string(static_cast<long long>(memory)) + " MB)");
}

int SharingScheduler::subIndex(const JobSpeed& sp, int sub_batch) const {
    for (std::size_t i = 0; i < sp.subs.size(); ++i)
        if (sp.subs[i] <= sub_batch) return static_cast<int>(i);
    return static_cast<int>(sp.subs.size()) - 1;
}

double SharingScheduler::interference(std::string_view partner, const JobSpeed& sp) const {
    if (options_.interference > 0) return options_.interference;
    if (!sp.plain_interference) {
        auto it = sp.acc->interference.find(std::string(partner));
        if (it != sp.acc->interference.end()) return it->second;
    }
    return kDefaultInterference;
}

void SharingScheduler::collectPartners(const SchedulerInput& in, const std::vector<int>& holder) {
    partners_.clear();
    free_gpus_ = 0;
    single_gpus_ = 0;
    std::vector<int>& slot = slot_scratch_;
    slot.assign(in.by_index.size(), -1);
    const int total = static_cast<int>(holder.size()) / 2;
    for (int g = 0; g < total; ++g) {
        const int r = holder[2 * g];
        if (r == kFree) {
            ++free_gpus_;
            continue;
        }
        if (holder[2 * g + 1] != kFree) continue;
        ++single_gpus_;
        if (slot[r] < 0) {
            slot[r] = static_cast<int>(partners_.size());
            const JobState& s = *in.by_index[r];
            const JobSpeed& sp = speedOf(s, in);
            Partner p;
            p.job = r;
            const int i = subIndex(sp, running_[r].sub_batch);
            p.remaining_solo = s.remaining * sp.iter_at[i];  // P_R at its own sub-batch
            p.room_mb = -sp.memory_at[i];
            partners_.push_back(std::move(p));
        }
        partners_[slot[r]].gpus.push_back(g);
    }
    for (Partner& p : partners_) {
        double tightest = std::numeric_limits<double>::infinity();
        for (int g : p.gpus) tightest = std::min(tightest, gpu_memory_mb_[g]);
        p.room_mb += tightest;
    }
    partners_valid_ = true;
}

bool SharingScheduler::startShared(const JobState& n, const SchedulerInput& in, std::vector<int>& holder,
                                   Decision& d) {
    if (!partners_valid_) collectPartners(in, holder);
    if (free_gpus_ + single_gpus_ < n.gpus) return false;
    const JobSpeed& spn = speedOf(n, in);
    const double remaining_n = n.remaining > 0 ? n.remaining : n.iterations;

    struct Sharer {
        const Partner* partner;
        int sub_batch;
        double jct_sum;
    };
    std::vector<Sharer> sharers;
    // Requests (docs/architecture.md 2.10): only free GPUs on its own servers, and only partners
    // whose GPUs are all there (a partner is shared with as a whole).
    const std::span<const char> excluded = n.excluded_servers;
    const auto allowed = [&](int g) { return excluded.empty() || !excluded[free_->serverOf(g)]; };
    for (const Partner& p : partners_) {
        const std::span<const int> partner_gpus = in.by_index[p.job]->held;
        if (!excluded.empty() && !std::all_of(partner_gpus.begin(), partner_gpus.end(), allowed)) continue;
        // Sub-batches that fit next to the partner are a suffix of the candidates.
        std::size_t first = 0;
        while (first < spn.subs.size() && spn.memory_at[first] > p.room_mb) ++first;
        if (first == spn.subs.size()) continue;
        const JobState& r = *in.by_index[p.job];
        const JobSpeed& spr = speed_[p.job];
        // FFS: the largest sub-batch that fits; BSBF: Algorithm 2, the fastest that fits.
        const int i =
            options_.mode == SharingMode::FirstFit ? static_cast<int>(first) : spn.fastest_from[first];
        const PairTimes pair{p.remaining_solo, remaining_n * spn.iter_at[i], interference(n.model, spr),
                             interference(r.model, spn)};
        if (options_.mode == SharingMode::BestBenefit && !shareBeatsWaiting(pair)) continue;
        sharers.push_back({&p, spn.subs[i], sharedJctSum(pair)});
    }
    // Both take partners in ascending order of the pair's JCT sum (Algorithm 1, line 16); FFS
    // differs only in taking every partner that fits, at the largest sub-batch that fits.
    std::stable_sort(sharers.begin(), sharers.end(),
                     [](const Sharer& a, const Sharer& b) { return a.jct_sum < b.jct_sum; });

    const int total = static_cast<int>(holder.size()) / 2;
    std::vector<int> chosen;
    for (int g = 0; g < total && static_cast<int>(chosen.size()) < n.gpus; ++g)
        if (holder[2 * g] == kFree && allowed(g)) chosen.push_back(g);
    int sub_batch = std::numeric_limits<int>::max();
    for (const Sharer& s : sharers) {
        if (static_cast<int>(chosen.size()) >= n.gpus) break;
        sub_batch = std::min(sub_batch, s.sub_batch);
        for (int g : s.partner->gpus) {
            if (static_cast<int>(chosen.size()) >= n.gpus) break;
            chosen.push_back(g);
        }
    }
    if (static_cast<int>(chosen.size()) < n.gpus) return false;
    // A node count (docs/architecture.md 2.10): the GPUs chosen are on exactly that many servers.
    if (n.nodes > 0) {
        std::vector<int> servers;
        for (int g : chosen) servers.push_back(free_->serverOf(g));
        std::sort(servers.begin(), servers.end());
        if (std::unique(servers.begin(), servers.end()) - servers.begin() != n.nodes) return false;
    }
    // Free GPUs alone (a fragmented cluster the placement refused): its full batch.
    if (sub_batch == std::numeric_limits<int>::max()) sub_batch = fullSubBatch(n, spn, chosen);

    for (int g : chosen) {
        if (holder[2 * g] == kFree) {
            holder[2 * g] = n.index;
            free_->take(g);
        } else {
            holder[2 * g + 1] = n.index;
        }
    }
    partners_valid_ = false;
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
    partners_valid_ = false;
    // A job whose partners have all finished returns to its full batch now, so that a new
    // sharer this event sees the memory it really holds.
    for (const JobState& s : in.active) {
        if (!s.running) continue;
        const bool shared =
            std::any_of(s.held.begin(), s.held.end(), [&](int g) { return holder[2 * g + 1] != kFree; });
        if (!shared)
            running_[s.index].sub_batch =
                fullSubBatch(s, speedOf(s, in), std::vector<int>(s.held.begin(), s.held.end()));
    }

    Decision d;
    order_->rank(in, ranked_);
    for (int j : ranked_) {
        const JobState& s = *in.by_index[j];
        if (s.running || s.gpus > total) continue;
        Assignment a{j, {}};
        // Free GPUs only on the servers of its partitions with its GPU type (docs/architecture.md
        // 2.10); startShared keeps the request when it shares.
        const GpuPool::Restriction on_its_servers(*free_, s.excluded_servers);
        if (free_->totalFree() >= s.gpus && placeJob(*placement_, s.gpus, s.nodes, *free_, a.gpus)) {
            for (int g : a.gpus) holder[2 * g] = j;
            running_[j] = {fullSubBatch(s, speedOf(s, in), a.gpus), 1.0};
            partners_valid_ = false;
            d.start.push_back(std::move(a));
        } else {
            startShared(s, in, holder, d);
        }
    }

    // Every running job's speed from who shares its GPUs now: sharing jobs run at xi times
    // their time at their sub-batch; a job alone returns to its full batch (the largest
    // sub-batch that fits its GPUs alone).
    auto emit = [&](int j, std::vector<int> gpus) {
        const JobState& s = *in.by_index[j];
        const JobSpeed& sp = speedOf(s, in);
        double xi = 1.0;
        bool shared = false;
        for (int g : gpus) {
            const int other = holder[2 * g] == j ? holder[2 * g + 1] : holder[2 * g];
            if (other == kFree) continue;
            shared = true;
            xi = std::max(xi, interference(in.by_index[other]->model, sp));
        }
        Running& state = running_[j];
        if (!shared || state.sub_batch <= 0) state.sub_batch = fullSubBatch(s, sp, gpus);
        state.xi = xi;
        Assignment a{j, std::move(gpus)};
        a.shared_iteration_time = xi * sp.iter_at[subIndex(sp, state.sub_batch)];
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
