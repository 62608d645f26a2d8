#include "core/metrics/interleaving_effect.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace cl {

namespace {

double soloSeconds(const JobRecord& j) {
    return j.iterations * j.solo_iteration_time;
}

std::string fixed(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string thousands(double v) {
    std::string digits = fixed("%.0f", v);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0 && digits[i - 1] != '-'; i -= 3)
        digits.insert(i, ",");
    return digits;
}

}  // namespace

InterleavingEffect interleavingEffect(const SimResult& shared, const SimResult& baseline, int cluster_gpus) {
    InterleavingEffect e;
    std::vector<double> stretch;
    for (const JobRecord& j : shared.jobs) {
        e.restarts += j.restarts;
        if (!j.completed) continue;
        const double solo = soloSeconds(j);
        e.solo_gpu_hours += solo * j.gpus / 3600.0;
        if (solo > 0) stretch.push_back(j.running_time / solo);
    }
    if (!stretch.empty()) {
        const auto mid = stretch.begin() + static_cast<std::ptrdiff_t>(stretch.size() / 2);
        std::nth_element(stretch.begin(), mid, stretch.end());
        e.median_stretch = *mid;
    }
    // The series holds change points; each value holds until the next sample (section 2.8).
    for (std::size_t i = 0; i + 1 < shared.series.size(); ++i)
        e.busy_gpu_hours += shared.series[i].gpu_utilization * cluster_gpus *
                            (shared.series[i + 1].t - shared.series[i].t) / 3600.0;
    if (e.busy_gpu_hours > 0) e.capacity_gain = e.solo_gpu_hours / e.busy_gpu_hours;
    double waiting = 0, jct = 0;
    for (const JobRecord& j : baseline.jobs) {
        e.baseline_restarts += j.restarts;
        if (!j.completed) continue;
        waiting += j.pending_time;
        jct += j.jct;
    }
    if (jct > 0) e.baseline_waiting_share = waiting / jct;
    if (shared.summary.avg_jct > 0) e.speedup = baseline.summary.avg_jct / shared.summary.avg_jct;
    return e;
}

int interleavingVerdict(const InterleavingEffect& e) {
    if (std::abs(e.speedup - 1.0) < 0.005) return 0;
    return e.speedup > 1.0 ? 1 : -1;
}

std::string explainInterleaving(const InterleavingEffect& e, const std::string& shared_policy,
                                const std::string& baseline_policy) {
    const double gain_percent = (e.capacity_gain - 1) * 100;
    const std::string gain = gain_percent >= 0.5    ? fixed("%.0f%% more capacity", gain_percent)
                             : gain_percent <= -0.5 ? fixed("%.0f%% less capacity", -gain_percent)
                                                    : std::string("no more capacity");
    std::string text = "Under " + shared_policy + " the median job ran " + fixed("%.2f", e.median_stretch) +
                       "x as long as alone (grouped jobs run at their group's pace), while the cluster did " +
                       thousands(e.solo_gpu_hours) + " GPU-hours of solo work in " +
                       thousands(e.busy_gpu_hours) + " busy GPU-hours: " + gain + ". ";
    text += "Under " + baseline_policy + " jobs spent " + fixed("%.0f%%", e.baseline_waiting_share * 100) +
            " of their time waiting, ";
    if (interleavingVerdict(e) == 0) {
        text += "and the two average JCTs are within 0.5% of each other: here sharing neither paid nor cost.";
    } else if (e.speedup > 1.0) {
        text += "so the extra capacity removed enough queueing to pay for the slower jobs: " + shared_policy +
                "'s average JCT is " + fixed("%.2f", e.speedup) + "x better.";
    } else {
        text += "too little for the extra capacity to pay for the slower jobs: " + shared_policy +
                "'s average JCT is " + fixed("%.2f", 1 / e.speedup) + "x worse.";
    }
    if (e.baseline_restarts > 0 && e.restarts > 2 * e.baseline_restarts)
        text += " Regrouping also restarted jobs " + thousands(static_cast<double>(e.restarts)) + " times (" +
                baseline_policy + ": " + thousands(static_cast<double>(e.baseline_restarts)) + ").";
    return text;
}

}  // namespace cl
