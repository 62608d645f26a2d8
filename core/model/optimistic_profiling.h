#pragma once
// Synergy's optimistic profiling (Mohan et al., OSDI 2022, section 3.1; docs/architecture.md
// section 4.6): measure a job's throughput only at FULL memory for a few CPU levels found by a
// binary search, and fill every other memory column from an analytic model of a MinIO cache.
//
// 1. CPU search at full memory (the largest memory level). Levels L[0] < ... < L[n-1].
//    Measure L[n-1] (the paper starts at the maximum CPU allocation), then L[0]. Then
//    refine(0, n-1), where refine(lo, hi), with W[lo] and W[hi] measured, is:
//      - if hi - lo < 2 (no level in between): done;
//      - if W[hi] < (1 + threshold) * W[lo] (the region gains less than the threshold,
//        default 10%): skip it, its inner levels are interpolated;
//      - else measure the inner level p nearest the middle CPU VALUE (L[lo] + L[hi]) / 2
//        (ties to the cheaper level), then refine(p, hi) and refine(lo, p).
//    This is the paper's rule: after probing p, the upper half gets more probes only when it
//    still gains at least the threshold over p, else the search continues in the lower half.
//    The middle is taken on CPU values, not level indices, because the paper bisects 1..24
//    cores; on Synergy's sparse grid 1,2,3,4,5,6,9,12,24 the first inner probe is 12, not 5.
//    Skipped levels: linear interpolation in CPU value between the measured neighbours.
//
// 2. Memory columns from the cache model (per GPU; all parameters in CacheModel):
//      MinIO keeps a fixed part of the dataset in memory and never evicts (Mohan et al.,
//      section 3.1; MinIO: Mohan et al., VLDB 2021), so of m GB per GPU the process itself
//      needs process_gb and the rest caches a fraction f = min(1, (m - process_gb) / dataset_gb)
//      of the samples; the other (1 - f) are read from storage at storage_mb_s. Fetching
//      overlaps preprocessing, so the time per sample is max(cpu time, (1 - f) * fetch time)
//      and the throughput
//        W(c, m) = min(W(c, full), storage_mb_s / (input_mb_s * (1 - f)))
//      where input_mb_s is the job's input data rate at throughput 1.0 (the proportional
//      share). Below process_gb the job is starved (its own working set does not fit):
//      W(c, m) = min(W(c, full), starved_throughput). A model whose data fits at the
//      smallest level (dataset_gb <= smallest level - process_gb), or that reads nothing
//      (input_mb_s = 0), is memory-insensitive. The full-memory column is kept as measured
//      (it already contains any stall left at full memory; W(c, m) <= W(c, full) for less).
#include <functional>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/model_profile.h"
#include "core/model/sensitivity.h"

namespace cl {

// Per-GPU parameters of the cache model; defaults describe a memory-insensitive job.
struct CacheModel {
    double dataset_gb = 0.0;          // data one GPU reads per epoch; 0: nothing worth caching
    double process_gb = 0.0;          // DRAM per GPU the training process needs for itself
    double storage_mb_s = 62.5;       // storage bandwidth per GPU; Synergy artifact: 500 MB/s / 8 GPUs
    double input_mb_s = 0.0;          // input data the job reads per second at throughput 1.0
    double starved_throughput = 0.1;  // below process_gb; Synergy artifact: 0.1 at 20.83 GB

    // The throughput the storage allows at m GB per GPU (infinity when it never stalls).
    double storageCeiling(double memory_gb) const;
    // W(c, m) from W(c, full) as in the header comment.
    double throughput(double full_memory_throughput, double memory_gb) const;
};

// models[].extra.synergy.cache (schema in data/README.md; every key optional, defaults as
// above); std::nullopt when absent. Throws std::invalid_argument naming the model and field
// for a malformed section (not an object, a non-number, a negative value, starved <= 0).
std::optional<CacheModel> cacheModelOf(const ModelProfile& profile);
nlohmann::json cacheModelJson(const CacheModel& cache);

// A throughput measurement of the job at (CPU cores per GPU, GB of memory per GPU).
using ThroughputProbe = std::function<double(double cpu_per_gpu, double memory_gb_per_gpu)>;

struct OptimisticProfile {
    SensitivityMatrix matrix;           // the estimated matrix over the given levels
    std::vector<double> measured_cpus;  // CPU levels measured at full memory, in probe order
    int measurements = 0;               // probe calls (= measured_cpus.size())
};

// Profiles a job through `measure` (called only at the largest memory level). Levels must be
// non-empty, positive and strictly ascending, threshold >= 0; every measurement must be a
// positive finite number. Throws std::invalid_argument otherwise.
OptimisticProfile optimisticProfile(const ThroughputProbe& measure, const std::vector<double>& cpu_levels,
                                    const std::vector<double>& memory_levels_gb, const CacheModel& cache,
                                    double threshold = 0.10);

// The optimistic estimate of a profile's own matrix: measurements are look-ups into
// sensitivityOf(profile), the cache model is cacheModelOf(profile) (absent: insensitive).
// std::nullopt when the profile has no matrix.
std::optional<OptimisticProfile> optimisticProfileOf(const ModelProfile& profile, double threshold = 0.10);

// The profile set as optimistic profiling would have measured it: every model with a matrix
// and a cache model gets its matrix replaced by optimisticProfileOf's estimate (the option
// "optimistic profiling" of runs and experiments); other models are kept as they are.
ProfileSet withOptimisticProfiles(const ProfileSet& profiles, double threshold = 0.10);

}  // namespace cl
