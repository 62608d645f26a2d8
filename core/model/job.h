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
};

}  // namespace cl
