#include "core/scaleout/run_spec.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/io/builtin_data.h"
#include "core/io/json_doc.h"
#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/io/profile_io.h"
#include "core/io/trace_readers.h"
#include "core/runs/scenario_runner.h"
#include "core/store/content_hash.h"

namespace cl {

namespace fs = std::filesystem;

namespace {

constexpr int kRunSpecVersion = 1;

nlohmann::ordered_json inputJson(const RunSpecInput& in) {
    nlohmann::ordered_json j;
    j["hash"] = in.hash;
    j["file"] = in.file;
    return j;
}

RunSpecInput readInput(const io::JsonDoc& doc, const nlohmann::json& inputs, const io::JsonPath& at,
                       const char* key) {
    const io::JsonPath here = at / key;
    const nlohmann::json& v = doc.object(doc.require(inputs, at, key), here);
    doc.rejectUnknownKeys(v, here, {"hash", "file"});
    RunSpecInput in;
    in.hash = doc.string(doc.require(v, here, "hash"), here / "hash", false);
    in.file = doc.string(doc.require(v, here, "file"), here / "file", false);
    return in;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParseError(path, 0, "", "cannot open the input file (missing, or no permission)");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void checkHash(const std::string& path, const std::string& found, const std::string& expected) {
    if (found != expected)
        throw ParseError(path, 0, "",
                         "content hash " + found + ", the spec expects " + expected +
                             " (the file was changed or damaged after it was emitted; emit the specs again)");
}

void removePartial(const std::string& part) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(part + suffix, ec);
}

}  // namespace

std::string runSpecJsonText(const RunSpec& spec) {
    nlohmann::ordered_json j;
    j["format"] = kRunSpecFormat;
    j["version"] = kRunSpecVersion;
    j["engine_version"] = spec.engine_version;
    nlohmann::ordered_json s;
    s["name"] = spec.scenario.name;
    s["policy"] = spec.scenario.policy;
    s["conventions"] = spec.scenario.conventions;
    s["parameters"] = spec.scenario.parameters.toJson();
    s["seed"] = spec.scenario.seed;
    s["notes"] = spec.scenario.notes;
    s["content_hash"] = spec.scenario_hash;
    j["scenario"] = s;
    nlohmann::ordered_json inputs;
    inputs["cluster"] = inputJson(spec.cluster);
    inputs["trace"] = inputJson(spec.trace);
    inputs["profiles"] = inputJson(spec.profiles);
    j["inputs"] = inputs;
    return j.dump(2) + "\n";
}

RunSpec readRunSpec(const std::string& path) {
    const io::JsonDoc doc = io::JsonDoc::read(path);
    doc.checkHeader(kRunSpecFormat, kRunSpecVersion);
    const nlohmann::json& root = doc.root();
    const io::JsonPath top;
    doc.rejectUnknownKeys(root, top, {"format", "version", "engine_version", "scenario", "inputs"});
    RunSpec spec;
    spec.engine_version = doc.string(doc.require(root, top, "engine_version"), top / "engine_version", false);

    const io::JsonPath at = top / "scenario";
    const nlohmann::json& s = doc.object(doc.require(root, top, "scenario"), at);
    doc.rejectUnknownKeys(s, at,
                          {"name", "policy", "conventions", "parameters", "seed", "notes", "content_hash"});
    spec.scenario.name = doc.string(doc.require(s, at, "name"), at / "name", false);
    spec.scenario.policy = doc.string(doc.require(s, at, "policy"), at / "policy", false);
    spec.scenario.conventions = doc.string(doc.require(s, at, "conventions"), at / "conventions", false);
    const nlohmann::json& parameters = doc.object(doc.require(s, at, "parameters"), at / "parameters");
    try {
        spec.scenario.parameters = ScenarioParameters::fromJson(parameters);
    } catch (const std::invalid_argument& e) {
        doc.fail(at / "parameters", e.what());
    }
    spec.scenario.seed = static_cast<std::uint64_t>(
        doc.integer(doc.require(s, at, "seed"), at / "seed", 0, std::numeric_limits<std::int64_t>::max()));
    if (const nlohmann::json* notes = doc.member(s, at, "notes"))
        spec.scenario.notes = doc.string(*notes, at / "notes");
    spec.scenario_hash = doc.string(doc.require(s, at, "content_hash"), at / "content_hash", false);

    const io::JsonPath in = top / "inputs";
    const nlohmann::json& inputs = doc.object(doc.require(root, top, "inputs"), in);
    doc.rejectUnknownKeys(inputs, in, {"cluster", "trace", "profiles"});
    spec.cluster = readInput(doc, inputs, in, "cluster");
    spec.trace = readInput(doc, inputs, in, "trace");
    spec.profiles = readInput(doc, inputs, in, "profiles");
    return spec;
}

RunInfo runSpecIntoShard(const std::string& spec_path, const std::string& shard_path) {
    const RunSpec spec = readRunSpec(spec_path);
    if (spec.engine_version != engineVersion())
        throw ParseError(spec_path, 0, "engine_version",
                         "emitted for engine " + spec.engine_version + ", this program is " +
                             engineVersion() +
                             " (its results could differ: emit the specs again with this build, or run them "
                             "with the emitting build's clusterloom-cli)");
    const fs::path base = fs::path(spec_path).parent_path();
    auto file = [&](const RunSpecInput& in) { return (base / in.file).lexically_normal().string(); };

    const std::string cluster_file = file(spec.cluster);
    const std::string cluster_text = readText(cluster_file);
    checkHash(cluster_file, ContentHasher().add(cluster_text).hex(), spec.cluster.hash);
    const Cluster cluster = parseLayoutJson(cluster_text, cluster_file);
    const std::string profiles_file = file(spec.profiles);
    const std::string profiles_text = readText(profiles_file);
    checkHash(profiles_file, ContentHasher().add(profiles_text).hex(), spec.profiles.hash);
    const ProfileSet profiles = parseProfilesJson(profiles_text, profiles_file);
    const std::string trace_file = file(spec.trace);
    if (!fs::exists(trace_file)) throw ParseError(trace_file, 0, "", "cannot open the input file (missing)");
    const Trace trace = readTraceJson(trace_file);
    checkHash(trace_file, traceContentHash(trace), spec.trace.hash);

    const std::string part = shard_path + ".part";
    removePartial(part);
    RunInfo info;
    try {
        {
            ScenarioStore shard(part);
            ScenarioSpec s = spec.scenario;
            s.cluster_id = shard.putCluster(cluster);
            s.profiles_id = shard.putProfiles(profiles);
            s.trace_id = shard.putTrace(trace);
            try {
                shard.createScenario(s);
            } catch (const StoreError& e) {
                // Settings the store refuses (an unknown policy, a load factor <= 0, ...): the
                // spec is at fault, so the error names it; the shard is new, so no name is taken.
                throw ParseError(spec_path, 0, "scenario", e.what());
            }
            const ScenarioInfo stored = shard.scenario(s.name);
            // The inputs were read back from their files: stored again, they must hash as where
            // they were emitted, or the merged run would not be found by its scenario's hash.
            if (stored.content_hash != spec.scenario_hash)
                throw ParseError(spec_path, 0, "scenario.content_hash",
                                 "the scenario stored from this spec hashes to " + stored.content_hash +
                                     ", the spec says " + spec.scenario_hash +
                                     " (an input did not read back identically)");
            info = runScenarioStoringOnlyOutcomes(shard, s.name, true).info;
            // One self-contained file: no write-ahead log to carry along with it.
            shard.db().exec("PRAGMA journal_mode=DELETE");
        }
        std::error_code ec;
        fs::rename(part, shard_path, ec);
        if (ec)
            throw std::runtime_error(shard_path +
                                     ": cannot move the finished shard into place: " + ec.message());
    } catch (...) {
        removePartial(part);
        throw;
    }
    return info;
}

}  // namespace cl
