#pragma once
// Shared by the workspace commands (scenario, run --scenario, compare, sweep): opening the
// SQLite workspace and turning command-line settings into a scenario.
#include <string>
#include <vector>

#include "cli/args.h"
#include "core/store/scenario_store.h"

namespace cli {

OptionSpec dbOption();
cl::ScenarioStore openWorkspace(const Args& args);

// --trace, --format, --cluster, --policy, --conventions, --load, --servers, --group-size,
// --seed, --reassign-models, --transform, --notes, --model-seed.
std::vector<OptionSpec> scenarioSettingOptions();
// Applies the settings given on the command line to spec (for a new scenario the trace is
// required and defaults fill the rest). Stores the trace, cluster and profiles it names.
void applyScenarioSettings(const Args& args, cl::ScenarioStore& store, cl::ScenarioSpec& spec, bool creating,
                           bool quiet);
std::string describeScenario(cl::ScenarioStore& store, const cl::ScenarioInfo& info);

}  // namespace cli
