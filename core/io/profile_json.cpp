// Profile set JSON: {"format":"clusterloom-profiles","version":1,"name","source",
// "default_restart_overhead_s","gpu_type_speed":{...},"models":[{"name","batch_size",
// "gpu_memory_mb","speed_by_gpu_type","by_gpus":[{"gpus","iteration_ms","stages_ms",
// "restart_s"}],"extra"}],"interference":{"cpu_a","cpu_b","pcie_a"}}. Iteration and stage
// times are stated in milliseconds (as the papers publish them) and kept in seconds; restart
// overheads are seconds in both.
// Unknown top-level keys are ignored so that files can carry "notes" or "sources".
// "interference" is optional (and each of its keys): what is absent keeps the documented
// defaults; it is written only when it differs from them, so files without it stay as they are.
#include <algorithm>
#include <climits>
#include <cmath>
#include <set>
#include <utility>

#include "core/io/json_doc.h"
#include "core/io/profile_io.h"
#include "core/io/read_helpers.h"
#include "core/util/number_format.h"

namespace cl {

namespace {

using io::JsonDoc;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "clusterloom-profiles";
constexpr int kVersion = 1;

// A millisecond value in the file -> seconds, exact on the decimal digits (read_helpers.h).
double seconds(const JsonDoc& doc, const json& v, const JsonPath& at) {
    const double ms = doc.nonNegative(v, at);
    if (auto text = doc.numberText(at)) return io::msTextToSeconds(*text);
    return ms / 1000.0;  // an integer: division is exact-rounded already
}

std::map<std::string, double> readSpeeds(const JsonDoc& doc, const json& v, const JsonPath& at) {
    doc.object(v, at);
    std::map<std::string, double> speeds;
    for (const auto& [type, factor] : v.items()) speeds[type] = doc.positive(factor, at / type);
    return speeds;
}

GpuCountProfile readGpuCount(const JsonDoc& doc, const json& v, const JsonPath& at, double default_restart) {
    doc.object(v, at);
    doc.rejectUnknownKeys(v, at, {"gpus", "iteration_ms", "stages_ms", "restart_s"});
    GpuCountProfile p;
    p.gpus = static_cast<int>(doc.integer(doc.require(v, at, "gpus"), at / "gpus", 1, io::kMaxJobGpus));
    p.solo_iteration_time = seconds(doc, doc.require(v, at, "iteration_ms"), at / "iteration_ms");
    if (const json* st = doc.member(v, at, "stages_ms")) {
        doc.array(*st, at / "stages_ms");
        for (std::size_t k = 0; k < st->size(); ++k)
            p.stage_times.push_back(seconds(doc, (*st)[k], (at / "stages_ms")[k]));
    }
    p.restart_overhead = default_restart;
    if (const json* r = doc.member(v, at, "restart_s"))
        p.restart_overhead = doc.nonNegative(*r, at / "restart_s");
    return p;
}

ModelProfile readModel(const JsonDoc& doc, const json& v, const JsonPath& at, double default_restart) {
    doc.object(v, at);
    doc.rejectUnknownKeys(v, at,
                          {"name", "batch_size", "gpu_memory_mb", "speed_by_gpu_type", "by_gpus", "extra"});
    ModelProfile m;
    m.name = doc.string(doc.require(v, at, "name"), at / "name", false);
    if (const json* x = doc.member(v, at, "batch_size"))
        m.batch_size = static_cast<int>(doc.integer(*x, at / "batch_size", 0, INT_MAX));
    if (const json* x = doc.member(v, at, "gpu_memory_mb"))
        m.gpu_memory_mb = doc.nonNegative(*x, at / "gpu_memory_mb");
    if (const json* x = doc.member(v, at, "speed_by_gpu_type"))
        m.speed_by_gpu_type = readSpeeds(doc, *x, at / "speed_by_gpu_type");
    const JsonPath gat = at / "by_gpus";
    const json& by = doc.array(doc.require(v, at, "by_gpus"), gat);
    if (by.empty()) doc.fail(gat, "a model needs at least one GPU count");
    std::set<int> counts;
    for (std::size_t k = 0; k < by.size(); ++k) {
        GpuCountProfile p = readGpuCount(doc, by[k], gat[k], default_restart);
        if (!counts.insert(p.gpus).second)
            doc.fail(gat[k] / "gpus", "GPU count " + std::to_string(p.gpus) + " is listed twice");
        m.by_gpus.push_back(std::move(p));
    }
    std::sort(m.by_gpus.begin(), m.by_gpus.end(),
              [](const auto& a, const auto& b) { return a.gpus < b.gpus; });
    if (const json* x = doc.member(v, at, "extra")) m.extra.edit() = doc.object(*x, at / "extra");
    return m;
}

InterferenceCoefficients readInterference(const JsonDoc& doc, const json& v, const JsonPath& at) {
    doc.object(v, at);
    doc.rejectUnknownKeys(v, at, {"cpu_a", "cpu_b", "pcie_a"});
    InterferenceCoefficients c = defaultInterferenceCoefficients();
    const std::pair<const char*, double*> fields[] = {
        {"cpu_a", &c.cpu_a}, {"cpu_b", &c.cpu_b}, {"pcie_a", &c.pcie_a}};
    for (const auto& field : fields) {
        const json* x = doc.member(v, at, field.first);
        if (!x) continue;
        const double d = doc.nonNegative(*x, at / field.first);
        if (!std::isfinite(d)) doc.fail(at / field.first, "must be a finite number");
        *field.second = d;
    }
    return c;
}

// The writer builds the text itself: millisecond values must be written digit for digit
// (secondsToMsText), which a JSON value holding a double cannot express.
std::string str(const std::string& v) {
    return json(v).dump(-1, ' ', false, json::error_handler_t::replace);
}
std::string num(double v) {
    return formatNumber(v);
}

std::string speedsText(const std::map<std::string, double>& speeds) {
    std::string s = "{";
    for (const auto& [type, factor] : speeds)
        s += (s.size() > 1 ? ", " : "") + str(type) + ": " + num(factor);
    return s + "}";
}

std::string gpuCountText(const GpuCountProfile& p) {
    std::string stages;
    for (double t : p.stage_times) stages += (stages.empty() ? "" : ", ") + io::secondsToMsText(t);
    return "{\"gpus\": " + std::to_string(p.gpus) +
           ", \"iteration_ms\": " + io::secondsToMsText(p.solo_iteration_time) + ", \"stages_ms\": [" +
           stages + "], \"restart_s\": " + num(p.restart_overhead) + "}";
}

std::string modelText(const ModelProfile& m) {
    std::string s = "{\"name\": " + str(m.name) + ", \"batch_size\": " + std::to_string(m.batch_size) +
                    ", \"gpu_memory_mb\": " + num(m.gpu_memory_mb);
    if (!m.speed_by_gpu_type.empty()) s += ", \"speed_by_gpu_type\": " + speedsText(m.speed_by_gpu_type);
    s += ",\n     \"by_gpus\": [";
    for (std::size_t k = 0; k < m.by_gpus.size(); ++k)
        s += (k ? ",\n       " : "\n       ") + gpuCountText(m.by_gpus[k]);
    s += "\n     ]";
    if (!m.extra.get().is_null())
        s += ",\n     \"extra\": " + m.extra.get().dump(-1, ' ', false, json::error_handler_t::replace);
    return s + "}";
}

}  // namespace

namespace {

ProfileSet profilesFromDoc(const JsonDoc& doc, const std::string& default_name) {
    doc.checkHeader(kFormat, kVersion);
    const json& root = doc.root();
    const JsonPath top;

    ProfileSet ps;
    ps.name = default_name;
    if (const json* x = doc.member(root, top, "name")) ps.name = doc.string(*x, top / "name");
    if (const json* x = doc.member(root, top, "source")) ps.source = doc.string(*x, top / "source");
    if (const json* x = doc.member(root, top, "default_restart_overhead_s"))
        ps.default_restart_overhead = doc.nonNegative(*x, top / "default_restart_overhead_s");
    if (const json* x = doc.member(root, top, "gpu_type_speed"))
        ps.gpu_type_speed = readSpeeds(doc, *x, top / "gpu_type_speed");
    if (const json* x = doc.member(root, top, "interference"))
        ps.interference = readInterference(doc, *x, top / "interference");
    const json& models = doc.array(doc.require(root, top, "models"), top / "models");
    for (std::size_t i = 0; i < models.size(); ++i) {
        const JsonPath at = (top / "models")[i];
        ModelProfile m = readModel(doc, models[i], at, ps.default_restart_overhead);
        if (ps.models.count(m.name)) doc.fail(at / "name", "model '" + m.name + "' is defined twice");
        ps.models.emplace(m.name, std::move(m));
    }
    return ps;
}

}  // namespace

ProfileSet readProfilesJson(const std::string& path) {
    return profilesFromDoc(JsonDoc::read(path), io::fileStem(path));
}

ProfileSet parseProfilesJson(const std::string& text, const std::string& source) {
    return profilesFromDoc(JsonDoc::parse(text, source), source);
}

std::string profilesJsonText(const ProfileSet& profiles) {
    std::string out = "{\n";
    out += "  \"format\": \"" + std::string(kFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kVersion) + ",\n";
    out += "  \"name\": " + str(profiles.name) + ",\n";
    out += "  \"source\": " + str(profiles.source) + ",\n";
    out += "  \"default_restart_overhead_s\": " + num(profiles.default_restart_overhead) + ",\n";
    out += "  \"gpu_type_speed\": " + speedsText(profiles.gpu_type_speed) + ",\n";
    if (profiles.interference != defaultInterferenceCoefficients()) {
        const InterferenceCoefficients& c = profiles.interference;
        out += "  \"interference\": {\"cpu_a\": " + num(c.cpu_a) + ", \"cpu_b\": " + num(c.cpu_b) +
               ", \"pcie_a\": " + num(c.pcie_a) + "},\n";
    }
    out += "  \"models\": [";
    bool first = true;
    for (const auto& [_, m] : profiles.models) {
        out += (first ? "\n    " : ",\n    ") + modelText(m);
        first = false;
    }
    out += profiles.models.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

void writeProfilesJson(const ProfileSet& profiles, const std::string& path) {
    io::writeTextFile(path, profilesJsonText(profiles));
}

}  // namespace cl
