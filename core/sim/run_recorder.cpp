#include "core/sim/run_recorder.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/sim/simulator.h"

namespace cl {

namespace {
constexpr std::size_t kStreamBatch = 1 << 14;
}

RunRecorder::RunRecorder(const Cluster& cluster, bool record_segments, bool record_series,
                         int max_jobs_per_gpu, SegmentSink sink)
    : record_segments_(record_segments),
      record_series_(record_series),
      max_jobs_per_gpu_(max_jobs_per_gpu),
      slots_per_gpu_(static_cast<std::size_t>(std::max(1, max_jobs_per_gpu))),
      open_(static_cast<std::size_t>(cluster.totalGpus()) * slots_per_gpu_),
      open_count_(static_cast<std::size_t>(cluster.totalGpus()), 0),
      sink_(std::move(sink)),
      next_stream_at_(kStreamBatch) {}

void RunRecorder::startJob(int job, std::span<const int> gpus, double t) {
    now_ = t;
    for (int g : gpus) {
        const std::span<Open> here = slotsOf(g);
        // The slot searches select without branching: which slot holds what depends on the
        // grouping, and a branch per slot mispredicted often (docs/architecture.md section 2.9).
        Open* slot = nullptr;
        int others = 0;
        for (auto& o : here) {
            slot = o.job == job ? &o : slot;
            others += static_cast<int>((o.job >= 0) & (o.job != job));
        }
        if (others >= max_jobs_per_gpu_)
            throw SimulationError("GPU " + std::to_string(g) + " over-committed at t=" + std::to_string(t) +
                                  ": job #" + std::to_string(job) + " joins " + std::to_string(others) +
                                  " job(s), at most " + std::to_string(max_jobs_per_gpu_) + " may share it");
        if (!slot) {  // a free slot, preferably the one this job just left (segments merge)
            for (auto& o : here)
                slot = ((o.job < 0) & (o.last_segment >= 0) & (o.last_job == job)) ? &o : slot;
            if (!slot) {  // the first free slot, which starts afresh
                for (auto it = here.rbegin(); it != here.rend(); ++it) slot = it->job < 0 ? &*it : slot;
                if (slot) {
                    slot->last_segment = -1;
                    slot->last_job = -1;
                }
            }
            if (!slot) {  // a GPU never has more slots than jobs may share it (checked above)
                int& count = open_count_[static_cast<std::size_t>(g)];
                slot =
                    &open_[static_cast<std::size_t>(g) * slots_per_gpu_ + static_cast<std::size_t>(count++)];
            }
        }
        if (slot->job != job) {
            slot->job = job;
            slot->t0 = t;
        }
    }
}

void RunRecorder::stopJob(int job, std::span<const int> gpus, double t) {
    now_ = t;
    for (int g : gpus) {
        Open* mine = nullptr;  // a job holds a GPU in one slot at most
        for (Open& o : slotsOf(g)) mine = o.job == job ? &o : mine;
        if (mine) {
            Open& o = *mine;
            if (record_segments_ && t > o.t0) {
                if (o.last_segment >= 0 && o.last_job == job && o.last_t1 == o.t0) {
                    // Same job kept the GPU across a re-placement. mayStillGrow() kept such a
                    // segment back from the sink.
                    if (o.last_segment < streamed_)
                        throw std::logic_error("run recorder: a streamed segment would grow");
                    segment(o.last_segment).t1 = t;
                } else {
                    o.last_segment = streamed_ + static_cast<long long>(segments_.size() - head_);
                    o.last_job = job;
                    segments_.push_back({g, o.t0, t, job});
                }
                o.last_t1 = t;
            }
            o.job = -1;
            o.t0 = t;
        }
    }
    if (sink_ && segments_.size() - head_ >= next_stream_at_) streamFinished(false);
}

// Whether a closed segment can still be extended: only by its slot, when its job holds that
// slot again from the instant the segment ended (stopJob's merge), which needs either that
// continuation now or a restart still at the segment's end time.
bool RunRecorder::mayStillGrow(long long index) const {
    const GpuSegment& s = segments_[head_ + static_cast<std::size_t>(index - streamed_)];
    if (s.t1 >= now_) return true;
    for (const Open& o : slotsOf(s.gpu))
        if (o.last_segment == index) return o.job == s.job && o.t0 == s.t1;
    return false;
}

void RunRecorder::streamFinished(bool all) {
    std::size_t end = head_;
    while (end < segments_.size() && (all || !mayStillGrow(streamed_ + static_cast<long long>(end - head_))))
        ++end;
    if (end > head_) {
        sink_(std::span<const GpuSegment>(segments_.data() + head_, end - head_));
        streamed_ += static_cast<long long>(end - head_);
        head_ = end;
    }
    // Drop what was handed over once it is at least half of the buffer (amortised O(1)).
    if (head_ > 0 && head_ >= segments_.size() - head_) {
        segments_.erase(segments_.begin(), segments_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
    }
    next_stream_at_ = segments_.size() - head_ + kStreamBatch;
}

namespace {
// The step values: they change only at events. The blocking index is left out on purpose: it
// grows between events with every pending job's wait, so it would make every event a change
// point; it is sampled where the step values change (docs/architecture.md section 2.8).
bool sameSteps(const TimeSample& a, const TimeSample& b) {
    return a.queue_length == b.queue_length && a.running_jobs == b.running_jobs &&
           a.gpu_utilization == b.gpu_utilization && a.storage_utilization == b.storage_utilization &&
           a.cpu_utilization == b.cpu_utilization && a.gpu_compute_utilization == b.gpu_compute_utilization &&
           a.network_utilization == b.network_utilization && a.cpu_allocated == b.cpu_allocated &&
           a.memory_allocated == b.memory_allocated;
}
}  // namespace

void RunRecorder::sample(const TimeSample& s) {
    if (!record_series_) return;
    // The series holds change points only: a value holds until the next sample (every reader
    // draws steps), so a sample whose steps equal the one before adds nothing but rows.
    if (!series_.empty() && series_.back().t == s.t) {
        series_.back() = s;
        if (series_.size() >= 2 && sameSteps(series_[series_.size() - 2], s)) series_.pop_back();
    } else if (series_.empty() || !sameSteps(series_.back(), s)) {
        series_.push_back(s);
    }
}

void RunRecorder::finish(double t) {
    for (std::size_t g = 0; g < open_count_.size(); ++g) {
        const int gpu = static_cast<int>(g);
        const std::span<Open> here = slotsOf(gpu);
        for (const Open& o : std::vector<Open>(here.begin(), here.end()))
            if (o.job >= 0) stopJob(o.job, std::span<const int>(&gpu, 1), t);
    }
    if (sink_) streamFinished(true);
}

void RunRecorder::moveInto(SimResult& result) {
    if (head_ > 0) segments_.erase(segments_.begin(), segments_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
    result.segments = std::move(segments_);  // empty when a sink took them
    result.series = std::move(series_);
}

}  // namespace cl
