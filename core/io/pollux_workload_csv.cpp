// Pollux evaluation workloads: `name,time,application,num_replicas,batch_size`, time = submit
// second (docs/architecture.md section 8.2). The files state no length: Pollux runs each
// application to its own convergence target, so iterations and duration stay 0 for a later
// rule to fill.
#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

Trace readPolluxWorkloadCsv(const std::string& path, const TraceReadOptions& opts) {
    CsvTable t = CsvTable::readFile(path);
    const int c_name = t.requireColumn("name");
    const int c_time = t.requireColumn("time");
    const int c_app = t.requireColumn("application");
    const int c_gpus = t.requireColumn("num_replicas");
    const int c_batch = t.requireColumn("batch_size");

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    int skipped = 0;
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        Job j;
        j.id = t.text(row, c_name, false);
        j.submit_time = t.nonNegative(row, c_time);
        j.model = t.text(row, c_app);
        io::checkModel(opts, j.model, t.file(), row.line, t.fieldName(c_app));
        j.gpus = io::jobGpus(t, row, c_gpus);
        j.batch_size = io::nonNegativeInt(t, row, c_batch);
        trace.jobs.push_back(std::move(j));
    });
    io::finishImport(trace, path, "Pollux workload CSV", skipped);
    return trace;
}

}  // namespace cl
