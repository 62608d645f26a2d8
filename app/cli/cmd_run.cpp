// clusterloom-cli run: one trace, one cluster, one or more policies, the same conventions.
#include <chrono>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <tuple>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/replay_options.h"
#include "cli/run_outputs.h"
#include "cli/trace_loading.h"
#include "cli/workspace.h"
#include "core/io/builtin_data.h"
#include "core/io/result_writers.h"
#include "core/metrics/cluster_cost.h"
#include "core/metrics/summary_table.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/scenario_runner.h"
#include "core/sim/simulator.h"
#include "core/util/parallel_runner.h"

namespace cli {

namespace {

std::string safeFileName(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
    return s;
}

// run --scenario A --scenario B: the stored scenarios, in parallel, each result stored as a run
// (an identical earlier run is reused unless --force).
int runStoredScenarios(const Args& args) {
    for (const char* adhoc : {"trace", "policy", "out", "outputs", "cluster", "conventions", "format",
                              "model-seed", "no-segments", "profiles", "optimistic-profiling", "measure",
                              "xi", "slurm-config", "slurm-param", "strict", "keep-unavailable"})
        if (args.has(adhoc))
            throw UsageError(std::string("--") + adhoc +
                             " does not apply with --scenario (the scenario has its own)");
    cl::ScenarioStore store = openWorkspace(args);
    std::vector<cl::ScenarioSpec> specs;
    for (const auto& name : args.getAll("scenario")) specs.push_back(store.scenario(name).spec);
    cl::SweepOptions opts;
    opts.force = args.has("force");
    InterruptFlag interrupt;  // Ctrl-C: the runs are recorded as cancelled, not left running
    opts.stop = interrupt.flag();
    const std::string baseline = args.get("baseline");
    if (!baseline.empty() &&
        std::none_of(specs.begin(), specs.end(), [&](const auto& s) { return s.name == baseline; }))
        throw UsageError("--baseline '" + baseline + "' is not one of the --scenario names");
    cl::SweepReport report = cl::runSweep(store, specs, opts);
    for (const auto& e : report.errors) std::cerr << "error: " << e << "\n";
    std::vector<cl::SimResult> results;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (report.run_ids[i] == 0) continue;
        cl::SimResult r = store.loadRun(report.run_ids[i], /*with_segments=*/false);
        r.policy = specs[i].name;  // the table's row label
        results.push_back(std::move(r));
    }
    if (!args.has("quiet") && report.reused > 0) {
        std::cerr
            << report.reused << " of " << specs.size()
            << " scenario(s) had an identical finished run; shown from the workspace (--force runs again)\n";
    }
    std::cout << "workspace " << store.path() << "\n\n"
              << cl::formatSummaryTable(results, args.get("baseline"));
    // Each scenario's cluster as it ran (docs/architecture.md 7.8).
    std::vector<cl::ClusterCost> costs;
    std::vector<int> servers;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (report.run_ids[i] == 0) continue;
        const cl::Cluster cluster = cl::scenarioCluster(store, specs[i]);
        costs.push_back(cl::clusterCost(cluster));
        servers.push_back(static_cast<int>(cluster.servers.size()));
    }
    if (const std::string text = cl::formatRunCosts(results, costs, servers); !text.empty())
        std::cout << "\n" << text;
    return report.failed > 0 ? 1 : 0;
}

// What the ad-hoc path (--trace ... --policy ...) runs: each policy's scheduler, built once by
// the check that refuses a bad name before the trace is read.
struct PolicyRun {
    std::string policy;
    std::unique_ptr<cl::Scheduler> scheduler;
    std::filesystem::path dir;                        // under --out, named after the scheduler
    std::unique_ptr<cl::SegmentsCsvWriter> segments;  // streamed while the run goes, or null
    cl::SimResult result;                             // moved out once every run has ended
};

