// Simulator speed targets (docs/architecture.md section 11):
//  - Muri trace1 (1,494 jobs, 64 GPUs) with srtf in under 0.1 s under both conventions, and
//    with clean Tiresias in under 0.5 s (7.5 s before it stopped thrashing, architecture.md 4.2;
//    the label counts the preemptions);
//  - the whole Philly jobs CSV (82,247 jobs, models assigned by the seeded rule) on the
//    2,048-GPU preset with srtf in under 10 s and under 1 GB peak memory (reported as the
//    counter peak_rss_mb, read from /proc/self/status VmHWM).
// Run: build/release/bench/bench_simulator [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/io/trace_readers.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/workload/model_assignment.h"

namespace {

const std::string kShared = CLUSTERLOOM_SHARED_DATA_DIR;

double peakRssMb() {
    std::ifstream in("/proc/self/status");
    std::string key;
    while (in >> key) {
        if (key == "VmHWM:") {
            double kb = 0;
            in >> kb;
            return kb / 1024.0;
        }
        std::getline(in, key);
    }
    return 0;
}

void runMuriTrace1(benchmark::State& state, const char* conventions, const char* policy = "srtf") {
    cl::Cluster cluster = cl::readMuriClusterSpecCsv(kShared + "/muri-traces/cluster_n8g8.csv");
    cl::Trace trace = cl::readMuriTraceCsv(kShared + "/muri-traces/trace1.csv");
    cl::ProfileSet profiles = cl::builtinProfiles();
    cl::SimOptions opts;
    opts.conventions = cl::Conventions::byName(conventions);
    double avg = 0;
    long long events = 0;
    long long preemptions = 0;
    for (auto _ : state) {
        cl::SimResult r = cl::simulatePolicy(cluster, trace, profiles, policy, opts);
        avg = r.summary.avg_jct;
        events = r.events;
        preemptions = 0;
        for (const cl::JobRecord& j : r.jobs) preemptions += j.preemptions;
        // Not DoNotOptimize(avg): Google Benchmark 1.7's "+m,r" constraint miscompiles doubles
        // with GCC 12 (the label then shows 0).
        benchmark::DoNotOptimize(events);
    }
    state.SetLabel("avg_jct_s=" + std::to_string(avg) + " events=" + std::to_string(events) +
                   " preemptions=" + std::to_string(preemptions) +
                   " jobs=" + std::to_string(trace.jobs.size()));
}

void BM_Trace1SrtfClean(benchmark::State& s) {
    runMuriTrace1(s, "clean");
}
void BM_Trace1SrtfArtifact(benchmark::State& s) {
    runMuriTrace1(s, "muri-artifact");
}
BENCHMARK(BM_Trace1SrtfClean)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Trace1SrtfArtifact)->Unit(benchmark::kMillisecond);
void BM_Trace1TiresiasClean(benchmark::State& s) {
    runMuriTrace1(s, "clean", "tiresias");
}
BENCHMARK(BM_Trace1TiresiasClean)->Unit(benchmark::kMillisecond);

// Muri targets: trace1 with muri-s and muri-l under muri-artifact in under 2 s each.
void BM_Trace1MuriSArtifact(benchmark::State& s) {
    runMuriTrace1(s, "muri-artifact", "muri-s");
}
void BM_Trace1MuriLArtifact(benchmark::State& s) {
    runMuriTrace1(s, "muri-artifact", "muri-l");
}
BENCHMARK(BM_Trace1MuriSArtifact)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_Trace1MuriLArtifact)->Unit(benchmark::kSecond)->Iterations(1);

void runPhilly(benchmark::State& state, const char* policy) {
    cl::ProfileSet profiles = cl::builtinProfiles();
    cl::Cluster cluster = cl::builtinCluster("large-2048");
    double avg = 0;
    long long events = 0;
    for (auto _ : state) {
        // Reading and model assignment are part of the measured job, as a user would run it.
        cl::Trace trace = cl::readPolluxPhillyCsv(kShared + "/philly/philly_jobs.csv");
        cl::assignModels(trace, profiles.modelNames(), 1, true);
        cl::deriveIterations(trace, profiles);
        cl::SimResult r = cl::simulatePolicy(cluster, trace, profiles, policy);
        avg = r.summary.avg_jct;
        events = r.events;
    }
    state.SetLabel("avg_jct_s=" + std::to_string(avg) + " events=" + std::to_string(events) +
                   " peak_rss_mb=" + std::to_string(peakRssMb()));
}
void BM_ReadPhillyCsv(benchmark::State& state) {
    std::size_t jobs = 0;
    for (auto _ : state) {
        cl::Trace trace = cl::readPolluxPhillyCsv(kShared + "/philly/philly_jobs.csv");
        jobs = trace.jobs.size();
        benchmark::DoNotOptimize(jobs);
    }
    state.SetLabel("jobs=" + std::to_string(jobs));
}
BENCHMARK(BM_ReadPhillyCsv)->Unit(benchmark::kMillisecond);

void BM_PhillyFullSrtf2048(benchmark::State& s) {
    runPhilly(s, "srtf");
}
// Muri target: the whole Philly trace with muri-s on 2,048 GPUs in under 120 s.
void BM_PhillyFullMuriS2048(benchmark::State& s) {
    runPhilly(s, "muri-s");
}
BENCHMARK(BM_PhillyFullSrtf2048)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_PhillyFullMuriS2048)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
