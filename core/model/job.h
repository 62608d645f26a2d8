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
    std::string partition;
    int cpus = 0;
    double memory_gb = 0.0;
    std::string gpu_type;  // our GPU type name (the cluster's), e.g. "A100"
};

}  // namespace cl