// Runs every policy on the one parallel runner (docs/architecture.md 1.2), printing each run's
// progress by tenths once the runs take longer than a second.
void simulatePolicies(std::vector<PolicyRun>& runs, const cl::Cluster& cluster, const cl::Trace& trace,
                      const cl::ProfileSet& profiles, const cl::SimOptions& base, bool quiet) {
    std::mutex err_mutex;
    const auto started = std::chrono::steady_clock::now();
    cl::ParallelRunner runner;
    auto prepare = [&](std::size_t p) -> cl::ParallelRunner::Work {
        return [&, p] {
            PolicyRun& run = runs[p];
            cl::SimOptions opts = base;
            if (cl::SegmentsCsvWriter* writer = run.segments.get()) {
                std::filesystem::create_directories(run.dir);
                opts.segment_sink = [writer](std::span<const cl::GpuSegment> s) { writer->write(s); };
            }
            int last_decile = -1;
            opts.progress = [&, policy = run.policy](double done) {
                const double secs =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                const int decile = static_cast<int>(done * 10);
                if (!quiet && secs > 1.0 && decile != last_decile) {
                    std::lock_guard lock(err_mutex);
                    std::cerr << "[" << policy << "] " << decile * 10 << "% of jobs finished\n";
                    last_decile = decile;
                }
                return !runner.cancelled();
            };
            run.result = cl::simulate(cluster, trace, profiles, *run.scheduler, opts);
        };
    };
    runner.run(runs.size(), prepare, [](std::size_t, std::exception_ptr error) {
        if (error) std::rethrow_exception(error);
    });
}

// Writes each run's CSV files (jobs.csv on a second thread while this one writes the series and
// completes the segments, docs/architecture.md section 2.9; a failure of either is thrown here,
// the files being independent) and says what was written, row counts included: a user sees at
// once when a run's outputs grow with its preemptions.
void writeRunFiles(std::vector<PolicyRun>& runs, const std::vector<cl::SimResult>& results,
                   const std::filesystem::path& dir, const RunOutputs& outputs, bool segments_recorded) {
    std::cout << "\nwrote to " << dir.string() << ":\n";
    for (std::size_t p = 0; p < runs.size(); ++p) {
        PolicyRun& run = runs[p];
        const cl::SimResult& r = results[p];
        std::filesystem::path sub = dir / safeFileName(r.policy);
        std::filesystem::create_directories(sub);
        std::future<void> jobs_written;
        if (outputs.jobs)
            jobs_written = std::async(
                std::launch::async, [&r, path = (sub / "jobs.csv").string()] { cl::writeJobsCsv(r, path); });
        if (outputs.series) cl::writeSeriesCsv(r, (sub / "series.csv").string());
        std::size_t segment_rows = r.segments.size();
        if (outputs.segments && segments_recorded) {
            if (run.segments) {
                run.segments->commit();
                segment_rows = run.segments->rows();
            } else {
                cl::writeSegmentsCsv(r, (sub / "segments.csv").string());
            }
        }
        if (jobs_written.valid()) jobs_written.get();
        std::cout << "  " << r.policy << ":";
        const char* separator = " ";
        auto wrote = [&](const char* file, std::size_t rows) {
            std::cout << separator << file << " " << rows << " rows";
            separator = ", ";
        };
        if (outputs.jobs) wrote("jobs.csv", r.jobs.size());
        if (outputs.series) wrote("series.csv", r.series.size());
        if (outputs.segments && segments_recorded) wrote("segments.csv", segment_rows);
        if (!outputs.jobs && !outputs.series && !(outputs.segments && segments_recorded))
            std::cout << " no CSV";
        std::cout << "\n";
    }
}

