#pragma once
// The options every command that replays a recorded cluster takes (docs/architecture.md 2.10,
// 4.8): the Slurm scheduler's settings, whether a job that can never fit refuses the run, and
// whether down, drained and failing servers count.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cli/args.h"
#include "core/metrics/replay_check.h"
#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/sim_result.h"
#include "core/model/trace.h"
#include "core/policies/slurm_config.h"

namespace cli {

std::vector<OptionSpec> replayOptions();
// --slurm-config FILE (a saved `scontrol show config`), then every --slurm-param KEY=VALUE.
cl::SlurmConfig slurmConfigFrom(const Args& args);
// Whether the run keeps servers marked unavailable (--keep-unavailable). Unless it does, says on
// stderr which servers no job will use (unless quiet); refuses a cluster that has no other.
bool keepUnavailableServers(const cl::Cluster& cluster, const Args& args, bool quiet);

// The replay of a recorded trace under `policy` with the Slurm settings of `args`, compared with
// the record: printed (the left-out jobs, notes, timeouts and the check's figures) and, when
// json_path is not empty, written there.
struct ReplayOutcome {
    cl::SimResult result;
    cl::ReplayCheck check;
};
ReplayOutcome replayAndCheck(const Args& args, const cl::Trace& trace, const cl::Cluster& cluster,
                             const cl::ProfileSet& profiles, const std::string& policy, int worst_jobs,
                             const std::string& json_path);

}  // namespace cli
