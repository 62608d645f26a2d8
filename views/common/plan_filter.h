#pragma once
// What the pickers leave out of a workspace after a capacity plan (docs/architecture.md 7.9,
// "Storage"): a plan stores every candidate cluster and every simulated point as a scenario named
// PREFIX/..., so after two plans a cluster picker would list dozens of candidates and a scenario
// picker dozens of points. Pickers hide both, except the item already chosen; the workspace tree
// shows them in folders of their own.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/store/scenario_store.h"

namespace cl::views {

class PlanFilter {
public:
    PlanFilter() = default;  // hides nothing
    // Reads the plans recorded in the store; a null store or a store error hides nothing (a
    // picker then lists everything, as before plans existed).
    static PlanFilter read(cl::ScenarioStore* store);

    bool isCandidateCluster(std::int64_t id) const { return m_candidates.count(id) > 0; }
    bool isPlanPoint(const std::string& scenario_name) const;
    // The plan prefix a scenario belongs to; empty for a scenario of no plan.
    std::string planOf(const std::string& scenario_name) const;
    const std::vector<std::string>& prefixes() const { return m_prefixes; }

    // The clusters a picker offers: all but the plans' candidates, keeping `keep` (the cluster of
    // the scenario being edited, so editing a plan point still shows its own cluster).
    std::vector<cl::StoredItem> pickableClusters(const std::vector<cl::StoredItem>& clusters,
                                                 std::int64_t keep) const;

private:
    std::set<std::int64_t> m_candidates;
    std::vector<std::string> m_prefixes;
};

}  // namespace cl::views
