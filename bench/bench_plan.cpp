// Capacity planning speed target (docs/architecture.md 7.9): a plan over 3 server
// types x 3 policies x 3 seeds on the Muri trace1 with the Muri testbed as the base, into a new
// workspace (nothing reused), in under 60 s on 2 cores. The counter `simulations` counts the
// runs the plan asked for (seeds included).
// Run: build/release/bench/bench_plan
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/io/trace_readers.h"
#include "core/runs/plan_runner.h"

namespace {

const std::string kShared = CLUSTERLOOM_SHARED_DATA_DIR;

void planTrace1(benchmark::State& state) {
    const std::string trace_file = kShared + "/muri-traces/trace1.csv";
    if (!std::filesystem::exists(trace_file)) {
        state.SkipWithError("shared data missing: ../shared/data/muri-traces/trace1.csv");
        return;
    }
    int simulations = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const std::filesystem::path db =
            std::filesystem::temp_directory_path() / "clusterloom-bench-plan.sqlite";
        std::filesystem::remove(db);
        cl::ScenarioStore store(db.string());
        cl::ScenarioSpec base;
        const cl::ProfileSet profiles = cl::builtinProfiles("muri");
        base.trace_id = store.putTrace(cl::readMuriTraceCsv(trace_file));
        base.profiles_id = store.putProfiles(profiles);
        cl::PlanRequest request;
        request.base = cl::builtinCluster("muri-testbed-64");
        base.cluster_id = store.putCluster(request.base);
        for (const char* type : {"v100x8", "dgx-a100", "t4x4"})
            request.server_types.push_back(cl::resolveServerType(type));
        request.policies = {"srtf", "muri-s", "fifo"};
        request.targets = {cl::parsePlanTarget("p95_jct<=14d"), cl::parsePlanTarget("avg_queueing<=6h")};
        request.seeds = {1, 2, 3};
        request.mix_price_bases = true;  // dgx-a100 is an owned price, the others cloud prices
        state.ResumeTiming();
        const cl::PlanReport report = cl::runPlan(store, request, base, {});
        benchmark::DoNotOptimize(report.chosen);
        simulations = report.simulations;
        state.PauseTiming();
        std::filesystem::remove(db);
        state.ResumeTiming();
    }
    state.counters["simulations"] = simulations;
}
BENCHMARK(planTrace1)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

// The whole Philly trace with synergy-512 as the base, DGX A100 and V100x8, one target
// (p95_queueing<=6h): the planner's case of docs/architecture.md 7.9, "Overload".
// - planPhilly: SRTF and FIFO. Target: under 45 s on 2 cores (122 s, then 50 s once points were
//   stored without segments and stopped on a missed target, 42 s once job records were packed
//   and finished searches' neighbours joined the running searches' batches).
// - planPhillyMuri: muri-s. Target: under 10 minutes on 2 cores.
// The counter `simulation_seconds` is the simulations' own time (on two threads); `stopped_early`
// counts the points whose runs stopped on overload, `missed_early` those stopped once the target
// was sure to be missed (docs/architecture.md 7.9, "Stopping early").
void planPhillyWith(benchmark::State& state, const std::vector<std::string>& policies) {
    const std::string trace_file = kShared + "/philly/philly_jobs.csv";
    if (!std::filesystem::exists(trace_file)) {
        state.SkipWithError("shared data missing: ../shared/data/philly/philly_jobs.csv");
        return;
    }
    int simulations = 0, stopped = 0, missed = 0;
    double simulation_seconds = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const std::filesystem::path db =
            std::filesystem::temp_directory_path() / "clusterloom-bench-plan-philly.sqlite";
        std::filesystem::remove(db);
        cl::ScenarioStore store(db.string());
        cl::ScenarioSpec base;
        base.trace_id = store.putTrace(cl::readTrace(trace_file));
        base.profiles_id = store.putProfiles(cl::builtinProfiles("muri"));
        cl::PlanRequest request;
        request.base = cl::builtinCluster("synergy-512");
        base.cluster_id = store.putCluster(request.base);
        for (const char* type : {"dgx-a100", "v100x8"})
            request.server_types.push_back(cl::resolveServerType(type));
        request.mix_price_bases = true;
        request.policies = policies;
        request.targets = {cl::parsePlanTarget("p95_queueing<=6h")};
        state.ResumeTiming();
        const cl::PlanReport report = cl::runPlan(store, request, base, {});
        state.PauseTiming();
        simulations = report.simulations;
        stopped = missed = 0;
        for (const cl::PlanEvaluation& e : report.evaluations) {
            stopped += e.load.stopped_early && !e.missed_early;
            missed += e.missed_early;
        }
        simulation_seconds = 0;
        for (const cl::RunInfo& r : store.runs())
            simulation_seconds += store.loadRun(r.id, false).wall_seconds;
        std::filesystem::remove(db);
        state.ResumeTiming();
    }
    state.counters["simulations"] = simulations;
    state.counters["stopped_early"] = stopped;
    state.counters["missed_early"] = missed;
    state.counters["simulation_seconds"] = simulation_seconds;
}
void planPhilly(benchmark::State& state) {
    planPhillyWith(state, {"srtf", "fifo"});
}
BENCHMARK(planPhilly)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void planPhillyMuri(benchmark::State& state) {
    planPhillyWith(state, {"muri-s"});
}
BENCHMARK(planPhillyMuri)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
