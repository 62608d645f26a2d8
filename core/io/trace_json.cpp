// Our JSON trace format: {"format":"clusterloom-trace","version":1,"name":...,
// "provenance":[...],"jobs":[{...}]}. The writer puts one job per line (diffable, and error
// lines point at a job) and leaves out fields at their default except id, submit_time, gpus: a
// trace without the planning or request fields (core/io/README.md) is written as before them.
#include <climits>
#include <unordered_map>

#include "core/io/json_doc.h"
#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"
#include "core/io/trace_writers.h"

namespace cl {

namespace {

using io::JsonDoc;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "clusterloom-trace";
constexpr int kVersion = 1;

Job readJob(const JsonDoc& doc, const json& v, const JsonPath& at, const TraceReadOptions& opts) {
    doc.object(v, at);
    doc.rejectUnknownKeys(v, at,
                          {"id",
                           "submit_time",
                           "gpus",
                           "model",
                           "iterations",
                           "duration",
                           "batch_size",
                           "user",
                           "vc",
                           "iteration_time",
                           "stage_times",
                           "priority",
                           "name",
                           "account",
                           "partition",
                           "cpus",
                           "memory_gb",
                           "gpu_type",
                           "requested_gpu_type",
                           "nodes",
                           "time_limit",
                           "recorded_start"});
    Job j;
    j.id = doc.string(doc.require(v, at, "id"), at / "id", false);
    j.submit_time = doc.nonNegative(doc.require(v, at, "submit_time"), at / "submit_time");
    j.gpus = static_cast<int>(doc.integer(doc.require(v, at, "gpus"), at / "gpus", 1, io::kMaxJobGpus));
    auto opt = [&](const char* key) { return doc.member(v, at, key); };
    if (const json* m = opt("model")) {
        j.model = doc.string(*m, at / "model");
        if (auto message = io::unknownModel(opts, j.model)) doc.fail(at / "model", *message);
    }
    if (const json* x = opt("iterations")) j.iterations = doc.nonNegative(*x, at / "iterations");
    if (const json* x = opt("duration")) j.duration = doc.nonNegative(*x, at / "duration");
    if (const json* x = opt("batch_size"))
        j.batch_size = static_cast<int>(doc.integer(*x, at / "batch_size", 0, INT_MAX));
    if (const json* x = opt("user")) j.user = doc.string(*x, at / "user");
    if (const json* x = opt("vc")) j.vc = doc.string(*x, at / "vc");
    if (const json* x = opt("iteration_time"))
        j.solo_iteration_time = doc.nonNegative(*x, at / "iteration_time");
    if (const json* x = opt("stage_times")) {
        doc.array(*x, at / "stage_times");
        for (std::size_t k = 0; k < x->size(); ++k)
            j.stage_times.push_back(doc.nonNegative((*x)[k], (at / "stage_times")[k]));
    }
    if (const json* x = opt("priority"))
        j.priority = static_cast<int>(doc.integer(*x, at / "priority", 0, INT_MAX));
    if (const json* x = opt("name")) j.name = doc.string(*x, at / "name");
    if (const json* x = opt("account")) j.account = doc.string(*x, at / "account");
    if (const json* x = opt("partition")) j.partition = doc.string(*x, at / "partition");
    if (const json* x = opt("cpus")) j.cpus = static_cast<int>(doc.integer(*x, at / "cpus", 0, INT_MAX));
    if (const json* x = opt("memory_gb")) j.memory_gb = doc.nonNegative(*x, at / "memory_gb");
    if (const json* x = opt("gpu_type")) j.gpu_type = doc.string(*x, at / "gpu_type");
    if (const json* x = opt("requested_gpu_type"))
        j.requested_gpu_type = doc.string(*x, at / "requested_gpu_type");
    if (const json* x = opt("nodes")) j.nodes = static_cast<int>(doc.integer(*x, at / "nodes", 0, INT_MAX));
    if (const json* x = opt("time_limit")) j.time_limit = doc.nonNegative(*x, at / "time_limit");
    // Any number: a negative one is "not recorded", as Job's default -1.
    if (const json* x = opt("recorded_start")) j.recorded_start = doc.number(*x, at / "recorded_start");
    return j;
}

nlohmann::ordered_json jobJson(const Job& j) {
    nlohmann::ordered_json o;
    o["id"] = j.id;
    o["submit_time"] = io::jsonNumber(j.submit_time);
    o["gpus"] = j.gpus;
    const Job d;  // defaults
    if (j.model != d.model) o["model"] = j.model;
    if (j.iterations != d.iterations) o["iterations"] = io::jsonNumber(j.iterations);
    if (j.duration != d.duration) o["duration"] = io::jsonNumber(j.duration);
    if (j.batch_size != d.batch_size) o["batch_size"] = j.batch_size;
    if (j.user != d.user) o["user"] = j.user;
    if (j.vc != d.vc) o["vc"] = j.vc;
    if (j.solo_iteration_time != d.solo_iteration_time)
        o["iteration_time"] = io::jsonNumber(j.solo_iteration_time);
    if (!j.stage_times.empty()) {
        auto& st = o["stage_times"] = nlohmann::ordered_json::array();
        for (double t : j.stage_times) st.push_back(io::jsonNumber(t));
    }
    if (j.priority != d.priority) o["priority"] = j.priority;
    if (j.name != d.name) o["name"] = j.name;
    if (j.account != d.account) o["account"] = j.account;
    if (j.partition != d.partition) o["partition"] = j.partition;
    if (j.cpus != d.cpus) o["cpus"] = j.cpus;
    if (j.memory_gb != d.memory_gb) o["memory_gb"] = io::jsonNumber(j.memory_gb);
    if (j.gpu_type != d.gpu_type) o["gpu_type"] = j.gpu_type;
    if (j.requested_gpu_type != d.requested_gpu_type) o["requested_gpu_type"] = j.requested_gpu_type;
    if (j.nodes != d.nodes) o["nodes"] = j.nodes;
    if (j.time_limit != d.time_limit) o["time_limit"] = io::jsonNumber(j.time_limit);
    if (j.recorded_start != d.recorded_start) o["recorded_start"] = io::jsonNumber(j.recorded_start);
    return o;
}

// Invalid UTF-8 (from a Latin-1 CSV, say) is replaced rather than failing the whole export.
template <class J>
std::string dumpCompact(const J& v) {
    return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

Trace readTraceJson(const std::string& path, const TraceReadOptions& opts) {
    const JsonDoc doc = JsonDoc::read(path);
    doc.checkHeader(kFormat, kVersion);
    const json& root = doc.root();
    const JsonPath top;

    Trace trace;
    trace.name = io::fileStem(path);
    if (const json* n = doc.member(root, top, "name")) trace.name = doc.string(*n, top / "name");
    if (const json* p = doc.member(root, top, "provenance")) {
        doc.array(*p, top / "provenance");
        for (std::size_t k = 0; k < p->size(); ++k)
            trace.provenance.push_back(doc.string((*p)[k], (top / "provenance")[k]));
    }
    const json& jobs = doc.array(doc.require(root, top, "jobs"), top / "jobs");
    trace.jobs.reserve(jobs.size());
    std::unordered_map<std::string, std::size_t> seen;
    int skipped = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const JsonPath at = (top / "jobs")[i];
        io::guardRow(opts, skipped, [&] {
            Job j = readJob(doc, jobs[i], at, opts);
            auto [it, fresh] = seen.emplace(j.id, i);
            if (!fresh)
                doc.fail(at / "id", "duplicate job id '" + j.id + "' (first used by jobs[" +
                                        std::to_string(it->second) + "])");
            trace.jobs.push_back(std::move(j));
        });
    }
    // Our own format keeps its provenance as written; only a lossy read adds a line.
    if (skipped > 0)
        trace.provenance.push_back("read " + io::fileName(path) + " skipping " + std::to_string(skipped) +
                                   " invalid jobs");
    return trace;
}

void writeTraceJson(const Trace& trace, const std::string& path) {
    std::string out = "{\n";
    out += "  \"format\": \"" + std::string(kFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kVersion) + ",\n";
    out += "  \"name\": " + dumpCompact(json(trace.name)) + ",\n";
    out += "  \"provenance\": [";
    for (std::size_t k = 0; k < trace.provenance.size(); ++k)
        out += (k ? ",\n    " : "\n    ") + dumpCompact(json(trace.provenance[k]));
    out += trace.provenance.empty() ? "],\n" : "\n  ],\n";
    out += "  \"jobs\": [";
    for (std::size_t k = 0; k < trace.jobs.size(); ++k)
        out += (k ? ",\n    " : "\n    ") + dumpCompact(jobJson(trace.jobs[k]));
    out += trace.jobs.empty() ? "]\n}\n" : "\n  ]\n}\n";
    io::writeTextFile(path, out);
}

}  // namespace cl
