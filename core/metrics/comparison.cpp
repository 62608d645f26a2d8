#include "core/metrics/comparison.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/io/csv_field.h"
#include "core/metrics/jct_stats.h"
#include "core/metrics/summary_table.h"
#include "core/util/number_format.h"

namespace cl {

namespace {

// ---- building the rows ----------------------------------------------------------------

std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

// Checks the groups and returns the index of the baseline group (the first one with the
// baseline's label, so a duplicated label cannot make the choice ambiguous).
std::size_t baselineIndex(const std::vector<ComparisonGroup>& groups, const std::string& baseline) {
    if (groups.empty()) throw std::invalid_argument("compareGroups: no groups to compare");
    for (const auto& g : groups) {
        if (g.runs.empty())
            throw std::invalid_argument("compareGroups: group " + quoted(g.label) + " has no runs");
        if (g.seeds.size() != g.runs.size())
            throw std::invalid_argument("compareGroups: group " + quoted(g.label) + " has " +
                                        std::to_string(g.seeds.size()) + " seeds but " +
                                        std::to_string(g.runs.size()) + " runs");
    }
    if (baseline.empty()) return 0;
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (groups[i].label == baseline) return i;
    std::string names;
    for (const auto& g : groups) names += (names.empty() ? "" : ", ") + quoted(g.label);
    throw std::invalid_argument("compareGroups: baseline " + quoted(baseline) +
                                " names no group (groups: " + names + ")");
}

Estimate estimateOf(const std::vector<SimResult>& runs, double Summary::*field) {
    std::vector<double> values;
    values.reserve(runs.size());
    for (const auto& r : runs) values.push_back(r.summary.*field);
    return estimate(values);
}

// Running sum for a per-run mean over the jobs of one category.
struct Mean {
    double sum = 0.0;
    int count = 0;
    void add(double v) {
        sum += v;
        ++count;
    }
    double value() const { return sum / count; }
};

// One value per run that had a completed job in the category: runs without one carry no
// information about it, and counting them as 0 would drag the mean down.
Estimate categoryEstimate(const std::vector<SimResult>& runs,
                          const std::function<bool(const JobRecord&)>& in) {
    std::vector<double> per_run;
    for (const auto& r : runs) {
        Mean m;
        for (const auto& j : r.jobs)
            if (j.completed && in(j)) m.add(j.jct);
        if (m.count > 0) per_run.push_back(m.value());
    }
    return estimate(per_run);
}

// The nearest-rank percentile of each run's completed JCTs in the category (section 7.2), as an
// estimate over the runs that had such a job.
Estimate categoryPercentile(const std::vector<SimResult>& runs,
                            const std::function<bool(const JobRecord&)>& in, double p) {
    std::vector<double> per_run;
    for (const auto& r : runs) {
        std::vector<double> jcts;
        for (const auto& j : r.jobs)
            if (j.completed && in(j)) jcts.push_back(j.jct);
        if (!jcts.empty()) per_run.push_back(percentile(std::move(jcts), p));
    }
    return estimate(per_run);
}

std::map<std::string, Estimate> byModel(const std::vector<SimResult>& runs) {
    std::map<std::string, std::vector<double>> per_run;
    for (const auto& r : runs) {
        std::map<std::string, Mean> means;
        for (const auto& j : r.jobs)
            if (j.completed) means[j.model].add(j.jct);
        for (const auto& [model, m] : means) per_run[model].push_back(m.value());
    }
    std::map<std::string, Estimate> out;
    for (const auto& [model, values] : per_run) out[model] = estimate(values);
    return out;
}

ComparisonRow buildRow(const ComparisonGroup& g) {
    ComparisonRow row;
    row.label = g.label;
    row.runs = static_cast<int>(g.runs.size());
    row.jobs = g.runs.front().summary.jobs;
    row.completed = g.runs.front().summary.completed;
    row.avg_jct = estimateOf(g.runs, &Summary::avg_jct);
    row.makespan = estimateOf(g.runs, &Summary::makespan);
    row.p99_jct = estimateOf(g.runs, &Summary::p99_jct);
    row.median_jct = estimateOf(g.runs, &Summary::median_jct);
    row.avg_queueing_delay = estimateOf(g.runs, &Summary::avg_queueing_delay);
    row.p95_jct = estimateOf(g.runs, &Summary::p95_jct);
    row.p95_queueing = estimateOf(g.runs, &Summary::p95_queueing_delay);
    row.avg_jct_by_model = byModel(g.runs);
    const auto small = [](const JobRecord& j) { return !isLargeJob(j.gpus); };
    const auto large = [](const JobRecord& j) { return isLargeJob(j.gpus); };
    row.avg_jct_small = categoryEstimate(g.runs, small);
    row.avg_jct_large = categoryEstimate(g.runs, large);
    row.p95_jct_small = categoryPercentile(g.runs, small, 0.95);
    row.p99_jct_small = categoryPercentile(g.runs, small, 0.99);
    row.p95_jct_large = categoryPercentile(g.runs, large, 0.95);
    row.p99_jct_large = categoryPercentile(g.runs, large, 0.99);
    if (g.cost && g.cost->anyPriced(g.cluster_servers)) {
        row.priced = true;
        row.cost_per_month = g.cost->per_month;
        row.unpriced_servers = g.cost->unpriced_servers;
        std::vector<double> span_costs;
        for (const auto& r : g.runs) span_costs.push_back(costForSpan(*g.cost, r.summary.makespan));
        row.span_cost = estimate(span_costs);
    }
    return row;
}

// A row whose mean is not positive completed nothing worth comparing; 0 marks that instead
// of an infinite or negative speedup (the convention of formatSummaryTable).
double speedup(double base, double value) {
    return value > 0 ? base / value : 0.0;
}

// ---- text -------------------------------------------------------------------------------

using Table = std::vector<std::vector<std::string>>;

std::string estimateText(const Estimate& e) {
    if (e.n == 0) return "-";
    if (e.n == 1) return humanDuration(e.mean);
    return humanDuration(e.mean) + " +- " + humanDuration(e.ci95);
}

std::string ratioText(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", r);
    return buf;
}

std::string mainTable(const Comparison& c) {
    Table t = {
        {"group", "runs", "done", "avg JCT", "makespan", "p99 JCT", "avg JCT x", "makespan x", "p99 x"}};
    for (const auto& r : c.rows)
        t.push_back({r.label, std::to_string(r.runs),
                     std::to_string(r.completed) + "/" + std::to_string(r.jobs), estimateText(r.avg_jct),
                     estimateText(r.makespan), estimateText(r.p99_jct), ratioText(r.avg_jct_speedup),
                     ratioText(r.makespan_speedup), ratioText(r.p99_jct_speedup)});
    return renderTextTable(t);
}

std::vector<std::string> groupHeader(const Comparison& c, const std::string& first) {
    std::vector<std::string> head = {first};
    for (const auto& r : c.rows) head.push_back(r.label);
    return head;
}

std::string modelTable(const Comparison& c) {
    std::map<std::string, bool> models;  // the union over groups, sorted by name
    for (const auto& r : c.rows)
        for (const auto& [m, e] : r.avg_jct_by_model) models[m] = true;
    if (models.empty()) return "";
    Table t = {groupHeader(c, "model")};
    for (const auto& [m, unused] : models) {
        std::vector<std::string> line = {m.empty() ? "(unnamed)" : m};
        for (const auto& r : c.rows) {
            auto it = r.avg_jct_by_model.find(m);
            line.push_back(it == r.avg_jct_by_model.end() ? "-" : estimateText(it->second));
        }
        t.push_back(line);
    }
    return renderTextTable(t);
}

// One line per metric, one column per group.
using RowMetric = std::function<std::string(const ComparisonRow&)>;
void addLine(Table& t, const Comparison& c, const std::string& name, const RowMetric& cell) {
    std::vector<std::string> line = {name};
    for (const auto& r : c.rows) line.push_back(cell(r));
    t.push_back(line);
}

std::string tailTable(const Comparison& c) {
    Table t = {groupHeader(c, "tail")};
    addLine(t, c, "p95 JCT", [](const ComparisonRow& r) { return estimateText(r.p95_jct); });
    addLine(t, c, "p95 queueing", [](const ComparisonRow& r) { return estimateText(r.p95_queueing); });
    return renderTextTable(t);
}

std::string sizeTable(const Comparison& c, const std::string& small, const std::string& large) {
    Table t = {groupHeader(c, "jobs")};
    addLine(t, c, small, [](const ComparisonRow& r) { return estimateText(r.avg_jct_small); });
    addLine(t, c, large, [](const ComparisonRow& r) { return estimateText(r.avg_jct_large); });
    addLine(t, c, "small p95 JCT", [](const ComparisonRow& r) { return estimateText(r.p95_jct_small); });
    addLine(t, c, "small p99 JCT", [](const ComparisonRow& r) { return estimateText(r.p99_jct_small); });
    addLine(t, c, "large p95 JCT", [](const ComparisonRow& r) { return estimateText(r.p95_jct_large); });
    addLine(t, c, "large p99 JCT", [](const ComparisonRow& r) { return estimateText(r.p99_jct_large); });
    return renderTextTable(t);
}

std::string usdEstimateText(const Estimate& e) {
    if (e.n < 2) return formatUsd(e.mean);
    return formatUsd(e.mean) + " +- " + formatUsd(e.ci95);
}

// Empty when no group's cluster is priced: a cost of $0 would read as a free cluster.
std::string costTable(const Comparison& c) {
    if (std::none_of(c.rows.begin(), c.rows.end(), [](const ComparisonRow& r) { return r.priced; }))
        return "";
    Table t = {{"group", "per month", "for the span", "note"}};
    for (const auto& r : c.rows) {
        if (!r.priced) {
            t.push_back({r.label, "-", "-", "no priced server"});
            continue;
        }
        t.push_back({r.label, formatUsd(r.cost_per_month), usdEstimateText(r.span_cost),
                     r.unpriced_servers > 0 ? unpricedNote(r.unpriced_servers) : ""});
    }
    return renderTextTable(t);
}

// ---- CSV ----------------------------------------------------------------------------------

void csvLine(std::string& out, const ComparisonRow& r, const std::string& metric, const Estimate& e,
             const double* speedup_value = nullptr) {
    out += csvField(r.label) + ',' + csvField(metric) + ',' + formatNumberPlain(e.mean) + ',' +
           formatNumberPlain(e.ci95) + ',' + std::to_string(e.n) + ',' +
           (speedup_value ? formatNumberPlain(*speedup_value) : std::string()) + '\n';
}

// ---- JSON ---------------------------------------------------------------------------------

nlohmann::json estimateJson(const Estimate& e) {
    return {{"mean", e.mean}, {"ci95", e.ci95}, {"n", e.n}};
}

nlohmann::json rowJson(const ComparisonRow& r) {
    nlohmann::json models = nlohmann::json::object();
    for (const auto& [m, e] : r.avg_jct_by_model) models[m] = estimateJson(e);
    return {
        {"label", r.label},
        {"runs", r.runs},
        {"jobs", r.jobs},
        {"completed", r.completed},
        {"avg_jct", estimateJson(r.avg_jct)},
        {"makespan", estimateJson(r.makespan)},
        {"p99_jct", estimateJson(r.p99_jct)},
        {"median_jct", estimateJson(r.median_jct)},
        {"avg_queueing_delay", estimateJson(r.avg_queueing_delay)},
        {"speedup",
         {{"avg_jct", r.avg_jct_speedup}, {"makespan", r.makespan_speedup}, {"p99_jct", r.p99_jct_speedup}}},
        {"by_model", models},
        {"small", estimateJson(r.avg_jct_small)},
        {"large", estimateJson(r.avg_jct_large)},
        {"p95_jct", estimateJson(r.p95_jct)},
        {"p95_queueing", estimateJson(r.p95_queueing)},
        {"small:p95_jct", estimateJson(r.p95_jct_small)},
        {"small:p99_jct", estimateJson(r.p99_jct_small)},
        {"large:p95_jct", estimateJson(r.p95_jct_large)},
        {"large:p99_jct", estimateJson(r.p99_jct_large)},
        // null when the cluster has no priced server: a cost of 0 would read as a free cluster
        {"cost_per_month", r.priced ? nlohmann::json(r.cost_per_month) : nlohmann::json()},
        {"span_cost", r.priced ? estimateJson(r.span_cost) : nlohmann::json()},
        {"unpriced_servers", r.unpriced_servers}};
}

}  // namespace

double studentT95(int df) {
    if (df < 1)
        throw std::invalid_argument("studentT95: degrees of freedom must be >= 1, got " + std::to_string(df));
    static constexpr std::array<double, 30> kSmall = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                                      2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                                      2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                                      2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df <= 30) return kSmall[static_cast<std::size_t>(df - 1)];
    // Between tabulated points the smaller df's (larger) quantile keeps the interval conservative.
    if (df < 40) return kSmall.back();
    if (df < 60) return 2.021;
    if (df < 120) return 2.000;
    if (df == 120) return 1.980;
    return 1.96;
}

