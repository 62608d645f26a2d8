// clusterloom-cli run: one trace, one cluster, one or more policies, the same conventions.
#include <chrono>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>
#include <tuple>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/run_outputs.h"
#include "cli/trace_loading.h"
#include "cli/workspace.h"
#include "core/io/builtin_data.h"
#include "core/io/result_writers.h"
#include "core/metrics/cluster_cost.h"
#include "core/metrics/summary_table.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/store/scenario_runner.h"

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
    for (const char* adhoc :
         {"trace", "policy", "out", "outputs", "cluster", "conventions", "format", "model-seed",
          "no-segments", "profiles", "optimistic-profiling", "measure", "xi"})
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

}  // namespace

int runCommand(const std::vector<std::string>& argv) {
    Args args(
        "run",
        "Simulate a trace on a cluster under one or more scheduling policies and print a summary table.\n"
        "Policies: " +
            cl::policyHelp(),
        {{"cluster", "C", "cluster preset name or layout file (.json layout, .csv Muri spec)", false,
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
         {"quiet", "", "no progress or notes on stderr"}});
    if (!args.parse(argv)) return 0;
    const bool quiet = args.has("quiet");
    if (args.has("scenario")) return runStoredScenarios(args);
    cl::SimOptions base;
    base.conventions = cl::Conventions::byName(args.get("conventions"));
    const RunOutputs outputs = parseRunOutputs(args.get("outputs"));
    if (args.has("outputs") && !args.has("out")) throw UsageError("--outputs needs --out DIR");
    base.record_segments = !args.has("no-segments") && (!args.has("out") || outputs.segments);
    base.record_series = !args.has("out") || outputs.series;
    cl::SchedulerTuning tuning;
    if (args.has("xi")) tuning.interference = interferenceRatio(args);
    std::vector<std::string> policies = args.getAll("policy");
    for (const auto& p : policies) cl::checkPolicy(p, base.conventions, tuning);  // fail fast on bad names
    std::string baseline = args.get("baseline");
    if (!baseline.empty() && std::find(policies.begin(), policies.end(), baseline) == policies.end())
        policies.push_back(baseline);

    cl::ProfileSet profiles = resolveProfiles(args.get("profiles"), args.has("optimistic-profiling"));
    if (args.has("measure"))
        std::tie(base.measure_first, base.measure_last) = parseMeasureWindow(args.get("measure"));
    cl::Cluster cluster = cl::resolveCluster(args.get("cluster"));
    cl::Trace trace = loadTrace(args.require("trace"), args.get("format"), profiles,
                                static_cast<unsigned long long>(args.getInt("model-seed")), quiet);

    std::mutex err_mutex;
    auto started = std::chrono::steady_clock::now();
    // Segments go to their file while each run goes (a queued Muri run has tens of millions of
    // them; kept until the end they took gigabytes).
    // A policy named twice keeps the old way (written at the end, the last run's file wins).
    const bool stream_segments = args.has("out") && outputs.segments && base.record_segments;
    std::vector<std::unique_ptr<cl::SegmentsCsvWriter>> segment_writers;
    std::vector<std::filesystem::path> run_dirs;
    for (const auto& policy : policies) {
        const std::string name = cl::makeScheduler(policy, base.conventions, tuning)->name();
        std::filesystem::path sub = std::filesystem::path(args.get("out")) / safeFileName(name);
        const bool first = std::find(run_dirs.begin(), run_dirs.end(), sub) == run_dirs.end();
        segment_writers.push_back(stream_segments && first ? std::make_unique<cl::SegmentsCsvWriter>(
                                                                 (sub / "segments.csv").string())
                                                           : nullptr);
        run_dirs.push_back(sub);
    }
    std::vector<std::future<cl::SimResult>> futures;
    for (std::size_t p = 0; p < policies.size(); ++p) {
        const std::string& policy = policies[p];
        cl::SegmentsCsvWriter* segment_writer = segment_writers[p].get();
        futures.push_back(std::async(std::launch::async, [&, p, policy, segment_writer] {
            cl::SimOptions opts = base;
            if (segment_writer) {
                std::filesystem::create_directories(run_dirs[p]);
                opts.segment_sink = [segment_writer](std::span<const cl::GpuSegment> s) {
                    segment_writer->write(s);
                };
            }
            int last_decile = -1;
            opts.progress = [&, policy](double done) {
                double secs =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                int decile = static_cast<int>(done * 10);
                if (!quiet && secs > 1.0 && decile != last_decile) {
                    std::lock_guard lock(err_mutex);
                    std::cerr << "[" << policy << "] " << decile * 10 << "% of jobs finished\n";
                    last_decile = decile;
                }
                return true;
            };
            return cl::simulatePolicy(cluster, trace, profiles, policy, opts, tuning);
        }));
    }
    std::vector<cl::SimResult> results;
    for (auto& f : futures) results.push_back(f.get());

    std::cout << "cluster " << cluster.name << " (" << cluster.totalGpus() << " GPUs), trace " << trace.name
              << " (" << trace.jobs.size() << " jobs), conventions " << base.conventions.name << "\n\n";
    std::cout << cl::formatSummaryTable(results, baseline);
    const cl::ClusterCost cost = cl::clusterCost(cluster);
    const int servers = static_cast<int>(cluster.servers.size());
    if (const std::string text = cl::formatRunCost(results, cost, servers); !text.empty())
        std::cout << "\n" << text;

    if (args.has("out")) {
        std::filesystem::path dir = args.get("out");
        std::filesystem::create_directories(dir);
        // What was written, row counts included: a user sees at once when a run's outputs grow
        // with its preemptions.
        std::cout << "\nwrote to " << dir.string() << ":\n";
        for (std::size_t p = 0; p < results.size(); ++p) {
            const cl::SimResult& r = results[p];
            std::filesystem::path sub = dir / safeFileName(r.policy);
            std::filesystem::create_directories(sub);
            // jobs.csv is written on a second thread while this one writes the series and
            // completes the segments (docs/architecture.md section 2.9); a failure of either
            // is thrown here as before, the files being independent.
            std::future<void> jobs_written;
            if (outputs.jobs)
                jobs_written = std::async(std::launch::async, [&r, path = (sub / "jobs.csv").string()] {
                    cl::writeJobsCsv(r, path);
                });
            if (outputs.series) cl::writeSeriesCsv(r, (sub / "series.csv").string());
            std::size_t segment_rows = r.segments.size();
            if (outputs.segments && base.record_segments) {
                if (segment_writers[p]) {
                    segment_writers[p]->commit();
                    segment_rows = segment_writers[p]->rows();
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
            if (outputs.segments && base.record_segments) wrote("segments.csv", segment_rows);
            if (!outputs.jobs && !outputs.series && !(outputs.segments && base.record_segments))
                std::cout << " no CSV";
            std::cout << "\n";
        }
        if (outputs.metrics) {
            nlohmann::json context = {{"cluster", cluster.name},
                                      {"cluster_gpus", cluster.totalGpus()},
                                      {"trace", trace.name},
                                      {"trace_jobs", trace.jobs.size()},
                                      {"conventions", base.conventions.name},
                                      {"engine_version", cl::engineVersion()}};
            nlohmann::json metrics = cl::metricsJson(results, context);
            // The cost (docs/architecture.md 7.8) only for a priced cluster: 0 would read as free.
            if (cost.anyPriced(servers)) {
                metrics["cost_per_month"] = cost.per_month;
                metrics["unpriced_servers"] = cost.unpriced_servers;
                for (const auto& r : results)
                    metrics["policies"][r.policy]["span_cost"] = cl::costForSpan(cost, r.summary.makespan);
            }
            cl::writeJson(metrics, (dir / "metrics.json").string());
            std::cout << "  metrics.json\n";
        }
    }
    return 0;
}

}  // namespace cli
