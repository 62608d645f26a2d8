// clusterloom-cli demo: the bundled demo scenario, headless — what the quick start runs
// when there is no display.
#include <filesystem>
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/io/builtin_data.h"
#include "core/io/result_writers.h"
#include "core/io/svg_chart.h"
#include "core/metrics/summary_table.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"

namespace cli {

int demoCommand(const std::vector<std::string>& argv) {
    Args args(
        "demo",
        "Run the bundled demo scenario (demo trace on the 64-GPU Muri testbed) under fifo, srtf, srsf,\n"
        "tiresias and muri-s, print the summary table and write metrics.json, per-policy CSVs and "
        "utilization.svg.",
        {{"out", "DIR", "output folder", false, "clusterloom-demo"},
         {"conventions", "NAME", "clean or muri-artifact", false, "clean"}});
    if (!args.parse(argv)) return 0;
    cl::ProfileSet profiles = cl::builtinProfiles();
    cl::Cluster cluster = cl::builtinCluster("muri-testbed-64");
    cl::Trace trace = cl::demoTrace();
    cl::SimOptions opts;
    opts.conventions = cl::Conventions::byName(args.get("conventions"));
    std::vector<cl::SimResult> results;
    for (const char* p : {"fifo", "srtf", "srsf", "tiresias", "muri-s"})
        results.push_back(cl::simulatePolicy(cluster, trace, profiles, p, opts));

    std::cout << "ClusterLoom demo: trace '" << trace.name << "' (" << trace.jobs.size() << " jobs) on '"
              << cluster.name << "' (" << cluster.totalGpus() << " GPUs), conventions "
              << opts.conventions.name << "\n\n"
              << cl::formatSummaryTable(results, "fifo");

    std::filesystem::path dir = args.get("out");
    std::filesystem::create_directories(dir);
    for (const auto& r : results) {
        cl::writeJobsCsv(r, (dir / (r.policy + "_jobs.csv")).string());
        cl::writeSeriesCsv(r, (dir / (r.policy + "_series.csv")).string());
    }
    cl::writeJson(cl::metricsJson(results, {{"cluster", cluster.name}, {"trace", trace.name}}),
                  (dir / "metrics.json").string());
    cl::writeUtilizationSvg(results, "ClusterLoom demo: " + trace.name + " on " + cluster.name,
                            (dir / "utilization.svg").string());
    std::cout << "\nwrote " << (dir / "metrics.json").string() << " and chart "
              << (dir / "utilization.svg").string() << "\n";
    return 0;
}

}  // namespace cli
