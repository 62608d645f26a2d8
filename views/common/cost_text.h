#pragma once
// How the views say what a cluster costs (docs/architecture.md 7.8): dollars, the servers a cost
// leaves out, and where the prices come from. A cluster without any priced server has no cost
// to show (an en dash), never "$0", which would read as a free cluster.
#include <QString>

#include "core/metrics/cluster_cost.h"
#include "core/model/cluster.h"

namespace cl::views {

// "$1,234" from $100 up, "$12.50" below: US dollars in the user's digit grouping.
QString formatUsd(double usd);

// "cost excludes 3 unpriced servers"; empty for none.
QString unpricedServersText(int unpriced_servers);

// "$12,345 per month", with "(cost excludes 2 unpriced servers)" when some are; an en dash when
// no server is priced.
QString monthlyCostText(const cl::ClusterCost& cost, int servers);

// One line per distinct price of the cluster's servers: "8 servers at $25.50/h: AWS p3.16xlarge
// on-demand, us-east-1, 2024 (approximate)"; then the unpriced servers. For tooltips.
QString priceSourcesText(const cl::Cluster& cluster);

// "$25.50/h" for an hourly price, "$399,000 over 4 years + $5.40/h power" for an amortized one,
// "not priced" for none; " (approximate)" when so marked.
QString priceText(const cl::ServerPrice& price);

}  // namespace cl::views
