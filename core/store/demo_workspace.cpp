#include "core/store/demo_workspace.h"

#include "core/util/data_paths.h"

namespace cl {

namespace {

// FIFO is the baseline; SRTF/SRSF/Tiresias are the Muri paper's baselines and Muri-S its
// interleaving scheduler, so the demo shows sharing next to what it improves on.
constexpr const char* kDemoPolicies[] = {"fifo", "srtf", "srsf", "tiresias", "muri-s"};
constexpr const char* kDemoCluster = "muri-testbed-64";

}  // namespace

std::vector<std::string> demoScenarioNames() {
    std::vector<std::string> names;
    for (const char* policy : kDemoPolicies) names.push_back(std::string("demo/") + policy);
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
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (store.findScenario(names[i])) continue;
        ScenarioSpec spec = base;
        spec.name = names[i];
        spec.policy = kDemoPolicies[i];
        store.createScenario(spec);
    }
    tx.commit();
    return names;
}

}  // namespace cl
