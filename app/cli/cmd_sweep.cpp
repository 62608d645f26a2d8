// clusterloom-cli sweep: the cross product of chosen settings, run in parallel, every result
// stored as a run. Ctrl-C cancels the running simulations and starts no more; every finished
// run stays stored, and running the sweep again completes the rest.
#include <atomic>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/experiments/experiment_common.h"
#include "cli/run_emission.h"
#include "cli/workspace.h"
#include "core/runs/scenario_runner.h"

namespace cli {

namespace {

template <class T, class Parse>
std::vector<T> listOption(const Args& args, const char* name, Parse parse) {
    std::vector<T> out;
    for (const auto& item : listItems(args, name)) {
        try {
            std::size_t used = 0;
            T value = parse(item, &used);
            if (used != item.size()) throw std::invalid_argument("trailing characters");
            out.push_back(value);
        } catch (const std::exception&) {
            throw UsageError(std::string("--") + name + ": '" + item + "' is not a valid value");
        }
    }
    return out;
}

}  // namespace

int sweepCommand(const std::vector<std::string>& argv) {
    std::vector<OptionSpec> options = {
        dbOption(),
        {"prefix", "NAME", "scenario names start with this (required)"},
        {"from", "SCENARIO", "base scenario whose settings the sweep varies"},
        {"trace", "FILE", "trace to import as the base (instead of --from)"},
        {"format", "F", "trace format", false, "auto"},
        {"model-seed", "N", "seed assigning models to imported jobs without one", false, "1"},
        {"cluster", "C", "base cluster preset or layout file", false, "muri-testbed-64"},
        {"cluster-name", "NAME", "store the --cluster layout under NAME (its own name is taken)"},
        {"policy", "P", "base policy", false, "srtf"},
        {"conventions", "NAME", "clean, muri-artifact or synergy-artifact", false, "clean"},
        {"profiles", "NAME", "built-in profile set (muri, synergy, sjf-bsbf) or a profile JSON file", false,
         "muri"},
        {"measure", "FIRST-LAST", "summarize only these jobs (positions), e.g. 4000-4999"},
        {"reassign-models", "", "every job draws its model again with the scenario's seed"},
        {"transform", "SPEC", "trace transform applied first", true},
        {"clusters", "LIST", "cluster presets or layout files to cross (comma separated)", true},
        {"server-counts", "LIST", "server counts to cross, e.g. 8,16,24", true},
        {"loads", "LIST", "load factors to cross, e.g. 1,2,4", true},
        {"policies", "LIST", "policies to cross, e.g. srtf,muri-s", true},
        {"group-sizes", "LIST", "Muri group-size caps to cross, e.g. 2,3,4", true},
        {"seeds", "LIST", "seeds to cross (model reassignment and noise), e.g. 1,2,3", true},
        {"threads", "N", "parallel simulations (0 = all cores)", false, "0"},
        {"force", "", "run again scenarios that already have an identical finished run"},
        {"quiet", "", "no progress line"}};
    for (const auto& o : emitOptions()) options.push_back(o);
    Args args(
        "sweep",
        "Run the cross product of chosen settings in parallel and store every result as a run of its own "
        "scenario (named PREFIX/...). Interrupting (Ctrl-C) keeps every finished run.",
        options);
    if (!args.parse(argv)) return 0;
    const std::string prefix = args.require("prefix");
    const bool quiet = args.has("quiet");
    cl::ScenarioStore store = openWorkspace(args);

    cl::ScenarioSpec base;
    if (args.has("from")) {
        for (const char* own : {"trace", "format", "model-seed", "cluster", "cluster-name", "policy",
                                "conventions", "transform", "profiles", "measure"})
            if (args.has(own))
                throw UsageError(std::string("--") + own +
                                 " does not apply with --from (the scenario has its own; "
                                 "vary it with the list options)");
        base = store.scenario(args.get("from")).spec;
    } else {
        if (!args.has("trace")) throw UsageError("sweep needs --from SCENARIO or --trace FILE");
        applyScenarioSettings(args, store, base, true, quiet);
    }
    if (args.has("reassign-models")) base.parameters.reassign_models = true;

    cl::SweepAxes axes;
    axes.clusters = listOption<std::string>(args, "clusters", [](const std::string& s, std::size_t* used) {
        *used = s.size();
        return s;
    });
    axes.server_counts = listOption<int>(
        args, "server-counts", [](const std::string& s, std::size_t* used) { return std::stoi(s, used); });
    axes.load_factors = listOption<double>(
        args, "loads", [](const std::string& s, std::size_t* used) { return std::stod(s, used); });
    axes.policies = listOption<std::string>(args, "policies", [](const std::string& s, std::size_t* used) {
        *used = s.size();
        return s;
    });
    axes.group_sizes = listOption<int>(
        args, "group-sizes", [](const std::string& s, std::size_t* used) { return std::stoi(s, used); });
    axes.seeds = seedList(args, "seeds");
    // Fail fast, with the list, under the conventions the sweep's scenarios run with.
    for (const auto& p : axes.policies) cl::checkPolicy(p, cl::Conventions::byName(base.conventions));

    std::vector<cl::ScenarioSpec> specs = cl::expandSweep(store, prefix, base, axes);
    checkEmitOptions(args, specs.size());
    if (args.has("emit")) {
        emitRuns(args, store, cl::createSweepScenarios(store, specs));
        return 0;
    }
    cl::SweepOptions opts;
    const long long threads = args.getInt("threads");
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be 0 (all cores) .. 1024");
    opts.threads = static_cast<int>(threads);
    opts.force = args.has("force");
    InterruptFlag interrupt;
    opts.stop = interrupt.flag();
    opts.progress = [&](const cl::SweepProgress& p) {
        if (quiet) return;
        std::cerr << "\r[" << p.finished + p.failed << "/" << p.total << "] running " << p.running
                  << ", failed " << p.failed << "   " << std::flush;
    };
    cl::SweepReport report = cl::runSweep(store, specs, opts);
    if (!quiet) std::cerr << "\n";
    for (const auto& e : report.errors) std::cerr << "error: " << e << "\n";

    int stored = 0;
    for (auto id : report.run_ids) stored += id != 0;
    std::cout << specs.size() << " scenarios (" << prefix << "/...): " << stored << " with a finished run ("
              << report.reused << " reused), " << report.failed << " failed, " << report.cancelled
              << " cancelled, in " << store.path() << "\n";
    if (interrupt.raised() && static_cast<std::size_t>(stored) < specs.size()) {
        std::cout << "interrupted: " << (specs.size() - static_cast<std::size_t>(stored))
                  << " scenarios have no finished run; run the sweep again to complete them\n";
        return 130;
    }
    return report.failed > 0 ? 1 : 0;
}

}  // namespace cli
