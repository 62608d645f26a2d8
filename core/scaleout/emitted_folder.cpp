#include "core/scaleout/emitted_folder.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "core/io/builtin_data.h"
#include "core/io/json_doc.h"
#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/io/profile_io.h"
#include "core/io/trace_readers.h"
#include "core/io/trace_writers.h"
#include "core/scaleout/run_spec.h"
#include "core/scaleout/slurm_array_scripts.h"
#include "core/store/content_hash.h"

namespace cl {

namespace fs = std::filesystem;

namespace {

constexpr const char* kEmitFormat = "clusterloom-emitted-runs";
constexpr int kEmitVersion = 1;

std::string numbered(const char* folder, std::size_t index, const char* extension) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%05zu", index);
    return std::string(folder) + "/" + buf + extension;
}

std::string hashOf(const std::vector<StoredItem>& items, std::int64_t id, const char* what) {
    for (const auto& i : items)
        if (i.id == id) return i.content_hash;
    throw StoreError(std::string("no stored ") + what + " with id " + std::to_string(id));
}

}  // namespace

std::string specFileName(std::size_t index) {
    return numbered("specs", index, ".json");
}
std::string shardFileName(std::size_t index) {
    return numbered("shards", index, ".sqlite");
}

void checkCommandExecutable(const std::string& cli) {
    if (cli.empty()) throw std::invalid_argument("--cli: the executable's path is empty");
    if (shellWord(cli) != cli)
        throw std::invalid_argument(
            "--cli " + cli +
            ": the path holds a space, quote or other character the shell would need quoted, and "
            "`xargs -I{} sh -c {} < commands.txt` strips quotes before sh reads the line; give "
            "--cli a path without them (a symbolic link will do)");
}

EmittedFolder emitRunSpecs(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios,
                           const std::string& dir, const EmitOptions& options) {
    checkCommandExecutable(options.cli);
    if (options.specs_per_task < 1) throw std::invalid_argument("specs per task must be at least 1");
    EmittedFolder out;
    std::error_code ec;
    out.dir = fs::absolute(dir, ec).lexically_normal().string();
    if (fs::exists(out.dir) && !fs::is_empty(out.dir, ec))
        throw std::runtime_error(out.dir +
                                 ": exists and is not empty; emit into a new folder (its shards and "
                                 "failed-task list belong to one emission)");
    const fs::path root(out.dir);
    for (const char* sub : {"inputs", "specs", "shards", "logs"}) {
        fs::create_directories(root / sub, ec);
        if (ec)
            throw std::runtime_error((root / sub).string() + ": cannot create the folder: " + ec.message());
    }
    const std::string version = engineVersion();
    const auto clusters = store.clusters();
    const auto profile_sets = store.profileSets();
    const auto traces = store.traces();
    std::set<std::string> written;

    // Each input once, by content hash, read back and checked: a spec never names a file that
    // would store under another hash.
    auto input = [&](const std::string& hash, const std::function<void(const std::string&)>& write,
                     const std::function<std::string(const std::string&)>& rehash) {
        const std::string relative = "inputs/" + hash + ".json";
        if (written.insert(hash).second) {
            const std::string path = (root / relative).string();
            write(path);
            const std::string found = rehash(path);
            if (found != hash)
                throw std::runtime_error(path + ": reads back with content hash " + found +
                                         ", not the stored " + hash +
                                         " (this input cannot be carried in a file exactly)");
            ++out.inputs;
        }
        return RunSpecInput{hash, "../" + relative};
    };
    auto text_hash = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return ContentHasher().add(s.str()).hex();
    };

    std::string commands;
    std::size_t index = 0;
    for (const auto& info : scenarios) {
        if (!options.force && store.finishedRunWithHash(info.content_hash, version)) {
            ++out.already_stored;
            continue;
        }
        RunSpec spec;
        spec.scenario = info.spec;
        spec.scenario.cluster_id = spec.scenario.trace_id = spec.scenario.profiles_id = 0;
        spec.scenario_hash = info.content_hash;
        spec.engine_version = version;
        const std::int64_t cluster_id = info.spec.cluster_id, profiles_id = info.spec.profiles_id,
                           trace_id = info.spec.trace_id;
        spec.cluster = input(
            hashOf(clusters, cluster_id, "cluster"),
            [&](const std::string& p) { io::writeTextFile(p, layoutJsonText(store.cluster(cluster_id))); },
            text_hash);
        spec.profiles = input(
            hashOf(profile_sets, profiles_id, "profile set"),
            [&](const std::string& p) {
                io::writeTextFile(p, profilesJsonText(store.profiles(profiles_id)));
            },
            text_hash);
        spec.trace = input(
            hashOf(traces, trace_id, "trace"),
            [&](const std::string& p) { writeTraceJson(store.trace(trace_id), p); },
            [](const std::string& p) { return traceContentHash(readTraceJson(p)); });
        io::writeTextFile((root / specFileName(index)).string(), runSpecJsonText(spec));
        commands +=
            options.cli + " run-spec " + specFileName(index) + " --shard " + shardFileName(index) + "\n";
        out.names.push_back(info.spec.name);
        ++index;
    }
    io::writeTextFile((root / "commands.txt").string(), commands);
    io::writeTextFile((root / "workspace").string(),
                      fs::absolute(store.path(), ec).lexically_normal().string() + "\n");
    nlohmann::ordered_json emit;
    emit["format"] = kEmitFormat;
    emit["version"] = kEmitVersion;
    emit["specs"] = out.names.size();
    emit["specs_per_task"] = options.specs_per_task;
    emit["engine_version"] = version;
    io::writeTextFile((root / "emit.json").string(), emit.dump(2) + "\n");
    return out;
}

std::string emittedWorkspace(const std::string& dir) {
    const std::string path = (fs::path(dir) / "workspace").string();
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line) || line.empty())
        throw ParseError(path, 1, "",
                         "cannot read the workspace path (not a folder written by sweep --emit?)");
    return line;
}

EmittedMerge mergeEmittedFolder(ScenarioStore& store, const std::string& dir) {
    const std::string emit_path = (fs::path(dir) / "emit.json").string();
    if (!fs::exists(emit_path))
        throw ParseError(emit_path, 0, "", "missing: not a folder written by sweep --emit");
    const io::JsonDoc doc = io::JsonDoc::read(emit_path);
    doc.checkHeader(kEmitFormat, kEmitVersion);
    const io::JsonPath top;
    EmittedMerge out;
    out.specs = static_cast<std::size_t>(
        doc.integer(doc.require(doc.root(), top, "specs"), top / "specs", 0, 10000000));
    const auto per_task = static_cast<std::size_t>(
        doc.integer(doc.require(doc.root(), top, "specs_per_task"), top / "specs_per_task", 1, 10000000));
    for (std::size_t i = 0; i < out.specs; ++i) {
        const std::string shard = (fs::path(dir) / shardFileName(i)).string();
        bool merged = false;
        if (fs::exists(shard)) {
            out.shards.push_back(mergeShard(store, shard));
            merged = out.shards.back().merged;
        }
        if (!merged) {
            out.missing.push_back(i);
            const std::size_t task = i / per_task;
            if (out.failed_tasks.empty() || out.failed_tasks.back() != task) out.failed_tasks.push_back(task);
        }
    }
    std::string list;
    for (std::size_t t : out.failed_tasks) list += (list.empty() ? "" : ",") + std::to_string(t);
    io::writeTextFile((fs::path(dir) / "failed-tasks.txt").string(), list.empty() ? "" : list + "\n");
    return out;
}

}  // namespace cl
