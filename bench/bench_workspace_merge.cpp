// Merging shard workspaces (docs/architecture.md section 9.7): 1,000 shards, each one run of Muri
// trace1 (srtf on muri-testbed-64, with its segments and series, and the trace, cluster and profile
// set it ran on, as run-spec writes them), folded into a fresh workspace. The shards are made once
// (one simulation; the copies differ in scenario name and content hash, so that every run is new
// to the workspace); the timed part is opening the workspace and merging all of them.
// Counters: shards per second, a shard's file size, and what each run adds to the merged
// workspace (its size over the shards merged).
// Run: build/release/bench/bench_workspace_merge
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/io/trace_readers.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/store/workspace_merge.h"

namespace {

namespace fs = std::filesystem;
const std::string kTrace1 = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/muri-traces/trace1.csv";
constexpr int kShards = 1000;

struct TempDir {
    fs::path path;
    TempDir() {
        std::string templ = (fs::temp_directory_path() / "clusterloom-bench-merge-XXXXXX").string();
        if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary folder");
        path = templ;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

struct Shards {
    TempDir dir;
    std::vector<std::string> files;
    std::uintmax_t shard_bytes = 0;
    Shards() {
        const std::string first = (dir.path / "shard-0.sqlite").string();
        {
            cl::ScenarioStore store(first);
            cl::ScenarioSpec spec;
            spec.name = "bench/s0";
            spec.cluster_id = store.putCluster(cl::resolveCluster("muri-testbed-64"));
            spec.profiles_id = store.putProfiles(cl::builtinProfiles("muri"));
            spec.trace_id = store.putTrace(cl::readTrace(kTrace1));
            spec.policy = "srtf";
            store.createScenario(spec);
            cl::runScenarioStoringOnlyOutcomes(store, spec.name);
            store.db().exec("PRAGMA journal_mode=DELETE");
        }
        shard_bytes = fs::file_size(first);
        files.push_back(first);
        for (int k = 1; k < kShards; ++k) {
            const std::string file = (dir.path / ("shard-" + std::to_string(k) + ".sqlite")).string();
            fs::copy_file(first, file);
            cl::SqliteDb db(file, cl::SqliteDb::Mode::ReadWrite);
            const std::string n = std::to_string(k);
            db.exec("UPDATE scenarios SET name = 'bench/s" + n + "', seed = " + n +
                    ", content_hash = content_hash || '-" + n + "'");
            db.exec("UPDATE runs SET content_hash = content_hash || '-" + n + "'");
            files.push_back(file);
        }
    }
};

Shards& shards() {
    static Shards s;
    return s;
}

void BM_MergeThousandTrace1Shards(benchmark::State& state) {
    Shards& s = shards();
    const std::string ws = (s.dir.path / "merged.sqlite").string();
    int merged = 0;
    double wall_seconds = 0.0;  // the rate is by the clock, not CPU time (the merge also waits on I/O)
    for (auto _ : state) {
        state.PauseTiming();
        for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(ws + suffix);
        state.ResumeTiming();
        const auto start = std::chrono::steady_clock::now();
        cl::ScenarioStore store(ws);
        merged = 0;
        for (const auto& file : s.files) {
            const cl::ShardMerge m = cl::mergeShard(store, file);
            if (!m.merged || m.runs_added != 1) {
                state.SkipWithError(("shard not merged: " + m.error).c_str());
                return;
            }
            ++merged;
        }
        wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    { cl::ScenarioStore checkpointed(ws); }  // the write-ahead log folded in, as on close
    state.counters["shards_per_s"] =
        static_cast<double>(merged) * static_cast<double>(state.iterations()) / wall_seconds;
    state.counters["shard_bytes"] = static_cast<double>(s.shard_bytes);
    state.counters["workspace_bytes_per_run"] = static_cast<double>(fs::file_size(ws)) / merged;
}
BENCHMARK(BM_MergeThousandTrace1Shards)->Unit(benchmark::kSecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
