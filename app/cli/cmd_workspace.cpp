// clusterloom-cli workspace merge: shard workspaces (run-spec's, or any) folded into a workspace,
// one transaction per shard (docs/architecture.md section 9.7).
#include <iostream>

#include "cli/commands.h"
#include "cli/workspace.h"
#include "core/scaleout/emitted_folder.h"
#include "core/store/workspace_merge.h"

namespace cli {

namespace {

const char* kWorkspaceHelp =
    "Work on whole workspace files.\n"
    "  merge SHARD... --into WS      fold shard workspaces into WS (created when missing)\n"
    "  merge --emitted DIR [--into WS]\n"
    "                                every DIR/shards/*.sqlite of a sweep --emit folder; specs\n"
    "                                without a shard are listed in DIR/failed-tasks.txt\n"
    "A run already in WS (same scenario content hash and engine version) is skipped, so merging\n"
    "again changes nothing. A damaged, half-written, foreign or newer-schema shard, or one whose\n"
    "scenario name WS has with other settings, is refused by name and nothing of it lands; the\n"
    "others still merge (exit code 1).";

void printMerge(const cl::ShardMerge& m) {
    if (m.merged)
        std::cout << "merged " << m.shard << ": " << m.runs_added << " runs added, " << m.runs_skipped
                  << " already stored"
                  << (m.runs_unfinished ? ", " + std::to_string(m.runs_unfinished) + " unfinished left out"
                                        : "")
                  << "\n";
    else
        std::cout << "refused " << m.shard << ": " << m.error << "\n";
}

int merge(const std::vector<std::string>& argv) {
    Args args(
        "workspace merge", kWorkspaceHelp,
        {{"into", "WS", "the workspace the shards are merged into (with --emitted: default DIR/workspace)"},
         {"emitted", "DIR", "merge the shards of a sweep --emit folder and list what is missing"},
         {"quiet", "", "only the totals and refusals"}});
    args.positionals("SHARD...", 0, 1000000);
    if (!args.parse(argv)) return 0;
    const bool quiet = args.has("quiet");
    if (!args.has("emitted") && args.positional().empty())
        throw UsageError("workspace merge needs SHARD files or --emitted DIR");
    if (!args.has("emitted") && !args.has("into")) throw UsageError("workspace merge needs --into WS");
    const std::string into = args.has("into") ? args.get("into") : cl::emittedWorkspace(args.get("emitted"));
    cl::ScenarioStore store(into);

    int added = 0, skipped = 0, refused = 0, merged = 0;
    auto count = [&](const cl::ShardMerge& m) {
        if (!quiet || !m.merged) printMerge(m);
        (m.merged ? merged : refused) += 1;
        added += m.runs_added;
        skipped += m.runs_skipped;
    };
    for (const auto& shard : args.positional()) count(cl::mergeShard(store, shard));
    bool missing = false;
    if (args.has("emitted")) {
        const cl::EmittedMerge e = cl::mergeEmittedFolder(store, args.get("emitted"));
        for (const auto& m : e.shards) count(m);
        std::string tasks;
        for (std::size_t t : e.failed_tasks) tasks += (tasks.empty() ? "" : ",") + std::to_string(t);
        std::cout << "missing: " << e.missing.size() << " specs";
        if (!e.missing.empty()) std::cout << " (tasks " << tasks << ")";
        std::cout << "\n";
        missing = !e.missing.empty();
    }
    std::cout << merged << " shards merged into " << store.path() << ": " << added << " runs added, "
              << skipped << " already stored; " << refused << " refused\n";
    return refused > 0 || missing ? 1 : 0;
}

}  // namespace

int workspaceCommand(const std::vector<std::string>& argv) {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
        std::cout << "usage: clusterloom-cli workspace merge ...\n\n" << kWorkspaceHelp << "\n";
        return argv.empty() ? 2 : 0;
    }
    if (argv[0] == "merge") return merge(std::vector<std::string>(argv.begin() + 1, argv.end()));
    throw UsageError("workspace: unknown subcommand '" + argv[0] + "' (merge)");
}

}  // namespace cli
