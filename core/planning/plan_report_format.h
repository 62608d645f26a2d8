#pragma once
// A plan as text, JSON and CSV (docs/architecture.md 7.9). The JSON is
// {"plans": {POLICY: {"feasible", "server_type", "servers", "cost_per_month", "metrics"}},
//  "frontier": [...], "cliff": [...], "headroom": {...}, "candidates": [...], "targets": [...]}
// with "feasible": false and no servers for a policy no candidate serves.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/planning/capacity_plan.h"

namespace cl {

nlohmann::ordered_json planJson(const PlanRequest& request, const PlanReport& report);
// One row per evaluated point at the planned load (then the headroom scan): kind, server type,
// policy, servers, load factor, feasible, cost per month, on the frontier, then mean and ci95 of
// every metric.
std::string planCsv(const PlanRequest& request, const PlanReport& report);
// What `clusterloom-cli plan` prints: the plan per policy, the chosen one and its headroom, each
// candidate's answer or why there is none, the frontier and the cliff.
std::string planText(const PlanRequest& request, const PlanReport& report);

}  // namespace cl
