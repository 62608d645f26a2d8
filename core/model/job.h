#pragma once
// A training job as a trace describes it. Times are seconds.
#include <string>
#include <vector>

namespace cl {

struct Job {
    std::string id;
    double submit_time = 0.0;
    int gpus = 1;
    std::string model;        // empty when the trace has none (a model rule assigns one)
    double iterations = 0.0;  // 0 = derive from duration / iteration time
    double duration = 0.0;    // solo run time in seconds; 0 = derive from iterations
    int batch_size = 0;
    std::string user;
    std::string vc;
    // Per-job measurements carried by some traces (Muri CSV); they take precedence over
    // the profile. 0 / empty = not given.
    double solo_iteration_time = 0.0;  // seconds
    std::vector<double> stage_times;   // seconds, stage 0..k-1
    int priority = 0;
    // What a planner filters and plans by, carried from the scheduler's accounting (Slurm:
    // JobName, Account, Partition, NCPUS, ReqMem, the TRES GPU type). Empty / 0 = not known.
    // The engine does not read them; see docs/architecture.md 8.5.
    std::string name;
    std::string account;
    int cpus = 0;
    double memory_gb = 0.0;
    std::string gpu_type;  // the GPU type it ran on, in our names (the cluster's), e.g. "A100"
    // What the job asked the scheduler for, which the engine keeps for every policy when the
    // cluster can tell (docs/architecture.md 2.10): the partitions it may run in (Slurm allows a
    // comma list; empty = the cluster's default, or any server when the cluster has none), a GPU
    // type (Slurm's --gres=gpu:TYPE:N, in our names; empty = any), how many servers it spans
    // (Slurm's NNodes; 0 = as the placement likes) and its time limit (seconds; 0 = none).
    std::string partition;
    std::string requested_gpu_type;
    int nodes = 0;
    double time_limit = 0.0;
    // When the job started in the run that was recorded (seconds on the trace's clock; < 0 = not
    // recorded): what a replay check compares the simulated start with.
    double recorded_start = -1.0;
};

// A job from a scheduler's accounting (it has a recorded start or a time limit) with the run time
// measured there: whether or not a rule gave it a model, that time is what it took on real GPUs,
// start-up included, so neither the solo factor nor a first-start overhead applies to it
// (docs/architecture.md 2.10).
inline bool hasMeasuredRunTime(const Job& job) {
    return job.duration > 0 && (job.recorded_start >= 0 || job.time_limit > 0);
}

// Such a job that no rule gave a model: it keeps the run time measured there, at its measured
// speed, and never gets a random model (docs/architecture.md 2.1), even when that time is zero
// (a job that failed as it started).
inline bool keepsMeasuredRunTime(const Job& job) {
    return job.model.empty() && job.iterations <= 0 && job.duration >= 0 &&
           (job.recorded_start >= 0 || job.time_limit > 0);
}

}  // namespace cl
