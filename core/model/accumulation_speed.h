#pragma once
// SJF-BSBF's job speed model (paper Eq. 2-7, docs/architecture.md section 4.7): a data-parallel job with
// global batch B on N GPUs trains a local batch B/N per GPU in s accumulation steps of
// sub-batch b = B/(N s); one iteration takes
//   t_iter = (s-1) t_comp(b) + (t_comp(b)^delta + t_comm^delta)^(1/delta)
// with t_comp(b) = alpha_comp + beta_comp b and t_comm = alpha_comm + beta_comm M.
// A GPU holds m0 + m1 b MB of it. Parameters live in a profile's models[].extra.sjf_bsbf
// section (data/README.md); `clusterloom-cli fit-profile` fits them from Pollux's measurements.
#include <map>
#include <optional>
#include <string>

#include "core/model/model_profile.h"

namespace cl {

struct AccumulationProfile {
    // Compute time of one forward/backward pass of b samples on one GPU, seconds.
    double alpha_comp = 0.0;
    double beta_comp = 0.0;
    // All-reduce time t_comm = alpha + beta * M_eff, seconds, fitted separately for jobs on
    // one server and jobs spanning servers. M_eff is the data a worker sends in a ring
    // all-reduce of the model's gradients: gradient_mb * 2 (N-1) / N. One GPU: no all-reduce.
    double alpha_comm_intra = 0.0;
    double beta_comm_intra = 0.0;
    double alpha_comm_inter = 0.0;
    double beta_comm_inter = 0.0;
    double gradient_mb = 0.0;  // M, the model's gradient size
    double delta = 1.0;        // overlap of computation and communication (Pollux's gamma), >= 1
    // GPU memory of one worker at sub-batch b: m0 + m1 b MB.
    double memory_base_mb = 0.0;
    double memory_per_sample_mb = 0.0;
    int default_batch = 0;  // batch of a one-GPU job; a job stating none trains this x its GPUs
    // The machine the solo iteration time of a job refers to (a job's length and SJF key):
    // SJF-BSBF's servers, 4 x RTX 2080 Ti with 11 GB (section VI-A).
    double reference_gpu_memory_mb = 11 * 1024.0;
    int reference_gpus_per_server = 4;
    double train_samples = 0.0;  // samples to train (epochs x dataset) for traces without a length
    // Interference ratio xi of this model when sharing a GPU with the named model (optional).
    std::map<std::string, double> interference;
};

// The profile's extra.sjf_bsbf section, or nullopt when it has none. Throws
// std::invalid_argument naming the model and field when the section is malformed.
std::optional<AccumulationProfile> accumulationProfileOf(const ModelProfile& model);

double computeTime(const AccumulationProfile& p, double sub_batch);
double allReduceTime(const AccumulationProfile& p, int gpus, int servers);
// Eq. 7 for a job of `gpus` GPUs on `servers` servers, global batch `batch`, sub-batch
// `sub_batch` per GPU (accumulation steps = local batch / sub_batch, rounded up).
double accumulatedIterationTime(const AccumulationProfile& p, int gpus, int servers, int batch,
                                int sub_batch);
double workerMemoryMb(const AccumulationProfile& p, int sub_batch);
// The local batch of one GPU: ceil(batch / gpus), at least 1.
int localBatch(int batch, int gpus);
// The global batch a job trains: its trace's, else default_batch x its GPUs. Throws
// std::invalid_argument when it exceeds kMaxBatch.
int jobBatch(const AccumulationProfile& p, int trace_batch, int gpus);
inline constexpr int kMaxBatch = 1 << 24;
// The largest sub-batch among local, local/2, ..., 1 (halving, rounded up) whose worker fits
// in `memory_mb`; 0 when not even one sample fits.
int largestFittingSubBatch(const AccumulationProfile& p, int local_batch, double memory_mb);
// Servers a consolidated job of `gpus` GPUs spans on servers of `gpus_per_server`.
int consolidatedServers(int gpus, int gpus_per_server);

}  // namespace cl
