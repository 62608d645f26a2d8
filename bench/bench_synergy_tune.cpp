// Synergy round targets (docs/architecture.md section 11): one TUNE round for a 512-GPU cluster
// (64 servers of 8 GPUs / 24 CPUs / 500 GB) with 1,000 runnable jobs in under 1 ms; one whole OPT
// round (the ILP and the packing) for 128 GPUs in under 2 s. The jobs' models are drawn (seeded) from
// the built-in Synergy profiles, their GPU counts from 1, 2, 4 and 8.
#include <benchmark/benchmark.h>

#include "core/io/builtin_data.h"
#include "core/policies/scheduler_registry.h"
#include "core/util/portable_random.h"

namespace {

struct Round {
    cl::Cluster cluster;
    cl::ProfileSet profiles = cl::builtinProfiles("synergy");
    std::vector<std::string> models;
    std::vector<cl::JobState> jobs;
    std::vector<const cl::JobState*> by_index;
    std::vector<int> arrived;

    Round(int n, int servers) {
        cluster.name = "synergy-" + std::to_string(servers * 8);
        for (int s = 0; s < servers; ++s) {
            cl::Server server;  // V100 x 8, 24 cores, 500 GB: the defaults
            server.name = "s" + std::to_string(s);
            cluster.servers.push_back(server);
        }
        models = profiles.modelNames();
        cl::PortableRng rng(7);
        const int sizes[] = {1, 1, 1, 1, 1, 2, 4, 8};
        for (int i = 0; i < n; ++i) {
            cl::JobState j;
            j.index = i;
            j.gpus = sizes[rng.below(8)];
            j.submit = i;
            j.iterations = j.remaining = 1000 + static_cast<double>(rng.below(100000));
            j.model = models[rng.below(models.size())];
            j.solo_iteration_time = j.current_iteration_time =
                profiles.find(std::string(j.model))->at(1)->solo_iteration_time;
            jobs.push_back(j);
            arrived.push_back(i);
        }
        for (const auto& j : jobs) by_index.push_back(&j);
    }

    cl::SchedulerInput input(bool first) const {
        cl::SchedulerInput in;
        in.cluster = &cluster;
        in.active = jobs;
        if (first) in.arrived = arrived;
        in.by_index = by_index;
        in.profiles = &profiles;
        return in;
    }
};

void tuneRound(benchmark::State& state, const std::string& policy) {
    Round round(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    auto scheduler = cl::makeScheduler(policy, cl::Conventions::clean());
    scheduler->schedule(round.input(true));  // the order learns the jobs once, as in a run
    const cl::SchedulerInput in = round.input(false);
    std::size_t started = 0;
    for (auto _ : state) {
        cl::Decision d = scheduler->schedule(in);
        started = d.start.size();
        benchmark::DoNotOptimize(d);
    }
    state.SetLabel(policy + ": " + std::to_string(started) + " of " + std::to_string(round.jobs.size()) +
                   " jobs placed on " + std::to_string(round.cluster.totalGpus()) + " GPUs");
}

}  // namespace

BENCHMARK_CAPTURE(tuneRound, fifo_tune, std::string("fifo+tune"))
    ->Args({1000, 64})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(tuneRound, srtf_tune, std::string("srtf+tune"))
    ->Args({1000, 64})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(tuneRound, fifo_greedy, std::string("fifo+greedy"))
    ->Args({1000, 64})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(tuneRound, fifo_opt, std::string("fifo+opt"))
    ->Args({300, 16})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
