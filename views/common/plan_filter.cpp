#include "views/common/plan_filter.h"

#include "core/runs/plan_runner.h"

namespace cl::views {

PlanFilter PlanFilter::read(cl::ScenarioStore* store) {
    PlanFilter filter;
    if (!store) return filter;
    try {
        filter.m_prefixes = cl::planPrefixes(*store);
        filter.m_candidates = cl::allPlanCandidateClusters(*store);
    } catch (const std::exception&) {
        return PlanFilter();  // an unreadable setting hides nothing rather than everything
    }
    return filter;
}

bool PlanFilter::isPlanPoint(const std::string& scenario_name) const {
    return cl::isPlanPoint(scenario_name, m_prefixes);
}

std::string PlanFilter::planOf(const std::string& scenario_name) const {
    // The longest matching prefix, should one plan's prefix be a folder of another's.
    std::string best;
    for (const std::string& p : m_prefixes)
        if (p.size() > best.size() && cl::isPlanPoint(scenario_name, {p})) best = p;
    return best;
}

std::vector<cl::StoredItem> PlanFilter::pickableClusters(const std::vector<cl::StoredItem>& clusters,
                                                         std::int64_t keep) const {
    std::vector<cl::StoredItem> kept;
    for (const cl::StoredItem& c : clusters)
        if (c.id == keep || !isCandidateCluster(c.id)) kept.push_back(c);
    return kept;
}

}  // namespace cl::views
