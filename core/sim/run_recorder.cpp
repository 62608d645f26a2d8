#include "core/sim/run_recorder.h"

#include <string>

#include "core/sim/simulator.h"

namespace cl {

RunRecorder::RunRecorder(const Cluster& cluster, bool record_segments, bool record_series)
    : record_segments_(record_segments), record_series_(record_series), open_(cluster.totalGpus()) {}

void RunRecorder::startJob(int job, const std::vector<int>& gpus, double t) {
    for (int g : gpus) {
        Open& o = open_.at(g);
        if (o.job >= 0 && o.job != job)
            throw SimulationError("GPU " + std::to_string(g) + " over-committed at t=" + std::to_string(t) +
                                  ": job #" + std::to_string(o.job) + " and job #" + std::to_string(job));
        o.job = job;
        o.t0 = t;
    }
}

void RunRecorder::stopJob(int job, const std::vector<int>& gpus, double t) {
    for (int g : gpus) {
        Open& o = open_.at(g);
        if (o.job != job) continue;
        if (record_segments_ && t > o.t0) {
            if (o.last_segment >= 0 && segments_[o.last_segment].job == job && segments_[o.last_segment].t1 == o.t0) {
                segments_[o.last_segment].t1 = t;  // same job kept the GPU across a re-placement
            } else {
                o.last_segment = static_cast<long long>(segments_.size());
                segments_.push_back({g, o.t0, t, job});
            }
        }
        o.job = -1;
    }
}

void RunRecorder::sample(const TimeSample& s) {
    if (!record_series_) return;
    if (!series_.empty() && series_.back().t == s.t) {
        series_.back() = s;
    } else {
        series_.push_back(s);
    }
}

void RunRecorder::finish(double t) {
    for (std::size_t g = 0; g < open_.size(); ++g)
        if (open_[g].job >= 0) stopJob(open_[g].job, {static_cast<int>(g)}, t);
}

void RunRecorder::moveInto(SimResult& result) {
    result.segments = std::move(segments_);
    result.series = std::move(series_);
}

}  // namespace cl
