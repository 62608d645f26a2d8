#include "core/metrics/summary_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/metrics/job_size.h"

namespace cl {

std::string humanDuration(double s) {
    char buf[32];
    double a = std::fabs(s);
    if (a < 60)
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (a < 3600)
        std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    else if (a < 86400 * 2)
        std::snprintf(buf, sizeof buf, "%.2f h", s / 3600);
    else
        std::snprintf(buf, sizeof buf, "%.2f d", s / 86400);
    return buf;
}

namespace {

std::string durationOrDash(double seconds) {
    return std::isnan(seconds) ? "-" : humanDuration(seconds);
}

// The JCTs of small and large jobs (docs/architecture.md 7.3), "-" for a class with none done.
std::string sizeClassTable(const std::vector<SimResult>& results) {
    const std::string above = std::to_string(kLargeJobAboveGpus);
    std::vector<std::vector<std::string>> rows = {
        {"jobs by size", "small done", "avg", "p95", "p99", "large done", "avg", "p95", "p99"}};
    for (const auto& r : results) {
        const SizeClassSummary& small = r.summary.small;
        const SizeClassSummary& large = r.summary.large;
        rows.push_back({r.policy, std::to_string(small.completed), durationOrDash(small.avg_jct),
                        durationOrDash(small.p95_jct), durationOrDash(small.p99_jct),
                        std::to_string(large.completed), durationOrDash(large.avg_jct),
                        durationOrDash(large.p95_jct), durationOrDash(large.p99_jct)});
    }
    return "small: <= " + above + " GPUs, large: > " + above + " GPUs\n" + renderTextTable(rows);
}

}  // namespace

std::string formatSummaryTable(const std::vector<SimResult>& results, const std::string& baseline) {
    const SimResult* base = nullptr;
    for (const auto& r : results)
        if (r.policy == baseline) base = &r;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head = {"policy", "done",     "avg JCT",   "median",   "p95",
                                     "p99",    "makespan", "avg queue", "p95 queue"};
    if (base) {  // the Muri paper's Fig. 9/10 style: baseline value / policy value
        head.push_back("avg JCT x");
        head.push_back("makespan x");
        head.push_back("p99 x");
    }
    rows.push_back(head);
    for (const auto& r : results) {
        const Summary& s = r.summary;
        std::vector<std::string> row = {r.policy,
                                        std::to_string(s.completed) + "/" + std::to_string(s.jobs),
                                        humanDuration(s.avg_jct),
                                        humanDuration(s.median_jct),
                                        humanDuration(s.p95_jct),
                                        humanDuration(s.p99_jct),
                                        humanDuration(s.makespan),
                                        humanDuration(s.avg_queueing_delay),
                                        humanDuration(s.p95_queueing_delay)};
        if (base) {
            auto ratio = [](double b, double v) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.2fx", v > 0 ? b / v : 0.0);
                return std::string(buf);
            };
            row.push_back(ratio(base->summary.avg_jct, s.avg_jct));
            row.push_back(ratio(base->summary.makespan, s.makespan));
            row.push_back(ratio(base->summary.p99_jct, s.p99_jct));
        }
        rows.push_back(row);
    }
    return renderTextTable(rows) + "\n" + sizeClassTable(results);
}

std::string formatUsd(double usd) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "$%.2f", usd);
    return buf;
}

std::string unpricedNote(int unpriced_servers) {
    if (unpriced_servers <= 0) return "";
    return "cost excludes " + std::to_string(unpriced_servers) + " unpriced server" +
           (unpriced_servers == 1 ? "" : "s");
}

std::string formatRunCost(const std::vector<SimResult>& results, const ClusterCost& cost, int servers) {
    if (!cost.anyPriced(servers)) return "";
    std::string out = "cost: " + formatUsd(cost.per_month) + " per month";
    if (cost.unpriced_servers > 0) out += " (" + unpricedNote(cost.unpriced_servers) + ")";
    out += "\n";
    std::vector<std::vector<std::string>> rows = {{"policy", "makespan", "cost of the span"}};
    for (const auto& r : results)
        rows.push_back(
            {r.policy, humanDuration(r.summary.makespan), formatUsd(costForSpan(cost, r.summary.makespan))});
    return out + renderTextTable(rows);
}

std::string formatRunCosts(const std::vector<SimResult>& results, const std::vector<ClusterCost>& costs,
                           const std::vector<int>& servers) {
    if (costs.size() != results.size() || servers.size() != results.size())
        throw std::invalid_argument("formatRunCosts: one cost and server count per result");
    bool any = false;
    std::vector<std::vector<std::string>> rows = {
        {"cost (USD)", "per month", "makespan", "cost of the span", "note"}};
    for (std::size_t i = 0; i < results.size(); ++i) {
        const SimResult& r = results[i];
        if (!costs[i].anyPriced(servers[i])) {
            rows.push_back({r.policy, "-", humanDuration(r.summary.makespan), "-", "no priced server"});
            continue;
        }
        any = true;
        rows.push_back({r.policy, formatUsd(costs[i].per_month), humanDuration(r.summary.makespan),
                        formatUsd(costForSpan(costs[i], r.summary.makespan)),
                        unpricedNote(costs[i].unpriced_servers)});
    }
    return any ? renderTextTable(rows) : "";
}

std::string renderTextTable(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width;
    for (const auto& row : rows) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    std::string out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t c = 0; c < rows[r].size(); ++c) {
            const std::string& cell = rows[r][c];
            std::string pad(width[c] - cell.size(), ' ');
            out += c == 0 ? cell + pad : "  " + pad + cell;
        }
        out += '\n';
        if (r == 0) {
            std::size_t total = 0;
            for (auto w : width) total += w + 2;
            out += std::string(total - 2, '-') + '\n';
        }
    }
    return out;
}

}  // namespace cl
