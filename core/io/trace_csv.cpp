// Our CSV trace format: `job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc`.
// A spreadsheet-friendly subset of the JSON format (no per-job iteration/stage times or
// priority). job_id, submit_time and gpus are required; the other columns may be left out.
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

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    std::unordered_map<std::string, int> seen;  // id -> line
    int skipped = 0;
    for (const CsvRow& row : t.rows()) {
        io::guardRow(opts, skipped, [&] {
            t.requireRowWidth(row);
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
            auto [it, fresh] = seen.emplace(j.id, row.line);
            if (!fresh)
                throw ParseError(
                    t.file(), row.line, t.fieldName(c_id),
                    "duplicate job id '" + j.id + "' (first on line " + std::to_string(it->second) + ")");
            trace.jobs.push_back(std::move(j));
        });
    }
    io::finishImport(trace, path, "ClusterLoom trace CSV", skipped);
    return trace;
}

void writeTraceCsv(const Trace& trace, const std::string& path) {
    std::string out = "job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc\n";
    for (const Job& j : trace.jobs) {
        out += csvCell(j.id) + ',' + formatNumber(j.submit_time) + ',' + std::to_string(j.gpus) + ',' +
               csvCell(j.model) + ',' + formatNumber(j.iterations) + ',' + formatNumber(j.duration) + ',' +
               std::to_string(j.batch_size) + ',' + csvCell(j.user) + ',' + csvCell(j.vc) + '\n';
    }
    io::writeTextFile(path, out);
}

}  // namespace cl