// metrics.json: every run's summary, what it ran on, and the cost (docs/architecture.md 7.8)
// only for a priced cluster: 0 would read as free.
void writeRunMetrics(const std::vector<cl::SimResult>& results, const cl::Cluster& cluster,
                     const cl::Trace& trace, const cl::SimOptions& base, const std::filesystem::path& dir) {
    nlohmann::json context = {{"cluster", cluster.name},
                              {"cluster_gpus", cluster.totalGpus()},
                              {"trace", trace.name},
                              {"trace_jobs", trace.jobs.size()},
                              {"conventions", base.conventions.name},
                              {"engine_version", cl::engineVersion()}};
    nlohmann::json metrics = cl::metricsJson(results, context);
    const cl::ClusterCost cost = cl::clusterCost(cluster);
    if (cost.anyPriced(static_cast<int>(cluster.servers.size()))) {
        metrics["cost_per_month"] = cost.per_month;
        metrics["unpriced_servers"] = cost.unpriced_servers;
        for (const auto& r : results)
            metrics["policies"][r.policy]["span_cost"] = cl::costForSpan(cost, r.summary.makespan);
    }
    cl::writeJson(metrics, (dir / "metrics.json").string());
    std::cout << "  metrics.json\n";
}

// The arguments of `run` (shared by the stored-scenario and ad-hoc paths).
Args runArgs() {
    std::vector<OptionSpec> specs = {
        {"cluster", "C", "cluster preset name or layout file (.json layout, .csv Muri spec)", false,
         "muri-testbed-64"},
        {"trace", "FILE", "trace file (required)"},
        {"format", "F",
         "trace format (auto, muri, tiresias, synergy, philly-json, pollux-philly, "
         "pollux-workload, helios, alibaba, json, csv)",
         false, "auto"},
        {"policy", "P", "policy to run", true, "srtf"},
        {"baseline", "P",
         "policy (or with --scenario, scenario) to compare the others with (speedup column)"},
        {"conventions", "NAME", "clean, muri-artifact or synergy-artifact", false, "clean"},
        {"profiles", "NAME", "built-in profile set (muri, synergy, sjf-bsbf) or a profile JSON file", false,
         "muri"},
        {"optimistic-profiling", "", "Synergy matrices as optimistic profiling estimates them"},
        {"xi", "X", "SJF-BSBF interference ratio of jobs sharing a GPU, 1..100 (0 = the profile's)"},
        {"measure", "FIRST-LAST", "summarize only these jobs (positions), e.g. 4000-4999"},
        {"out", "DIR", "write jobs/segments/series CSV per policy and metrics.json here"},
        {"outputs", "LIST",
         "with --out: which of jobs, series, segments, metrics to write (what is left out is not "
         "recorded either)",
         false, "jobs,series,segments,metrics"},
        {"model-seed", "N", "seed of the rule that assigns models to jobs without one", false, "1"},
        {"no-segments", "", "do not record per-GPU segments (faster, less memory)"},
        dbOption(),
        {"scenario", "NAME", "run a stored scenario of the workspace (--db) and store the run", true},
        {"force", "", "with --scenario: run again even if an identical run is stored"},
        {"quiet", "", "no progress or notes on stderr"}};
    for (OptionSpec& o : replayOptions()) specs.push_back(std::move(o));
    return Args(
        "run",
        "Simulate a trace on a cluster under one or more scheduling policies and print a summary table.\n"
        "Policies: " +
            cl::policyHelp(),
        std::move(specs));
}

