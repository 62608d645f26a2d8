// clusterloom-cli import slurm: a planner's own cluster in — the accounting history (sacct) as a
// trace with jobs matched to profiles by rule, and the node inventory (scontrol / sinfo) as a
// cluster layout (docs/architecture.md 8.5 and 8.7). Everything is read and checked before the
// first file is written, so a failed import leaves DIR as it was.
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/replay_options.h"
#include "cli/trace_loading.h"
#include "cli/workspace.h"
#include "core/io/json_doc.h"
#include "core/io/layout_io.h"
#include "core/io/sacct_trace.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_nodes.h"
#include "core/io/slurm_partitions.h"
#include "core/io/slurm_sacct.h"
#include "core/io/trace_writers.h"
#include "core/sim/job_requests.h"
#include "core/sim/recorded_gpu_types.h"
#include "core/sim/simulator.h"
#include "core/workload/measured_iterations.h"
#include "core/workload/profile_rules.h"

namespace cli {

namespace {

constexpr std::size_t kRefusedListed = 20;  // refused rows printed; import.json keeps them all

struct HistoryImport {
    cl::Trace trace;
    nlohmann::ordered_json report;
};

HistoryImport importHistory(const Args& args) {
    const std::string path = args.get("sacct");
    cl::SacctOptions options;
    options.utc_offset_s = cl::parseUtcOffset(args.get("timezone"));
    options.keep_unstarted = args.has("keep-unstarted");
    options.keep_running = args.has("keep-running");
    const cl::SacctImport history = cl::readSacct(path, options);

    HistoryImport out;
    std::string name = args.get("name");
    if (name.empty()) name = std::filesystem::path(path).stem().string();
    std::map<std::string, int> dropped = history.dropped;
    std::map<std::string, int> left_out;
    out.trace = cl::traceFromSacct(history, name, path, &left_out);
    for (const auto& [reason, n] : left_out) dropped[reason] += n;

    auto& r = out.report;
    r["file"] = path;
    r["rows"] = history.rows;
    r["jobs"] = out.trace.jobs.size();
    r["dropped"] = nlohmann::ordered_json::object();
    for (const auto& [reason, n] : dropped) r["dropped"][reason] = n;
    r["refused"] = history.refused;

    std::cout << "history " << path << ": " << history.rows << " rows, " << out.trace.jobs.size()
              << " jobs kept\n";
    for (const auto& [reason, n] : dropped) std::cout << "  left out: " << n << " " << reason << "\n";
    for (std::size_t k = 0; k < history.refused.size() && k < kRefusedListed; ++k)
        std::cout << "  refused: " << history.refused[k] << "\n";
    if (history.refused.size() > kRefusedListed)
        std::cout << "  ... " << history.refused.size() - kRefusedListed
                  << " more refused rows in import.json\n";
    return out;
}

// With --db, --profiles may name a profile set of the workspace (one `profile import --db` made).
cl::ProfileSet resolveImportProfiles(const Args& args) {
    if (!args.has("db")) return resolveProfiles(args.get("profiles"));
    cl::ScenarioStore store = openWorkspace(args, true);
    return resolveProfilesIn(store, args.get("profiles")).first;
}

// Models by rule, then run time to iterations; the report says what each rule matched.
nlohmann::ordered_json matchProfiles(const Args& args, cl::Trace& trace) {
    nlohmann::ordered_json r;
    const cl::ProfileSet profiles = resolveImportProfiles(args);
    cl::ProfileRules rules;
    if (args.has("rules")) rules = cl::readProfileRules(args.get("rules"));
    if (args.has("default-profile")) rules.default_profile = args.get("default-profile");
    cl::checkProfileRules(rules, profiles, args.has("rules") ? args.get("rules") : "--default-profile");
    r["profile_set"] = profiles.name;
    if (rules.rules.empty() && rules.default_profile.empty()) {
        std::cout
            << "profiles: no --rules or --default-profile; jobs keep their measured run time and get no "
               "model\n";
        r["rules"] = nlohmann::ordered_json::array();
        return r;
    }
    const cl::RuleMatchCounts counts = cl::assignProfilesByRule(trace, rules);
    const cl::MeasuredIterations converted = cl::iterationsFromMeasuredTime(trace, profiles);
    std::cout << "profiles (" << profiles.name << "):\n";
    r["rules"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < rules.rules.size(); ++k) {
        const cl::ProfileRule& rule = rules.rules[k];
        std::cout << "  " << rule.field << " ~ " << rule.pattern << " -> " << rule.profile << ": "
                  << counts.per_rule[k] << " jobs\n";
        r["rules"].push_back({{"field", rule.field},
                              {"pattern", rule.pattern},
                              {"profile", rule.profile},
                              {"jobs", counts.per_rule[k]}});
    }
    if (!rules.default_profile.empty()) {
        std::cout << "  default -> " << rules.default_profile << ": " << counts.defaulted << " jobs\n";
        r["default"] = {{"profile", rules.default_profile}, {"jobs", counts.defaulted}};
    } else {
        std::cout << "  no rule matched " << counts.unmatched
                  << " jobs (no default profile: they keep no model)\n";
        r["unmatched"] = counts.unmatched;
    }
    std::cout << "  " << converted.converted << " jobs: run time turned into iterations on their GPU type\n";
    r["converted"] = converted.converted;
    r["without_profile"] = converted.without_profile;
    r["unknown_gpu_types"] = nlohmann::ordered_json::object();
    for (const auto& [type, n] : converted.unknown_types) {
        std::cout << "  warning: the profile set has no speed for GPU type '" << type << "' (" << n
                  << " jobs); taken as 1.0, the reference GPU\n";
        r["unknown_gpu_types"][type] = n;
    }
    return r;
}

struct NodesImport {
    cl::Cluster cluster;
    nlohmann::ordered_json report;
};

// The partition file (scontrol show partition --oneliner) laid over the layout the node list made:
// the file's attributes and members win (docs/architecture.md 8.7).
nlohmann::ordered_json importPartitions(const std::string& path, const cl::SlurmNodeInventory& inventory,
                                        cl::Cluster& cluster) {
    const cl::SlurmPartitionList list = cl::readSlurmPartitions(path);
    const cl::SlurmPartitionsApplied applied = cl::applySlurmPartitions(cluster, list, &inventory);
    nlohmann::ordered_json r;
    r["file"] = path;
    r["partitions"] = nlohmann::ordered_json::array();
    std::string default_name;
    for (const cl::Partition& p : cluster.partitions) {
        r["partitions"].push_back({{"name", p.name},
                                   {"priority_tier", p.priority_tier},
                                   {"max_time", cl::io::jsonNumber(p.max_time)},
                                   {"default", p.is_default}});
        if (p.is_default) default_name = p.name;
    }
    r["memberships"] = applied.memberships;
    r["left_out_nodes"] = applied.left_out_nodes;
    r["only_in_node_list"] = applied.undeclared;
    std::vector<std::string> warnings = list.warnings;
    warnings.insert(warnings.end(), applied.warnings.begin(), applied.warnings.end());
    r["warnings"] = warnings;

    std::cout << "partitions " << path << ": " << list.partitions.size() << " partitions"
              << (default_name.empty() ? std::string() : " (default " + default_name + ")") << ", "
              << applied.memberships << " server memberships\n";
    if (!applied.left_out_nodes.empty())
        std::cout << "  not in the layout: " << applied.left_out_nodes.size()
                  << " node(s) the partitions name (CPU-only or left out; listed in import.json)\n";
    for (const std::string& w : warnings) std::cout << "  warning: " << w << "\n";
    return r;
}

NodesImport importNodes(const Args& args) {
    const std::string path = args.get("nodes");
    const cl::SlurmNodeInventory inventory = cl::readSlurmNodes(path);
    cl::SlurmLayoutOptions options;
    options.name = args.get("name");
    if (options.name.empty()) options.name = std::filesystem::path(path).stem().string();
    options.exclude_unavailable = args.has("exclude-unavailable");
    cl::SlurmLayout layout = cl::clusterFromSlurmNodes(inventory, options);
    if (layout.cluster.servers.empty())
        throw std::runtime_error(
            path + ": no node with GPUs to make a cluster of (" + std::to_string(inventory.nodes.size()) +
            " nodes, " + std::to_string(layout.cpu_only_nodes) + " without GPUs" +
            (layout.excluded_unavailable
                 ? ", " + std::to_string(layout.excluded_unavailable) + " unavailable left out"
                 : std::string()) +
            ")");
    int marked = 0;
    for (const cl::Server& server : layout.cluster.servers) marked += server.unavailable ? 1 : 0;

    NodesImport out;
    auto& r = out.report;
    r["file"] = path;
    r["format"] = inventory.format;
    r["nodes"] = inventory.nodes.size();
    r["servers"] = layout.cluster.servers.size();
    r["gpus"] = layout.cluster.totalGpus();
    r["gpus_by_type"] = layout.cluster.gpusByType();
    r["groups"] = layout.cluster.racks();
    r["cpu_only_nodes"] = layout.cpu_only_nodes;
    r["unavailable_marked"] = marked;
    r["unavailable_left_out"] = layout.excluded_unavailable;
    r["unknown_gpu_types"] = layout.unknown_gpu_types;
    std::vector<std::string> warnings = inventory.warnings;
    warnings.insert(warnings.end(), layout.warnings.begin(), layout.warnings.end());
    r["warnings"] = warnings;

    std::cout << "nodes " << path << " (" << inventory.format << "): " << inventory.nodes.size() << " nodes, "
              << layout.cluster.servers.size() << " servers with " << layout.cluster.totalGpus() << " GPUs (";
    bool first = true;
    for (const auto& [type, n] : layout.cluster.gpusByType()) {
        std::cout << (first ? "" : ", ") << n << " " << type;
        first = false;
    }
    std::cout << ") in " << layout.cluster.racks().size() << " groups\n";
    if (layout.cpu_only_nodes)
        std::cout << "  left out: " << layout.cpu_only_nodes << " node(s) without GPUs\n";
    if (layout.excluded_unavailable)
        std::cout << "  left out: " << layout.excluded_unavailable
                  << " down, drained or failing nodes (--exclude-unavailable)\n";
    if (marked)
        std::cout << "  marked unavailable: " << marked
                  << " servers (down, drained or failing; kept: --exclude-unavailable leaves them out)\n";
    for (const std::string& w : warnings) std::cout << "  warning: " << w << "\n";
    if (args.has("partitions"))
        r["partitions"] = importPartitions(args.get("partitions"), inventory, layout.cluster);
    out.cluster = std::move(layout.cluster);
    return out;
}

// The jobs of the history that can never run on the imported cluster (docs/architecture.md 2.10),
// named with the reason: a run leaves them out, and the import says so before anyone plans with
// it. A job asking for a partition the cluster does not have is bad input: refused, nothing
// written.
nlohmann::ordered_json jobsThatNeverFit(const Args& args, const cl::Trace& trace,
                                        const cl::Cluster& cluster) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::optional<cl::JobRequests> requests;
    try {
        requests.emplace(cluster, trace, args.declares("keep-unavailable") && args.has("keep-unavailable"));
    } catch (const cl::SimulationError& e) {
        throw UsageError(args.get("sacct") + ": " + e.what() + " (its partitions come from " +
                         (args.has("partitions") ? args.get("partitions") : args.get("nodes")) + ")");
    }
    for (int i = 0; i < static_cast<int>(trace.jobs.size()); ++i)
        if (const std::string why = requests->neverFits(i); !why.empty())
            list.push_back({{"job_id", trace.jobs[static_cast<std::size_t>(i)].id}, {"reason", why}});
    if (!list.empty()) {
        std::cout << list.size() << " job(s) can never run on this cluster; a run leaves them out, named "
                  << "(--strict refuses it), e.g.:\n";
        for (std::size_t k = 0; k < list.size() && k < 5; ++k)
            std::cout << "  " << list[k]["reason"].get<std::string>() << "\n";
    }
    return list;
}

int importSlurm(const std::vector<std::string>& argv) {
    Args args(
        "import slurm",
        "Import a Slurm cluster: the accounting history (sacct --parsable2 or --json output) as "
        "DIR/trace.csv, the node inventory (scontrol show node --oneliner, sinfo --Node --json or "
        "scontrol show node --json) as DIR/cluster.json, with the partitions of scontrol show partition "
        "--oneliner when --partitions is given, and what was kept and left out as "
        "DIR/import.json. The README's walk-through shows the commands to run on the cluster.",
        {{"sacct", "FILE", "accounting history: sacct output"},
         {"nodes", "FILE", "node inventory: scontrol or sinfo output"},
         {"out", "DIR", "folder to write trace.csv, cluster.json and import.json into (required)"},
         {"name", "NAME", "name of the trace and the cluster (default: the input file's name)"},
         {"timezone", "OFFSET", "the cluster's time zone as an offset from UTC (+02:00, -0530, UTC)", false,
          "UTC"},
         {"keep-unstarted", "", "keep jobs that never started (PENDING, CANCELLED before start)"},
         {"keep-running", "", "keep jobs still running, with their run time so far"},
         {"profiles", "NAME",
          "profile set: built-in (muri, synergy, sjf-bsbf), a profile JSON file, or with --db a set stored "
          "in the workspace",
          false, "muri"},
         {"db", "FILE", "workspace whose profile sets --profiles may name"},
         {"rules", "FILE", "rules that match jobs to profiles (FIELD PATTERN PROFILE per line)"},
         {"default-profile", "NAME", "profile of jobs no rule matches"},
         {"exclude-unavailable", "", "leave down, drained and failing nodes out of the layout"},
         {"partitions", "FILE",
          "partitions: scontrol show partition --oneliner output, laid over the --nodes layout (its "
          "PriorityTier, MaxTime, Default and members win over the nodes' Partitions=)"},
         {"check", "",
          "with --sacct and --nodes: replay the history on the cluster with the slurm policy and compare "
          "every job's start with the recorded one (as replay-check; DIR/replay-check.json)"},
         {"slurm-config", "FILE", "with --check: the saved `scontrol show config` the replay follows"},
         {"slurm-param", "KEY=VALUE", "with --check: one Slurm setting (after --slurm-config)", true}});
    if (!args.parse(argv)) return 0;
    if (!args.has("sacct") && !args.has("nodes"))
        throw UsageError("import slurm: give --sacct FILE, --nodes FILE or both");
    if (args.has("partitions") && !args.has("nodes"))
        throw UsageError(
            "import slurm: --partitions applies to the layout of --nodes; give --nodes FILE too");
    if (args.has("check") && !(args.has("sacct") && args.has("nodes")))
        throw UsageError(
            "import slurm: --check replays the history on the cluster; give --sacct and --nodes");
    const std::filesystem::path out = args.require("out");

    nlohmann::ordered_json report;
    report["format"] = "clusterloom-import";
    report["version"] = 1;
    std::optional<cl::Trace> trace;
    if (args.has("sacct")) {
        HistoryImport history = importHistory(args);
        report["history"] = std::move(history.report);
        report["history"]["profiles"] = matchProfiles(args, history.trace);
        trace = std::move(history.trace);
    }
    std::optional<cl::Cluster> cluster;
    if (args.has("nodes")) {
        NodesImport nodes = importNodes(args);
        report["nodes"] = std::move(nodes.report);
        cluster = std::move(nodes.cluster);
    }

    if (trace && cluster) {
        // Accounting without typed GPUs: the type the job's servers mostly have (architecture.md 8.8).
        const cl::RecordedGpuTypes types =
            cl::inferRecordedGpuTypes(*trace, *cluster, resolveImportProfiles(args));
        report["history"]["inferred_gpu_types"] = types.inferred;
        for (const auto& [type, jobs] : types.inferred)
            std::cout << jobs << " job(s) without a recorded GPU type ran on " << type
                      << ", the type most of their servers have\n";
        report["never_fit"] = jobsThatNeverFit(args, *trace, *cluster);
    }

    std::filesystem::create_directories(out);
    if (trace) {
        cl::writeTraceCsv(*trace, (out / "trace.csv").string());
        std::cout << "wrote " << (out / "trace.csv").string() << " (" << trace->jobs.size() << " jobs)\n";
    }
    if (cluster) {
        cl::writeLayoutJson(*cluster, (out / "cluster.json").string());
        std::cout << "wrote " << (out / "cluster.json").string() << " (" << cluster->servers.size()
                  << " servers)\n";
    }
    cl::io::writeTextFile((out / "import.json").string(), report.dump(2) + "\n");
    std::cout << "wrote " << (out / "import.json").string() << "\n";
    if (args.has("check")) {
        std::cout << "\n";
        const cl::ProfileSet profiles = resolveImportProfiles(args);
        keepUnavailableServers(*cluster, args, false);  // the note; replayAndCheck reads the option
        replayAndCheck(args, *trace, *cluster, profiles, "slurm", 10, (out / "replay-check.json").string());
        std::cout << "wrote " << (out / "replay-check.json").string() << "\n";
    }
    return 0;
}

}  // namespace

int importCommand(const std::vector<std::string>& argv) {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
        std::cout << "usage: clusterloom-cli import slurm [--sacct FILE] [--nodes FILE [--partitions FILE]] "
                     "--out DIR [options]\n"
                     "  slurm   a Slurm cluster's accounting history and node inventory\n";
        return argv.empty() ? 2 : 0;
    }
    if (argv[0] == "slurm") return importSlurm(std::vector<std::string>(argv.begin() + 1, argv.end()));
    throw UsageError("import: unknown source '" + argv[0] + "' (known: slurm)");
}

}  // namespace cli
