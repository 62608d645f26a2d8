// clusterloom-cli scenario create|list|show|delete|rename|duplicate: the workspace's scenarios.
#include <iostream>

#include "cli/commands.h"
#include "cli/replay_options.h"
#include "cli/workspace.h"
#include "core/metrics/summary_table.h"

namespace cli {

namespace {

const char* kScenarioHelp =
    "Manage the scenarios of a workspace (one SQLite file).\n"
    "  create NAME      --trace FILE [settings]   a new scenario\n"
    "  duplicate NAME NEW [settings]              a copy with the settings given changed (\"what if\")\n"
    "  rename NAME NEW\n"
    "  delete NAME [--force]                      the scenario (and, with --force, its runs)\n"
    "  list\n"
    "  show NAME";

int listScenarios(cl::ScenarioStore& store) {
    auto all = store.scenarios();
    if (all.empty()) {
        std::cout << "no scenarios in " << store.path() << "\n";
        return 0;
    }
    std::size_t width = 8;
    for (const auto& s : all) width = std::max(width, s.spec.name.size());
    std::cout << std::string("scenario").append(width - 8 + 2, ' ')
              << "policy               conventions    runs  "
              << "last avg JCT\n";
    for (const auto& s : all) {
        std::string last = "-";
        auto runs = store.runs(s.id);
        for (auto it = runs.rbegin(); it != runs.rend(); ++it)
            if (it->status == cl::RunStatus::Finished) {
                last = cl::humanDuration(it->summary.avg_jct);
                // A plan point's run may stop once its outcome is known (docs/architecture.md
                // 7.9): its average covers only the jobs finished by then.
                if (s.spec.parameters.stop_when_overloaded > 0 || !s.spec.parameters.stop_when_missed.empty())
                    if (cl::stoppedEarlyNote(store.runNotes(it->id))) last += " (stopped early)";
                break;
            }
        std::string policy = s.spec.policy;
        policy.resize(std::max<std::size_t>(policy.size(), 20), ' ');
        std::string conventions = s.spec.conventions;
        conventions.resize(std::max<std::size_t>(conventions.size(), 14), ' ');
        std::cout << s.spec.name << std::string(width - s.spec.name.size() + 2, ' ') << policy << " "
                  << conventions << " " << s.runs << "     " << last << "\n";
    }
    return 0;
}

// --slurm-config FILE and --slurm-param KEY=VALUE: the `slurm` policy's settings the scenario
// keeps (those that differ from Slurm's defaults); a duplicate starts from the original's.
void applySlurmSettings(const Args& args, cl::ScenarioSpec& spec) {
    if (!args.has("slurm-config") && !args.has("slurm-param")) return;
    cl::SlurmConfig config;
    if (args.has("slurm-config")) {
        config = cl::readSlurmConfig(args.get("slurm-config"));
    } else {
        cl::applySlurmParameters(config, spec.parameters.slurm_parameters);
    }
    try {
        cl::applySlurmParameters(config, args.getAll("slurm-param"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--slurm-param: ") + e.what());
    }
    spec.parameters.slurm_parameters = cl::slurmParameters(config);
}

}  // namespace

int scenarioCommand(const std::vector<std::string>& argv) {
    std::vector<OptionSpec> options = scenarioSettingOptions();
    for (const OptionSpec& o : replayOptions())
        if (o.name == "slurm-config" || o.name == "slurm-param") options.push_back(o);
    options.push_back(dbOption());
    options.push_back({"quiet", "", "no notes on stderr"});
    options.push_back({"force", "", "delete: also when the scenario has runs"});
    Args args("scenario", kScenarioHelp, options);
    args.positionals("ACTION [NAME [NEW]]", 1, 3);
    if (!args.parse(argv)) return 0;
    const auto& pos = args.positional();
    const std::string action = pos[0];
    auto need = [&](std::size_t n, const char* what) {
        if (pos.size() != n) throw UsageError("scenario " + action + ": expected " + what);
    };
    const bool quiet = args.has("quiet");
    if (action == "list") {
        need(1, "no further arguments");
        cl::ScenarioStore store = openWorkspace(args, true);
        return listScenarios(store);
    }
    if (action == "show") {
        need(2, "NAME");
        cl::ScenarioStore store = openWorkspace(args, true);
        std::cout << describeScenario(store, store.scenario(pos[1]));
        return 0;
    }
    if (action == "create") {
        need(2, "NAME");
        cl::ScenarioStore store = openWorkspace(args);
        cl::ScenarioSpec spec;
        spec.name = pos[1];
        // Before importing anything, so that a taken name leaves the workspace as it was.
        if (store.findScenario(spec.name))
            throw std::runtime_error("a scenario named '" + spec.name + "' already exists");
        applySlurmSettings(args, spec);  // before anything is imported: a bad file changes nothing
        applyScenarioSettings(args, store, spec, true, quiet);
        store.createScenario(spec);
        std::cout << describeScenario(store, store.scenario(spec.name));
        return 0;
    }
    if (action == "duplicate") {
        need(3, "NAME NEW");
        cl::ScenarioStore store = openWorkspace(args);
        cl::ScenarioSpec spec = store.scenario(pos[1]).spec;
        spec.name = pos[2];
        if (store.findScenario(spec.name))
            throw std::runtime_error("a scenario named '" + spec.name + "' already exists");
        applySlurmSettings(args, spec);  // before anything is imported: a bad file changes nothing
        applyScenarioSettings(args, store, spec, false, quiet);
        store.createScenario(spec);
        std::cout << describeScenario(store, store.scenario(spec.name));
        return 0;
    }
    if (action == "rename") {
        need(3, "NAME NEW");
        cl::ScenarioStore store = openWorkspace(args);
        store.renameScenario(pos[1], pos[2]);
        if (!quiet) std::cerr << "renamed '" << pos[1] << "' to '" << pos[2] << "'\n";
        return 0;
    }
    if (action == "delete") {
        need(2, "NAME");
        cl::ScenarioStore store = openWorkspace(args, true);
        const auto runs = store.scenario(pos[1]).runs;
        if (runs > 0 && !args.has("force"))
            throw UsageError("scenario '" + pos[1] + "' has " + std::to_string(runs) +
                             " run(s); add --force to delete it with its runs");
        store.deleteScenario(pos[1]);
        if (!quiet) std::cerr << "deleted '" << pos[1] << "' and its " << runs << " run(s)\n";
        return 0;
    }
    throw UsageError("scenario: unknown action '" + action +
                     "' (create, duplicate, rename, delete, list, show; see --help)");
}

}  // namespace cli