Estimate estimate(const std::vector<double>& values) {
    Estimate e;
    e.n = static_cast<int>(values.size());
    if (values.empty()) return e;
    double sum = 0.0;
    for (double v : values) sum += v;
    e.mean = sum / e.n;
    if (e.n < 2) return e;
    double squares = 0.0;  // about the mean (two passes): no cancellation for large, close values
    for (double v : values) squares += (v - e.mean) * (v - e.mean);
    double stddev = std::sqrt(squares / (e.n - 1));
    e.ci95 = studentT95(e.n - 1) * stddev / std::sqrt(static_cast<double>(e.n));
    return e;
}

Comparison compareGroups(const std::vector<ComparisonGroup>& groups, const std::string& baseline) {
    std::size_t base = baselineIndex(groups, baseline);
    Comparison c;
    c.baseline = groups[base].label;
    for (const auto& g : groups) c.rows.push_back(buildRow(g));
    const ComparisonRow& b = c.rows[base];
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        if (i == base) continue;  // stays 1 even when the baseline completed nothing
        ComparisonRow& r = c.rows[i];
        r.avg_jct_speedup = speedup(b.avg_jct.mean, r.avg_jct.mean);
        r.makespan_speedup = speedup(b.makespan.mean, r.makespan.mean);
        r.p99_jct_speedup = speedup(b.p99_jct.mean, r.p99_jct.mean);
    }
    return c;
}

