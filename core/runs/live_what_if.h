#pragma once
// The live what-if of the cluster editor (docs/architecture.md section 1.8): a
// scenario's trace simulated again on the cluster being edited, summed up in the figures the
// editor's strip compares with the scenario's stored run. The editor calls these from worker
// threads; nothing here is stored in the workspace.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "core/model/cluster.h"
#include "core/model/sim_result.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"

namespace cl {

// What the strip shows of one run: the summary's average and p95 JCT and average queueing
// (section 7.2), and the mean GPU utilisation (metrics/gpu_utilization.h).
struct WhatIfFigures {
    int jobs = 0;
    int completed = 0;
    double avg_jct = std::numeric_limits<double>::quiet_NaN();
    double p95_jct = std::numeric_limits<double>::quiet_NaN();
    double avg_queueing = std::numeric_limits<double>::quiet_NaN();
    double gpu_utilization = std::numeric_limits<double>::quiet_NaN();
    // Why the cluster could not run the trace (e.g. a job larger than the cluster); empty when
    // it could. Kept with the figures so that undo to such a cluster says it at once too.
    std::string problem;
};

WhatIfFigures whatIfFigures(const SimResult& result);

// The key of one simulated cluster for one scenario: the layout text without the cluster's
// name and the servers' prices (neither reaches the simulator, section 7.8), the scenario's
// content hash (its trace, profiles and settings) and the engine version, hashed as in
// section 9.3. Equal keys give equal figures, so the editor's cache answers undo and redo.
std::string whatIfKey(const Cluster& cluster, const std::string& scenario_hash,
                      const std::string& engine_version);

// A scenario ready for what-ifs: its inputs resolved once (the trace may be large), and its
// stored run, the one a rerun would reuse (same content hash and engine version).
struct WhatIfBase {
    std::string scenario;
    std::string scenario_hash;
    std::string engine_version;
    ScenarioInputs inputs;  // the scenario's own cluster (resized if it says so)
    int server_count = 0;   // the scenario's resize of its cluster (0: as stored)
    std::string key;        // whatIfKey of inputs.cluster
    std::int64_t run_id = 0;
    std::optional<WhatIfFigures> stored;  // the stored run's figures; none if never run
};

// Throws StoreError for an unknown scenario and whatever reading or resolving its inputs
// throws (a missing trace, a bad transform), with what is wrong.
WhatIfBase loadWhatIfBase(ScenarioStore& store, const std::string& scenario);

// The base's inputs simulated on `cluster` instead of the scenario's, without GPU segments
// (the strip needs none). Nothing when `progress` returned false. A cluster the engine
// refuses gives figures whose problem says why.
std::optional<WhatIfFigures> simulateWhatIf(const WhatIfBase& base, const Cluster& cluster,
                                            const std::function<bool(double)>& progress = {});

}  // namespace cl
