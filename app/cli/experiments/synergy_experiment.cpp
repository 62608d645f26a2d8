// clusterloom-cli experiment synergy: the Synergy paper's FIFO single-GPU experiment (section
// 5.3.2, Fig. 9) from one command — proportional, TUNE, GREEDY and OPT on 128 GPUs at 9 jobs/h
// under both convention sets, next to the published figures — and the average-JCT-vs-load
// sweep, stored as runs of the workspace and drawn as the paper's chart.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/args.h"
#include "cli/experiments/experiment_common.h"
#include "cli/experiments/experiments.h"
#include "cli/trace_loading.h"
#include "cli/workspace.h"
#include "core/io/atomic_file.h"
#include "core/io/builtin_data.h"
#include "core/io/svg_line_chart.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/scenario_runner.h"
#include "core/sim/simulator.h"
#include "core/util/parallel_runner.h"
#include "core/workload/synergy_workload.h"

namespace cli {

namespace {

// Published average JCTs (hours) at 9 jobs/h: the paper's Fig. 9 (proportional 81, TUNE 22,
// OPT 20; no GREEDY) and the authors' simulator (docs/architecture.md section 10: 81.1, 21.9,
// 25.0).
struct Published {
    double paper;
    double simulator;
};
const std::map<std::string, Published>& published() {
    static const std::map<std::string, Published> table = {{"proportional", {81.0, 81.1}},
                                                           {"tune", {22.0, 21.9}},
                                                           {"greedy", {NAN, 25.0}},
                                                           {"opt", {20.0, NAN}}};
    return table;
}

std::string hours(double h) {
    if (!std::isfinite(h)) return "-";
    std::ostringstream o;
    o << std::fixed << std::setprecision(1) << h;
    return o.str();
}

struct Cell {
    std::string conventions, mechanism;
    std::uint64_t seed = 0;
    double avg_jct_h = NAN;
    double wall_s = 0;
    int measured = 0;
};

struct Mean {
    double mean = NAN, half_width = NAN;  // 95% confidence half-width (normal approximation)
    double wall_s = 0;
    int n = 0;
    std::vector<double> values;
    // Share of the per-seed results below x: where a published single run falls among ours.
    double percentileOf(double x) const {
        if (values.empty() || !std::isfinite(x)) return NAN;
        double below = 0;
        for (double v : values) below += v < x ? 1.0 : (v == x ? 0.5 : 0.0);
        return 100.0 * below / static_cast<double>(values.size());
    }
};

Mean meanOf(const std::vector<Cell>& cells, const std::string& conventions, const std::string& mechanism) {
    std::vector<double> v;
    Mean m;
    for (const Cell& c : cells)
        if (c.conventions == conventions && c.mechanism == mechanism && std::isfinite(c.avg_jct_h)) {
            v.push_back(c.avg_jct_h);
            m.wall_s += c.wall_s;
        }
    m.n = static_cast<int>(v.size());
    m.values = v;
    if (v.empty()) return m;
    double sum = 0;
    for (double x : v) sum += x;
    m.mean = sum / m.n;
    m.wall_s /= m.n;
    if (m.n > 1) {
        double ss = 0;
        for (double x : v) ss += (x - m.mean) * (x - m.mean);
        m.half_width = 1.96 * std::sqrt(ss / (m.n - 1)) / std::sqrt(static_cast<double>(m.n));
    }
    return m;
}

// The options of `experiment synergy`.
Args synergyArgs() {
    Args args(
        "experiment",
        "Reproduce a paper experiment. 'synergy': FIFO, single-GPU jobs, 128 GPUs (16 servers of 8 GPUs /\n"
        "24 CPUs / 500 GB), Poisson arrivals, split (20,70,10), average JCT of jobs 4000-4999, for\n"
        "proportional, TUNE, GREEDY and OPT under the synergy-artifact and clean conventions, next to the\n"
        "published figures; then the load sweep (--sweep) stored as runs in the workspace and drawn as the\n"
        "paper's average-JCT-vs-load chart (jct_vs_load.svg and .csv in --out).\n"
        "'sjf-bsbf': the SJF-BSBF paper's Tables III-IV and Fig. 6(b); see 'experiment sjf-bsbf --help'.",
        {{"rate", "R", "arrival rate of the table, jobs per hour", false, "9"},
         {"jobs", "N", "jobs generated per trace (the run ends when the measured ones are done)", false,
          "6500"},
         {"measure", "FIRST-LAST", "measured jobs by position", false, "4000-4999"},
         {"seeds", "LIST",
          "trace seeds of the table; each mechanism's mean over them is compared (one "
          "draw of this workload varies by about +-20%)",
          false, "42"},
         {"mechanisms", "LIST", "mechanisms of the table", false, "proportional,tune,greedy,opt"},
         {"conventions", "LIST", "convention sets of the table", false, "synergy-artifact,clean"},
         {"sweep", "LIST", "arrival rates of the load sweep (jobs/h); 'none' skips it", false,
          "3,4,5,6,7,8,9,10"},
         {"sweep-mechanisms", "LIST", "mechanisms of the load sweep", false, "proportional,greedy,tune"},
         {"sweep-conventions", "NAME", "conventions of the load sweep", false, "synergy-artifact"},
         {"multi-gpu", "", "Philly-derived GPU counts up to 16 instead of single-GPU jobs"},
         {"optimistic-profiling", "",
          "use the matrices optimistic profiling estimates (CPU bisection at full memory, cache model for "
          "memory) instead of the built-in ones"},
         {"threads", "N", "parallel simulations (0 = all cores)", false, "0"},
         {"check", "",
          "exit 1 unless, under every convention set, the means order as the paper's do: "
          "OPT <= TUNE < proportional and GREEDY < proportional"},
         dbOption(),
         {"out", "DIR", "folder for the table (CSV) and the chart", false, "clusterloom-synergy"}});
    args.positionals("NAME", 1, 1);
    return args;
}

// Prints the table of mean average JCTs next to the paper's and the authors' simulator's, and
// returns the per-seed rows as CSV.
std::string printTable(const std::vector<Cell>& cells, const std::vector<std::string>& conventions,
                       const std::vector<std::string>& mechanisms) {
    std::ostringstream table;
    table << std::left << std::setw(18) << "conventions" << std::setw(14) << "mechanism" << std::right
          << std::setw(12) << "avg JCT (h)" << std::setw(10) << "95% CI" << std::setw(8) << "paper"
          << std::setw(13) << "authors' sim" << std::setw(9) << "vs sim" << std::setw(12) << "sim's rank"
          << std::setw(10) << "wall (s)"
          << "\n";
    std::string csv =
        "conventions,mechanism,seed,avg_jct_h,paper_h,authors_simulator_h,measured_jobs,wall_s\n";
    for (const Cell& cell : cells) {
        const auto pub =
            published().count(cell.mechanism) ? published().at(cell.mechanism) : Published{NAN, NAN};
        csv += cell.conventions + "," + cell.mechanism + "," + std::to_string(cell.seed) + "," +
               hours(cell.avg_jct_h) + "," + hours(pub.paper) + "," + hours(pub.simulator) + "," +
               std::to_string(cell.measured) + "," + hours(cell.wall_s) + "\n";
    }
    for (const auto& c : conventions) {
        for (const auto& m : mechanisms) {
            const Mean mean = meanOf(cells, c, m);
            const auto pub = published().count(m) ? published().at(m) : Published{NAN, NAN};
            std::string versus = "-";
            if (std::isfinite(pub.simulator) && std::isfinite(mean.mean)) {
                std::ostringstream v;
                v << std::showpos << std::fixed << std::setprecision(1)
                  << (mean.mean / pub.simulator - 1) * 100 << "%";
                versus = v.str();
            }
            table << std::left << std::setw(18) << c << std::setw(14) << m << std::right << std::setw(12)
                  << hours(mean.mean) << std::setw(10)
                  << (std::isfinite(mean.half_width) ? "+-" + hours(mean.half_width) : "-") << std::setw(8)
                  << hours(pub.paper) << std::setw(13) << hours(pub.simulator) << std::setw(9) << versus;
            const double rank = mean.percentileOf(pub.simulator);
            std::string rank_text = "-";
            if (std::isfinite(rank) && mean.n > 1) {
                std::ostringstream r;
                r << std::fixed << std::setprecision(0) << rank << "%";
                rank_text = r.str();
            }
            table << std::setw(12) << rank_text << std::setw(10) << hours(mean.wall_s) << "\n";
        }
    }
    table << "(wall: seconds per run. 'vs sim' compares our mean with the authors' simulator's single run, "
             "one draw of\n"
             " the same workload; 'sim's rank' is the share of our per-seed results below that draw: between "
             "5% and\n"
             " 95% it is an ordinary draw of our model)\n";
    std::cout << table.str();
    return csv;
}

// With --check: whether, under every convention set, the means order as the paper's do.
bool printOrderCheck(const std::vector<Cell>& cells, const std::vector<std::string>& conventions) {
    bool ordered = true;
    {
        for (const auto& c : conventions) {
            const auto mean = [&](const char* m) { return meanOf(cells, c, m).mean; };
            // OPT may equal TUNE when every job already gets its best point (a lightly loaded
            // cluster, or clean conventions whose TUNE moves jobs to where their ask fits).
            const auto check = [&](const char* a, const char* b, bool or_equal = false) {
                const double x = mean(a), y = mean(b);
                if (!std::isfinite(x) || !std::isfinite(y)) return;
                const bool ok = or_equal ? x <= y + 1e-9 : x < y;
                ordered = ordered && ok;
                std::cout << (ok ? "check ok: " : "CHECK FAILED: ") << c << " " << a << " " << hours(x)
                          << " h " << (or_equal ? "<=" : "<") << " " << b << " " << hours(y) << " h\n";
            };
            check("opt", "tune", true);
            check("tune", "proportional");
            check("greedy", "proportional");
        }
    }
    return ordered;
}

// The load sweep (paper Fig. 9): each rate's trace under each mechanism, stored as runs of the
// workspace and drawn as average JCT against load. Returns whether every run finished.
bool runLoadSweep(const Args& args, const cl::SynergyWorkload& workload, const cl::Cluster& cluster,
                  const cl::ProfileSet& profiles, int first, int last, int threads,
                  const std::filesystem::path& out) {
    const std::string sweep_text = args.get("sweep");
    std::vector<double> rates;
    for (const auto& r : splitList(sweep_text)) {
        try {
            std::size_t used = 0;
            rates.push_back(std::stod(r, &used));
            if (used != r.size() || !(rates.back() > 0)) throw std::invalid_argument("rate");
        } catch (const std::exception&) {
            throw UsageError("--sweep: '" + r + "' is not a positive rate");
        }
    }
    const std::vector<std::string> sweep_mechanisms = splitList(args.get("sweep-mechanisms"));
    const std::string sweep_conventions = args.get("sweep-conventions");
    cl::Conventions::byName(sweep_conventions);

    cl::ScenarioStore store = openWorkspace(args);
    const std::int64_t cluster_id = store.putCluster(cluster);
    const std::int64_t profiles_id = store.putProfiles(profiles);
    std::vector<cl::ScenarioSpec> specs;
    std::vector<std::pair<double, std::string>> keys;  // (rate, mechanism) per spec
    for (double rate : rates) {
        cl::SynergyWorkload w = workload;
        w.jobs_per_hour = rate;
        const std::int64_t trace_id = store.putTrace(cl::generate(cl::synergyGeneratorConfig(w)));
        for (const auto& m : sweep_mechanisms) {
            cl::ScenarioSpec spec;
            std::ostringstream name;
            name << "synergy-load/" << sweep_conventions << "/" << rate << "jph/fifo+" << m;
            spec.name = name.str();
            spec.cluster_id = cluster_id;
            spec.trace_id = trace_id;
            spec.profiles_id = profiles_id;
            spec.policy = "fifo+" + m;
            spec.conventions = sweep_conventions;
            spec.seed = workload.seed;
            spec.parameters.measure_first = first;
            spec.parameters.measure_last = last;
            spec.notes = "Synergy load sweep (paper Fig. 9): average JCT of jobs " + std::to_string(first) +
                         "-" + std::to_string(last);
            specs.push_back(spec);
            keys.emplace_back(rate, m);
        }
    }
    cl::SweepOptions opts;
    opts.threads = threads;
    InterruptFlag interrupt;
    opts.stop = interrupt.flag();
    opts.progress = [&](const cl::SweepProgress& p) {
        std::cerr << "\rload sweep [" << p.finished + p.failed << "/" << p.total << "]   " << std::flush;
    };
    cl::SweepReport report = cl::runSweep(store, specs, opts);
    std::cerr << "\n";
    for (const auto& e : report.errors) std::cerr << "error: " << e << "\n";

    std::map<std::string, cl::LineSeries> lines;
    std::string sweep_csv = "jobs_per_hour,mechanism,avg_jct_h,run_id\n";
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (report.run_ids[i] == 0) continue;
        const cl::SimResult r = store.loadRun(report.run_ids[i], false);
        const double h = r.summary.avg_jct / 3600.0;
        auto& line = lines[keys[i].second];
        line.name = keys[i].second;
        line.points.emplace_back(keys[i].first, h);
        std::ostringstream row;
        row << keys[i].first << "," << keys[i].second << "," << hours(h) << "," << report.run_ids[i] << "\n";
        sweep_csv += row.str();
    }
    std::vector<cl::LineSeries> series;
    for (const auto& m : sweep_mechanisms)
        if (lines.count(m)) series.push_back(lines[m]);
    const std::string chart = (out / "jct_vs_load.svg").string();
    cl::writeLineChartSvg(
        chart,
        "Average JCT vs load: FIFO, " + std::to_string(cluster.totalGpus()) + " GPUs, " + sweep_conventions,
        "load (jobs/hour)",
        "average JCT of jobs " + std::to_string(first) + "-" + std::to_string(last) + " (hours)", series);
    {
        cl::AtomicFile f((out / "jct_vs_load.csv").string());
        f.stream() << sweep_csv;
        f.commit();
    }
    std::cout << "\nload sweep: " << specs.size() << " runs stored in " << store.path()
              << " (scenarios synergy-load/...); "
              << "chart " << chart << "\n";
    return report.failed == 0;
}

}  // namespace

