// Synergy replay CSV: no header, `job_id,model_name,arrival_time,num_iters,gpu_demand`,
// arrival in seconds (docs/architecture.md section 8.2).
#include <string>

#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

namespace {

// The Synergy simulator's --record_trace files name two models by its own short names; our
// profile set (data/profiles/synergy.json) calls them as the rest of the project does.
std::string profileModelName(std::string name) {
    if (name == "res18") return "resnet18";
    if (name == "res50") return "resnet50";
    return name;
}

}  // namespace

Trace readSynergyReplayCsv(const std::string& path, const TraceReadOptions& opts) {
    CsvTable t = CsvTable::readFile(path, /*has_header=*/false);
    t.useHeader({"job_id", "model_name", "arrival_time", "num_iters", "gpu_demand"});

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    int skipped = 0;
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        Job j;
        j.id = t.text(row, 0, false);
        j.model = profileModelName(t.text(row, 1));
        io::checkModel(opts, j.model, t.file(), row.line, t.fieldName(1));
        j.submit_time = t.nonNegative(row, 2);
        j.iterations = t.nonNegative(row, 3);
        j.gpus = io::jobGpus(t, row, 4);
        trace.jobs.push_back(std::move(j));
    });
    io::finishImport(trace, path, "Synergy replay CSV", skipped);
    return trace;
}

}  // namespace cl
