#pragma once
#include <string>
#include <vector>

#include "core/metrics/cluster_cost.h"
#include "core/model/sim_result.h"

namespace cl {

// "3.2 h", "45 min", "12 s", "2.5 d": a duration a person reads at a glance.
std::string humanDuration(double seconds);
// Aligned text table: policy, jobs done, avg/median/p95/p99 JCT, makespan, avg queueing;
// with a baseline, the speedups of average JCT, makespan and p99 JCT over it (baseline value /
// policy value), as in the Muri paper's Fig. 9/10.
// Rows of cells as aligned text: first column left-aligned, the others right-aligned, a rule
// under the first (header) row.
std::string renderTextTable(const std::vector<std::vector<std::string>>& rows);
std::string formatSummaryTable(const std::vector<SimResult>& results, const std::string& baseline = "");

// "$1234.50": US dollars with cents.
std::string formatUsd(double usd);
// "cost excludes 3 unpriced servers" (docs/architecture.md 7.8); "" for none.
std::string unpricedNote(int unpriced_servers);
// What the cluster costs per month and for each run's span (its makespan), with the unpriced
// servers named; "" when no server of the cluster is priced (a cost of 0 would read as free).
std::string formatRunCost(const std::vector<SimResult>& results, const ClusterCost& cost, int servers);
// The same for runs on different clusters: costs[i] and servers[i] are results[i]'s cluster's.
// One row per run: per month, makespan, cost of the span and the unpriced servers; "-" for a
// run whose cluster is not priced; "" when none is.
std::string formatRunCosts(const std::vector<SimResult>& results, const std::vector<ClusterCost>& costs,
                           const std::vector<int>& servers);

}  // namespace cl
