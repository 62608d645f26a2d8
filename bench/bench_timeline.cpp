// The per-GPU timeline at scale: 1,000,000 segments on 2,048 GPUs (256 servers x 8). Builds
// the layout once, then one frame's draw list (binary search + level-of-detail merging) for
// the whole run at 1600 px, a 1 % window and a 1-minute window. Target: < 8 ms per frame.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "views/timeline/timeline_layout.h"

namespace {

constexpr int kServers = 256;
constexpr int kGpusPerServer = 8;
constexpr int kSegments = 1'000'000;
constexpr double kRunSeconds = 30.0 * 86400.0;  // a month

cl::Cluster bigCluster() {
    cl::Cluster c;
    c.name = "bench-2048";
    for (int s = 0; s < kServers; ++s) {
        cl::Server sv;
        sv.name = "node" + std::to_string(s);
        sv.gpus = kGpusPerServer;
        c.servers.push_back(sv);
    }
    return c;
}

// Per GPU, back-to-back jobs with idle gaps, lengths from seconds to hours (log-uniform), and
// a second lane of interleaved jobs on a quarter of the GPUs.
std::shared_ptr<const cl::SimResult> bigRun() {
    auto r = std::make_shared<cl::SimResult>();
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> logLen(0.0, std::log(4.0 * 3600.0));
    std::uniform_real_distribution<double> gap(0.0, 600.0);
    const int gpus = kServers * kGpusPerServer;
    const int perGpu = kSegments / gpus;
    int job = 0;
    for (int g = 0; g < gpus; ++g) {
        const int lanes = g % 4 == 0 ? 2 : 1;
        for (int lane = 0; lane < lanes; ++lane) {
            const int n = perGpu / lanes;
            // Scale each GPU's lengths so its segments fill the month.
            std::vector<double> len(static_cast<std::size_t>(n));
            double total = 0;
            for (auto& l : len) total += (l = std::exp(logLen(rng)) + gap(rng));
            const double scale = kRunSeconds / total;
            double t = 0;
            for (double l : len) {
                const double busy = l * scale * 0.9;
                r->segments.push_back({g, t, t + busy, job % 50'000});
                t += l * scale;
                ++job;
            }
        }
    }
    r->jobs.resize(50'000);
    for (int j = 0; j < 50'000; ++j) {
        r->jobs[static_cast<std::size_t>(j)].index = j;
        r->jobs[static_cast<std::size_t>(j)].model = "vgg16";
    }
    return r;
}

struct Fixture {
    cl::Cluster cluster = bigCluster();
    std::shared_ptr<const cl::SimResult> run = bigRun();
    cl::views::TimelineLayout layout;
    Fixture() { layout.setData(cluster, run); }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

void BM_BuildLayout(benchmark::State& state) {
    const Fixture& f = fixture();
    for (auto _ : state) {
        cl::views::TimelineLayout l;
        l.setData(f.cluster, f.run);
        benchmark::DoNotOptimize(l.rowCount());
    }
    state.counters["segments"] = static_cast<double>(f.run->segments.size());
}
BENCHMARK(BM_BuildLayout)->Unit(benchmark::kMillisecond)->Iterations(3);

// rows: how many rows are on screen (60 = a full-HD window; 2048 = every GPU, worst case).
void frame(benchmark::State& state, double t0, double t1, int rows, bool collapsed) {
    Fixture& f = fixture();
    f.layout.setAllCollapsed(collapsed);
    const int first = std::max(0, f.layout.rowCount() / 2 - rows / 2);
    long long items = 0, segments = 0;
    for (auto _ : state) {
        const auto list = f.layout.build(t0, t1, 1600.0, first, first + rows, false);
        items = static_cast<long long>(list.items.size());
        segments = list.segments;
        benchmark::DoNotOptimize(list.items.data());
    }
    state.counters["items"] = static_cast<double>(items);
    state.counters["segments_in_view"] = static_cast<double>(segments);
    f.layout.setAllCollapsed(false);
}

void BM_FrameWholeRun(benchmark::State& state) {
    frame(state, 0, kRunSeconds, static_cast<int>(state.range(0)), false);
}
BENCHMARK(BM_FrameWholeRun)->Arg(60)->Arg(2048)->Unit(benchmark::kMillisecond);

void BM_FrameOnePercent(benchmark::State& state) {
    frame(state, kRunSeconds * 0.5, kRunSeconds * 0.51, static_cast<int>(state.range(0)), false);
}
BENCHMARK(BM_FrameOnePercent)->Arg(60)->Arg(2048)->Unit(benchmark::kMillisecond);

void BM_FrameOneMinute(benchmark::State& state) {
    frame(state, kRunSeconds * 0.5, kRunSeconds * 0.5 + 60.0, static_cast<int>(state.range(0)), false);
}
BENCHMARK(BM_FrameOneMinute)->Arg(60)->Arg(2048)->Unit(benchmark::kMillisecond);

void BM_FrameWholeRunFolded(benchmark::State& state) {
    frame(state, 0, kRunSeconds, kServers, true);  // every server folded into one row
}
BENCHMARK(BM_FrameWholeRunFolded)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