std::string formatComparisonText(const Comparison& c) {
    std::string out = "baseline: " + c.baseline + "\n" + mainTable(c);
    std::string models = modelTable(c);
    if (!models.empty()) out += "\nper model (avg JCT)\n" + models;
    std::string small = "small (<" + std::to_string(kLargeJobAboveGpus + 1) + " GPUs)";
    std::string large = "large (>=" + std::to_string(kLargeJobAboveGpus + 1) + " GPUs)";
    out += "\n" + tailTable(c);
    out += "\n" + small + " / " + large + "\n" + sizeTable(c, small, large);
    std::string cost = costTable(c);
    if (!cost.empty()) out += "\ncost (USD)\n" + cost;
    return out;
}

std::string formatComparisonCsv(const Comparison& c) {
    std::string out = "label,metric,mean,ci95,runs,speedup\n";
    for (const auto& r : c.rows) {
        csvLine(out, r, "avg_jct", r.avg_jct, &r.avg_jct_speedup);
        csvLine(out, r, "makespan", r.makespan, &r.makespan_speedup);
        csvLine(out, r, "p99_jct", r.p99_jct, &r.p99_jct_speedup);
        csvLine(out, r, "median_jct", r.median_jct);
        csvLine(out, r, "avg_queueing_delay", r.avg_queueing_delay);
        csvLine(out, r, "p95_jct", r.p95_jct);
        csvLine(out, r, "p95_queueing", r.p95_queueing);
        // A size class no run had is left out, like a model no run had: a 0 mean would read as data.
        if (r.avg_jct_small.n > 0) {
            csvLine(out, r, "avg_jct_small", r.avg_jct_small);
            csvLine(out, r, "small:p95_jct", r.p95_jct_small);
            csvLine(out, r, "small:p99_jct", r.p99_jct_small);
        }
        if (r.avg_jct_large.n > 0) {
            csvLine(out, r, "avg_jct_large", r.avg_jct_large);
            csvLine(out, r, "large:p95_jct", r.p95_jct_large);
            csvLine(out, r, "large:p99_jct", r.p99_jct_large);
        }
        for (const auto& [m, e] : r.avg_jct_by_model) csvLine(out, r, "avg_jct_model:" + m, e);
        // Likewise a cluster without any price: no cost rows rather than a cost of 0.
        if (r.priced) {
            csvLine(out, r, "cost_per_month", Estimate{r.cost_per_month, 0.0, r.runs});
            csvLine(out, r, "span_cost", r.span_cost);
            csvLine(out, r, "unpriced_servers",
                    Estimate{static_cast<double>(r.unpriced_servers), 0.0, r.runs});
        }
    }
    return out;
}

nlohmann::json comparisonJson(const Comparison& c) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : c.rows) rows.push_back(rowJson(r));
    return {{"baseline", c.baseline}, {"rows", rows}};
}

}  // namespace cl
