#pragma once
// The large/small job split (docs/architecture.md section 7.3): a job is large when it asks for
// more GPUs than a threshold. The one definition every breakdown uses: the comparison tables,
// the SJF-BSBF experiment and the comparison view (whose threshold the user may change).
namespace cl {

// Muri's and Synergy's evaluations: large = more than one 8-GPU server.
inline constexpr int kLargeJobAboveGpus = 8;
// The SJF-BSBF paper's Tables III-IV: large = more than 4 GPUs.
inline constexpr int kSjfBsbfLargeJobAboveGpus = 4;

inline bool isLargeJob(int gpus, int large_above_gpus = kLargeJobAboveGpus) {
    return gpus > large_above_gpus;
}

}  // namespace cl