int synergyExperiment(const std::vector<std::string>& argv) {
    Args args = synergyArgs();
    if (!args.parse(argv)) return 0;
    if (args.positional()[0] != "synergy")
        throw UsageError("unknown experiment '" + args.positional()[0] +
                         "' (experiments: synergy, sjf-bsbf)");

    const auto measure_window = parseMeasureWindow(args.get("measure"));
    const auto first = measure_window.first, last = measure_window.second;
    cl::SynergyWorkload workload;
    workload.jobs_per_hour = args.getDouble("rate");
    workload.jobs = static_cast<int>(args.getInt("jobs"));
    const std::vector<std::uint64_t> seeds = seedList(args, "seeds");
    if (seeds.empty()) throw UsageError("--seeds needs at least one seed");
    workload.seed = seeds.front();
    workload.multi_gpu = args.has("multi-gpu");
    if (last >= workload.jobs)
        throw UsageError("--measure " + args.get("measure") + " needs more than --jobs " +
                         std::to_string(workload.jobs));
    const int threads = static_cast<int>(args.getInt("threads"));
    const std::vector<std::string> mechanisms = splitList(args.get("mechanisms"));
    const std::vector<std::string> conventions = splitList(args.get("conventions"));
    for (const auto& c : conventions)
        for (const auto& m : mechanisms) cl::checkPolicy("fifo+" + m, cl::Conventions::byName(c));

    const cl::ProfileSet profiles = resolveProfiles("synergy", args.has("optimistic-profiling"));
    const cl::Cluster cluster = cl::builtinCluster("synergy-128");
    std::map<std::uint64_t, cl::Trace> traces;
    for (std::uint64_t seed : seeds) {
        cl::SynergyWorkload w = workload;
        w.seed = seed;
        traces.emplace(seed, cl::generate(cl::synergyGeneratorConfig(w)));
    }
    const std::filesystem::path out = args.get("out");
    std::filesystem::create_directories(out);

    std::cout << "Synergy experiment: FIFO, " << (workload.multi_gpu ? "multi-GPU" : "single-GPU")
              << " jobs, " << cluster.totalGpus() << " GPUs (" << cluster.name << "), "
              << workload.jobs_per_hour << " jobs/h, split (20,70,10), " << workload.jobs
              << " jobs generated per seed (" << seeds.size() << (seeds.size() == 1 ? " seed" : " seeds")
              << "); average JCT of jobs " << first << "-" << last << "\n\n";

    std::vector<Cell> cells;
    for (const auto& c : conventions)
        for (const auto& m : mechanisms)
            for (std::uint64_t seed : seeds) cells.push_back({c, m, seed});
    cl::parallelFor(cells.size(), threads, [&](std::size_t i) {
        cl::SimOptions o;
        o.conventions = cl::Conventions::byName(cells[i].conventions);
        o.measure_first = first;
        o.measure_last = last;
        o.record_segments = false;
        const auto started = std::chrono::steady_clock::now();
        cl::SimResult r =
            cl::simulatePolicy(cluster, traces.at(cells[i].seed), profiles, "fifo+" + cells[i].mechanism, o);
        cells[i].wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        cells[i].avg_jct_h = r.summary.avg_jct / 3600.0;
        cells[i].measured = r.summary.completed;
    });

    const std::string csv = printTable(cells, conventions, mechanisms);
    const bool ordered = !args.has("check") || printOrderCheck(cells, conventions);
    {
        cl::AtomicFile f((out / "synergy_fifo_table.csv").string());
        f.stream() << csv;
        f.commit();
    }

    if (args.get("sweep") == "none") return ordered ? 0 : 1;
    const bool swept = runLoadSweep(args, workload, cluster, profiles, first, last, threads, out);
    return !swept || !ordered ? 1 : 0;
}

}  // namespace cli
