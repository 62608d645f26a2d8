// clusterloom-cli plan: the cheapest cluster and policy that meet the planner's targets, with
// the cost-vs-metric frontier, the cliff around each answer and the chosen plan's headroom
// (docs/architecture.md 7.9). Every simulated point is a stored scenario PREFIX/...; a rerun
// reuses them, and Ctrl-C keeps what finished.
#include <iostream>

#include "cli/commands.h"
#include "cli/experiments/experiment_common.h"
#include "cli/run_emission.h"
#include "cli/workspace.h"
#include "core/io/builtin_data.h"
#include "core/io/json_doc.h"
#include "core/planning/plan_report_format.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/plan_runner.h"

namespace cli {

namespace {

// The plan's settings from the command line (the base cluster and server types come from the
// workspace afterwards).
cl::PlanRequest planSettings(const Args& args) {
    cl::PlanRequest request;
    for (const std::string& t : args.getAll("target")) {
        try {
            request.targets.push_back(cl::parsePlanTarget(t));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--target ") + e.what());
        }
    }
    if (request.targets.empty())
        throw UsageError("plan needs at least one --target, e.g. --target p95_jct<=8h");
    request.policies = listItems(args, "policies");
    if (request.policies.empty()) request.policies = {"srtf"};
    for (const auto& p : request.policies)
        cl::checkPolicy(p, cl::Conventions::byName(args.get("conventions")));
    request.seeds.clear();
    request.seeds = seedList(args, "seeds");
    if (request.seeds.empty()) throw UsageError("--seeds needs at least one seed");
    request.load_factor = args.getDouble("load");
    if (!(request.load_factor > 0)) throw UsageError("--load must be a positive load factor");
    if (args.has("budget")) {
        request.budget_per_month = args.getDouble("budget");
        if (!(*request.budget_per_month >= 0)) throw UsageError("--budget must be 0 or more (USD per month)");
    }
    const long long max_servers = args.getInt("max-servers");
    if (max_servers < 1 || max_servers > 100000) throw UsageError("--max-servers must be 1..100000");
    request.max_servers = static_cast<int>(max_servers);
    request.headroom_resolution = args.getDouble("headroom-resolution");
    if (!(request.headroom_resolution > 0 && request.headroom_resolution <= 1))
        throw UsageError("--headroom-resolution must be in (0, 1]");
    if (args.get("verify-below") == "all") {
        request.verify_below = cl::kVerifyEveryCount;
    } else {
        const long long below = args.getInt("verify-below");
        if (below < 0 || below > 100000)
            throw UsageError("--verify-below must be a count 0..100000 or 'all'");
        request.verify_below = static_cast<int>(below);
    }
    request.mix_price_bases = args.has("mix-price-bases");
    request.overload_drain_share = args.getDouble("overload-drain");
    if (!(request.overload_drain_share > 0))
        throw UsageError("--overload-drain must be a positive share of the arrival window, e.g. 0.1");
    return request;
}

}  // namespace

int planCommand(const std::vector<std::string>& argv) {
    std::vector<OptionSpec> options = {
        dbOption(),
        {"trace", "FILE", "the trace to plan for (required)"},
        {"format", "F", "trace format", false, "auto"},
        {"model-seed", "N", "seed assigning models to imported jobs without one", false, "1"},
        {"cluster", "C", "the base cluster: preset or layout file", false, "muri-testbed-64"},
        {"cluster-name", "NAME", "store the --cluster layout under NAME (its own name is taken)"},
        {"server-types", "LIST",
         "server types (data/server_types.json ids) or layout files of one kind of server; default: the "
         "base cluster's own servers",
         true},
        {"keep-base", "",
         "add servers of each type to the base cluster instead of retyping it (always so for a base with "
         "several kinds of server or with partitions)"},
        {"grow", "PARTITION", "added servers join this partition of the base only (implies --keep-base)"},
        {"policies", "LIST", "policies to consider, e.g. srtf,muri-s", true},
        {"target", "EXPR", "a target every plan must meet, e.g. p95_jct<=8h, large:p99_jct<=2d", true},
        {"load", "F", "planned load factor of the trace (1.25 = 25% more jobs), as a scenario's --load",
         false, "1"},
        {"seeds", "LIST", "seeds each point runs with; targets hold for the mean", false, "1"},
        {"resample", "MODE",
         "what each seed varies: day or week resamples the arrivals by blocks (block bootstrap), none keeps "
         "the "
         "trace; auto: day when there are several seeds and every job has its model",
         false, "auto"},
        {"budget", "USD", "largest cost per month a plan may have"},
        {"mix-price-bases", "",
         "rank server types priced on different bases (cloud rental and amortized purchase) together"},
        {"max-servers", "N", "largest server count of one type to try", false, "4096"},
        {"verify-below", "N|all",
         "server counts below each answer that are simulated to confirm it; all: every count, as an "
         "exhaustive "
         "sweep",
         false, "2"},
        {"overload-drain", "F",
         "a candidate whose backlog at the last arrival takes more than this share of the arrival window to "
         "drain is overloaded, and no plan",
         false, "0.1"},
        {"headroom-resolution", "F", "step of the headroom search, as a fraction of the planned load", false,
         "0.05"},
        {"conventions", "NAME", "clean, muri-artifact or synergy-artifact", false, "clean"},
        {"profiles", "NAME", "built-in profile set (muri, synergy, sjf-bsbf) or a profile JSON file", false,
         "muri"},
        {"measure", "FIRST-LAST", "summarize only these jobs (positions), e.g. 4000-4999"},
        {"transform", "SPEC", "trace transform applied first", true},
        {"prefix", "NAME", "scenario names start with this", false, "plan"},
        {"prune", "",
         "remove the plan --prefix NAME: its scenarios with their runs and the candidate clusters it stored "
         "that no other scenario uses"},
        {"json", "FILE", "write the plan as JSON"},
        {"csv", "FILE", "write every evaluated point as CSV"},
        {"threads", "N", "parallel simulations (0 = all cores)", false, "0"},
        {"quiet", "", "no progress on stderr"}};
    for (const auto& o : emitOptions()) options.push_back(o);
    Args args("plan",
              "Find, for each server type and policy, the smallest cluster that meets every --target at the "
              "--load factor, rank them by cost, and report the frontier, the cliff and the headroom. Every "
              "point is stored as a scenario PREFIX/TYPE/POLICY/nN/xLOAD/sSEED (sSEED-day when resampled); a "
              "rerun reuses them. With "
              "--emit DIR "
              "nothing is simulated: the points the search needs next that are not stored are written as run "
              "specs; run and merge them (workspace merge --emitted DIR), then plan --emit again into a new "
              "folder, until it prints the plan.",
              options);
    if (!args.parse(argv)) return 0;
    if (args.has("prune")) {
        cl::ScenarioStore store = openWorkspace(args);
        const cl::PlanPruneResult pruned = cl::prunePlan(store, args.get("prefix"));
        std::cout << "Removed plan " << args.get("prefix") << ": " << pruned.scenarios
                  << " scenarios with their runs and " << pruned.clusters << " candidate clusters\n";
        return 0;
    }
    if (!args.has("trace")) throw UsageError("plan needs --trace FILE");
    const bool quiet = args.has("quiet");

    cl::PlanRequest request = planSettings(args);
    request.keep_base = args.has("keep-base");
    if (args.has("grow")) request.grow_partition = args.get("grow");
    const long long threads = args.getInt("threads");
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be 0 (all cores) .. 1024");

    checkEmitOptions(args, 0);
    cl::ScenarioStore store = openWorkspace(args);
    cl::ScenarioSpec base;
    applyScenarioSettings(args, store, base, true, quiet);
    // --load is the plan's planned load: the planner puts it on every point (with the headroom
    // steps above it), so the base scenario keeps the trace's own load.
    base.parameters.load_factor = 1.0;
    request.base = store.cluster(base.cluster_id);
    std::vector<std::string> types = listItems(args, "server-types");
    if (types.empty()) {
        if (request.keep_base) throw UsageError("--keep-base needs --server-types to add");
        try {
            request.server_types.push_back(cl::baseServerType(request.base));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--cluster: ") + e.what());
        }
    }
    for (const std::string& t : types) {
        try {
            request.server_types.push_back(cl::resolveServerType(t));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--server-types: ") + e.what());
        }
    }

    InterruptFlag interrupt;
    cl::PlanRunOptions run;
    run.prefix = args.get("prefix");
    run.resample = args.get("resample");
    if (run.resample != "auto" && run.resample != "none" && run.resample != "day" && run.resample != "week")
        throw UsageError("--resample must be auto, none, day or week, not '" + run.resample + "'");
    run.threads = static_cast<int>(threads);
    run.stop = interrupt.flag();
    std::string phase;
    run.phase = [&](const cl::PlanProgress& p) {
        phase = p.phase;
        if (!quiet)
            std::cerr << "\r" << p.phase << " round " << p.round << ", " << p.simulations
                      << " simulations so far" << std::string(20, ' ') << std::flush;
    };
    run.runs = [&](const cl::SweepProgress& p) {
        if (!quiet)
            std::cerr << "\r" << phase << ": " << p.finished + p.failed << "/" << p.total << " runs ("
                      << p.running << " running)" << std::string(20, ' ') << std::flush;
    };
    std::vector<cl::ScenarioInfo> missing;
    if (args.has("emit")) run.missing = &missing;
    const cl::PlanReport report = cl::runPlan(store, request, base, run);
    if (!quiet) std::cerr << "\n";
    if (!missing.empty()) {
        checkEmitOptions(args, missing.size());
        const cl::EmittedFolder folder = emitRuns(args, store, missing);
        std::cout << "plan: the search needs " << missing.size()
                  << " more simulations, not stored yet; run them, "
                  << "merge them (workspace merge --emitted " << folder.dir
                  << "), then run this plan with --emit again into a new folder\n";
        return 0;
    }

    std::cout << cl::planText(request, report);
    std::cout << "Scenarios: " << run.prefix << "/... in " << store.path() << "\n";
    if (args.has("json"))
        cl::io::writeTextFile(args.get("json"), cl::planJson(request, report).dump(2) + "\n");
    if (args.has("csv")) cl::io::writeTextFile(args.get("csv"), cl::planCsv(request, report));
    if (report.interrupted) return 130;
    return report.error.empty() ? 0 : 1;
}

}  // namespace cli
