#include "core/sim/run_recorder.h"

#include <string>

#include "core/sim/simulator.h"

namespace cl {

RunRecorder::RunRecorder(const Cluster& cluster, bool record_segments, bool record_series,
                         int max_jobs_per_gpu)
    : record_segments_(record_segments),
      record_series_(record_series),
      max_jobs_per_gpu_(max_jobs_per_gpu),
      open_(cluster.totalGpus()) {}

void RunRecorder::startJob(int job, const std::vector<int>& gpus, double t) {
    for (int g : gpus) {
        auto& here = open_.at(g);
        Open* slot = nullptr;
        int others = 0;
        for (auto& o : here) {
            if (o.job == job)
                slot = &o;
            else if (o.job >= 0)
                ++others;
        }
        if (others >= max_jobs_per_gpu_)
            throw SimulationError("GPU " + std::to_string(g) + " over-committed at t=" + std::to_string(t) +
                                  ": job #" + std::to_string(job) + " joins " + std::to_string(others) +
                                  " job(s), at most " + std::to_string(max_jobs_per_gpu_) + " may share it");
        if (!slot) {  // a free slot, preferably the one this job just left (segments merge)
            for (auto& o : here)
                if (o.job < 0 && o.last_segment >= 0 && segments_[o.last_segment].job == job) slot = &o;
            for (auto& o : here)
                if (o.job < 0 && !slot) {
                    slot = &o;
                    slot->last_segment = -1;
                }
            if (!slot) slot = &here.emplace_back();
        }
        if (slot->job != job) {
            slot->job = job;
            slot->t0 = t;
        }
    }
}

void RunRecorder::stopJob(int job, const std::vector<int>& gpus, double t) {
    for (int g : gpus) {
        for (auto& o : open_.at(g)) {
            if (o.job != job) continue;
            if (record_segments_ && t > o.t0) {
                if (o.last_segment >= 0 && segments_[o.last_segment].job == job &&
                    segments_[o.last_segment].gpu == g && segments_[o.last_segment].t1 == o.t0) {
                    segments_[o.last_segment].t1 = t;  // same job kept the GPU across a re-placement
                } else {
                    o.last_segment = static_cast<long long>(segments_.size());
                    segments_.push_back({g, o.t0, t, job});
                }
            }
            o.job = -1;
            o.t0 = t;
        }
    }
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
    for (std::size_t g = 0; g < open_.size(); ++g)
        for (const auto& o : std::vector<Open>(open_[g]))
            if (o.job >= 0) stopJob(o.job, {static_cast<int>(g)}, t);
}

void RunRecorder::moveInto(SimResult& result) {
    result.segments = std::move(segments_);
    result.series = std::move(series_);
}

}  // namespace cl
