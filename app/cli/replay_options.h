#pragma once
// The options every command that replays a recorded cluster takes (docs/architecture.md 2.10,
// 4.8): the Slurm scheduler's settings, whether a job that can never fit refuses the run, and
// whether down, drained and failing servers count.
#include <vector>

#include "cli/args.h"
#include "core/model/cluster.h"
#include "core/policies/slurm_config.h"

namespace cli {

std::vector<OptionSpec> replayOptions();
// --slurm-config FILE (a saved `scontrol show config`), then every --slurm-param KEY=VALUE.
cl::SlurmConfig slurmConfigFrom(const Args& args);
// The cluster as a replay uses it: without its unavailable servers unless --keep-unavailable,
// saying on stderr which it left out (unless quiet).
cl::Cluster replayCluster(const cl::Cluster& cluster, const Args& args, bool quiet);

}  // namespace cli
