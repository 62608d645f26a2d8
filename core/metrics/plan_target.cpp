#include "core/metrics/plan_target.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "core/metrics/jct_stats.h"
#include "core/metrics/job_size.h"
#include "core/metrics/summary_table.h"

namespace cl {

namespace {

std::string metricList() {
    std::string s;
    for (const std::string& m : planTargetMetrics()) s += (s.empty() ? "" : ", ") + m;
    return s;
}

double unitSeconds(char unit) {
    switch (unit) {
        case 's':
            return 1.0;
        case 'm':
            return 60.0;
        case 'h':
            return 3600.0;
        case 'd':
            return 86400.0;
        default:
            return 0.0;
    }
}

}  // namespace

bool isRatioMetric(const std::string& metric) {
    const std::string bare = metric.substr(metric.find(':') == std::string::npos ? 0 : metric.find(':') + 1);
    return bare == "p95_slowdown" || bare == "avg_bounded_slowdown";
}

std::string formatPlanMetric(const std::string& metric, double value) {
    if (std::isnan(value)) return "-";
    if (!isRatioMetric(metric)) return humanDuration(value);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", value);
    return buf;
}

const std::vector<std::string>& planTargetMetrics() {
    static const std::vector<std::string> metrics = {"avg_jct",  "median_jct",   "p95_jct",
                                                     "p99_jct",  "avg_queueing", "p95_queueing",
                                                     "makespan", "p95_slowdown", "avg_bounded_slowdown"};
    return metrics;
}

std::string planMetricKey(const PlanTarget& target) {
    switch (target.jobs) {
        case TargetJobs::Large:
            return "large:" + target.metric;
        case TargetJobs::Small:
            return "small:" + target.metric;
        case TargetJobs::All:
            break;
    }
    return target.metric;
}

PlanTarget parsePlanTarget(std::string_view text) {
    PlanTarget t;
    t.text = std::string(text);
    const auto fail = [&](const std::string& what) {
        throw std::invalid_argument("'" + t.text + "': " + what);
    };
    std::string_view rest = text;
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
        const std::string_view jobs = rest.substr(0, colon);
        if (jobs == "large")
            t.jobs = TargetJobs::Large;
        else if (jobs == "small")
            t.jobs = TargetJobs::Small;
        else if (jobs != "all")
            fail("unknown job class '" + std::string(jobs) + "' (large, small or all before the ':')");
        rest.remove_prefix(colon + 1);
    }
    const auto op = rest.find_first_of("<>");
    if (op == std::string_view::npos)
        fail("no comparison: write METRIC<=VALUE (or <, >=, >), e.g. p95_jct<=8h");
    t.metric = std::string(rest.substr(0, op));
    while (!t.metric.empty() && t.metric.back() == ' ') t.metric.pop_back();
    const auto& metrics = planTargetMetrics();
    if (std::find(metrics.begin(), metrics.end(), t.metric) == metrics.end())
        fail("unknown metric '" + t.metric + "' (" + metricList() + ")");
    const bool less = rest[op] == '<';
    const bool or_equal = op + 1 < rest.size() && rest[op + 1] == '=';
    t.comparison = less ? (or_equal ? TargetComparison::AtMost : TargetComparison::Below)
                        : (or_equal ? TargetComparison::AtLeast : TargetComparison::Above);
    std::string_view value = rest.substr(op + (or_equal ? 2 : 1));
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (value.empty()) fail("no value after the comparison");
    double scale = 1.0;
    if (isRatioMetric(t.metric)) {
        if (!value.empty() && unitSeconds(value.back()) != 0.0)
            fail("a slowdown is a ratio without a unit, as in " + t.metric + "<=5");
    } else {
        scale = unitSeconds(value.back());
        if (scale == 0.0) fail("the value needs a unit: s, m, h or d (as in 30m or 8h)");
        value.remove_suffix(1);
    }
    double number = 0.0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(number) || number < 0)
        fail("'" + std::string(value) + "' is not a non-negative number");
    t.value_s = number * scale;
    return t;
}

double planTargetValue(const PlanTarget& target, const std::vector<JobRecord>& jobs, int large_above_gpus) {
    std::vector<double> jct, queueing, slowdown, bounded_slowdown;
    double first_submit = std::numeric_limits<double>::infinity(), last_end = 0.0;
    for (const JobRecord& j : jobs) {
        const bool large = isLargeJob(j.gpus, large_above_gpus);
        if ((target.jobs == TargetJobs::Large && !large) || (target.jobs == TargetJobs::Small && large))
            continue;
        // The rules of summarize (docs/architecture.md 7.2): a job that never started does not
        // open the makespan; a timed-out job counts in the queueing figures, not in the JCTs.
        if (j.completed || std::isfinite(j.first_start)) first_submit = std::min(first_submit, j.submit);
        if (!j.completed && !j.timed_out) continue;
        queueing.push_back(j.queueing_delay);
        last_end = std::max(last_end, j.end);
        if (!j.completed) continue;
        jct.push_back(j.jct);
        // Slowdown against the job's run time alone on its GPUs; the bounded one (Feitelson,
        // Rudolph, Schwiegelshohn, Sevcik and Wong, "Theory and practice in parallel job
        // scheduling", 1997) floors that run time at kBoundedSlowdownSeconds so that a very short
        // job's wait does not dominate the mean, and the ratio at 1.
        const double alone = j.iterations * j.solo_iteration_time;
        if (alone > 0) slowdown.push_back(j.jct / alone);
        bounded_slowdown.push_back(std::max(1.0, j.jct / std::max(alone, kBoundedSlowdownSeconds)));
    }
    const std::string& m = target.metric;
    const bool about_queueing = m == "avg_queueing" || m == "p95_queueing" || m == "makespan";
    if ((about_queueing ? queueing : jct).empty()) return std::numeric_limits<double>::quiet_NaN();
    if (m == "p95_slowdown")
        return slowdown.empty() ? std::numeric_limits<double>::quiet_NaN() : percentile(slowdown, 0.95);
    const auto mean = [](const std::vector<double>& v) {
        double sum = 0.0;
        for (double x : v) sum += x;
        return sum / static_cast<double>(v.size());
    };
    if (m == "avg_jct") return mean(jct);
    if (m == "median_jct") return median(jct);
    if (m == "p95_jct") return percentile(jct, 0.95);
    if (m == "p99_jct") return percentile(jct, 0.99);
    if (m == "avg_queueing") return mean(queueing);
    if (m == "p95_queueing") return percentile(queueing, 0.95);
    if (m == "avg_bounded_slowdown") return mean(bounded_slowdown);
    return last_end - first_submit;  // makespan
}

bool meetsPlanTarget(const PlanTarget& target, double value_s) {
    if (std::isnan(value_s)) return false;
    switch (target.comparison) {
        case TargetComparison::AtMost:
            return value_s <= target.value_s;
        case TargetComparison::Below:
            return value_s < target.value_s;
        case TargetComparison::AtLeast:
            return value_s >= target.value_s;
        case TargetComparison::Above:
            return value_s > target.value_s;
    }
    return false;
}

}  // namespace cl
