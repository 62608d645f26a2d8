// Muri grouping targets (docs/architecture.md section 11): one grouping of 1,000 candidates drawn from the
// built-in profiles with k = 4 in under 50 ms (type-compressed path), and the LEMON path on
// 256 candidates in under 50 ms. Each iteration starts cold (no timer or round cache).
#include <benchmark/benchmark.h>

#include "core/io/builtin_data.h"
#include "core/policies/muri_grouping.h"
#include "core/util/portable_random.h"

namespace {

// n one-GPU candidates with models drawn uniformly (seeded) from the built-in profiles.
std::vector<std::pair<std::vector<double>, double>> drawProfiles(int n, std::uint64_t seed) {
    cl::ProfileSet profiles = cl::builtinProfiles();
    std::vector<std::string> models = profiles.modelNames();
    cl::PortableRng rng(seed);
    std::vector<std::pair<std::vector<double>, double>> out;
    for (int i = 0; i < n; ++i) {
        const auto* p = profiles.find(models[rng.below(models.size())])->at(1);
        out.push_back({p->stage_times, p->solo_iteration_time * 1.015});
    }
    return out;
}

void runGrouping(benchmark::State& state, int n, bool full_graph) {
    auto drawn = drawProfiles(n, 42);
    std::size_t groups = 0;
    for (auto _ : state) {
        cl::MuriGroupTimer timer{cl::Contention{}};
        cl::MuriBucket bucket{1, {}};
        for (int i = 0; i < n; ++i)
            bucket.candidates.push_back({i, timer.typeOf(drawn[i].first, drawn[i].second)});
        cl::MuriGroupingOptions options;
        options.force_full_graph = full_graph;
        options.force_type_compressed = !full_graph;
        // A cluster of n / 4 GPUs: the candidates need four times that, so up to 4 rounds run.
        auto result = cl::groupCandidates({bucket}, {n / 4}, n / 4, options, timer);
        groups = result.size();
        benchmark::DoNotOptimize(groups);
    }
    state.SetLabel("candidates=" + std::to_string(n) + " groups=" + std::to_string(groups));
}

void BM_Grouping1000TypeCompressed(benchmark::State& s) {
    runGrouping(s, 1000, false);
}
void BM_Grouping256Lemon(benchmark::State& s) {
    runGrouping(s, 256, true);
}
BENCHMARK(BM_Grouping1000TypeCompressed)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Grouping256Lemon)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
