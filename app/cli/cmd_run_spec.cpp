// clusterloom-cli run-spec: one emitted run spec simulated into a shard workspace (docs/architecture.md
// section 9.7); what each line of an emitted commands.txt calls.
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/scaleout/run_spec.h"

namespace cli {

int runSpecCommand(const std::vector<std::string>& argv) {
    Args args("run-spec",
              "Run one run spec (written by sweep --emit) into a shard workspace: an ordinary workspace file "
              "holding its inputs, its scenario and its run, written as FILE.part and renamed when complete. "
              "Merge shards with 'clusterloom-cli workspace merge'.",
              {{"shard", "FILE", "the shard workspace to write (required)"}});
    args.positionals("SPEC", 1, 1);
    if (!args.parse(argv)) return 0;
    const cl::RunInfo run = cl::runSpecIntoShard(args.positional().front(), args.require("shard"));
    std::cout << run.scenario_name << ": avg JCT " << run.summary.avg_jct << " s, makespan "
              << run.summary.makespan << " s, "
              << "simulated in " << run.wall_seconds << " s, into " << args.get("shard") << "\n";
    return 0;
}

}  // namespace cli
