#include "core/policies/job_demand.h"

namespace cl {

void JobDemands::prepare(const SchedulerInput& in) {
    // The reference server (docs/architecture.md section 4.6) when there is no cluster to read.
    capacity_ = {8.0, 24.0, 500.0};
    if (in.cluster && in.cluster->totalGpus() > 0)
        capacity_ = {static_cast<double>(in.cluster->totalGpus()),
                     static_cast<double>(in.cluster->totalCpuCores()), in.cluster->totalMemoryGb()};
    proportional_ = {capacity_.cpus / capacity_.gpus, capacity_.memory_gb / capacity_.gpus};
    if (in.profiles != profiles_) {
        best_.clear();
        profiles_ = in.profiles;
    }
    for (const JobState& j : in.active) {
        if (best_.find(j.model) != best_.end()) continue;
        std::optional<AuxShare> best;
        if (profiles_) {
            if (const ModelProfile* p = profiles_->find(std::string(j.model))) {
                if (auto matrix = sensitivityOf(*p)) best = matrix->best().per_gpu;
            }
        }
        best_.emplace(std::string(j.model), best);
    }
}

DemandVector JobDemands::demand(const JobState& job) const {
    const auto it = best_.find(job.model);
    const AuxShare per_gpu = (it != best_.end() && it->second) ? *it->second : proportional_;
    const double g = job.gpus;
    return {g, g * per_gpu.cpus, g * per_gpu.memory_gb};
}

}  // namespace cl
