#pragma once
// "Run this scenario with these policies and this load / cluster size": the scenarios such a
// request needs, named like a sweep so that repeating the request finds them again.
#include <string>
#include <vector>

#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"

namespace cl {

// One spec per policy (duplicates dropped, order kept). A policy equal to the base's with the
// base's load factor and server count is the base scenario itself; every other combination is
// a variant "<base>[/n<servers>][/x<load>]/<policy>" (expandSweep's naming; only what differs
// from the base appears). Pass the result to createSweepScenarios. Throws
// std::invalid_argument when no policy is given.
// interference >= 0 sets SJF-BSBF's ratio xi (0 = the profile's) for the policies that share
// GPUs (policyUsesInterference); where it differs from the base's the name gains "/xi<value>".
// Negative, and for every other policy, the base's own is kept.
std::vector<ScenarioSpec> whatIfVariants(ScenarioStore& store, const ScenarioInfo& base,
                                         const std::vector<std::string>& policies, double load_factor,
                                         int server_count, double interference = -1.0);

// True for policies whose speed depends on the interference ratio: the presets sjf-bsbf and
// sjf-ffs and any ORDER+bsbf / ORDER+ffs.
bool policyUsesInterference(const std::string& policy);

}  // namespace cl
