#include "core/runs/demo_workspace.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/io/builtin_data.h"
#include "core/model/accumulation_speed.h"
#include "core/util/portable_random.h"
#include "core/workload/synergy_workload.h"

namespace cl {

namespace {

// FIFO is the baseline; SRTF/SRSF/Tiresias are the Muri paper's baselines and Muri-S its
// interleaving scheduler, so the demo shows sharing next to what it improves on.
constexpr const char* kDemoPolicies[] = {"fifo", "srtf", "srsf", "tiresias", "muri-s"};
constexpr const char* kDemoCluster = "muri-testbed-64";
// The same cluster and job models under a deep backlog (data/traces/demo-backlog.json), where
// interleaving pays off: Muri-S against its exclusive twin SRSF and against SRTF, Muri-L
// against Tiresias, as in the Muri paper's Fig. 9/10.
constexpr const char* kBacklogPolicies[] = {"srtf", "srsf", "tiresias", "muri-s", "muri-l"};
constexpr const char* kBacklogPrefix = "demo-backlog/";
// Synergy next to its baseline: the paper's workload (single-GPU jobs, split 20/70/10) at 2
// jobs/h on four of its servers (32 GPUs), where GPU-proportional shares just saturate the
// cluster and TUNE's CPU and memory allocation relieves it.
constexpr const char* kSynergyPolicies[] = {"fifo+proportional", "fifo+tune"};
// Each workload is a family of its own (docs/architecture.md 1.8): Results and Charts set a
// family's runs side by side, so runs of another trace or cluster there would read as policy wins.
constexpr const char* kSynergyNames[] = {"demo-synergy/proportional", "demo-synergy/tune"};
// SJF-BSBF next to first-fit sharing (its paper's FFS baseline) on its 16-GPU testbed.
constexpr const char* kSjfPolicies[] = {"sjf-ffs", "sjf-bsbf"};
constexpr const char* kSjfNames[] = {"demo-sjf/sjf-ffs", "demo-sjf/sjf-bsbf"};
// Their names before they had families of their own: such scenarios are renamed, runs kept.
constexpr std::pair<const char*, const char*> kFormerNames[] = {
    {"demo/synergy-proportional", "demo-synergy/proportional"},
    {"demo/synergy-tune", "demo-synergy/tune"},
    {"demo/sjf-ffs", "demo-sjf/sjf-ffs"},
    {"demo/sjf-bsbf", "demo-sjf/sjf-bsbf"}};
// The demo trace under FIFO on a k=4 fat-tree of 16 power8-4gpu servers (64 GPUs, as the
// Muri testbed): the timeline groups each server's GPUs by socket and PCIe group.
constexpr const char* kFatTreeName = "demo/fat-tree-fifo";
constexpr const char* kFatTreePolicy = "fifo";

// A small workload on which GPU sharing shows: 60 jobs of the six Pollux models queueing for
// 16 GPUs, 1-8 GPUs each, the profile's default batch per GPU, 5-30 minutes alone (log-
// uniform), arriving uniformly over two hours (about 2.5 hours of work for the whole
// cluster). Drawn here rather than read from a file so the demo needs nothing outside data/.
// Average JCT (engine revision 5): sjf-bsbf 1723 s, sjf-ffs 2625 s, exclusive sjf 1783 s.
Trace sjfBsbfDemoTrace(const ProfileSet& profiles) {
    constexpr int kJobs = 60;
    constexpr double kArrivalSpan = 2 * 3600.0;
    constexpr int kGpuChoices[] = {1, 1, 1, 2, 2, 4, 4, 8};
    PortableRng rng(20240607);
    const std::vector<std::string> models = profiles.modelNames();  // sorted: bert .. yolov3
    Trace trace;
    trace.name = "sjf-bsbf-demo";
    for (int k = 0; k < kJobs; ++k) {
        Job j;
        const ModelProfile& m = *profiles.find(models[rng.below(models.size())]);
        j.model = m.name;
        j.gpus = kGpuChoices[rng.below(std::size(kGpuChoices))];
        j.submit_time = std::round(rng.uniform01() * kArrivalSpan);
        j.duration = std::round(300.0 * std::pow(6.0, rng.uniform01()));
        const auto acc = accumulationProfileOf(m);
        j.batch_size = (acc && acc->default_batch > 0 ? acc->default_batch : m.batch_size) * j.gpus;
        trace.jobs.push_back(std::move(j));
    }
    std::stable_sort(trace.jobs.begin(), trace.jobs.end(),
                     [](const Job& a, const Job& b) { return a.submit_time < b.submit_time; });
    for (std::size_t k = 0; k < trace.jobs.size(); ++k)
        trace.jobs[k].id = trace.jobs[k].model + "-" + std::to_string(k);
    trace.provenance.push_back(
        "bundled SJF-BSBF demo: 60 jobs of the sjf-bsbf profile set over 2 h, seed 20240607");
    return trace;
}

}  // namespace

std::vector<std::string> demoScenarioNames() {
    std::vector<std::string> names;
    for (const char* policy : kDemoPolicies) names.push_back(std::string("demo/") + policy);
    for (const char* policy : kBacklogPolicies) names.push_back(kBacklogPrefix + std::string(policy));
    for (const char* name : kSynergyNames) names.push_back(name);
    for (const char* name : kSjfNames) names.push_back(name);
    names.push_back(kFatTreeName);
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
    for (const auto& [former, now] : kFormerNames)
        if (store.findScenario(former) && !store.findScenario(now)) store.renameScenario(former, now);
    for (const char* policy : kDemoPolicies) {
        ScenarioSpec spec = base;
        spec.name = std::string("demo/") + policy;
        spec.policy = policy;
        if (!store.findScenario(spec.name)) store.createScenario(spec);
    }
    ScenarioSpec backlog = base;
    backlog.trace_id = store.putTrace(backlogDemoTrace());
    backlog.notes =
        "Bundled demo: 400 long jobs arriving within 17 hours keep the 64-GPU Muri testbed queued for "
        "days, as in the Muri paper's traces. Here interleaving pays off (muri-s beats srsf, muri-l "
        "beats tiresias); on the demo/ workload, with little queue, it does not.";
    for (const char* policy : kBacklogPolicies) {
        ScenarioSpec spec = backlog;
        spec.name = kBacklogPrefix + std::string(policy);
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
    synergy.notes =
        "Bundled demo: Synergy's workload on 4 of its servers (32 GPUs, 24 CPUs and 500 GB each).";
    for (std::size_t i = 0; i < std::size(kSynergyNames); ++i) {
        ScenarioSpec spec = synergy;
        spec.name = kSynergyNames[i];
        spec.policy = kSynergyPolicies[i];
        if (!store.findScenario(spec.name)) store.createScenario(spec);
    }
    const ProfileSet sjf_profiles = builtinProfiles("sjf-bsbf");
    ScenarioSpec sjf;
    sjf.cluster_id = store.putCluster(builtinCluster("sjf-bsbf-16"));
    sjf.trace_id = store.putTrace(sjfBsbfDemoTrace(sjf_profiles));
    sjf.profiles_id = store.putProfiles(sjf_profiles);
    sjf.notes =
        "Bundled demo: 60 jobs of Pollux's six models on SJF-BSBF's 16-GPU testbed; jobs share GPUs "
        "with gradient accumulation when it pays (sjf-bsbf) or whenever one fits (sjf-ffs).";
    for (std::size_t i = 0; i < std::size(kSjfNames); ++i) {
        ScenarioSpec spec = sjf;
        spec.name = kSjfNames[i];
        spec.policy = kSjfPolicies[i];
        if (!store.findScenario(spec.name)) store.createScenario(spec);
    }
    ScenarioSpec fat_tree = base;
    fat_tree.cluster_id = store.putCluster(builtinCluster("fat-tree-k4-power8"));
    fat_tree.name = kFatTreeName;
    fat_tree.policy = kFatTreePolicy;
    fat_tree.notes =
        "Bundled demo: the demo trace on a k=4 fat-tree of 16 Power8-like servers (2 sockets x 8 "
        "cores, one 2-GPU PCIe group per socket), 64 GPUs; the timeline groups GPUs by socket and group.";
    if (!store.findScenario(fat_tree.name)) store.createScenario(fat_tree);
    tx.commit();
    return names;
}

}  // namespace cl
