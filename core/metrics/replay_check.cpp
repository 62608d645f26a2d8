#include "core/metrics/replay_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/metrics/jct_stats.h"

namespace cl {

namespace {

// Discordant pairs by merge sort: the sequence's inversions (ties are not inversions).
long long countInversions(std::vector<double>& v, std::vector<double>& scratch, std::size_t lo,
                          std::size_t hi) {
    if (hi - lo < 2) return 0;
    const std::size_t mid = lo + (hi - lo) / 2;
    long long n = countInversions(v, scratch, lo, mid) + countInversions(v, scratch, mid, hi);
    std::size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (v[j] < v[i]) {
            n += static_cast<long long>(mid - i);
            scratch[k++] = v[j++];
        } else {
            scratch[k++] = v[i++];
        }
    }
    while (i < mid) scratch[k++] = v[i++];
    while (j < hi) scratch[k++] = v[j++];
    std::copy(scratch.begin() + static_cast<std::ptrdiff_t>(lo),
              scratch.begin() + static_cast<std::ptrdiff_t>(hi), v.begin() + static_cast<std::ptrdiff_t>(lo));
    return n;
}

// Kendall's tau-a of the recorded and simulated starts (ties in the recorded order broken by the
// simulated one, so they never count against the replay).
double kendallTau(const std::vector<const ReplayJob*>& jobs) {
    const std::size_t n = jobs.size();
    if (n < 2) return 1.0;
    std::vector<const ReplayJob*> sorted = jobs;
    std::sort(sorted.begin(), sorted.end(), [](const ReplayJob* a, const ReplayJob* b) {
        return a->recorded_start != b->recorded_start ? a->recorded_start < b->recorded_start
                                                      : a->simulated_start < b->simulated_start;
    });
    std::vector<double> simulated(n), scratch(n);
    for (std::size_t i = 0; i < n; ++i) simulated[i] = sorted[i]->simulated_start;
    const long long discordant = countInversions(simulated, scratch, 0, n);
    const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2.0;
    return 1.0 - 2.0 * static_cast<double>(discordant) / pairs;
}

ReplayFigures figuresOf(const std::vector<const ReplayJob*>& jobs) {
    ReplayFigures f;
    f.jobs = static_cast<int>(jobs.size());
    if (jobs.empty()) return f;
    std::vector<double> diff, recorded, simulated;
    for (const ReplayJob* j : jobs) {
        diff.push_back(std::abs(j->difference));
        recorded.push_back(j->recorded_start - j->submit);
        simulated.push_back(j->simulated_start - j->submit);
    }
    const auto mean = [](const std::vector<double>& v) {
        return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    };
    f.median_difference = median(diff);
    f.p90_difference = percentile(diff, 0.90);
    f.max_difference = *std::max_element(diff.begin(), diff.end());
    f.mean_wait_recorded = mean(recorded);
    f.p95_wait_recorded = percentile(recorded, 0.95);
    f.mean_wait_simulated = mean(simulated);
    f.p95_wait_simulated = percentile(simulated, 0.95);
    f.kendall_tau = kendallTau(jobs);
    return f;
}

std::string fixed(double v, int digits = 1) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

nlohmann::json figuresJson(const ReplayFigures& f) {
    return {{"jobs", f.jobs},
            {"start_difference_s",
             {{"median", f.median_difference}, {"p90", f.p90_difference}, {"max", f.max_difference}}},
            {"wait_recorded_s", {{"mean", f.mean_wait_recorded}, {"p95", f.p95_wait_recorded}}},
            {"wait_simulated_s", {{"mean", f.mean_wait_simulated}, {"p95", f.p95_wait_simulated}}},
            {"kendall_tau", f.kendall_tau}};
}

}  // namespace

ReplayCheck checkReplay(const Trace& trace, const SimResult& result) {
    ReplayCheck check;
    for (const JobRecord& r : result.jobs) {
        const Job& job = trace.jobs[static_cast<std::size_t>(r.index)];
        if (job.recorded_start < 0) {
            ++check.without_recorded_start;
            continue;
        }
        if (!std::isfinite(r.first_start)) {
            ++check.not_started;
            continue;
        }
        check.jobs.push_back({r.index, job.id, job.partition, job.gpus, job.submit_time, job.recorded_start,
                              r.first_start, r.first_start - job.recorded_start});
    }
    std::vector<const ReplayJob*> all;
    std::map<std::string, std::vector<const ReplayJob*>> parts;
    for (const ReplayJob& j : check.jobs) {
        all.push_back(&j);
        parts[j.partition].push_back(&j);
    }
    check.all = figuresOf(all);
    if (parts.size() > 1)
        for (const auto& [name, jobs] : parts) check.by_partition[name] = figuresOf(jobs);
    check.verdict = replayVerdict(check.all);
    std::stable_sort(check.jobs.begin(), check.jobs.end(), [](const ReplayJob& a, const ReplayJob& b) {
        return std::abs(a.difference) > std::abs(b.difference);
    });
    return check;
}

