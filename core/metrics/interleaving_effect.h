#pragma once
// Why a run whose jobs share GPUs (Muri's interleaving) beat or lost to an exclusive run of the
// same trace (docs/architecture.md section 7.6). Interleaving trades each job's speed for
// cluster capacity: a grouped job runs at its group's pace, and the group does more work per
// GPU-hour only when its members' bottleneck stages differ. It pays off when that capacity
// removes queueing, so when the exclusive run's jobs spend much of their time waiting.
#include <string>

#include "core/model/sim_result.h"

namespace cl {

struct InterleavingEffect {
    // Median over finished jobs of running time / solo running time (iterations x solo
    // iteration time): how much longer a job ran than it would have alone.
    double median_stretch = 1.0;
    // The trace's work in GPU-hours as if every job ran alone, and the GPU-hours the shared
    // run's GPUs were busy (its GPU utilisation series); capacity_gain = solo / busy.
    double solo_gpu_hours = 0.0;
    double busy_gpu_hours = 0.0;
    double capacity_gain = 1.0;
    // Share of the exclusive run's job time (sum of JCTs) spent waiting.
    double baseline_waiting_share = 0.0;
    // Exclusive average JCT / shared average JCT: above 1 the sharing run won.
    double speedup = 1.0;
    long long restarts = 0;
    long long baseline_restarts = 0;
};

// `shared` and `baseline` are runs of the same trace on a cluster of `cluster_gpus` GPUs.
InterleavingEffect interleavingEffect(const SimResult& shared, const SimResult& baseline, int cluster_gpus);

// Whether the shared run won (> 0), lost (< 0) or matched its counterpart (average JCTs within 0.5%).
int interleavingVerdict(const InterleavingEffect& effect);

// Two or three sentences with the numbers: what the shared run traded and why it won or lost.
std::string explainInterleaving(const InterleavingEffect& effect, const std::string& shared_policy,
                                const std::string& baseline_policy);

}  // namespace cl
