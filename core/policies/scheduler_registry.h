#pragma once
// Policy names (DESIGN.md section 1): ORDER[+MECHANISM][+PLACEMENT] in lower case, or a preset.
// Each part is looked up in a name -> factory table; unknown names get an error listing the
// valid ones.
#include <memory>
#include <string>
#include <vector>

#include "core/policies/scheduler.h"
#include "core/sim/conventions.h"

namespace cl {

std::unique_ptr<Scheduler> makeScheduler(const std::string& policy, const Conventions& conventions);

std::vector<std::string> orderNames();
std::vector<std::string> mechanismNames();
std::vector<std::string> placementNames();
std::vector<std::string> presetNames();
// A one-paragraph description of the grammar with every valid name, for --help and errors.
std::string policyHelp();

}  // namespace cl
