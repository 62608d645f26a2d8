// clusterloom-cli sweep: the cross product of chosen settings, run in parallel, every result
// stored as a run. Ctrl-C cancels the running simulations and starts no more; every finished
// run stays stored, and running the sweep again completes the rest.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/experiments/experiment_common.h"
#include "cli/workspace.h"
#include "core/io/builtin_data.h"
#include "core/store/emitted_folder.h"
#include "core/store/scenario_runner.h"
#include "core/store/slurm_array_scripts.h"

namespace cli {

namespace {

template <class T, class Parse>
std::vector<T> listOption(const Args& args, const char* name, Parse parse) {
    std::vector<T> out;
    for (const auto& v : args.getAll(name))
        for (const auto& item : splitList(v)) {
            try {
                std::size_t used = 0;
                T value = parse(item, &used);
                if (used != item.size()) throw std::invalid_argument("trailing characters");
                out.push_back(value);
            } catch (const std::exception&) {
                throw UsageError(std::string("--") + name + ": '" + item + "' is not a valid value");
            }
        }
    return out;
}

// This program, by absolute path (what every emitted command line calls).
std::string thisExecutable() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot tell this program's path (/proc/self/exe): give --cli PATH");
    return exe.string();
}

// Seconds one simulation of the scenario takes here: what an array task's time limit is
// estimated from (slurm_array_scripts.h).
double measureOneRun(cl::ScenarioStore& store, const cl::ScenarioInfo& info) {
    cl::ScenarioInputs in = cl::resolveScenario(store, info);
    const auto start = std::chrono::steady_clock::now();
    cl::simulatePolicy(in.cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int emitSweep(const Args& args, cl::ScenarioStore& store, const std::vector<cl::ScenarioSpec>& specs) {
    const bool slurm = args.has("slurm");
    for (const char* option :
         {"specs-per-task", "array-limit", "partition", "account", "sbatch-option", "time-limit"})
        if (args.has(option) && !slurm) throw UsageError(std::string("--") + option + " needs --slurm");
    // Refused before anything is stored: a used folder, an array Slurm would not take.
    {
        std::error_code ec;
        const std::string dir = args.get("emit");
        if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec))
            throw std::runtime_error(dir + ": exists and is not empty; emit into a new folder");
    }
    if (slurm && args.has("specs-per-task") && args.getInt("specs-per-task") > 0 &&
        cl::arrayTasks(static_cast<int>(specs.size()), static_cast<int>(args.getInt("specs-per-task"))) >
            cl::kMaxArrayTasks)
        throw std::runtime_error(
            std::to_string(specs.size()) + " specs at " + args.get("specs-per-task") +
            " per task make more array tasks than Slurm's default MaxArraySize allows (" +
            std::to_string(cl::kMaxArrayTasks) + "); give a larger --specs-per-task or leave it out");
    const std::vector<cl::ScenarioInfo> infos = cl::createSweepScenarios(store, specs);
    const bool force = args.has("force");
    std::vector<cl::ScenarioInfo> pending;
    for (const auto& info : infos)
        if (force || !store.finishedRunWithHash(info.content_hash, cl::engineVersion()))
            pending.push_back(info);
    auto bounded = [&](const char* name, long long lo, long long hi) {
        const long long v = args.getInt(name);
        if (v < lo || v > hi)
            throw UsageError(std::string("--") + name + " must be " + std::to_string(lo) + ".." +
                             std::to_string(hi));
        return static_cast<int>(v);
    };
    cl::EmitOptions options;
    options.cli = args.has("cli") ? args.get("cli") : thisExecutable();
    options.force = force;
    const int requested = args.has("specs-per-task") ? bounded("specs-per-task", 1, 10000000) : 0;
    options.specs_per_task = slurm ? cl::specsPerTask(static_cast<int>(pending.size()), requested) : 1;
    const cl::EmittedFolder folder = cl::emitRunSpecs(store, infos, args.get("emit"), options);
    std::cout << folder.names.size() << " run specs (" << folder.already_stored
              << " scenarios already have a finished run) and " << folder.inputs << " inputs written to "
              << folder.dir << "\n";
    if (slurm && !folder.names.empty()) {
        cl::SlurmArrayOptions s;
        s.specs_per_task = options.specs_per_task;
        s.array_limit = args.has("array-limit") ? bounded("array-limit", 0, 1000000) : 0;
        s.partition = args.get("partition");
        s.account = args.get("account");
        s.sbatch_options = args.getAll("sbatch-option");
        const int specs_count = static_cast<int>(folder.names.size());
        if (args.has("time-limit")) {
            s.task_minutes = bounded("time-limit", 1, 525600);
        } else {
            const double seconds = measureOneRun(store, store.scenario(folder.names.front()));
            s.task_minutes = cl::taskTimeLimitMinutes(seconds, s.specs_per_task);
            std::cout << "one simulation (" << folder.names.front() << ") took " << seconds
                      << " s here: array tasks get --time=" << s.task_minutes << " (3x per spec + 5 min)\n";
        }
        s.merge_minutes = cl::mergeTimeLimitMinutes(specs_count);
        cl::writeSlurmArrayScripts(folder.dir, specs_count, options.cli, cl::emittedWorkspace(folder.dir), s);
        std::cout << "Slurm: " << cl::arrayTasks(specs_count, s.specs_per_task) << " array tasks of "
                  << s.specs_per_task << " specs; submit with " << folder.dir
                  << "/submit.sh (then resubmit-failed.sh for failed tasks)\n";
    } else if (!folder.names.empty()) {
        std::cout << "run them: cd " << cl::shellWord(folder.dir)
                  << " && xargs -P 4 -I{} sh -c {} < commands.txt\nthen: " << cl::shellWord(options.cli)
                  << " workspace merge --emitted " << cl::shellWord(folder.dir) << "\n";
    }
    return 0;
}

}  // namespace

