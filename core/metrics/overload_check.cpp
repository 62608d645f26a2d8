#include "core/metrics/overload_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/metrics/jct_stats.h"

namespace cl {

namespace {

// The utilisation series (change points, each holding until the next) integrated from `from`
// to its last sample, in busy-GPU shares times seconds.
double busyShareSecondsAfter(const std::vector<TimeSample>& series, double from) {
    double busy = 0.0;
    for (std::size_t i = 0; i + 1 < series.size(); ++i) {
        const double t0 = std::max(series[i].t, from), t1 = series[i + 1].t;
        if (t1 > t0) busy += series[i].gpu_utilization * (t1 - t0);
    }
    return busy;
}

}  // namespace

PlanLoadCheck overloadCheck(const SimResult& run, double capacity, double drain_share_limit) {
    PlanLoadCheck check;
    double first_submit = std::numeric_limits<double>::infinity();
    double last_submit = -std::numeric_limits<double>::infinity(), last_end = last_submit;
    double work_gpu_s = 0.0;
    std::vector<double> run_times;
    for (const JobRecord& j : run.jobs) {
        first_submit = std::min(first_submit, j.submit);
        last_submit = std::max(last_submit, j.submit);
        if (std::isfinite(j.end)) last_end = std::max(last_end, j.end);
        const double alone = j.iterations * j.solo_iteration_time;
        if (std::isfinite(alone) && alone > 0) {
            work_gpu_s += j.gpus * alone;
            run_times.push_back(alone);
        }
    }
    if (run.jobs.empty() || !(capacity > 0) || run_times.empty()) return check;
    check.arrival_window_s = last_submit - first_submit;
    if (std::isfinite(last_end)) check.last_end_after_window_s = std::max(0.0, last_end - last_submit);
    // The work no cluster could have done by the last arrival: each job alone from its submission.
    double tail_gpu_s = 0.0;
    for (const JobRecord& j : run.jobs) {
        const double alone = j.iterations * j.solo_iteration_time;
        if (std::isfinite(alone) && alone > 0)
            tail_gpu_s += j.gpus * std::clamp(j.submit + alone - last_submit, 0.0, alone);
    }
    const double busy_gpu_s = busyShareSecondsAfter(run.series, last_submit) * capacity;
    const double backlog_s = std::max(0.0, busy_gpu_s - tail_gpu_s) / capacity;  // at full capacity
    check.backlog_gpu_hours = backlog_s * capacity / 3600.0;
    if (!(check.arrival_window_s > 0)) return check;
    // The work the arrivals bring within the window: a job's work past the last arrival is
    // counted in no window, whatever the cluster.
    check.offered_load = (work_gpu_s - tail_gpu_s) / (capacity * check.arrival_window_s);
    check.drain_share = backlog_s / check.arrival_window_s;
    check.assessed = check.arrival_window_s >= kSteadyStateJobLifetimes * median(run_times);
    check.overloaded = check.assessed && check.drain_share > drain_share_limit;
    for (const std::string& note : run.notes)
        check.stopped_early = check.stopped_early || note.rfind(kStoppedOverloadedNote, 0) == 0;
    return check;
}

}  // namespace cl
