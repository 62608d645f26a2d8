// Helios (SenseTime) cluster_log.csv: `job_id,user,vc,gpu_num,cpu_num,node_num,state,
// submit_time,start_time,end_time,duration,queue` (docs/architecture.md section 8.2). Columns are
// found by name, so releases with extra columns (e.g. jobname) read the same.
#include <algorithm>
#include <limits>

#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

namespace {

// Helios releases state submit_time as "YYYY-MM-DD HH:MM:SS"; derived files often hold
// epoch seconds instead. Both end up on one clock (datetimes as seconds since 1970).
double submitSeconds(const CsvTable& t, const CsvRow& row, int col) {
    const std::string s = t.text(row, col, false);
    if (auto when = io::parseDateTime(s)) return *when;
    return t.nonNegative(row, col);
}

}  // namespace

Trace readHeliosCsv(const std::string& path, const TraceReadOptions& opts) {
    CsvTable t = CsvTable::readFile(path);
    const int c_id = t.requireColumn("job_id");
    const int c_user = t.requireColumn("user");
    const int c_vc = t.requireColumn("vc");
    const int c_gpus = t.requireColumn("gpu_num");
    const int c_submit = t.requireColumn("submit_time");
    const int c_duration = t.requireColumn("duration");

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    int skipped = 0;
    long long cpu_jobs = 0;
    double earliest = std::numeric_limits<double>::infinity();
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        Job j;
        j.id = t.text(row, c_id, false);
        j.submit_time = submitSeconds(t, row, c_submit);
        long long gpus = t.integer(row, c_gpus);
        if (gpus < 0) io::checkJobGpus(gpus, t.file(), row.line, t.fieldName(c_gpus));
        // The submit clock starts at the first submission in the file, CPU jobs included,
        // so that times stay comparable with other analyses of the same log.
        earliest = std::min(earliest, j.submit_time);
        if (gpus == 0) {  // a CPU-only job: nothing for a GPU scheduler to place
            ++cpu_jobs;
            return;
        }
        io::checkJobGpus(gpus, t.file(), row.line, t.fieldName(c_gpus));
        j.gpus = static_cast<int>(gpus);
        j.duration = t.nonNegative(row, c_duration);
        j.user = t.text(row, c_user);
        j.vc = t.text(row, c_vc);
        trace.jobs.push_back(std::move(j));
    });
    for (Job& j : trace.jobs) j.submit_time -= earliest;
    if (cpu_jobs > 0)
        io::warn(opts,
                 io::fileName(path) + ": skipped " + std::to_string(cpu_jobs) + " CPU-only jobs (gpu_num 0)");
    io::finishImport(trace, path, "Helios cluster log CSV", skipped);
    if (cpu_jobs > 0) trace.provenance.back() += "; " + std::to_string(cpu_jobs) + " CPU-only jobs left out";
    return trace;
}

}  // namespace cl