int sweepCommand(const std::vector<std::string>& argv) {
    std::vector<OptionSpec> options = {
        dbOption(),
        {"prefix", "NAME", "scenario names start with this (required)"},
        {"from", "SCENARIO", "base scenario whose settings the sweep varies"},
        {"trace", "FILE", "trace to import as the base (instead of --from)"},
        {"format", "F", "trace format", false, "auto"},
        {"model-seed", "N", "seed assigning models to imported jobs without one", false, "1"},
        {"cluster", "C", "base cluster preset or layout file", false, "muri-testbed-64"},
        {"cluster-name", "NAME", "store the --cluster layout under NAME (its own name is taken)"},
        {"policy", "P", "base policy", false, "srtf"},
        {"conventions", "NAME", "clean, muri-artifact or synergy-artifact", false, "clean"},
        {"profiles", "NAME", "built-in profile set (muri, synergy, sjf-bsbf) or a profile JSON file", false,
         "muri"},
        {"measure", "FIRST-LAST", "summarize only these jobs (positions), e.g. 4000-4999"},
        {"reassign-models", "", "every job draws its model again with the scenario's seed"},
        {"transform", "SPEC", "trace transform applied first", true},
        {"clusters", "LIST", "cluster presets or layout files to cross (comma separated)", true},
        {"server-counts", "LIST", "server counts to cross, e.g. 8,16,24", true},
        {"loads", "LIST", "load factors to cross, e.g. 1,2,4", true},
        {"policies", "LIST", "policies to cross, e.g. srtf,muri-s", true},
        {"group-sizes", "LIST", "Muri group-size caps to cross, e.g. 2,3,4", true},
        {"seeds", "LIST", "seeds to cross (model reassignment and noise), e.g. 1,2,3", true},
        {"threads", "N", "parallel simulations (0 = all cores)", false, "0"},
        {"force", "", "run again scenarios that already have an identical finished run"},
        {"quiet", "", "no progress line"},
        {"emit", "DIR",
         "do not run: write one run spec per simulation, their inputs and commands.txt into the new folder "
         "DIR "
         "(run each line, then 'workspace merge --emitted DIR')"},
        {"cli", "PATH", "with --emit: the clusterloom-cli the command lines call (default this one)"},
        {"slurm", "", "with --emit: also write array.sbatch, merge.sbatch, submit.sh and resubmit-failed.sh"},
        {"specs-per-task", "N", "with --slurm: specs one array task runs (default: so that tasks <= 1000)"},
        {"array-limit", "N", "with --slurm: at most N array tasks at once (%N)"},
        {"partition", "P", "with --slurm: the Slurm partition"},
        {"account", "A", "with --slurm: the Slurm account"},
        {"sbatch-option", "OPT", "with --slurm: an #SBATCH option passed through, e.g. --qos=long", true},
        {"time-limit", "MIN",
         "with --slurm: an array task's time limit in minutes (default: 3x one simulation measured here, per "
         "spec, plus 5)"}};
    Args args(
        "sweep",
        "Run the cross product of chosen settings in parallel and store every result as a run of its own "
        "scenario (named PREFIX/...). Interrupting (Ctrl-C) keeps every finished run.",
        options);
    if (!args.parse(argv)) return 0;
    const std::string prefix = args.require("prefix");
    const bool quiet = args.has("quiet");
    cl::ScenarioStore store = openWorkspace(args);

    cl::ScenarioSpec base;
    if (args.has("from")) {
        for (const char* own : {"trace", "format", "model-seed", "cluster", "cluster-name", "policy",
                                "conventions", "transform", "profiles", "measure"})
            if (args.has(own))
                throw UsageError(std::string("--") + own +
                                 " does not apply with --from (the scenario has its own; "
                                 "vary it with the list options)");
        base = store.scenario(args.get("from")).spec;
    } else {
        if (!args.has("trace")) throw UsageError("sweep needs --from SCENARIO or --trace FILE");
        applyScenarioSettings(args, store, base, true, quiet);
    }
    if (args.has("reassign-models")) base.parameters.reassign_models = true;

    cl::SweepAxes axes;
    axes.clusters = listOption<std::string>(args, "clusters", [](const std::string& s, std::size_t* used) {
        *used = s.size();
        return s;
    });
    axes.server_counts = listOption<int>(
        args, "server-counts", [](const std::string& s, std::size_t* used) { return std::stoi(s, used); });
    axes.load_factors = listOption<double>(
        args, "loads", [](const std::string& s, std::size_t* used) { return std::stod(s, used); });
    axes.policies = listOption<std::string>(args, "policies", [](const std::string& s, std::size_t* used) {
        *used = s.size();
        return s;
    });
    axes.group_sizes = listOption<int>(
        args, "group-sizes", [](const std::string& s, std::size_t* used) { return std::stoi(s, used); });
    axes.seeds = listOption<std::uint64_t>(args, "seeds", [](const std::string& s, std::size_t* used) {
        if (!s.empty() && s[0] == '-') throw std::invalid_argument("negative");
        return static_cast<std::uint64_t>(std::stoull(s, used));
    });
    for (const auto& p : axes.policies)
        cl::checkPolicy(p, cl::Conventions::clean());  // fail fast, with the list

    std::vector<cl::ScenarioSpec> specs = cl::expandSweep(store, prefix, base, axes);
    if (args.has("emit")) return emitSweep(args, store, specs);
    for (const char* option : {"cli", "slurm"})
        if (args.has(option)) throw UsageError(std::string("--") + option + " needs --emit DIR");
    cl::SweepOptions opts;
    const long long threads = args.getInt("threads");
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be 0 (all cores) .. 1024");
    opts.threads = static_cast<int>(threads);
    opts.force = args.has("force");
    InterruptFlag interrupt;
    opts.stop = interrupt.flag();
    opts.progress = [&](const cl::SweepProgress& p) {
        if (quiet) return;
        std::cerr << "\r[" << p.finished + p.failed << "/" << p.total << "] running " << p.running
                  << ", failed " << p.failed << "   " << std::flush;
    };
    cl::SweepReport report = cl::runSweep(store, specs, opts);
    if (!quiet) std::cerr << "\n";
    for (const auto& e : report.errors) std::cerr << "error: " << e << "\n";

    int stored = 0;
    for (auto id : report.run_ids) stored += id != 0;
    std::cout << specs.size() << " scenarios (" << prefix << "/...): " << stored << " with a finished run ("
              << report.reused << " reused), " << report.failed << " failed, " << report.cancelled
              << " cancelled, in " << store.path() << "\n";
    if (interrupt.raised() && static_cast<std::size_t>(stored) < specs.size()) {
        std::cout << "interrupted: " << (specs.size() - static_cast<std::size_t>(stored))
                  << " scenarios have no finished run; run the sweep again to complete them\n";
        return 130;
    }
    return report.failed > 0 ? 1 : 0;
}

}  // namespace cli
