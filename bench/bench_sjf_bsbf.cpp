// SJF-BSBF speed target (docs/architecture.md section 11): the 480-job experiment — the workload sampled from
// the busiest hours of the Philly trace with Pollux's configurations on the 64-GPU cluster —
// with all five policies (fifo, sjf, tiresias, sjf-ffs, sjf-bsbf) in under 0.5 s in total,
// one thread, as `experiment sjf-bsbf` runs them (segments recorded, no sampled series).
// Run: build/release/bench/bench_sjf_bsbf
#include <benchmark/benchmark.h>

#include <string>

#include "core/io/builtin_data.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/workload/philly_busiest_workload.h"

namespace {

const std::string kShared = CLUSTERLOOM_SHARED_DATA_DIR;
const char* const kPolicies[] = {"fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf"};

struct Setup {
    cl::Cluster cluster = cl::builtinCluster("sjf-bsbf-64");
    cl::ProfileSet profiles = cl::builtinProfiles("sjf-bsbf");
    cl::Trace trace;
    Setup() {
        cl::PhillyWorkloadOptions w;
        w.jobs = 480;
        w.seed = 1;
        w.max_gpus = cluster.totalGpus();
        w.hour_of_day = true;
        w.configurations = cl::polluxConfigurations(kShared + "/pollux/workloads");
        trace = cl::phillyBusiestWorkload(kShared + "/philly/philly_jobs.csv", w, &profiles).trace;
    }
};

const Setup& setup() {
    static const Setup s;
    return s;
}

void runPolicies(benchmark::State& state, int first, int last) {
    const Setup& s = setup();
    cl::SimOptions o;
    o.record_series = false;
    long long events = 0;
    for (auto _ : state)
        for (int p = first; p < last; ++p) {
            cl::SimResult r = cl::simulatePolicy(s.cluster, s.trace, s.profiles, kPolicies[p], o);
            events += r.events;
            benchmark::DoNotOptimize(r.summary.avg_jct);
        }
    state.counters["events"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kAvgIterations);
}

void BM_Sjfbsbf480AllFivePolicies(benchmark::State& state) {
    runPolicies(state, 0, 5);
}
BENCHMARK(BM_Sjfbsbf480AllFivePolicies)->Unit(benchmark::kMillisecond);

void BM_Sjfbsbf480OnePolicy(benchmark::State& state) {
    runPolicies(state, static_cast<int>(state.range(0)), static_cast<int>(state.range(0)) + 1);
    state.SetLabel(kPolicies[state.range(0)]);
}
BENCHMARK(BM_Sjfbsbf480OnePolicy)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
