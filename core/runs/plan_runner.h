#pragma once
// The capacity planner over a workspace (docs/architecture.md 7.9): every point the
// planner asks for becomes a scenario named PREFIX/TYPE/POLICY/nSERVERS/xLOAD/sSEED[-RESAMPLE] with its run,
// simulated in parallel by runSweep. A rerun finds the runs it needs already stored and reuses
// them, so Compare and the timeline can open any point.
#include <atomic>
#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "core/planning/capacity_plan.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"

namespace cl {

struct PlanRunOptions {
    std::string prefix = "plan";
    int threads = 0;  // 0: all cores
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const PlanProgress&)> phase;  // a new batch starts
    std::function<void(const SweepProgress&)> runs;  // a run of the batch finished
    // Set for plan --emit (docs/architecture.md 9.7): nothing is simulated. Every point of a batch
    // gets its scenario; one without a finished run of this engine is appended here, and the
    // plan stops after that batch (interrupted). Empty after the plan: every point was stored,
    // and the report is the plan's answer.
    std::vector<ScenarioInfo>* missing = nullptr;
    // How each seed varies the workload (docs/architecture.md 7.9, "Seeds"): "day" or "week"
    // resamples the trace by blocks of arrivals with the point's seed (transform resample=); "none"
    // leaves the trace as it is (seeds then draw the models of jobs without one); "auto" is
    // "day" when there is more than one seed and every job of the trace has its model, else
    // "none".
    std::string resample = "auto";
};

// `base` holds the trace, profiles, conventions and parameters every point shares (its cluster,
// policy, seed and name are the point's own; its load factor is multiplied by the point's).
PlanReport runPlan(ScenarioStore& store, const PlanRequest& request, const ScenarioSpec& base,
                   const PlanRunOptions& options);

// The clusters a plan stored for its candidates (new to the workspace when it stored them), by
// the plan's scenario prefix. Kept in the workspace settings (key kPlanCandidateClustersKey, a
// JSON object prefix -> ids) so that prunePlan removes them and pickers can tell them apart.
inline constexpr const char* kPlanCandidateClustersKey = "plan_candidate_clusters";
std::vector<std::int64_t> planCandidateClusters(ScenarioStore& store, const std::string& prefix);
// Every plan's candidate clusters, and the prefixes of the plans that stored any (for pickers,
// which hide a plan's candidates: docs/architecture.md 7.9, "Storage").
std::set<std::int64_t> allPlanCandidateClusters(ScenarioStore& store);
std::vector<std::string> planPrefixes(ScenarioStore& store);
// Whether a scenario is a point of a plan: its name starts with "PREFIX/" of a recorded plan.
bool isPlanPoint(const std::string& scenario_name, const std::vector<std::string>& plan_prefixes);

struct PlanPruneResult {
    int scenarios = 0;  // with their runs
    int clusters = 0;
};
// Removes a plan's points (every scenario named PREFIX/..., with its runs) and the candidate
// clusters it stored that no remaining scenario uses. Throws StoreError for a prefix with no
// scenario and no recorded cluster.
PlanPruneResult prunePlan(ScenarioStore& store, const std::string& prefix);

// The scenario name of a point: "plan/dgx-a100/muri-s/n12/x1.25/s1", or with the seed's
// resampling of the trace (PlanReport::resample) "…/s1-day", so that plans with and without it
// keep their points apart.
std::string planScenarioName(const std::string& prefix, const PlanRequest& request, const PlanPoint& point,
                             const std::string& resample = "none");

}  // namespace cl
