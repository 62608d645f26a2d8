#include "core/workload/model_assignment.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/util/portable_random.h"

namespace cl {

namespace {

void setModel(Job& job, const std::string& model) {
    if (job.model == model) return;
    job.model = model;
    job.batch_size = 0;
    job.solo_iteration_time = 0.0;
    job.stage_times.clear();
    if (job.duration > 0.0) job.iterations = 0.0;
}

}  // namespace

std::size_t assignModels(Trace& trace, const ModelMix& mix, std::uint64_t seed, bool only_missing) {
    if (mix.empty()) throw std::invalid_argument("assignModels: the model mix is empty");
    if (!(mix.totalWeight() > 0.0))
        throw std::invalid_argument("assignModels: the model mix has no positive weight");
    PortableRng rng(seed);
    std::size_t assigned = 0;
    for (auto& job : trace.jobs) {
        const double u = rng.uniform01();  // consumed by every job, assigned or not
        if (only_missing && (!job.model.empty() || keepsMeasuredRunTime(job))) continue;
        setModel(job, mix.pick(u));
        ++assigned;
    }
    return assigned;
}

std::size_t assignModels(Trace& trace, const std::vector<std::string>& models, std::uint64_t seed,
                         bool only_missing) {
    if (models.empty()) throw std::invalid_argument("assignModels: no models given");
    return assignModels(trace, ModelMix::uniform(models), seed, only_missing);
}

std::size_t assignModelsByTaskShare(Trace& trace, const TaskSplit& split, const TaskCatalog& catalog,
                                    bool only_missing) {
    if (split.empty() || !(split.totalWeight() > 0.0))
        throw std::invalid_argument("assignModelsByTaskShare: the task split has no positive weight");
    mixFromTaskSplit(split, catalog);  // validates the task names
    const double total = split.totalWeight();
    const std::size_t k = split.entries.size();
    std::vector<std::size_t> count(k, 0), next_model(k, 0);
    std::size_t assigned_so_far = 0;
    std::size_t assigned = 0;
    for (auto& job : trace.jobs) {
        if (only_missing && (!job.model.empty() || keepsMeasuredRunTime(job))) continue;
        std::size_t best = k;
        double best_lag = 0.0;
        for (std::size_t t = 0; t < k; ++t) {
            const double w = split.entries[t].second;
            if (w <= 0.0) continue;
            const double lag =
                w * static_cast<double>(assigned_so_far + 1) - static_cast<double>(count[t]) * total;
            if (best == k || lag > best_lag) {
                best = t;
                best_lag = lag;
            }
        }
        const auto& models = *catalog.modelsOf(split.entries[best].first);
        setModel(job, models[next_model[best] % models.size()]);
        ++next_model[best];
        ++count[best];
        ++assigned_so_far;
        ++assigned;
    }
    return assigned;
}

std::size_t deriveIterations(Trace& trace, const ProfileSet& profiles) {
    std::size_t filled = 0;
    for (auto& job : trace.jobs) {
        if (job.iterations > 0.0 || !(job.duration > 0.0)) continue;
        double it = job.solo_iteration_time;
        if (!(it > 0.0)) {
            const ModelProfile* m = profiles.find(job.model);
            const GpuCountProfile* p = m ? m->at(job.gpus) : nullptr;
            if (!p || !(p->solo_iteration_time > 0.0)) continue;
            it = p->solo_iteration_time;
        }
        const double ratio = job.duration / it;
        job.iterations = std::max(1.0, std::ceil(ratio * (1.0 - 1e-9)));
        ++filled;
    }
    return filled;
}

std::size_t fillBatchSizes(Trace& trace, const ProfileSet& profiles) {
    std::size_t filled = 0;
    for (auto& job : trace.jobs) {
        if (job.batch_size > 0) continue;
        if (const ModelProfile* m = profiles.find(job.model); m && m->batch_size > 0) {
            job.batch_size = m->batch_size;
            ++filled;
        }
    }
    return filled;
}

}  // namespace cl
