// Placement speed target (docs/architecture.md section 11): placing 10,000 jobs on the multi-agent
// placement paper's 2,000-server fat-tree (k = 20, Power8-like servers, 20 pod schedulers) with
// each policy in under 5 s. The timed body is the whole non-preemptive simulation: every placement
// decision plus the step-time updates between them, one thread.
// Run: build/release/bench/bench_placement
#include <benchmark/benchmark.h>

#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "core/topology_placement/placement_simulator.h"

namespace {

struct Setup {
    cl::Cluster cluster =
        cl::makeTopologyCluster("fat-tree-k20", cl::fatTreeSpec(20), cl::architectureMix("power8"));
    cl::NetworkTopology topology = cl::NetworkTopology::build(cluster.topology);
    std::vector<cl::DistributedJob> jobs;
    Setup() {
        std::vector<double> steps;
        for (const auto& m : cl::distributedModelTypes()) steps.push_back(m.step_seconds);
        cl::DistributedWorkloadSpec w;
        w.pods = topology.podCount();
        w.intervals = 100;
        w.max_jobs = 10000;
        jobs = cl::generateDistributedWorkload(w, steps);
    }
};

const Setup& setup() {
    static const Setup s;
    return s;
}

void place10000Jobs(benchmark::State& state) {
    const Setup& s = setup();
    const cl::PlacementPolicy policy = cl::allPlacementPolicies()[static_cast<std::size_t>(state.range(0))];
    state.SetLabel(policy.name());
    cl::PlacementSimOptions opt;
    opt.policy = policy;
    for (auto _ : state) {
        const cl::PlacementRunResult r =
            cl::simulatePlacement(s.cluster, s.topology, s.jobs, cl::distributedModelTypes(), opt);
        benchmark::DoNotOptimize(r.average_jct);
        state.counters["avg_jct_h"] = r.average_jct / 3600.0;
    }
    state.counters["jobs"] = static_cast<double>(s.jobs.size());
}

}  // namespace

BENCHMARK(place10000Jobs)->DenseRange(0, 7)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
