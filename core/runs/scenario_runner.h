#pragma once
// Turning a stored scenario into a simulation and its result into a stored run, one at a time
// (runScenario) or as a parallel sweep over a cross product of settings (runSweep).
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/store/scenario_store.h"

namespace cl {

// Everything simulatePolicy() needs, with the scenario's parameters applied.
struct ScenarioInputs {
    Cluster cluster;
    Trace trace;
    ProfileSet profiles;
    std::string policy;
    SchedulerTuning tuning;
    SimOptions options;
};

// The cluster a stored scenario runs on: its stored cluster, resized to the scenario's server
// count when it sets one. What a run's cost is priced on (docs/architecture.md 7.8).
Cluster scenarioCluster(ScenarioStore& store, const ScenarioSpec& spec);

// Applies, in order: the transforms, the load factor, the model reassignment (every job
// draws a model from the profile set's models with the scenario's seed). Throws
// std::invalid_argument for a bad transform spec.
ScenarioInputs resolveScenario(ScenarioStore& store, const ScenarioInfo& scenario);

struct RunOutcome {
    std::int64_t run_id = 0;
    bool reused = false;  // an identical scenario had already been run by this engine version
    RunInfo info;
};

// Runs the scenario and stores the run, unless an identical one (same content hash and
// engine version) has finished before and force is false. A failed or cancelled simulation
// is recorded as such, and the exception rethrown.
RunOutcome runScenario(ScenarioStore& store, const std::string& name, bool force = false,
                       const std::function<bool(double)>& progress = {});

// Like runScenario, but nothing is written while the simulation runs: a cancelled simulation
// leaves the store untouched (run_id 0), a failed one is recorded as failed, a finished one
// is stored in one step. What the desktop's Stop button promises: nothing partial.
RunOutcome runScenarioStoringOnlyOutcomes(ScenarioStore& store, const std::string& name, bool force = false,
                                          const std::function<bool(double)>& progress = {});

// The values a sweep crosses; an empty axis keeps the base scenario's value.
struct SweepAxes {
    std::vector<std::string> clusters;  // preset names or layout files
    std::vector<int> server_counts;
    std::vector<double> load_factors;
    std::vector<std::string> policies;
    std::vector<int> group_sizes;
    std::vector<std::uint64_t> seeds;
};

// Scenario specs for the cross product, named "<prefix>/<policy>/x<load>/..." (only the
// varying axes appear). Clusters named on an axis are stored in the workspace.
std::vector<ScenarioSpec> expandSweep(ScenarioStore& store, const std::string& prefix,
                                      const ScenarioSpec& base, const SweepAxes& axes);

struct SweepProgress {
    int total = 0;
    int finished = 0;  // stored (or reused)
    int failed = 0;
    int running = 0;
    std::string last;  // name of the scenario that changed state
};

struct SweepOptions {
    int threads = 0;     // 0: all cores
    bool force = false;  // re-run identical scenarios
    // Set (e.g. on Ctrl-C): nothing new starts, running simulations are cancelled and their runs
    // recorded as cancelled; every finished run stays stored.
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const SweepProgress&)> progress;  // called on the calling thread
    // False: the runs are stored without their GPU segments, with a note starting
    // kTimelineNotStoredNote (a plan's points: their figures are what the plan reads, and the
    // segments are most of a run's storage; docs/architecture.md 7.9 "Storage"). The figures are
    // those of a run with its timeline, so such a run is reused like any other.
    bool record_segments = true;
    // > 0: each run's series is stored reduced to about this many samples (reduceSeries, exact
    // from the last arrival on), with a note saying so (a plan's points, section 7.9 "Storage").
    std::size_t series_samples = 0;
    // SimOptions::series_queue_only for every run (a plan's points).
    bool series_queue_only = false;
    // Called on the calling thread with each finished run (its index in the specs) once it is
    // stored (series reduced, notes added), so that a caller that reads the figures need not
    // load them back.
    std::function<void(std::size_t, SimResult)> finished;
};

struct SweepReport {
    std::vector<std::int64_t> run_ids;  // of finished runs, in spec order (0 where none)
    int reused = 0, failed = 0, cancelled = 0;
    std::vector<std::string> errors;
};

// Creates the scenarios that do not exist yet, all or none; an existing scenario of the same
// name must have the same settings (else StoreError). Returns them in spec order.
std::vector<ScenarioInfo> createSweepScenarios(ScenarioStore& store, const std::vector<ScenarioSpec>& specs);

// Creates the scenarios (a scenario of the same name must have the same settings), then
// simulates on worker threads while the calling thread stores every result as it arrives,
// each run in its own transaction.
SweepReport runSweep(ScenarioStore& store, const std::vector<ScenarioSpec>& specs,
                     const SweepOptions& options);

}  // namespace cl
