#pragma once
// Collects per-GPU occupancy segments and sampled series while the engine runs; kept out of
// the event loop's logic. Also guards the first invariant: no GPU ever holds two jobs.
#include <cstddef>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/sim_result.h"

namespace cl {

// Receives closed segments in the order SimResult::segments lists them.
using SegmentSink = std::function<void(std::span<const GpuSegment>)>;

class RunRecorder {
public:
    // With a sink, segments that can no longer change are handed to it as the run goes and
    // none are kept (docs/architecture.md section 2.8): a run with tens of millions of them
    // then needs no memory for them.
    RunRecorder(const Cluster& cluster, bool record_segments, bool record_series, int max_jobs_per_gpu = 1,
                SegmentSink sink = {});

    // Throws SimulationError if one of the GPUs already holds max_jobs_per_gpu other jobs.
    void startJob(int job, std::span<const int> gpus, double t);
    void stopJob(int job, std::span<const int> gpus, double t);
    void sample(const TimeSample& s);
    void finish(double t);  // closes segments still open (a cancelled run), hands the rest to the sink
    void moveInto(SimResult& result);

private:
    struct Open {
        int job = -1;
        double t0 = 0.0;
        // This slot's last closed segment, for merging: its index (-1 = none), job and end,
        // kept here because a streamed segment is no longer in segments_.
        long long last_segment = -1;
        int last_job = -1;
        double last_t1 = 0.0;
    };
    GpuSegment& segment(long long index) {
        return segments_[head_ + static_cast<std::size_t>(index - streamed_)];
    }
    bool mayStillGrow(long long index) const;
    void streamFinished(bool all);

    bool record_segments_;
    bool record_series_;
    int max_jobs_per_gpu_;
    // Per GPU, its slots (the jobs on it, usually one): GPU g's are
    // open_[g * slots_per_gpu_, + open_count_[g]), in the order they were first used. One array,
    // not a vector per GPU: a sharing run starts and stops thousands of jobs per event.
    std::size_t firstSlot(int gpu) const {
        if (gpu < 0 || static_cast<std::size_t>(gpu) >= open_count_.size())
            throw std::out_of_range("run recorder: no GPU " + std::to_string(gpu));
        return static_cast<std::size_t>(gpu) * slots_per_gpu_;
    }
    std::span<Open> slotsOf(int gpu) {
        const std::size_t first = firstSlot(gpu);
        return {open_.data() + first, static_cast<std::size_t>(open_count_[static_cast<std::size_t>(gpu)])};
    }
    std::span<const Open> slotsOf(int gpu) const {
        const std::size_t first = firstSlot(gpu);
        return {open_.data() + first, static_cast<std::size_t>(open_count_[static_cast<std::size_t>(gpu)])};
    }
    std::size_t slots_per_gpu_;
    std::vector<Open> open_;
    std::vector<int> open_count_;
    // Closed segments (all of them without a sink); with a sink those from head_ on are not yet
    // handed over, and segments_[head_] has index streamed_.
    std::vector<GpuSegment> segments_;
    std::size_t head_ = 0;
    long long streamed_ = 0;
    SegmentSink sink_;
    double now_ = 0.0;                // latest time seen
    std::size_t next_stream_at_ = 0;  // pending segments at which to try streaming again
    std::vector<TimeSample> series_;
};

}  // namespace cl
