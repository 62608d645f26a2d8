// clusterloom-cli replay-check: replays a recorded trace (a Slurm import) on its cluster and
// compares every job's simulated start with the recorded one (docs/architecture.md 7.10): the
// check to make before planning, since every what-if is a difference against this replay.
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/replay_options.h"
#include "cli/trace_loading.h"
#include "core/io/builtin_data.h"

namespace cli {

namespace {

Args replayCheckArgs() {
    std::vector<OptionSpec> specs = {
        {"trace", "FILE",
         "the recorded trace (required): jobs with recorded starts, e.g. from `import slurm`"},
        {"format", "F", "trace format (auto, json, csv, ...)", false, "auto"},
        {"cluster", "C", "the cluster it ran on: a preset name or layout file (required)"},
        {"policy", "P", "the policy to replay with", false, "slurm"},
        {"profiles", "NAME", "built-in profile set or profile file (for jobs matched to a model)", false,
         "muri"},
        {"conventions", "NAME", "clean, muri-artifact or synergy-artifact", false, "clean"},
        {"json", "FILE", "write the figures, the verdict and the worst jobs as JSON here"},
        {"worst", "N", "how many of the jobs with the largest differences to list", false, "10"},
        {"quiet", "", "no notes on stderr"}};
    for (OptionSpec& o : replayOptions()) specs.push_back(std::move(o));
    return Args("replay-check",
                "Replay a recorded trace on its cluster and compare each job's simulated start with the "
                "recorded one: median, p90 and max |difference|, waits, start-order agreement (Kendall tau), "
                "per partition, and a verdict.",
                std::move(specs));
}

}  // namespace

int replayCheckCommand(const std::vector<std::string>& argv) {
    Args args = replayCheckArgs();
    if (!args.parse(argv)) return 0;
    const bool quiet = args.has("quiet");
    const cl::ProfileSet profiles = resolveProfiles(args.get("profiles"), false);
    const cl::Cluster cluster = cl::resolveCluster(args.require("cluster"));
    keepUnavailableServers(cluster, args, quiet);  // the note; replayAndCheck reads the option
    const cl::Trace trace = loadTrace(args.require("trace"), args.get("format"), profiles, 1, quiet);
    replayAndCheck(args, trace, cluster, profiles, args.get("policy"), static_cast<int>(args.getInt("worst")),
                   args.get("json"));
    return 0;
}

}  // namespace cli
