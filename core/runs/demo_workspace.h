#pragma once
// The bundled demo workspace that a new user sees first: the demo trace on the 64-GPU Muri
// testbed with the built-in profiles, one scenario per policy worth comparing, the same cluster
// under a deep backlog where interleaving pays off (demo-backlog/), and Synergy's
// workload on 32 of its GPUs under GPU-proportional shares and under TUNE (demo-synergy/), and a
// small workload of Pollux's models on SJF-BSBF's 16-GPU testbed under SJF-FFS and SJF-BSBF
// (demo-sjf/), and the demo trace under FIFO on a k=4 fat-tree of power8-4gpu servers (server
// internals shown). A family holds one workload, so its runs compare policies.
#include <string>
#include <vector>

#include "core/store/scenario_store.h"

namespace cl {

// Stores the demo inputs and creates the demo scenarios whose names are free, all in one
// transaction (renamed or edited demo scenarios are left alone; a deleted one comes back). Demo
// scenarios of an older workspace stored under their former names in demo/ are renamed.
// Returns the demo scenario names, in the order they should be shown.
std::vector<std::string> populateDemoWorkspace(ScenarioStore& store);

// The names populateDemoWorkspace creates ("demo/fifo", ...).
std::vector<std::string> demoScenarioNames();

}  // namespace cl
