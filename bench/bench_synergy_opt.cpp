// Synergy-OPT's ILP speed target (docs/architecture.md section 11), Release builds: one OPT solve
// for a 128-GPU round (128 single-GPU jobs, 384 CPUs, 8000 GB, each job's options = its model's
// Pareto points, minimum = its proportional-share throughput) in under 2 s. Also reported: a round
// of multi-GPU jobs (1, 2, 4 or 8 GPUs, 128 GPUs in all) and a worst case where no two jobs are
// alike (throughputs perturbed by 1e-6 x job), which defeats the solver's merging of
// identical jobs; the latter under a 2 s limit, with the gap to the LP bound as a counter.
// The ten models' matrices are the Synergy artifact's rows (data/README.md), built here in code.
// Run: build/release/bench/bench_synergy_opt [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "core/model/sensitivity.h"
#include "core/policies/synergy_opt_ilp.h"

namespace {

using cl::SensitivityMatrix;

// Throughput per GPU at CPU levels 1,2,3,4,5,6,9,12,24 (index c) and memory levels 20.83,
// 62.5, 125, 187.5, 250 GB (index m): the Synergy artifact's rows (data/README.md).
SensitivityMatrix matrix(const std::array<double, 9>& row, bool starved_at_20gb,
                         double (*at)(const std::array<double, 9>&, std::size_t, std::size_t) = nullptr) {
    SensitivityMatrix mtx;
    mtx.cpu_levels = cl::synergyCpuLevels();
    mtx.memory_levels_gb = cl::synergyMemoryLevelsGb();
    for (std::size_t c = 0; c < 9; ++c) {
        for (std::size_t m = 0; m < 5; ++m) {
            double w = at ? at(row, c, m) : row[c];
            if (m == 0 && starved_at_20gb) w = 0.1;
            mtx.throughput.push_back(w);
        }
    }
    return mtx;
}

std::vector<SensitivityMatrix> synergyModels() {
    // alexnet / shufflenet: 12 and 24 CPUs need >= 125 GB for their top speed.
    static const double alex_top = 2.94;
    static const double shuffle_top = 2.89;
    auto m5 = [](const std::array<double, 9>& row, std::size_t c, std::size_t m) {
        if (c < 5) return row[c];
        return m <= 1 ? 1.5 : (m == 2 ? 2.0 : 2.5);
    };
    std::vector<SensitivityMatrix> v;
    v.push_back(matrix({.37, .72, 1, 1.3, 1.53, 1.75, 2.4, 2.4, 2.4}, true));     // resnet18
    v.push_back(matrix({.4, .74, 1, 1.15, 1.15, 1.15, 1.15, 1.15, 1.15}, true));  // resnet50
    v.push_back(matrix({.37, .72, 1, 1.3, 1.49, 1.55, 1.55, 1.55, 1.55}, true));  // mobilenet
    v.push_back(matrix({.3, .66, 1, 1.25, 1.53, 1.75, 2, 2, 2}, true,             // alexnet
                       [](const std::array<double, 9>& row, std::size_t c, std::size_t m) {
                           return c >= 7 ? (m >= 2 ? alex_top : 2.0) : row[c];
                       }));
    v.push_back(matrix({.3, .66, 1, 1.25, 1.53, 1.75, 2, 2, 2}, true,  // shufflenet
                       [](const std::array<double, 9>& row, std::size_t c, std::size_t m) {
                           return c >= 7 ? (m >= 2 ? shuffle_top : 2.0) : row[c];
                       }));
    v.push_back(matrix({.3, .66, 1, 1.2, 1.4, 0, 0, 0, 0}, true, m5));  // m5
    v.push_back(matrix({.3, .66, 1, 1, 1, 1, 1, 1, 1}, true));          // deepspeech
    for (int i = 0; i < 3; ++i)
        v.push_back(matrix({1, 1, 1, 1, 1, 1, 1, 1, 1}, false));  // gnmt, transformer, lstm
    return v;
}

// Seeded round: jobs drawn uniformly over the ten models (explicit reduction of mt19937's
// fixed sequence), GPUs from `gpu_choices` until 128 GPUs are used.
std::vector<cl::OptJob> round(std::vector<int> gpu_choices, bool distinct, std::uint32_t seed) {
    const std::vector<SensitivityMatrix> models = synergyModels();
    std::mt19937 rng(seed);
    std::vector<cl::OptJob> jobs;
    int gpus_left = 128;
    while (gpus_left > 0) {
        const SensitivityMatrix& m = models[rng() % models.size()];
        int g = gpu_choices[rng() % gpu_choices.size()];
        if (g > gpus_left) g = gpus_left;
        gpus_left -= g;
        cl::OptJob job;
        const double jitter = distinct ? 1.0 + 1e-6 * static_cast<double>(jobs.size()) : 1.0;
        for (const auto& p : m.paretoPoints())
            job.choices.push_back({p.per_gpu.cpus * g, p.per_gpu.memory_gb * g, p.throughput * g * jitter});
        job.min_throughput = m.throughputAt({3.0, 62.5}) * g * jitter;
        jobs.push_back(std::move(job));
    }
    return jobs;
}

void solve(benchmark::State& state, const std::vector<cl::OptJob>& jobs, double limit_s) {
    cl::OptResult r;
    for (auto _ : state) {
        r = cl::solveOptIlp(jobs, 384, 8000, limit_s);
        benchmark::DoNotOptimize(r.choice.data());
    }
    state.counters["jobs"] = static_cast<double>(jobs.size());
    state.counters["objective"] = r.objective;
    state.counters["gap_to_lp_bound"] = r.bound - r.objective;
    state.counters["optimal"] = r.optimal ? 1 : 0;
    state.counters["nodes"] = r.nodes;
    state.counters["fallback"] = r.fallback ? 1 : 0;
}

void BM_Opt128SingleGpu(benchmark::State& state) {
    solve(state, round({1}, false, 1), 60.0);
}
void BM_Opt128MultiGpu(benchmark::State& state) {
    solve(state, round({1, 2, 4, 8}, false, 2), 60.0);
}
void BM_Opt128SingleGpuDistinct(benchmark::State& state) {
    solve(state, round({1}, true, 1), 2.0);
}
void BM_Opt128MultiGpuDistinct(benchmark::State& state) {
    solve(state, round({1, 2, 4, 8}, true, 2), 2.0);
}

}  // namespace

BENCHMARK(BM_Opt128SingleGpu)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Opt128MultiGpu)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Opt128SingleGpuDistinct)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Opt128MultiGpuDistinct)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
