#include "core/metrics/jct_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/metrics/job_size.h"

namespace cl {

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    // Nearest rank: the smallest value with at least p of the data at or below it.
    auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    rank = std::clamp<std::size_t>(rank, 1, values.size());
    return values[rank - 1];
}

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

namespace {

SizeClassSummary sizeClassSummary(const std::vector<double>& jcts) {
    SizeClassSummary c;
    c.completed = static_cast<int>(jcts.size());
    if (jcts.empty()) return c;
    double sum = 0.0;
    for (double v : jcts) sum += v;
    c.avg_jct = sum / static_cast<double>(jcts.size());
    c.p95_jct = percentile(jcts, 0.95);
    c.p99_jct = percentile(jcts, 0.99);
    return c;
}

}  // namespace

Summary summarize(const std::vector<JobRecord>& jobs) {
    Summary s;
    s.jobs = static_cast<int>(jobs.size());
    std::vector<double> jcts, queueing, large_jcts, small_jcts;
    double first_submit = std::numeric_limits<double>::infinity();
    double last_end = 0.0;
    double queue_sum = 0.0;
    for (const auto& j : jobs) {
        s.timed_out += j.timed_out ? 1 : 0;
        // A job left out before the run (it can never fit) never started: it does not open the
        // makespan (docs/architecture.md 2.10).
        if (j.completed || std::isfinite(j.first_start)) first_submit = std::min(first_submit, j.submit);
        if (!j.completed && !j.timed_out) continue;
        last_end = std::max(last_end, j.end);
        // A job ended at its time limit waited in the queue like any other: its wait counts in
        // the queueing figures; its JCT (cut short) does not count in the JCT figures.
        queueing.push_back(j.queueing_delay);
        queue_sum += j.queueing_delay;
        if (!j.completed) continue;
        ++s.completed;
        jcts.push_back(j.jct);
        (isLargeJob(j.gpus) ? large_jcts : small_jcts).push_back(j.jct);
    }
    s.large = sizeClassSummary(large_jcts);
    s.small = sizeClassSummary(small_jcts);
    if (!queueing.empty()) {
        s.makespan = last_end - first_submit;
        s.avg_queueing_delay = queue_sum / static_cast<double>(queueing.size());
        s.p95_queueing_delay = percentile(queueing, 0.95);
    }
    if (jcts.empty()) return s;
    double sum = 0.0;
    for (double v : jcts) sum += v;
    s.avg_jct = sum / static_cast<double>(jcts.size());
    s.median_jct = median(jcts);
    s.p95_jct = percentile(jcts, 0.95);
    s.p99_jct = percentile(jcts, 0.99);
    return s;
}

}  // namespace cl
