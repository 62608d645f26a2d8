#pragma once
// What-if comparison of stored runs (the paper-style table of `clusterloom-cli compare`).
// Pure computation over results; the store decides which runs form a group.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/metrics/cluster_cost.h"
#include "core/metrics/job_size.h"
#include "core/model/sim_result.h"

namespace cl {

// One column of the comparison: the runs of one scenario, or of scenarios that differ only
// by their seed (then the figures are means with a 95% confidence interval).
struct ComparisonGroup {
    std::string label;                 // scenario name, or the common name of a seed group
    std::vector<std::uint64_t> seeds;  // one per run, same order as runs
    std::vector<SimResult> runs;       // jobs (per-job records) and summary are used
    // What the group's cluster costs (docs/architecture.md 7.8), when known; its runs differ only
    // by seed, so they share the cluster. cluster_servers says whether anything is priced.
    std::optional<ClusterCost> cost{};
    int cluster_servers = 0;
};

// Mean over a group's runs and, with two or more runs, the half-width of the 95% confidence
// interval of the mean (Student's t with n - 1 degrees of freedom); 0 with one run.
struct Estimate {
    double mean = 0.0;
    double ci95 = 0.0;
    int n = 0;
};

struct ComparisonRow {
    std::string label;
    int runs = 0;
    int jobs = 0;       // per run (first run)
    int completed = 0;  // per run (first run)
    Estimate avg_jct, makespan, p99_jct, median_jct, avg_queueing_delay;
    Estimate p95_jct, p95_queueing;  // the planning targets' names (section 7.7)
    // baseline mean / this mean (higher is better); 1 for the baseline itself; 0 when this
    // row's mean is not positive (nothing completed), rather than an infinite ratio.
    double avg_jct_speedup = 1.0, makespan_speedup = 1.0, p99_jct_speedup = 1.0;
    std::map<std::string, Estimate> avg_jct_by_model;  // completed jobs of each model
    Estimate avg_jct_small, avg_jct_large;             // isLargeJob (core/metrics/job_size.h)
    Estimate p95_jct_small, p99_jct_small, p95_jct_large, p99_jct_large;
    // Cost (section 7.8): priced when the group's cluster has at least one priced server. The
    // cost for the span is per run (its makespan), so it is an estimate over the seeds.
    bool priced = false;
    double cost_per_month = 0.0;  // USD
    int unpriced_servers = 0;     // servers left out of the cost
    Estimate span_cost;           // USD for each run's makespan
    // Breakdown estimates use only the runs with a completed job of that kind (n counts them);
    // n == 0 means no run had one (the text shows "-", the CSV leaves the metric out).
};

struct Comparison {
    std::string baseline;             // label of the baseline group
    std::vector<ComparisonRow> rows;  // in the order of the groups given
};

// Throws std::invalid_argument if groups is empty, a group has no runs, seeds and runs differ
// in size, or baseline (when not empty) names no group. An empty baseline means the first group.
// A label given to several groups picks the first of them as the baseline.
Comparison compareGroups(const std::vector<ComparisonGroup>& groups, const std::string& baseline = "");

// 95% two-sided Student's t quantile for the given degrees of freedom (>= 1); 1.96 for large df.
double studentT95(int degrees_of_freedom);
Estimate estimate(const std::vector<double>& values);

// Aligned text: one row per group with avg JCT, makespan, p99 JCT (mean +- ci when a group
// has several runs) and their speedups over the baseline; then p95 JCT and queueing, the
// per-model and large/small JCT breakdowns (one column per group); then the cost when any
// group's cluster is priced, saying how many servers it leaves out.
std::string formatComparisonText(const Comparison& c);
// One CSV row per (group, metric): label,metric,mean,ci95,runs,speedup (speedup empty where
// it does not apply). Metrics: avg_jct, makespan, p99_jct, median_jct, avg_queueing_delay,
// p95_jct, p95_queueing, avg_jct_small, avg_jct_large, small:p95_jct, small:p99_jct,
// large:p95_jct, large:p99_jct (as planning targets name them), avg_jct_model:<name>; for a
// priced cluster cost_per_month, span_cost (USD) and unpriced_servers.
std::string formatComparisonCsv(const Comparison& c);
nlohmann::json comparisonJson(const Comparison& c);

}  // namespace cl
