// clusterloom-cli: the engine, headless. Wiring only; the work happens in core/.
#include <algorithm>
#include <iostream>
#include <map>
#include <stdexcept>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/io/builtin_data.h"

namespace {

const std::map<std::string, std::pair<int (*)(const std::vector<std::string>&), const char*>>& commands() {
    static const std::map<std::string, std::pair<int (*)(const std::vector<std::string>&), const char*>>
        table = {
            {"run", {cli::runCommand, "simulate a trace on a cluster under one or more policies"}},
            {"demo", {cli::demoCommand, "run the bundled demo scenario headless (table + chart)"}},
            {"generate", {cli::generateCommand, "generate a synthetic trace (seeded)"}},
            {"transform", {cli::transformCommand, "apply trace transforms (scale, window, subsample, ...)"}},
            {"policies", {cli::policiesCommand, "list the policy names"}},
            {"import",
             {cli::importCommand,
              "import a Slurm cluster: accounting history as a trace, nodes as a layout"}},
            {"scenario",
             {cli::scenarioCommand, "create, list, show, duplicate, rename or delete stored scenarios"}},
            {"compare", {cli::compareCommand, "compare stored scenarios' runs (speedups, CI over seeds)"}},
            {"sweep", {cli::sweepCommand, "run a cross product of settings in parallel into the workspace"}},
            {"replay-check",
             {cli::replayCheckCommand,
              "replay a recorded trace (a Slurm import) and compare simulated with recorded starts"}},
            {"run-spec",
             {cli::runSpecCommand, "run one emitted run spec into a shard workspace (sweep --emit)"}},
            {"workspace",
             {cli::workspaceCommand, "merge shard workspaces into a workspace (workspace merge)"}},
            {"plan",
             {cli::planCommand,
              "the cheapest cluster and policy meeting targets (p95_jct<=8h ...), frontier, cliff, "
              "headroom"}},
            {"fit-profile",
             {cli::fitProfileCommand,
              "fit SJF-BSBF's speed model to Pollux's measurements (profile set JSON)"}},
            {"placement",
             {cli::placementCommand,
              "topology-aware placement baselines with interference (fat-tree, VL2, BCube)"}},
            {"profile",
             {cli::profileCommand,
              "import a model profile from PyTorch profiler traces (profile import --kineto)"}},
            {"fit-interference",
             {cli::fitInterferenceCommand,
              "fit the co-location interference model to measured samples (with ablations)"}},
            {"experiment",
             {cli::experimentCommand,
              "reproduce a paper experiment (synergy: load sweep; sjf-bsbf: Tables III-IV, Fig. 6)"}},
        };
    return table;
}

void printHelp() {
    std::cout << "usage: clusterloom-cli <command> [options]\n\ncommands:\n";
    // The column fits the longest name (a fixed width underflowed once a name outgrew it).
    std::size_t width = 0;
    for (const auto& [name, entry] : commands()) width = std::max(width, name.size());
    for (const auto& [name, entry] : commands())
        std::cout << "  " << name << std::string(width + 2 - name.size(), ' ') << entry.second << "\n";
    std::cout << "\n'clusterloom-cli <command> --help' shows the options of a command.\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printHelp();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "clusterloom-cli " << cl::engineVersion() << "\nbuilt-in data: " << cl::dataDir()
                  << "\n";
        return 0;
    }
    auto it = commands().find(args[0]);
    if (it == commands().end()) {
        std::cerr << "clusterloom-cli: unknown command '" << args[0] << "' (run 'clusterloom-cli --help')\n";
        return 2;
    }
    try {
        return it->second.first(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const cli::UsageError& e) {
        std::cerr << "clusterloom-cli: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "clusterloom-cli " << args[0] << ": error: " << e.what() << "\n";
        return 1;
    }
}
