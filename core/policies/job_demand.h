// A job's multi-resource demand vector for the big-data orders of Synergy's section 5.7
// (drf, tetris): its GPUs and its best-case CPU and memory demand, i.e. GPUs x the per-GPU
// best point of its sensitivity matrix (SensitivityMatrix::best(); the paper feeds
// "the best-case resource requirement for CPU and memory" to these policies). A job whose
// model has no matrix (or no profile) demands its GPU-proportional share: GPUs x the
// cluster's average cores and GB per GPU (3 cores, 62.5 GB on the reference server).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/model/sensitivity.h"
#include "core/sim/scheduler.h"

namespace cl {

struct DemandVector {
    double gpus = 0.0;
    double cpus = 0.0;
    double memory_gb = 0.0;
};

class JobDemands {
public:
    // Reads the cluster's capacity and the best points of the active jobs' models (cached
    // per model while the profile set stays the same). Throws std::invalid_argument naming
    // the model for a malformed extra.synergy section.
    void prepare(const SchedulerInput& input);
    DemandVector demand(const JobState& job) const;
    // The cluster's totals (the reference 8 GPU / 24 CPU / 500 GB server without a cluster).
    const DemandVector& capacity() const { return capacity_; }

private:
    const ProfileSet* profiles_ = nullptr;
    std::map<std::string, std::optional<AuxShare>, std::less<>> best_;  // per model; nullopt = no matrix
    AuxShare proportional_;                                             // per GPU
    DemandVector capacity_;
};

}  // namespace cl
