#pragma once
// Fits SJF-BSBF's speed model (AccumulationProfile, Eq. 7) to Pollux's throughput
// measurements: a model folder holds placements.csv (placement,local_bsz,step_time,sync_time;
// placement = one digit per node, the GPUs used on it) and scalability.csv
// (num_nodes,num_replicas,local_bsz,step_time,sync_time), times in seconds.
// Compute: least squares of step_time vs local_bsz on one GPU. All-reduce: least squares of
// sync_time vs M_eff = M 2 (N-1)/N, once for jobs on one node and once across nodes.
// Overlap delta: 1-D search minimizing the squared relative error of Eq. 7 on multi-GPU rows.
#include <string>
#include <vector>

#include "core/model/accumulation_speed.h"

namespace cl {

struct LinearFit {
    double alpha = 0.0;
    double beta = 0.0;
    int samples = 0;
    bool constant = false;  // fewer than two distinct x: alpha = mean(y), beta = 0
    bool clamped = false;   // the unconstrained fit had a negative coefficient (non_negative only)
};

// Least squares y = alpha + beta x. With non_negative, a negative coefficient is pinned to 0
// and the other refitted alone. No samples: all zero. Throws std::invalid_argument when x and
// y differ in length.
LinearFit fitLinear(const std::vector<double>& x, const std::vector<double>& y, bool non_negative = false);

struct OverlapSample {
    double compute = 0.0;   // t_comp(b), s
    double comm = 0.0;      // t_comm, s
    double measured = 0.0;  // measured step time, s (> 0)
};

// The delta in [1, max_delta] minimizing sum ((t_comp^d + t_comm^d)^(1/d) / measured - 1)^2:
// a grid of step 0.01 refined by golden section around the best grid point (deterministic).
// No samples: 1.
double fitOverlapDelta(const std::vector<OverlapSample>& samples, double max_delta = 10.0);

// One measurement of a Pollux model folder.
struct PolluxRow {
    std::string file;
    int line = 0;
    int nodes = 1;
    int replicas = 1;  // GPUs in all
    int local_bsz = 1;
    double step_time = 0.0;  // s
    double sync_time = 0.0;  // s
};

// What the measurements cannot tell: documented per-model figures (sources in the .cpp).
struct PolluxModelConstants {
    std::string name;
    double gradient_mb = 0.0;           // parameters x 4 bytes, MiB
    double memory_base_mb = 0.0;        // m0
    double memory_per_sample_mb = 0.0;  // m1
    int default_batch = 1;
    double train_samples = 0.0;  // epochs x dataset size
};

// The six Pollux models: bert, cifar10, deepspeech2, imagenet, ncf, yolov3.
const std::vector<PolluxModelConstants>& polluxModelConstants();
// Throws std::invalid_argument listing the known names.
const PolluxModelConstants& polluxModelConstantsOf(const std::string& model);

struct FitError {
    int rows = 0;
    double rms_rel_error = 0.0;  // of predicted vs measured step_time, over all rows
    double max_rel_error = 0.0;
};

struct AccumulationFit {
    std::string model;
    AccumulationProfile profile;  // seconds
    LinearFit compute, intra, inter;
    int single_gpu_rows = 0, intra_rows = 0, inter_rows = 0, overlap_rows = 0;
    FitError error;
    std::string source;
};

// Fits the rows (seconds) with the model's constants. Throws std::invalid_argument when there
// is no single-GPU row to fit the compute time from.
AccumulationFit fitAccumulationProfile(const std::vector<PolluxRow>& rows,
                                       const PolluxModelConstants& constants, const std::string& source);

// Eq. 7's predicted step time of one measurement (one accumulation step, b = local_bsz).
double predictedStepTime(const AccumulationProfile& p, const PolluxRow& row);
FitError fitErrorOf(const AccumulationProfile& p, const std::vector<PolluxRow>& rows);

}  // namespace cl
