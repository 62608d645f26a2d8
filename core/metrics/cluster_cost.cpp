#include "core/metrics/cluster_cost.h"

namespace cl {

ClusterCost clusterCost(const Cluster& cluster) {
    ClusterCost c;
    for (const Server& s : cluster.servers) {
        if (!s.price.stated()) ++c.unpriced_servers;
        c.per_hour += pricePerHour(s.price);
    }
    c.per_month = c.per_hour * kHoursPerMonth;
    return c;
}

double costForSpan(const ClusterCost& cost, double span_seconds) {
    if (!(span_seconds > 0)) return 0.0;
    return cost.per_hour * span_seconds / 3600.0;
}

}  // namespace cl