std::string replayVerdict(const ReplayFigures& f) {
    if (f.jobs == 0) return "nothing to compare: no job has a recorded start that the replay started";
    const double wait_error =
        f.mean_wait_recorded > 0
            ? std::abs(f.mean_wait_simulated - f.mean_wait_recorded) / f.mean_wait_recorded
            : (f.mean_wait_simulated > 0 ? 1.0 : 0.0);
    const auto within = [&](double k) {
        return f.median_difference <= 10.0 * k && f.p90_difference <= 60.0 * k && wait_error <= 0.15 * k;
    };
    const std::string grade = within(1) ? "close" : within(5) ? "rough" : "far";
    return grade + ": median |start difference| " + fixed(f.median_difference) + " s, p90 " +
           fixed(f.p90_difference) + " s; mean wait " + fixed(f.mean_wait_simulated) + " s simulated vs " +
           fixed(f.mean_wait_recorded) + " s recorded (" +
           (f.mean_wait_simulated >= f.mean_wait_recorded ? "+" : "-") + fixed(wait_error * 100.0, 0) +
           "%); Kendall tau " + fixed(f.kendall_tau, 3);
}

nlohmann::json replayCheckJson(const ReplayCheck& check, int worst_jobs) {
    nlohmann::json j = figuresJson(check.all);
    j["without_recorded_start"] = check.without_recorded_start;
    j["not_started"] = check.not_started;
    j["verdict"] = check.verdict;
    nlohmann::json parts = nlohmann::json::object();
    for (const auto& [name, f] : check.by_partition) parts[name] = figuresJson(f);
    j["partitions"] = parts;
    nlohmann::json worst = nlohmann::json::array();
    for (std::size_t i = 0; i < check.jobs.size() && static_cast<int>(i) < worst_jobs; ++i) {
        const ReplayJob& r = check.jobs[i];
        worst.push_back({{"job_index", r.index},
                         {"job_id", r.id},
                         {"partition", r.partition},
                         {"gpus", r.gpus},
                         {"submit", r.submit},
                         {"recorded_start", r.recorded_start},
                         {"simulated_start", r.simulated_start},
                         {"difference", r.difference}});
    }
    j["worst_jobs"] = worst;
    return j;
}

std::string formatReplayCheck(const ReplayCheck& check, int worst_jobs) {
    const auto line = [](const std::string& label, const ReplayFigures& f) {
        return label + ": " + std::to_string(f.jobs) + " jobs; |start difference| median " +
               fixed(f.median_difference) + " s, p90 " + fixed(f.p90_difference) + " s, max " +
               fixed(f.max_difference) + " s; wait recorded mean " + fixed(f.mean_wait_recorded) +
               " s (p95 " + fixed(f.p95_wait_recorded) + "), simulated mean " + fixed(f.mean_wait_simulated) +
               " s (p95 " + fixed(f.p95_wait_simulated) + "); Kendall tau " + fixed(f.kendall_tau, 3) + "\n";
    };
    std::string out = line("all", check.all);
    for (const auto& [name, f] : check.by_partition)
        out += line("partition " + (name.empty() ? "(none)" : name), f);
    if (check.without_recorded_start > 0)
        out += std::to_string(check.without_recorded_start) + " jobs have no recorded start (not compared)\n";
    if (check.not_started > 0)
        out +=
            std::to_string(check.not_started) + " jobs with a recorded start never started in the replay\n";
    if (!check.jobs.empty()) {
        out += "largest differences (job, GPUs, recorded start, simulated start, difference in s):\n";
        for (std::size_t i = 0; i < check.jobs.size() && static_cast<int>(i) < worst_jobs; ++i) {
            const ReplayJob& r = check.jobs[i];
            out += "  " + r.id + "  " + std::to_string(r.gpus) + "  " + fixed(r.recorded_start) + "  " +
                   fixed(r.simulated_start) + "  " + (r.difference >= 0 ? "+" : "") + fixed(r.difference) +
                   "\n";
        }
    }
    out += "verdict: " + check.verdict + "\n";
    return out;
}

}  // namespace cl
