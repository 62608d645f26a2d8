#include "cli/replay_options.h"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/io/builtin_data.h"
#include "core/io/result_writers.h"
#include "core/policies/scheduler_registry.h"
#include "core/sim/simulator.h"

namespace cli {

std::vector<OptionSpec> replayOptions() {
    return {
        {"slurm-config", "FILE",
         "the `slurm` policy's settings from a saved `scontrol show config` (Slurm's defaults otherwise)"},
        {"slurm-param", "KEY=VALUE",
         "one Slurm setting for the `slurm` policy, by Slurm's name (e.g. bf_interval=30, "
         "PriorityType=priority/multifactor, PriorityWeightAge=1000); after --slurm-config",
         true},
        {"strict", "",
         "refuse the whole run when a job can never fit the cluster (default: leave it out, named)"},
        {"keep-unavailable", "", "keep servers marked down, drained or failing (default: left out)"}};
}

cl::SlurmConfig slurmConfigFrom(const Args& args) {
    cl::SlurmConfig config;
    if (args.has("slurm-config")) config = cl::readSlurmConfig(args.get("slurm-config"));
    try {
        cl::applySlurmParameters(config, args.getAll("slurm-param"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--slurm-param: ") + e.what());
    }
    return config;
}

bool keepUnavailableServers(const cl::Cluster& cluster, const Args& args, bool quiet) {
    if (args.declares("keep-unavailable") && args.has("keep-unavailable")) return true;
    const auto removed = std::count_if(cluster.servers.begin(), cluster.servers.end(),
                                       [](const cl::Server& s) { return s.unavailable; });
    if (removed == 0) return false;
    if (removed == static_cast<long>(cluster.servers.size()))
        throw UsageError("every server of cluster '" + cluster.name +
                         "' is marked down, drained or failing (--keep-unavailable keeps them)");
    if (!quiet) {
        std::cerr << "note: no job uses the " << removed << " of " << cluster.servers.size()
                  << " servers marked down, drained or failing:";
        for (const cl::Server& s : cluster.servers)
            if (s.unavailable) std::cerr << " " << s.name << (s.state.empty() ? "" : " (" + s.state + ")");
        std::cerr << " (--keep-unavailable keeps them)\n";
    }
    return false;
}

ReplayOutcome replayAndCheck(const Args& args, const cl::Trace& trace, const cl::Cluster& cluster,
                             const cl::ProfileSet& profiles, const std::string& policy, int worst_jobs,
                             const std::string& json_path) {
    cl::SimOptions options;
    if (args.declares("conventions")) options.conventions = cl::Conventions::byName(args.get("conventions"));
    options.record_segments = false;
    options.record_series = false;
    options.strict = args.declares("strict") && args.has("strict");
    options.keep_unavailable = keepUnavailableServers(cluster, args, true);
    cl::SchedulerTuning tuning;
    tuning.slurm = slurmConfigFrom(args);
    std::unique_ptr<cl::Scheduler> scheduler = cl::checkPolicy(policy, options.conventions, tuning);
    ReplayOutcome out;
    out.result = cl::simulate(cluster, trace, profiles, *scheduler, options);
    out.check = cl::checkReplay(trace, out.result);
    std::cout << "replay of " << trace.name << " (" << trace.jobs.size() << " jobs) on " << cluster.name
              << " (" << cluster.totalGpus() << " GPUs) under " << policy << "\n";
    for (const cl::LeftOutJob& left : out.result.left_out) std::cout << "left out: " << left.reason << "\n";
    for (const std::string& note : out.result.notes) std::cout << "note: " << note << "\n";
    if (out.result.summary.timed_out > 0)
        std::cout << out.result.summary.timed_out << " job(s) ended at their time limit\n";
    std::cout << cl::formatReplayCheck(out.check, worst_jobs);
    if (!json_path.empty()) {
        nlohmann::json j = cl::replayCheckJson(out.check, worst_jobs);
        j["trace"] = trace.name;
        j["cluster"] = cluster.name;
        j["policy"] = policy;
        j["engine_version"] = cl::engineVersion();
        nlohmann::json left = nlohmann::json::array();
        for (const cl::LeftOutJob& l : out.result.left_out)
            left.push_back({{"job_index", l.index}, {"job_id", l.id}, {"reason", l.reason}});
        j["left_out"] = left;
        cl::writeJson(j, json_path);
    }
    return out;
}

}  // namespace cli
