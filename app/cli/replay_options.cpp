#include "cli/replay_options.h"

#include <iostream>

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

cl::Cluster replayCluster(const cl::Cluster& cluster, const Args& args, bool quiet) {
    if (args.has("keep-unavailable")) return cluster;
    cl::Cluster available = cluster;
    std::erase_if(available.servers, [](const cl::Server& s) { return s.unavailable; });
    const std::size_t removed = cluster.servers.size() - available.servers.size();
    if (removed == 0) return cluster;
    if (available.servers.empty())
        throw UsageError("every server of cluster '" + cluster.name +
                         "' is marked down, drained or failing (--keep-unavailable keeps them)");
    // A described network numbers the servers: without some of them it no longer applies.
    if (available.topology.kind != cl::TopologyKind::Flat) available.topology = {};
    if (!quiet) {
        std::cerr << "note: left out " << removed << " of " << cluster.servers.size()
                  << " servers marked down, drained or failing:";
        for (const cl::Server& s : cluster.servers)
            if (s.unavailable) std::cerr << " " << s.name << (s.state.empty() ? "" : " (" + s.state + ")");
        std::cerr << " (--keep-unavailable keeps them)\n";
    }
    return available;
}

}  // namespace cli
