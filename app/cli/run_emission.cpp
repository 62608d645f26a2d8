#include "cli/run_emission.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

#include "core/io/builtin_data.h"
#include "core/scaleout/pending_runs.h"
#include "core/scaleout/slurm_array_scripts.h"

namespace cli {

namespace {

// This program, by absolute path (what every emitted command line calls).
std::string thisExecutable() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot tell this program's path (/proc/self/exe): give --cli PATH");
    return exe.string();
}

}  // namespace

std::vector<OptionSpec> emitOptions() {
    return {
        {"emit", "DIR",
         "do not run: write one run spec per simulation, their inputs and commands.txt into the new folder "
         "DIR (run each line, then 'workspace merge --emitted DIR')"},
        {"cli", "PATH", "with --emit: the clusterloom-cli the command lines call (default this one)"},
        {"slurm", "", "with --emit: also write array.sbatch, merge.sbatch, submit.sh and resubmit-failed.sh"},
        {"specs-per-task", "N", "with --slurm: specs one array task runs (default: so that tasks <= 1000)"},
        {"array-limit", "N", "with --slurm: at most N array tasks at once (%N)"},
        {"partition", "P", "with --slurm: the Slurm partition"},
        {"account", "A", "with --slurm: the Slurm account"},
        {"sbatch-option", "OPT", "with --slurm: an #SBATCH option passed through, e.g. --qos=long", true},
        {"time-limit", "MIN",
         "with --slurm: an array task's time limit in minutes (default: 3x the slowest policy's first "
         "simulation, measured here, per spec, plus 5)"}};
}

void checkEmitOptions(const Args& args, std::size_t scenarios) {
    for (const char* option : {"cli", "slurm"})
        if (args.has(option) && !args.has("emit"))
            throw UsageError(std::string("--") + option + " needs --emit DIR");
    const bool slurm = args.has("slurm");
    for (const char* option :
         {"specs-per-task", "array-limit", "partition", "account", "sbatch-option", "time-limit"})
        if (args.has(option) && !slurm) throw UsageError(std::string("--") + option + " needs --slurm");
    // Refused before anything is stored: a used folder, an executable path commands.txt cannot
    // carry, an array Slurm would not take.
    if (args.has("emit")) cl::checkCommandExecutable(args.has("cli") ? args.get("cli") : thisExecutable());
    {
        std::error_code ec;
        const std::string dir = args.get("emit");
        if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec))
            throw std::runtime_error(dir + ": exists and is not empty; emit into a new folder");
    }
    if (slurm && args.has("specs-per-task") && args.getInt("specs-per-task") > 0 &&
        cl::arrayTasks(static_cast<int>(scenarios), static_cast<int>(args.getInt("specs-per-task"))) >
            cl::kMaxArrayTasks)
        throw std::runtime_error(
            std::to_string(scenarios) + " specs at " + args.get("specs-per-task") +
            " per task make more array tasks than Slurm's default MaxArraySize allows (" +
            std::to_string(cl::kMaxArrayTasks) + "); give a larger --specs-per-task or leave it out");
}

cl::EmittedFolder emitRuns(const Args& args, cl::ScenarioStore& store,
                           const std::vector<cl::ScenarioInfo>& infos) {
    const bool slurm = args.has("slurm");
    const bool force = args.declares("force") && args.has("force");
    const std::vector<cl::ScenarioInfo> pending = cl::pendingRuns(store, infos, force);
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
            const cl::SlowestPolicy slowest = cl::timeSlowestPolicy(store, pending);
            s.task_minutes = cl::taskTimeLimitMinutes(slowest.seconds, s.specs_per_task);
            std::cout << "the slowest of " << slowest.policies << " policies' first simulation ("
                      << slowest.scenario << ") took " << slowest.seconds
                      << " s here: array tasks get --time=" << s.task_minutes << " (3x per spec + 5 min)\n";
        }
        s.merge_minutes = cl::mergeTimeLimitMinutes(specs_count, cl::largestTraceJobs(store, pending));
        cl::writeSlurmArrayScripts(folder.dir, specs_count, options.cli, cl::emittedWorkspace(folder.dir), s);
        std::cout << "Slurm: " << cl::arrayTasks(specs_count, s.specs_per_task) << " array tasks of "
                  << s.specs_per_task << " specs; submit with " << folder.dir
                  << "/submit.sh (then resubmit-failed.sh for failed tasks)\n";
    } else if (!folder.names.empty()) {
        std::cout << "run them: cd " << cl::shellWord(folder.dir)
                  << " && xargs -P 4 -I{} sh -c {} < commands.txt\nthen: " << cl::shellWord(options.cli)
                  << " workspace merge --emitted " << cl::shellWord(folder.dir) << "\n";
    }
    return folder;
}

}  // namespace cli
