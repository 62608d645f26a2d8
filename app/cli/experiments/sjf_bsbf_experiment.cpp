// clusterloom-cli experiment sjf-bsbf: the SJF-BSBF paper's large-scale simulations (section
// VI-C) from one command — FIFO, SJF, Tiresias, SJF-FFS and SJF-BSBF on 64 GPUs (16 servers x
// 4 RTX 2080 Ti) with 240 and 480 jobs sampled from the busiest period of the Philly trace,
// average JCT and queueing overall and for large (> 4 GPUs) and small jobs next to Tables
// III-IV, and the interference-ratio sweep of Fig. 6(b).
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/args.h"
#include "cli/experiments/experiment_common.h"
#include "cli/experiments/experiments.h"
#include "cli/public_datasets.h"
#include "cli/trace_loading.h"
#include "core/io/atomic_file.h"
#include "core/io/builtin_data.h"
#include "core/io/trace_writers.h"
#include "core/metrics/size_class_stats.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/util/parallel_runner.h"
#include "core/workload/philly_busiest_workload.h"

namespace cli {

namespace {

// Tables III-IV of the paper, hours: average JCT and queueing, all / large / small jobs.
struct PaperRow {
    double jct[3];
    double queue[3];
};
const std::map<int, std::map<std::string, PaperRow>>& paperTables() {
    static const std::map<int, std::map<std::string, PaperRow>> t = {
        {240,
         {{"fifo", {{2.34, 3.92, 2.13}, {1.65, 2.17, 1.58}}},
          {"sjf", {{1.25, 3.50, 0.94}, {0.56, 1.76, 0.39}}},
          {"tiresias", {{1.51, 3.48, 1.23}, {0.81, 1.73, 0.68}}},
          {"sjf-ffs", {{1.23, 4.29, 0.81}, {0.18, 0.98, 0.07}}},
          {"sjf-bsbf", {{1.01, 3.38, 0.68}, {0.14, 0.89, 0.03}}}}},
        {480,
         {{"fifo", {{7.52, 10.06, 7.08}, {0.73, 4.06, 0.21}}},
          {"sjf", {{2.55, 7.00, 1.90}, {1.87, 5.35, 1.35}}},
          {"tiresias", {{5.09, 8.25, 4.59}, {4.41, 6.60, 4.04}}},
          {"sjf-ffs", {{1.89, 8.12, 0.99}, {0.73, 4.06, 0.21}}},
          {"sjf-bsbf", {{1.57, 6.13, 0.88}, {0.69, 3.62, 0.21}}}}},
    };
    return t;
}

constexpr double kUnboundGpuMemoryGb = 1000.0;

struct Cell {
    int jobs = 0;
    std::uint64_t seed = 0;
    std::string policy;
    double xi = 0.0;              // 0 = the default ratio
    bool unbound_memory = false;  // the ablation: GPU memory never binds
    cl::SizeBreakdown stats;
    double wall_s = 0.0;
};

std::string fixed(double v, int digits = 2) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string percentBelow(double ours, double other) {
    if (!(other > 0) || !std::isfinite(ours)) return "-";
    return fixed((1.0 - ours / other) * 100.0, 1) + "%";
}

// Mean over seeds of one statistic.
double meanOf(const std::vector<Cell>& cells, int jobs, const std::string& policy, double xi,
              double (*pick)(const cl::SizeBreakdown&), bool unbound_memory = false) {
    double sum = 0;
    int n = 0;
    for (const Cell& c : cells)
        if (c.jobs == jobs && c.policy == policy && c.xi == xi && c.unbound_memory == unbound_memory) {
            sum += pick(c.stats);
            ++n;
        }
    return n ? sum / n : NAN;
}

double allJct(const cl::SizeBreakdown& b) {
    return b.all.avg_jct / 3600.0;
}
double largeJct(const cl::SizeBreakdown& b) {
    return b.large.avg_jct / 3600.0;
}
double smallJct(const cl::SizeBreakdown& b) {
    return b.small.avg_jct / 3600.0;
}
double allQueue(const cl::SizeBreakdown& b) {
    return b.all.avg_queueing / 3600.0;
}
double largeQueue(const cl::SizeBreakdown& b) {
    return b.large.avg_queueing / 3600.0;
}
double smallQueue(const cl::SizeBreakdown& b) {
    return b.small.avg_queueing / 3600.0;
}

// The options of `experiment sjf-bsbf`.
Args sjfBsbfArgs() {
    return Args(
        "experiment sjf-bsbf",
        "SJF-BSBF's large-scale simulations: FIFO, SJF, Tiresias, SJF-FFS and SJF-BSBF on 64 GPUs (16 "
        "servers x\n"
        "4 RTX 2080 Ti) with 240 and 480 jobs sampled from the busiest period of the Philly trace and "
        "annotated\n"
        "with Pollux's six models; average JCT and queueing for all, large (> 4 GPUs) and small jobs next "
        "to\n"
        "the paper's Tables III-IV, then the interference-ratio sweep of Fig. 6(b) on the 240-job workload.",
        {{"philly", "FILE",
          "Philly jobs CSV (timestamp,duration,num_gpus,gpu_time,cluster); " +
              publicDatasetHint("philly/philly_jobs.csv")},
         {"pollux-workloads", "DIR",
          "Pollux's workload CSVs: the GPU counts and batch sizes of each model are "
          "drawn from their configurations ('none': the Philly GPU counts); " +
              publicDatasetHint("pollux/workloads")},
         {"absolute-window", "",
          "sample from the busiest 8 consecutive hours of the trace instead of the busiest "
          "8 hours of the day over all days (Pollux's rule)"},
         {"philly-durations", "",
          "jobs run for their Philly duration instead of training their model's samples"},
         {"no-memory-ablation", "", "skip the second set of tables in which GPU memory never binds"},
         {"jobs", "LIST", "workload sizes", false, "240,480"},
         {"seeds", "LIST", "sampling seeds; each figure is the mean over them", false, "1,2,3,4,5"},
         {"policies", "LIST", "policies of the tables", false, "fifo,sjf,tiresias,sjf-ffs,sjf-bsbf"},
         {"xi", "X", "interference ratio of the tables (default: the paper's 1.8)", false, "1.8"},
         {"xi-sweep", "LIST", "interference ratios of the Fig. 6(b) sweep; 'none' skips it", false,
          "1.0,1.25,1.5,1.75,2.0"},
         {"cluster", "NAME", "cluster preset or layout file", false, "sjf-bsbf-64"},
         {"profiles", "NAME", "profile set with the six models' speed model", false, "sjf-bsbf"},
         {"threads", "N", "parallel simulations (0 = all cores)", false, "0"},
         {"check", "LIST",
          "exit 1 unless these claims hold: 'order' = sjf-bsbf < sjf-ffs < sjf and sjf-bsbf < "
          "tiresias in average JCT on every workload; 'sweep' = BSBF equals FFS within 1% at "
          "xi <= 1.25 and is below it at 1.5-2.0; 'all' = both",
          false, "none"},
         {"out", "DIR", "folder for the tables (CSV)", false, "clusterloom-sjf-bsbf"}});
}

// Prints the tables of each workload size next to the paper's (Tables III-IV), then the same
// with GPU memory that never binds; true when the paper's order of average JCT holds on every
// workload with the cluster's own memory.
bool printTables(const std::vector<Cell>& cells, const std::vector<int>& sizes,
                 const std::vector<std::string>& policies, bool ablation) {
    bool ordered = true;
    for (int variant = 0; variant < (ablation ? 2 : 1); ++variant) {
        if (variant == 1)
            std::cout << "\nAblation: the same, with GPU memory that never binds ("
                      << fixed(kUnboundGpuMemoryGb, 0)
                      << " GB per GPU): sharing never forces gradient accumulation\n";
        for (int n : sizes) {
            const auto paper =
                paperTables().count(n) ? paperTables().at(n) : std::map<std::string, PaperRow>{};
            std::cout << "\n"
                      << n << " jobs          avg JCT: all  large  small  (paper: all  large  small)   "
                      << "queueing: all  large  small  (paper: all  large  small)\n";
            for (const auto& p : policies) {
                auto m = [&](double (*pick)(const cl::SizeBreakdown&)) {
                    return meanOf(cells, n, p, 0.0, pick, variant == 1);
                };
                const PaperRow* row = paper.count(p) ? &paper.at(p) : nullptr;
                auto pub = [&](bool queue, int k) {
                    return row ? fixed(queue ? row->queue[k] : row->jct[k]) : "-";
                };
                std::cout << std::left << std::setw(19) << ("  " + p) << std::right << std::setw(10)
                          << fixed(m(allJct)) << std::setw(7) << fixed(m(largeJct)) << std::setw(7)
                          << fixed(m(smallJct)) << std::setw(15) << pub(false, 0) << std::setw(7)
                          << pub(false, 1) << std::setw(7) << pub(false, 2) << std::setw(15)
                          << fixed(m(allQueue)) << std::setw(7) << fixed(m(largeQueue)) << std::setw(7)
                          << fixed(m(smallQueue)) << std::setw(15) << pub(true, 0) << std::setw(7)
                          << pub(true, 1) << std::setw(7) << pub(true, 2) << "\n";
            }
            const double bsbf = meanOf(cells, n, "sjf-bsbf", 0.0, allJct, variant == 1),
                         ffs = meanOf(cells, n, "sjf-ffs", 0.0, allJct, variant == 1),
                         sjf = meanOf(cells, n, "sjf", 0.0, allJct, variant == 1),
                         tir = meanOf(cells, n, "tiresias", 0.0, allJct, variant == 1);
            if (std::isfinite(bsbf)) {
                std::cout << "  sjf-bsbf average JCT: " << percentBelow(bsbf, ffs) << " below sjf-ffs, "
                          << percentBelow(bsbf, tir) << " below tiresias, " << percentBelow(bsbf, sjf)
                          << " below sjf";
                if (paper.count("sjf-bsbf"))
                    std::cout << "  (paper: "
                              << percentBelow(paper.at("sjf-bsbf").jct[0], paper.at("sjf-ffs").jct[0]) << ", "
                              << percentBelow(paper.at("sjf-bsbf").jct[0], paper.at("tiresias").jct[0])
                              << ", " << percentBelow(paper.at("sjf-bsbf").jct[0], paper.at("sjf").jct[0])
                              << ")";
                std::cout << "\n";
                // NaN (a policy left out of --policies) fails the claim: it cannot be shown.
                const bool holds = bsbf < ffs && ffs < sjf && bsbf < tir;
                std::cout << (holds ? "  order holds: sjf-bsbf < sjf-ffs < sjf and sjf-bsbf < tiresias\n"
                                    : "  ORDER DOES NOT HOLD: expected sjf-bsbf < sjf-ffs < sjf and sjf-bsbf "
                                      "< tiresias\n");
                if (variant == 0) ordered = ordered && holds;
            }
        }
    }
    return ordered;
}

// Prints and writes the interference-ratio sweep of Fig. 6(b); true when BSBF equals FFS within
// 1% at xi <= 1.25 and is below it at 1.5-2.0.
bool printSweep(const std::vector<Cell>& cells, const std::vector<double>& sweep, int sweep_jobs,
                const std::filesystem::path& out) {
    bool swept = true;
    std::cout << "\nFig. 6(b), " << sweep_jobs << " jobs: average JCT (h) by interference ratio\n"
              << "     xi   sjf-ffs  sjf-bsbf  bsbf vs ffs   expected\n";
    std::string sweep_csv = "xi,sjf_ffs_h,sjf_bsbf_h,bsbf_below_ffs_percent\n";
    for (double x : sweep) {
        const double ffs = meanOf(cells, sweep_jobs, "sjf-ffs", x, allJct);
        const double bsbf = meanOf(cells, sweep_jobs, "sjf-bsbf", x, allJct);
        const double diff = (1.0 - bsbf / ffs) * 100.0;
        const bool equal_expected = x <= 1.25 + 1e-9;
        const bool holds =
            equal_expected ? std::abs(bsbf / ffs - 1.0) <= 0.01 : (x >= 1.5 - 1e-9 ? bsbf < ffs : true);
        swept = swept && holds;
        std::cout << std::setw(7) << fixed(x) << std::setw(10) << fixed(ffs, 3) << std::setw(10)
                  << fixed(bsbf, 3) << std::setw(12) << (fixed(diff, 1) + "%") << "   "
                  << (equal_expected ? "equal within 1%"
                                     : (x >= 1.5 - 1e-9 ? "bsbf below (paper 8-13%)" : "-"))
                  << (holds ? "" : "  DOES NOT HOLD") << "\n";
        sweep_csv += fixed(x) + "," + fixed(ffs, 4) + "," + fixed(bsbf, 4) + "," + fixed(diff, 2) + "\n";
    }
    cl::AtomicFile f((out / "sjf_bsbf_xi_sweep.csv").string());
    f.stream() << sweep_csv;
    f.commit();
    return swept;
}

}  // namespace

int sjfBsbfExperiment(const std::vector<std::string>& argv) {
    Args args = sjfBsbfArgs();
    if (!args.parse(argv)) return 0;

    std::vector<int> sizes;
    for (const auto& s : splitList(args.get("jobs"))) sizes.push_back(parsePositiveInt("--jobs", s));
    const std::vector<std::uint64_t> seeds = seedList(args, "seeds");
    if (sizes.empty() || seeds.empty()) throw UsageError("--jobs and --seeds need at least one value");
    const std::vector<std::string> policies = splitList(args.get("policies"));
    const double xi = parseRatio("--xi", args.get("xi"));
    std::vector<double> sweep;
    if (args.get("xi-sweep") != "none")
        for (const auto& s : splitList(args.get("xi-sweep"))) sweep.push_back(parseRatio("--xi-sweep", s));
    int threads = static_cast<int>(args.getInt("threads"));

    const cl::ProfileSet profiles = resolveProfiles(args.get("profiles"));
    const cl::Cluster cluster = cl::resolveCluster(args.get("cluster"));
    cl::PhillyWorkloadOptions w;
    w.max_gpus = cluster.totalGpus();
    w.hour_of_day = !args.has("absolute-window");
    w.keep_philly_duration = args.has("philly-durations");
    const std::string workloads = publicDatasetOption(args, "pollux-workloads", "pollux/workloads");
    if (workloads != "none") w.configurations = cl::polluxConfigurations(workloads);
    const std::vector<cl::PhillyJobRow> rows =
        cl::readPhillyJobRows(publicDatasetOption(args, "philly", "philly/philly_jobs.csv"));
    std::map<std::pair<int, std::uint64_t>, cl::Trace> traces;
    for (int n : sizes)
        for (std::uint64_t seed : seeds) {
            w.jobs = n;
            w.seed = seed;
            traces.emplace(std::make_pair(n, seed), cl::phillyBusiestWorkload(rows, w, &profiles).trace);
        }

    const std::filesystem::path out = args.get("out");
    std::filesystem::create_directories(out);
    for (const auto& [key, trace] : traces)
        cl::writeTraceCsv(trace, (out / ("workload_" + std::to_string(key.first) + "_seed" +
                                         std::to_string(key.second) + ".csv"))
                                     .string());

    // The ablation: the same cluster with GPUs whose memory never binds, so that sharing never
    // forces accumulation (the reason the paper's orders can differ from ours; README).
    const bool ablation = !args.has("no-memory-ablation");
    cl::Cluster unbound = cluster;
    for (cl::Server& server : unbound.servers) server.gpu_memory_gb = kUnboundGpuMemoryGb;
    std::vector<Cell> cells;
    for (int n : sizes)
        for (const auto& p : policies)
            for (std::uint64_t seed : seeds) {
                cells.push_back({n, seed, p, 0.0, false, {}, 0.0});
                if (ablation) cells.push_back({n, seed, p, 0.0, true, {}, 0.0});
            }
    const int sweep_jobs = sizes.front();
    for (double x : sweep)
        for (const char* p : {"sjf-ffs", "sjf-bsbf"})
            for (std::uint64_t seed : seeds) cells.push_back({sweep_jobs, seed, p, x, false, {}, 0.0});
    const auto started = std::chrono::steady_clock::now();
    cl::parallelFor(cells.size(), threads, [&](std::size_t i) {
        Cell& c = cells[i];
        cl::SimOptions o;
        o.record_series = false;
        const auto t0 = std::chrono::steady_clock::now();
        cl::SimResult r =
            cl::simulatePolicy(c.unbound_memory ? unbound : cluster, traces.at({c.jobs, c.seed}), profiles,
                               c.policy, o, cl::SchedulerTuning{.interference = c.xi > 0 ? c.xi : xi});
        c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        c.stats = cl::breakdownBySize(r);
    });
    const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    std::cout << "SJF-BSBF experiment: " << cluster.totalGpus() << " GPUs (" << cluster.name << "), xi " << xi
              << ", profiles " << profiles.name << ", mean over " << seeds.size()
              << " sampling seed(s); hours\n";
    std::string csv =
        "jobs,seed,policy,xi,gpu_memory,avg_jct_h,large_jct_h,small_jct_h,avg_queue_h,large_queue_h,small_"
        "queue_h,"
        "large_jobs,small_jobs,wall_s\n";
    for (const Cell& c : cells)
        csv += std::to_string(c.jobs) + "," + std::to_string(c.seed) + "," + c.policy + "," +
               fixed(c.xi > 0 ? c.xi : xi, 2) + "," + (c.unbound_memory ? "unbound" : "cluster") + "," +
               fixed(allJct(c.stats), 4) + "," + fixed(largeJct(c.stats), 4) + "," +
               fixed(smallJct(c.stats), 4) + "," + fixed(allQueue(c.stats), 4) + "," +
               fixed(largeQueue(c.stats), 4) + "," + fixed(smallQueue(c.stats), 4) + "," +
               std::to_string(c.stats.large.jobs) + "," + std::to_string(c.stats.small.jobs) + "," +
               fixed(c.wall_s, 4) + "\n";

    const bool ordered = printTables(cells, sizes, policies, ablation);
    const bool swept = sweep.empty() || printSweep(cells, sweep, sweep_jobs, out);
    {
        cl::AtomicFile f((out / "sjf_bsbf_tables.csv").string());
        f.stream() << csv;
        f.commit();
    }
    std::cout << "\n"
              << cells.size() << " simulations in " << fixed(total_s, 2) << " s; tables in "
              << (out / "sjf_bsbf_tables.csv").string() << "\n";
    const std::string check = args.get("check");
    if (check != "none" && check != "order" && check != "sweep" && check != "all")
        throw UsageError("--check takes none, order, sweep or all, not '" + check + "'");
    const bool fail = ((check == "order" || check == "all") && !ordered) ||
                      ((check == "sweep" || check == "all") && !swept);
    return fail ? 1 : 0;
}

}  // namespace cli
