#pragma once
// Synthetic traces: Poisson (or all-at-zero) arrivals, a heavy-tailed duration model, a
// GPU-count mix and a model mix. Deterministic for a seed on every platform: all draws come
// from std::mt19937_64 through PortableRng (no std:: distributions), one independent stream
// per attribute (deriveSeed(seed, k): k = 1 arrivals, 2 GPU counts, 3 durations, 4 models),
// so changing e.g. the model mix leaves arrivals, GPU counts and durations unchanged.
//
// Per job i = 0..n-1 (id "i"):
//  - submit time: Poisson: job 0 at 0, then cumulative exponential gaps with mean
//    3600 / jobs_per_hour s (one draw each); all-at-zero: 0. Rounded to 1 ms.
//  - GPUs: drawn from the weights (one draw, pickWeighted). Default: the Philly trace's
//    counts; GPU counts above max_gpus are removed from the weights before drawing (they
//    are not clamped to the cap, which would pile their mass onto it).
//  - duration, rounded to whole seconds (at least 1 s):
//      PhillyLognormal: exp(mu + sigma z), z standard normal (two draws), mu = ln 1144 s,
//        sigma = 2.16, clamped to [1 s, 60 days]. Fitted to the Philly trace as published
//        with the Pollux artifact (philly_jobs.csv, 82,247 jobs): median duration 1,144 s
//        (mu), standard deviation of ln(duration) 2.16 (sigma). The fit's mean, 11,790 s,
//        is close to the trace's 13,136 s.
//      SynergyLogUniform: 10^x minutes, x ~ U[1.5, 3] with probability 0.8 else U[3, 4]
//        (two draws: the branch, then x), as in Synergy's workload (Mohan et al., OSDI
//        2022, section 6; docs/architecture.md section 8.4): 31.6 minutes to 6.9 days.
//  - model: assignModels(trace, mix, deriveSeed(seed, 4), false) (model_assignment.h), or with
//    ModelRule::TaskShare the Synergy artifact's deterministic rule assignModelsByTaskShare
//    over `tasks` and `task_catalog` (no draws).
//    The mix: `models` if set, else `tasks` over the `task_catalog`, else equal weights
//    over the profile set's models (sorted by name), else over the built-in Muri models.
//  - with a profile set: batch_size from the profile, iterations = ceil(duration /
//    iteration time at the job's GPU count) (deriveIterations). Jobs whose model the
//    profile set lacks keep iterations = 0 and batch_size = 0.
// Trace::provenance gets one line describing the whole configuration.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/workload/model_mix.h"

namespace cl {

enum class ArrivalProcess { Poisson, AllAtZero };
enum class DurationModel { PhillyLognormal, SynergyLogUniform };
enum class ModelRule { Seeded, TaskShare };

inline constexpr double kPhillyMedianDurationS = 1144.0;  // Pollux artifact philly_jobs.csv
inline constexpr double kPhillyLogDurationSigma = 2.16;   // sd of ln(duration s), same data
inline constexpr double kPhillyMaxDurationS = 60.0 * 86400.0;

struct GeneratorConfig {
    int jobs = 1000;
    std::uint64_t seed = 1;
    ArrivalProcess arrival = ArrivalProcess::Poisson;
    double jobs_per_hour = 10.0;  // Poisson rate; > 0
    DurationModel duration = DurationModel::PhillyLognormal;
    std::vector<std::pair<int, double>> gpu_weights;  // GPU count -> weight; empty = Philly counts
    int max_gpus = 0;                                 // 0 = no cap
    ModelMix models;                                  // explicit model weights
    TaskSplit tasks;                                  // used when `models` is empty
    std::string task_catalog = "muri";                // "muri" or "synergy"
    ModelRule model_rule = ModelRule::Seeded;         // TaskShare needs `tasks`
    std::string name;                                 // trace name; empty = "generated"
};

// Job counts per GPU count in the Philly trace (Jeon et al., USENIX ATC 2019) as published
// with the Pollux artifact (philly_jobs.csv): of 82,247 jobs, 76,627 use 1 GPU, 1,818 2,
// 1,870 4, 1,643 8, 199 16 and 67 32 (the remaining 23 jobs use 12, 24, 64 or 128 GPUs and
// are left out).
std::vector<std::pair<int, double>> phillyGpuCountWeights();
// "1:0.7,2:0.1,4:0.2" (count:weight, weight defaults to 1); throws std::invalid_argument.
std::vector<std::pair<int, double>> parseGpuWeights(const std::string& spec);

// Throws std::invalid_argument on an invalid configuration (negative job count,
// non-positive rate, bad weights, a cap below every GPU count, unknown catalog or task).
Trace generate(const GeneratorConfig& config, const ProfileSet* profiles = nullptr);

// The provenance line generate() records.
std::string describeConfig(const GeneratorConfig& config, const ProfileSet* profiles = nullptr);

}  // namespace cl
