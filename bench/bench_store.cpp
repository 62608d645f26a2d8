// Scenario store speed targets (docs/architecture.md section 11):
//  - storing a run of the whole Philly jobs CSV (82,247 jobs, models assigned by the seeded
//    rule, srtf on the 2,048-GPU preset) with all its segments into a fresh workspace in
//    under 5 s: beginRun + saveRun, the simulation done once outside the timed loop;
//  - reopening that workspace and reading the run's summary (ScenarioStore constructor +
//    runInfo) in under 20 ms.
// Counters: rows written (jobs + per-GPU segment rows + series samples + 1 summary),
// segments, the workspace size, and for the first the seconds per save.
// Run: build/release/bench/bench_store [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "core/io/builtin_data.h"
#include "core/io/trace_readers.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/store/scenario_store.h"
#include "core/workload/model_assignment.h"

namespace {

namespace fs = std::filesystem;
const std::string kShared = CLUSTERLOOM_SHARED_DATA_DIR;
const std::string kPhilly = kShared + "/philly/philly_jobs.csv";

// A temporary folder removed at exit.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string templ = (fs::temp_directory_path() / "clusterloom-bench-store-XXXXXX").string();
        if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary folder");
        path = templ;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

TempDir& tempDir() {
    static TempDir dir;
    return dir;
}

void removeWorkspace(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
}

// The whole Philly trace simulated once with srtf on large-2048 (as bench_simulator does),
// and a workspace template holding its inputs and a scenario (no runs).
struct PhillySetup {
    cl::SimResult result;
    std::string template_path;
    std::int64_t scenario_id = 0;
    std::size_t gpus_with_segments = 0;
};

const PhillySetup& phillySetup() {
    static const std::unique_ptr<PhillySetup> setup = [] {
        auto s = std::make_unique<PhillySetup>();
        cl::ProfileSet profiles = cl::builtinProfiles();
        cl::Cluster cluster = cl::builtinCluster("large-2048");
        cl::Trace trace = cl::readPolluxPhillyCsv(kPhilly);
        cl::assignModels(trace, profiles.modelNames(), 1, true);
        cl::deriveIterations(trace, profiles);
        s->result = cl::simulatePolicy(cluster, trace, profiles, "srtf");
        std::set<int> gpus;
        for (const auto& g : s->result.segments) gpus.insert(g.gpu);
        s->gpus_with_segments = gpus.size();

        s->template_path = (tempDir().path / "template.sqlite").string();
        cl::ScenarioStore store(s->template_path);
        cl::ScenarioSpec spec;
        spec.name = "philly/srtf";
        spec.cluster_id = store.putCluster(cluster);
        spec.trace_id = store.putTrace(trace);
        spec.profiles_id = store.putProfiles(profiles);
        s->scenario_id = store.createScenario(spec);
        return s;
    }();
    return *setup;
}

// A fresh copy of the template (its WAL checkpointed when the template store closed).
std::string freshWorkspace(const std::string& name) {
    const PhillySetup& s = phillySetup();
    const std::string path = (tempDir().path / name).string();
    removeWorkspace(path);
    fs::copy_file(s.template_path, path);
    return path;
}

double workspaceMb(const std::string& path) {
    double bytes = 0;
    for (const char* suffix : {"", "-wal"})
        if (fs::exists(path + suffix)) bytes += static_cast<double>(fs::file_size(path + suffix));
    return bytes / 1e6;
}

void BM_SavePhillyRun(benchmark::State& state) {
    if (!fs::exists(kPhilly)) {
        state.SkipWithError("the Philly job log is absent (docs/architecture.md section 10)");
        return;
    }
    const PhillySetup& s = phillySetup();
    const cl::SimResult& r = s.result;
    const double rows = static_cast<double>(r.jobs.size() + s.gpus_with_segments + r.series.size() + 1);
    double mb = 0;
    int k = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const std::string path = freshWorkspace("save-" + std::to_string(k++) + ".sqlite");
        {
            cl::ScenarioStore store(path);
            state.ResumeTiming();
            const std::int64_t run = store.beginRun(s.scenario_id, cl::engineVersion());
            store.saveRun(run, r);
            state.PauseTiming();
        }
        mb = workspaceMb(path);
        removeWorkspace(path);
        state.ResumeTiming();
    }
    state.counters["rows"] = rows;
    state.counters["jobs"] = static_cast<double>(r.jobs.size());
    state.counters["segments"] = static_cast<double>(r.segments.size());
    state.counters["series"] = static_cast<double>(r.series.size());
    state.counters["workspace_mb"] = mb;
    state.counters["rows_per_s"] = benchmark::Counter(rows, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SavePhillyRun)->Unit(benchmark::kSecond)->Iterations(3)->UseRealTime();

void BM_ReopenPhillyRunSummary(benchmark::State& state) {
    if (!fs::exists(kPhilly)) {
        state.SkipWithError("the Philly job log is absent (docs/architecture.md section 10)");
        return;
    }
    const PhillySetup& s = phillySetup();
    const std::string path = freshWorkspace("reopen.sqlite");
    std::int64_t run = 0;
    {
        cl::ScenarioStore store(path);
        run = store.beginRun(s.scenario_id, cl::engineVersion());
        store.saveRun(run, s.result);
    }
    int jobs = 0;
    for (auto _ : state) {
        cl::ScenarioStore store(path);
        const cl::RunInfo info = store.runInfo(run);
        jobs = info.summary.jobs;
        benchmark::DoNotOptimize(jobs);
    }
    state.counters["jobs"] = jobs;
    state.counters["workspace_mb"] = workspaceMb(path);
    removeWorkspace(path);
}
BENCHMARK(BM_ReopenPhillyRunSummary)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
