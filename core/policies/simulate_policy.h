#pragma once
// Runs a trace under a policy given by name: builds the scheduler (makeScheduler) for the
// options' conventions and hands it to the engine (simulate in core/sim/simulator.h).
#include <string>

#include "core/policies/scheduler_registry.h"
#include "core/sim/simulator.h"

namespace cl {

// Throws std::invalid_argument for an invalid policy name or tuning (see checkPolicy), and
// what simulate() throws.
SimResult simulatePolicy(const Cluster& cluster, const Trace& trace, const ProfileSet& profiles,
                         const std::string& policy, const SimOptions& options = {},
                         const SchedulerTuning& tuning = {});

}  // namespace cl
