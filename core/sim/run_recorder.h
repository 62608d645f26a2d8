#pragma once
// Collects per-GPU occupancy segments and sampled series while the engine runs; kept out of
// the event loop's logic. Also guards the first invariant: no GPU ever holds two jobs.
#include <vector>

#include "core/model/cluster.h"
#include "core/model/sim_result.h"

namespace cl {

class RunRecorder {
public:
    RunRecorder(const Cluster& cluster, bool record_segments, bool record_series, int max_jobs_per_gpu = 1);

    // Throws SimulationError if one of the GPUs already holds max_jobs_per_gpu other jobs.
    void startJob(int job, const std::vector<int>& gpus, double t);
    void stopJob(int job, const std::vector<int>& gpus, double t);
    void sample(const TimeSample& s);
    void finish(double t);  // closes segments still open (a cancelled run)
    void moveInto(SimResult& result);

private:
    struct Open {
        int job = -1;
        double t0 = 0.0;
        long long last_segment = -1;  // index of this job's last closed segment here, for merging
    };
    bool record_segments_;
    bool record_series_;
    int max_jobs_per_gpu_;
    std::vector<std::vector<Open>> open_;  // per GPU, the jobs on it (usually one)
    std::vector<GpuSegment> segments_;
    std::vector<TimeSample> series_;
};

}  // namespace cl
