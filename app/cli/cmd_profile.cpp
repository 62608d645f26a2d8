// clusterloom-cli profile import: a model profile from PyTorch profiler (Kineto) traces
// (docs/architecture.md section 8.6), written as JSON and/or stored in a workspace profile set.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/workspace.h"
#include "core/io/builtin_data.h"
#include "core/io/json_doc.h"
#include "core/io/kineto_trace.h"
#include "core/model/kineto_profile.h"
#include "core/store/profile_set_versions.h"

namespace cli {

namespace {

const char* kProfileHelp =
    "Model profiles from measurements.\n"
    "  import --kineto FILE... [--name MODEL] [--json OUT] [--db WORKSPACE [--set SETNAME]]\n"
    "      PyTorch profiler (Kineto) traces, plain or .gz, recorded with torch.profiler.schedule and\n"
    "      prof.step(); several files are the ranks of one run. Per training step after the first\n"
    "      (warm-up): iteration, gpu (non-NCCL kernels), nccl, network (NCCL not hidden by other\n"
    "      kernels), storage (DataLoader __next__) and cpu (the rest), in ms; the profile takes the\n"
    "      slowest rank's medians. --json writes them (without --json and --db they go to stdout);\n"
    "      --db adds the model to the newest profile set SETNAME of the workspace, stored as a new\n"
    "      version (docs/architecture.md section 8.6).";

std::string ms(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%10.3f", v);
    return buf;
}

void printRank(const cl::KinetoRankProfile& r, std::ostream& out) {
    out << r.file << " (rank " << r.rank << " of " << r.world_size
        << (r.gpu_name.empty() ? "" : ", " + r.gpu_name) << "):\n";
    out << "  step        iteration        gpu       nccl    network    storage        cpu   (ms)\n";
    auto row = [&](const std::string& label, const cl::KinetoStepFigures& f) {
        std::string l = "  " + label;
        l.resize(12, ' ');
        out << l << " " << ms(f.iteration_ms) << " " << ms(f.gpu_ms) << " " << ms(f.nccl_ms) << " "
            << ms(f.network_ms) << " " << ms(f.storage_ms) << " " << ms(f.cpu_ms) << "\n";
    };
    for (const auto& s : r.steps) row(std::to_string(s.step), s);
    row("median", r.median);
    for (const auto& w : r.warnings) out << "  warning: " << w << "\n";
}

int importKineto(const Args& args) {
    std::vector<std::string> files = args.getAll("kineto");
    if (files.empty()) throw UsageError("profile import: name the traces with --kineto FILE... (see --help)");
    const auto& pos = args.positional();
    files.insert(files.end(), pos.begin() + 1, pos.end());
    if (args.has("set") && !args.has("db"))
        throw UsageError("profile import: --set names a profile set of a workspace; give --db too");

    const cl::KinetoProfile profile = cl::kinetoProfile(files, args.get("name"));
    const nlohmann::json j = cl::kinetoProfileJson(profile);
    const bool to_stdout = !args.has("json") && !args.has("db");
    std::ostream& report = to_stdout ? std::cerr : std::cout;
    for (const auto& r : profile.ranks) printRank(r, report);
    report << "profile '" << profile.name << "' at " << profile.world_size << " GPUs"
           << (profile.ranks.size() > 1
                   ? " from rank " + std::to_string(profile.ranks[profile.slowest_rank].rank) +
                         " (the slowest)"
                   : std::string())
           << ": iteration " << ms(profile.median.iteration_ms) << " ms\n";
    if (to_stdout) {
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    if (args.has("json")) {
        const std::string out = args.get("json");
        if (const auto parent = std::filesystem::path(out).parent_path(); !parent.empty())
            std::filesystem::create_directories(parent);
        cl::io::writeTextFile(out, j.dump(2) + "\n");
        std::cout << "wrote " << out << "\n";
    }
    if (args.has("db")) {
        cl::ScenarioStore store = openWorkspace(args);
        const std::string set_name = args.get("set");
        // Speeds on other GPU types relative to the measured one, from the built-in set's table.
        const std::map<std::string, double> reference_speeds = cl::builtinProfiles("muri").gpu_type_speed;
        const cl::StoredModelProfile stored =
            cl::storeModelProfile(store, set_name, cl::modelProfileFromKineto(profile, &reference_speeds),
                                  "PyTorch profiler traces (profile import)");
        std::cout << (stored.unchanged  ? "already stored: model '"
                      : stored.replaced ? "replaced model '"
                                        : "added model '")
                  << profile.name << "' in profile set '" << set_name << "' (id " << stored.set_id;
        if (stored.based_on && !stored.unchanged) std::cout << ", a new version of id " << *stored.based_on;
        std::cout << ") in " << store.path() << "\n";
    }
    return 0;
}

}  // namespace

int profileCommand(const std::vector<std::string>& argv) {
    Args args("profile", kProfileHelp,
              {{"kineto", "FILE", "PyTorch profiler trace (JSON or .json.gz); more files may follow", true},
               {"name", "MODEL", "the model's name (default: the first file's name without .json/.gz)"},
               {"json", "OUT", "write the profile's figures (medians, steps, ranks) to OUT"},
               dbOption(),
               {"set", "SETNAME", "profile set of the workspace to add the model to", false, "profiles"}});
    args.positionals("import [FILE...]", 1, 100000);
    if (!args.parse(argv)) return 0;
    const std::string action = args.positional()[0];
    if (action == "import") return importKineto(args);
    throw UsageError("profile: unknown action '" + action + "' (expected import; see --help)");
}

}  // namespace cli
