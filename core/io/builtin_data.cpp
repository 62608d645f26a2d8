#include "core/io/builtin_data.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "core/io/layout_io.h"
#include "core/io/profile_io.h"
#include "core/io/server_types_json.h"
#include "core/io/trace_readers.h"

namespace fs = std::filesystem;

namespace cl {

// Bumped whenever the engine can compute a different result for the same input, so that a
// workspace never reuses a run of an older engine as if it were current. Revision 2: Muri
// pairs interchangeable jobs by one priority-aware rule. Revision 4: runs record CPU and memory
// allocations (series and per-job changes). Revision 5: runs record gradient-accumulation
// changes (SJF-BSBF sub-batches and sharing interference). Revision 6: clean Tiresias no longer
// thrashes (a demoted running job stays ahead of its new queue's waiting jobs; the starvation
// wait is measured against all the service a job received; architecture.md section 4.2), and
// series keep change points only (section 2.8). Revision 7: jobs keep what they asked for
// (partitions, GPU type, time limit: a job is ended at its limit), a job that can never fit is
// left out instead of refusing the run, and jobs with a measured run time run at it (no solo
// factor, no start-up overhead, no random model; section 2.10). Revision 8: every policy keeps
// the partitions and GPU type a job asked for (until then only slurm, easy and conservative did;
// the others ignored them and said so), and the slurm policy keeps a tick that falls due during
// its one-second event latency (section 4.8); a job from accounting that a rule matched to a
// model runs its measured time too (no solo factor, no first-start overhead; section 2.10);
// servers marked unavailable stay in the cluster but no job uses them; a timed-out job counts
// in the queueing figures (section 7.2). Revision 9: the backfill policies take the servers of a
// Slurm node with GPUs of several types as one node (fullest node, then its first server that
// fits; a slurm reservation closes the whole node; section 4.8), every policy keeps a job's node
// count (until then only the backfill policies did), a job from accounting whose measured run
// time is zero keeps it instead of getting a random model (section 2.10), and slurm's ticks take
// an event a few ulp before a whole tick as at it (a rule-matched job's iterations end there).
constexpr int kEngineRevision = 9;

std::string engineVersion() {
    return std::string(CLUSTERLOOM_VERSION) + "-r" + std::to_string(kEngineRevision);
}

std::string dataDir() {
    if (const char* env = std::getenv("CLUSTERLOOM_DATA"); env && *env && fs::is_directory(env)) return env;
    // An installed program finds its data relative to itself (relocatable packages), then at
    // the configured prefix; a program run from a build tree uses the source tree.
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        fs::path beside = exe.parent_path().parent_path() / "share" / "clusterloom";
        if (fs::is_directory(beside / "profiles", ec)) return beside.string();
        if (exe.parent_path() == fs::path(CLUSTERLOOM_INSTALL_DATA_DIR).parent_path().parent_path() / "bin" &&
            fs::is_directory(fs::path(CLUSTERLOOM_INSTALL_DATA_DIR) / "profiles", ec))
            return CLUSTERLOOM_INSTALL_DATA_DIR;
    }
    return CLUSTERLOOM_SOURCE_DATA_DIR;
}

std::string dataFile(const std::string& relative) {
    fs::path p = fs::path(dataDir()) / relative;
    if (!fs::exists(p))
        throw std::runtime_error("built-in data file missing: " + p.string() +
                                 " (set CLUSTERLOOM_DATA to the folder holding profiles/ and clusters/)");
    return p.string();
}

namespace {

// The JSON files of a data sub-folder, by name (file name without extension), sorted.
std::vector<std::string> jsonNames(const char* folder) {
    std::vector<std::string> names;
    fs::path dir = fs::path(dataDir()) / folder;
    if (!fs::is_directory(dir)) return names;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string joinNames(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace

ProfileSet builtinProfiles() {
    return readProfilesJson(dataFile("profiles/muri.json"));
}

std::vector<std::string> builtinProfileNames() {
    return jsonNames("profiles");
}

ProfileSet builtinProfiles(const std::string& name) {
    const std::vector<std::string> names = builtinProfileNames();
    // Only listed names: a name like "../clusters/x" must not reach the file system.
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        dataFile("profiles");  // no data folder at all: say where the data is looked for
        throw std::invalid_argument("unknown built-in profile set '" + name +
                                    "' (profile sets: " + joinNames(names) + ")");
    }
    return readProfilesJson(dataFile("profiles/" + name + ".json"));
}

std::vector<std::string> builtinClusterNames() {
    return jsonNames("clusters");
}

Cluster builtinCluster(const std::string& name) {
    fs::path p = fs::path(dataDir()) / "clusters" / (name + ".json");
    if (!fs::exists(p)) {
        throw std::invalid_argument("unknown cluster preset '" + name +
                                    "' (presets: " + joinNames(builtinClusterNames()) + ")");
    }
    return readLayoutJson(p.string());
}

Cluster resolveCluster(const std::string& name_or_path) {
    if (fs::exists(name_or_path) && !fs::is_directory(name_or_path)) return readCluster(name_or_path);
    return builtinCluster(name_or_path);
}

const std::vector<ServerType>& builtinServerTypes() {
    // Read once: the server types do not change while the program runs.
    static const std::vector<ServerType> presets = readServerTypesJson(dataFile("server_types.json"));
    return presets;
}

const ServerType* findServerType(const std::string& id) {
    for (const ServerType& p : builtinServerTypes())
        if (p.id == id) return &p;
    return nullptr;
}

ServerType resolveServerType(const std::string& id_or_path) {
    if (const ServerType* p = findServerType(id_or_path)) return *p;
    std::error_code ec;
    if (!fs::exists(id_or_path, ec) || fs::is_directory(id_or_path, ec)) {
        std::vector<std::string> ids;
        for (const ServerType& p : builtinServerTypes()) ids.push_back(p.id);
        throw std::invalid_argument("unknown server type '" + id_or_path +
                                    "' (a layout file, or a preset: " + joinNames(ids) + ")");
    }
    const Cluster c = readCluster(id_or_path);
    if (c.servers.empty()) throw std::invalid_argument(id_or_path + ": the layout has no server");
    // Only what makes the kind of server counts: names, racks and Slurm states may differ.
    auto kind = [](Server s) {
        s.name.clear();
        s.rack.clear();
        s.state.clear();
        s.unavailable = false;
        return s;
    };
    const Server first = kind(c.servers.front());
    for (const Server& s : c.servers)
        if (!(kind(s) == first))
            throw std::invalid_argument(id_or_path + ": server '" + s.name + "' differs from '" +
                                        c.servers.front().name +
                                        "'; a server type file describes one kind of server");
    ServerType p;
    p.id = id_or_path;
    p.label = c.name.empty() ? id_or_path : c.name;
    p.source = id_or_path;
    p.server = first;
    return p;
}

Trace demoTrace() {
    return readTraceJson(dataFile("traces/demo.json"));
}

Trace backlogDemoTrace() {
    return readTraceJson(dataFile("traces/demo-backlog.json"));
}

}  // namespace cl