// run --trace FILE --policy P ...: simulates the trace under each policy at once and prints
// the summary table; with --out, writes each run's files and metrics.json.
int runAdHoc(const Args& args) {
    const bool quiet = args.has("quiet");
    cl::SimOptions base;
    base.conventions = cl::Conventions::byName(args.get("conventions"));
    const RunOutputs outputs = parseRunOutputs(args.get("outputs"));
    if (args.has("outputs") && !args.has("out")) throw UsageError("--outputs needs --out DIR");
    base.record_segments = !args.has("no-segments") && (!args.has("out") || outputs.segments);
    base.record_series = !args.has("out") || outputs.series;
    cl::SchedulerTuning tuning;
    if (args.has("xi")) tuning.interference = interferenceRatio(args);
    tuning.slurm = slurmConfigFrom(args);
    base.strict = args.has("strict");
    std::vector<std::string> policies = args.getAll("policy");
    const std::string baseline = args.get("baseline");
    if (!baseline.empty() && std::find(policies.begin(), policies.end(), baseline) == policies.end())
        policies.push_back(baseline);
    // Segments go to their file while each run goes (a queued Muri run has tens of millions of
    // them; kept until the end they took gigabytes). A policy named twice keeps the old way
    // (written at the end, the last run's file wins).
    const bool stream_segments = args.has("out") && outputs.segments && base.record_segments;
    std::vector<PolicyRun> runs;
    for (const auto& policy : policies) {
        PolicyRun run;
        run.policy = policy;
        run.scheduler = cl::checkPolicy(policy, base.conventions, tuning);  // fails before any work
        run.dir = std::filesystem::path(args.get("out")) / safeFileName(run.scheduler->name());
        const bool first =
            std::none_of(runs.begin(), runs.end(), [&](const PolicyRun& r) { return r.dir == run.dir; });
        if (stream_segments && first)
            run.segments = std::make_unique<cl::SegmentsCsvWriter>((run.dir / "segments.csv").string());
        runs.push_back(std::move(run));
    }

    cl::ProfileSet profiles = resolveProfiles(args.get("profiles"), args.has("optimistic-profiling"));
    if (args.has("measure"))
        std::tie(base.measure_first, base.measure_last) = parseMeasureWindow(args.get("measure"));
    const cl::Cluster cluster = cl::resolveCluster(args.get("cluster"));
    base.keep_unavailable = keepUnavailableServers(cluster, args, quiet);
    cl::Trace trace = loadTrace(args.require("trace"), args.get("format"), profiles,
                                static_cast<unsigned long long>(args.getInt("model-seed")), quiet);
    simulatePolicies(runs, cluster, trace, profiles, base, quiet);
    std::vector<cl::SimResult> results;
    for (PolicyRun& run : runs) results.push_back(std::move(run.result));

    std::cout << "cluster " << cluster.name << " (" << cluster.totalGpus() << " GPUs), trace " << trace.name
              << " (" << trace.jobs.size() << " jobs), conventions " << base.conventions.name << "\n\n";
    std::cout << cl::formatSummaryTable(results, baseline);
    // Every run leaves out the same jobs (they depend on the trace and the cluster only).
    if (!results.empty() && !results.front().left_out.empty()) {
        std::cout << "\nleft out " << results.front().left_out.size()
                  << " job(s) that can never fit (--strict refuses the run instead):\n";
        for (const cl::LeftOutJob& left : results.front().left_out) std::cout << "  " << left.reason << "\n";
    }
    for (const cl::SimResult& r : results)
        for (const std::string& note : r.notes) std::cout << "note: " << note << "\n";
    for (const cl::SimResult& r : results)
        if (r.summary.timed_out > 0)
            std::cout << r.policy << ": " << r.summary.timed_out << " job(s) ended at their time limit\n";
    if (const std::string text =
            cl::formatRunCost(results, cl::clusterCost(cluster), static_cast<int>(cluster.servers.size()));
        !text.empty())
        std::cout << "\n" << text;
    if (args.has("out")) {
        const std::filesystem::path dir = args.get("out");
        std::filesystem::create_directories(dir);
        writeRunFiles(runs, results, dir, outputs, base.record_segments);
        if (outputs.metrics) writeRunMetrics(results, cluster, trace, base, dir);
    }
    return 0;
}

}  // namespace

int runCommand(const std::vector<std::string>& argv) {
    Args args = runArgs();
    if (!args.parse(argv)) return 0;
    if (args.has("scenario")) return runStoredScenarios(args);
    return runAdHoc(args);
}

}  // namespace cli
