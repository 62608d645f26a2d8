#include "core/runs/live_what_if.h"

#include <stdexcept>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/metrics/gpu_utilization.h"
#include "core/policies/simulate_policy.h"
#include "core/store/content_hash.h"

namespace cl {

WhatIfFigures whatIfFigures(const SimResult& result) {
    WhatIfFigures f;
    f.jobs = result.summary.jobs;
    f.completed = result.summary.completed;
    if (f.completed > 0) {
        f.avg_jct = result.summary.avg_jct;
        f.p95_jct = result.summary.p95_jct;
        f.avg_queueing = result.summary.avg_queueing_delay;
    }
    f.gpu_utilization = meanGpuUtilization(result.series);
    return f;
}

std::string whatIfKey(const Cluster& cluster, const std::string& scenario_hash,
                      const std::string& engine_version) {
    Cluster simulated = cluster;
    simulated.name.clear();
    for (Server& s : simulated.servers) s.price = {};
    return ContentHasher().add(layoutJsonText(simulated)).add(scenario_hash).add(engine_version).hex();
}

WhatIfBase loadWhatIfBase(ScenarioStore& store, const std::string& scenario) {
    const ScenarioInfo info = store.scenario(scenario);
    WhatIfBase base;
    base.scenario = scenario;
    base.scenario_hash = info.content_hash;
    base.engine_version = engineVersion();
    base.inputs = resolveScenario(store, info);
    base.server_count = info.spec.parameters.server_count;
    base.key = whatIfKey(base.inputs.cluster, base.scenario_hash, base.engine_version);
    if (auto run = store.finishedRunWithHash(info.content_hash, base.engine_version)) {
        base.run_id = run->id;
        base.stored = whatIfFigures(store.loadRun(run->id, /*with_segments=*/false));
    }
    return base;
}

std::optional<WhatIfFigures> simulateWhatIf(const WhatIfBase& base, const Cluster& cluster,
                                            const std::function<bool(double)>& progress) {
    SimOptions options = base.inputs.options;
    options.record_segments = false;
    // A what-if cluster on which some job can never run is refused with the reason: figures
    // without those jobs would not compare with the base's.
    options.strict = true;
    options.progress = progress;
    try {
        const SimResult result = simulatePolicy(cluster, base.inputs.trace, base.inputs.profiles,
                                                base.inputs.policy, options, base.inputs.tuning);
        if (result.cancelled) return std::nullopt;
        return whatIfFigures(result);
    } catch (const std::exception& e) {
        WhatIfFigures refused;
        refused.jobs = static_cast<int>(base.inputs.trace.jobs.size());
        refused.problem = e.what();
        return refused;
    }
}

}  // namespace cl
