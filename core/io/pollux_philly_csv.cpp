// Philly jobs as published with the Pollux artifact: `timestamp,duration,num_gpus,gpu_time,
// cluster`, timestamp "YYYY-MM-DD HH:MM:SS", duration in seconds (docs/architecture.md
// section 8.2).
#include <algorithm>
#include <limits>

#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

Trace readPolluxPhillyCsv(const std::string& path, const TraceReadOptions& opts) {
    CsvTable t = CsvTable::readFile(path);
    const int c_time = t.requireColumn("timestamp");
    const int c_duration = t.requireColumn("duration");
    const int c_gpus = t.requireColumn("num_gpus");
    const int c_vc = t.requireColumn("cluster");
    // gpu_time (= duration x num_gpus) is redundant and not read.

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    int skipped = 0;
    double earliest = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < t.rows().size(); ++k) {
        const CsvRow& row = t.rows()[k];
        io::guardRow(opts, skipped, [&] {
            t.requireRowWidth(row);
            Job j;
            // The file has no job ids; the data row index keeps ids stable when rows are skipped.
            j.id = std::to_string(k);
            const std::string stamp = t.text(row, c_time, false);
            auto when = io::parseDateTime(stamp);
            if (!when)
                throw ParseError(t.file(), row.line, t.fieldName(c_time),
                                 "expected a time 'YYYY-MM-DD HH:MM:SS', found '" + stamp + "'");
            j.submit_time = *when;  // made relative below
            j.duration = t.nonNegative(row, c_duration);
            j.gpus = io::jobGpus(t, row, c_gpus);
            j.vc = t.text(row, c_vc);
            earliest = std::min(earliest, *when);
            trace.jobs.push_back(std::move(j));
        });
    }
    for (Job& j : trace.jobs) j.submit_time -= earliest;
    io::finishImport(trace, path, "Pollux Philly jobs CSV", skipped);
    return trace;
}

}  // namespace cl
