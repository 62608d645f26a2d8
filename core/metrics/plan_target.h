#pragma once
// A planning target (docs/architecture.md 7.7): a metric, a comparison and a value,
// optionally for large or small jobs only (section 7.3), written as planners say it:
//     p95_jct<=8h    avg_queueing<=30m    large:p99_jct<=2d    makespan<3d
// Metrics: avg_jct, median_jct, p95_jct, p99_jct, avg_queueing, p95_queueing, makespan, whose
// values are durations with a unit s, m, h or d; and p95_slowdown, avg_bounded_slowdown, ratios
// without a unit (p95_slowdown<=4), which see a job starved after its first start. A target is evaluated on a
// run's per-job records, so percentiles of a size class and of queueing need nothing stored beyond the
// records.
#include <string>
#include <string_view>
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

enum class TargetComparison { AtMost, Below, AtLeast, Above };  // <=, <, >=, >
enum class TargetJobs { All, Large, Small };

struct PlanTarget {
    std::string metric;  // one of planTargetMetrics()
    TargetJobs jobs = TargetJobs::All;
    TargetComparison comparison = TargetComparison::AtMost;
    double value_s = 0.0;  // seconds; the plain ratio for a slowdown (isRatioMetric)
    std::string text;      // as written, for reports
};

const std::vector<std::string>& planTargetMetrics();
// A slowdown: a ratio (value_s holds the plain number), not a duration. Takes a metric or a key
// ("large:p95_slowdown").
bool isRatioMetric(const std::string& metric);
// A metric's value as reports show it: a duration ("3.5 h"), or a ratio with two decimals;
// "-" for NaN.
std::string formatPlanMetric(const std::string& metric, double value);
// The bound of the bounded slowdown: run times shorter than this count as this long.
inline constexpr double kBoundedSlowdownSeconds = 10.0;
// The target's metric with its job class, as reports key it: "p95_jct", "large:p99_jct".
std::string planMetricKey(const PlanTarget& target);

// Throws std::invalid_argument naming what is wrong and what is accepted:
// "'p96_jct<=8h': unknown metric 'p96_jct' (avg_jct, median_jct, ...)".
PlanTarget parsePlanTarget(std::string_view text);

// The target's metric on a run's jobs (completed jobs; makespan from the first submission of
// any job in the class to the last end), in seconds; NaN when no job of the class completed.
double planTargetValue(const PlanTarget& target, const std::vector<JobRecord>& jobs, int large_above_gpus);
// False for NaN: a target on jobs that never finished is not met.
bool meetsPlanTarget(const PlanTarget& target, double value_s);

}  // namespace cl
