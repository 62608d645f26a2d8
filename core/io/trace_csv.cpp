// Our CSV trace format: `job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc`,
// optionally followed by what planners filter and plan by: `name,account,partition,cpus,
// memory_gb,gpu_type`, and by what a job asked the scheduler for: `requested_gpu_type,nodes,
// time_limit,recorded_start` (core/io/README.md). A spreadsheet-friendly subset of the JSON format
// (no per-job iteration/stage times or priority). job_id, submit_time and gpus are required; the
// other columns may be left out. The writer adds the planning and the request columns only when a
// job has one of them, so a trace without them is written exactly as before.
#include <algorithm>
#include <unordered_map>

#include "core/io/json_doc.h"
#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"
#include "core/io/trace_writers.h"
#include "core/util/number_format.h"

namespace cl {

namespace {

// Quotes a cell when the reader would otherwise split or trim it.
std::string csvCell(const std::string& s) {
    bool quote =
        s.find_first_of(",\"\r\n") != std::string::npos ||
        (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t'));
    if (!quote) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

}  // namespace

Trace readTraceCsv(const std::string& path, const TraceReadOptions& opts) {
    CsvTable t = CsvTable::readFile(path);
    const int c_id = t.requireColumn("job_id");
    const int c_submit = t.requireColumn("submit_time");
    const int c_gpus = t.requireColumn("gpus");
    const auto c_model = t.column("model");
    const auto c_iters = t.column("iterations");
    const auto c_duration = t.column("duration");
    const auto c_batch = t.column("batch_size");
    const auto c_user = t.column("user");
    const auto c_vc = t.column("vc");
    const auto c_name = t.column("name");
    const auto c_account = t.column("account");
    const auto c_partition = t.column("partition");
    const auto c_cpus = t.column("cpus");
    const auto c_memory = t.column("memory_gb");
    const auto c_gpu_type = t.column("gpu_type");
    const auto c_requested_type = t.column("requested_gpu_type");
    const auto c_nodes = t.column("nodes");
    const auto c_time_limit = t.column("time_limit");
    const auto c_recorded_start = t.column("recorded_start");

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    std::unordered_map<std::string, int> seen;  // id -> line
    int skipped = 0;
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        Job j;
        j.id = t.text(row, c_id, false);
        j.submit_time = t.nonNegative(row, c_submit);
        j.gpus = io::jobGpus(t, row, c_gpus);
        if (c_model) {
            j.model = t.text(row, *c_model);
            io::checkModel(opts, j.model, t.file(), row.line, t.fieldName(*c_model));
        }
        if (c_iters) j.iterations = t.nonNegative(row, *c_iters);
        if (c_duration) j.duration = t.nonNegative(row, *c_duration);
        if (c_batch) j.batch_size = io::nonNegativeInt(t, row, *c_batch);
        if (c_user) j.user = t.text(row, *c_user);
        if (c_vc) j.vc = t.text(row, *c_vc);
        if (c_name) j.name = t.text(row, *c_name);
        if (c_account) j.account = t.text(row, *c_account);
        if (c_partition) j.partition = t.text(row, *c_partition);
        if (c_cpus) j.cpus = io::nonNegativeInt(t, row, *c_cpus);
        if (c_memory) j.memory_gb = t.nonNegative(row, *c_memory);
        if (c_gpu_type) j.gpu_type = t.text(row, *c_gpu_type);
        if (c_requested_type) j.requested_gpu_type = t.text(row, *c_requested_type);
        if (c_nodes) j.nodes = io::nonNegativeInt(t, row, *c_nodes);
        if (c_time_limit) j.time_limit = t.nonNegative(row, *c_time_limit);
        // Any number: a negative one is "not recorded" (the writer puts -1, Job's default).
        if (c_recorded_start) j.recorded_start = t.number(row, *c_recorded_start);
        auto [it, fresh] = seen.emplace(j.id, row.line);
        if (!fresh)
            throw ParseError(
                t.file(), row.line, t.fieldName(c_id),
                "duplicate job id '" + j.id + "' (first on line " + std::to_string(it->second) + ")");
        trace.jobs.push_back(std::move(j));
    });
    io::finishImport(trace, path, "ClusterLoom trace CSV", skipped);
    return trace;
}

void writeTraceCsv(const Trace& trace, const std::string& path) {
    const Job d;  // defaults
    const bool planning = std::any_of(trace.jobs.begin(), trace.jobs.end(), [&](const Job& j) {
        return j.name != d.name || j.account != d.account || j.partition != d.partition || j.cpus != d.cpus ||
               j.memory_gb != d.memory_gb || j.gpu_type != d.gpu_type;
    });
    const bool requests = std::any_of(trace.jobs.begin(), trace.jobs.end(), [&](const Job& j) {
        return j.requested_gpu_type != d.requested_gpu_type || j.nodes != d.nodes ||
               j.time_limit != d.time_limit || j.recorded_start != d.recorded_start;
    });
    std::string out = "job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc";
    if (planning) out += ",name,account,partition,cpus,memory_gb,gpu_type";
    if (requests) out += ",requested_gpu_type,nodes,time_limit,recorded_start";
    out += '\n';
    for (const Job& j : trace.jobs) {
        out += csvCell(j.id) + ',' + formatNumber(j.submit_time) + ',' + std::to_string(j.gpus) + ',' +
               csvCell(j.model) + ',' + formatNumber(j.iterations) + ',' + formatNumber(j.duration) + ',' +
               std::to_string(j.batch_size) + ',' + csvCell(j.user) + ',' + csvCell(j.vc);
        if (planning)
            out += ',' + csvCell(j.name) + ',' + csvCell(j.account) + ',' + csvCell(j.partition) + ',' +
                   std::to_string(j.cpus) + ',' + formatNumber(j.memory_gb) + ',' + csvCell(j.gpu_type);
        if (requests)
            out += ',' + csvCell(j.requested_gpu_type) + ',' + std::to_string(j.nodes) + ',' +
                   formatNumber(j.time_limit) + ',' + formatNumber(j.recorded_start);
        out += '\n';
    }
    io::writeTextFile(path, out);
}

}  // namespace cl
