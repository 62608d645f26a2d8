#include "core/store/demo_workspace.h"

#include "core/util/data_paths.h"
#include "core/workload/synergy_workload.h"

namespace cl {

namespace {

// FIFO is the baseline; SRTF/SRSF/Tiresias are the Muri paper's baselines and Muri-S its
// interleaving scheduler, so the demo shows sharing next to what it improves on.
constexpr const char* kDemoPolicies[] = {"fifo", "srtf", "srsf", "tiresias", "muri-s"};
constexpr const char* kDemoCluster = "muri-testbed-64";
// Synergy next to its baseline: the paper's workload (single-GPU jobs, split 20/70/10) at 2
// jobs/h on four of its servers (32 GPUs), where GPU-proportional shares just saturate the
// cluster and TUNE's CPU and memory allocation relieves it.
constexpr const char* kSynergyPolicies[] = {"fifo+proportional", "fifo+tune"};
constexpr const char* kSynergyNames[] = {"demo/synergy-proportional", "demo/synergy-tune"};

}  // namespace

std::vector<std::string> demoScenarioNames() {
    std::vector<std::string> names;
    for (const char* policy : kDemoPolicies) names.push_back(std::string("demo/") + policy);
    for (const char* name : kSynergyNames) names.push_back(name);
    return names;
}

std::vector<std::string> populateDemoWorkspace(ScenarioStore& store) {
    Transaction tx(store.db());
    ScenarioSpec base;
    base.cluster_id = store.putCluster(builtinCluster(kDemoCluster));
    base.trace_id = store.putTrace(demoTrace());
    base.profiles_id = store.putProfiles(builtinProfiles());
    base.notes = "Bundled demo: the demo trace on the 64-GPU Muri testbed.";
    const std::vector<std::string> names = demoScenarioNames();
    for (const char* policy : kDemoPolicies) {
        ScenarioSpec spec = base;
        spec.name = std::string("demo/") + policy;
        spec.policy = policy;
        if (!store.findScenario(spec.name)) store.createScenario(spec);
    }
    SynergyWorkload workload;
    workload.jobs = 240;
    workload.jobs_per_hour = 2.0;
    ScenarioSpec synergy;
    synergy.cluster_id = store.putCluster(builtinCluster("synergy-128"));
    synergy.trace_id = store.putTrace(generate(synergyGeneratorConfig(workload)));
    synergy.profiles_id = store.putProfiles(builtinProfiles("synergy"));
    synergy.parameters.server_count = 4;
    synergy.notes = "Bundled demo: Synergy's workload on 4 of its servers (32 GPUs, 24 CPUs and 500 GB each).";
    for (std::size_t i = 0; i < std::size(kSynergyNames); ++i) {
        ScenarioSpec spec = synergy;
        spec.name = kSynergyNames[i];
        spec.policy = kSynergyPolicies[i];
        if (!store.findScenario(spec.name)) store.createScenario(spec);
    }
    tx.commit();
    return names;
}

}  // namespace cl
