#pragma once
// What a cluster costs (docs/architecture.md 7.8): the sum of its servers' prices per
// hour, per month, and for the span of a run. A run's span is its makespan (first submission to
// last end): the time the cluster is held for the trace.
#include "core/model/cluster.h"

namespace cl {

struct ClusterCost {
    double per_hour = 0.0;   // USD
    double per_month = 0.0;  // USD, kHoursPerMonth hours
    int unpriced_servers = 0;
    bool anyPriced(int servers) const { return unpriced_servers < servers; }
};

ClusterCost clusterCost(const Cluster& cluster);
// USD for holding the cluster `span_seconds` long (0 for a non-positive or NaN span).
double costForSpan(const ClusterCost& cost, double span_seconds);

}  // namespace cl
