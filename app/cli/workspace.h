#pragma once
// Shared by the workspace commands (scenario, run --scenario, compare, sweep): opening the
// SQLite workspace and turning command-line settings into a scenario.
#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include "core/store/scenario_store.h"

namespace cli {

OptionSpec dbOption();
// must_exist: commands that only read say "no workspace" rather than creating an empty one.
cl::ScenarioStore openWorkspace(const Args& args, bool must_exist = false);

// --profiles NAME: a built-in set, a profile JSON file, or a set stored in the workspace (its newest
// version, docs/architecture.md section 8.6; the stored item is returned with it).
std::pair<cl::ProfileSet, std::optional<cl::StoredItem>> resolveProfilesIn(cl::ScenarioStore& store,
                                                                           const std::string& name);

// While alive, Ctrl-C sets the flag (a second Ctrl-C ends the program as usual).
class InterruptFlag {
public:
    InterruptFlag();
    ~InterruptFlag();
    InterruptFlag(const InterruptFlag&) = delete;
    InterruptFlag& operator=(const InterruptFlag&) = delete;
    const std::atomic<bool>* flag() const;
    bool raised() const;
};

// --trace, --format, --cluster, --cluster-name, --policy, --conventions, --load, --servers, --group-size,
// --xi,
// --seed, --reassign-models, --transform, --notes, --model-seed.
std::vector<OptionSpec> scenarioSettingOptions();
// --xi X: SJF-BSBF's interference ratio, 0 (the profile's) or 1..100; a UsageError otherwise.
double interferenceRatio(const Args& args);
// Applies the settings given on the command line to spec (for a new scenario the trace is
// required and defaults fill the rest). Stores the trace, cluster and profiles it names; a
// cluster layout whose name a different stored cluster has is refused (UsageError).
void applyScenarioSettings(const Args& args, cl::ScenarioStore& store, cl::ScenarioSpec& spec, bool creating,
                           bool quiet);
std::string describeScenario(cl::ScenarioStore& store, const cl::ScenarioInfo& info);

}  // namespace cli
