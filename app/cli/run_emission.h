#pragma once
// --emit DIR and its Slurm options, shared by sweep and plan (docs/architecture.md section 9.7):
// instead of simulating, write run specs, their inputs, commands.txt and with --slurm the
// array and merge scripts.
#include <vector>

#include "cli/args.h"
#include "core/scaleout/emitted_folder.h"

namespace cli {

// --emit, --cli, --slurm, --specs-per-task, --array-limit, --partition, --account,
// --sbatch-option, --time-limit.
std::vector<OptionSpec> emitOptions();
// Refuses misuse before anything is stored: an option without the --emit or --slurm it needs, a
// folder already used, a --specs-per-task that gives Slurm more array tasks than it takes.
void checkEmitOptions(const Args& args, std::size_t scenarios);
// Writes --emit DIR for the scenarios (stored already; those with an identical finished run are
// left out unless --force) and with --slurm the scripts; prints what it wrote and what to run.
cl::EmittedFolder emitRuns(const Args& args, cl::ScenarioStore& store,
                           const std::vector<cl::ScenarioInfo>& infos);

}  // namespace cli
