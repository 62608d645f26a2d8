// Muri artifact trace CSV (13 columns, milliseconds) and its Tiresias ancestor (7 columns,
// seconds). docs/architecture.md section 8.2.
#include <algorithm>
#include <array>

#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

namespace {

// Columns that only the Muri variant has; any of them in the header selects that variant,
// so a Muri file missing one column is reported as such rather than as "not Tiresias".
constexpr std::array<const char*, 6> kMuriOnly = {"batch_size",      "iteration_time",  "resource_time_0",
                                                  "resource_time_1", "resource_time_2", "priority"};

bool isMuriVariant(const CsvTable& t) {
    return std::any_of(kMuriOnly.begin(), kMuriOnly.end(),
                       [&](const char* c) { return t.column(c).has_value(); });
}

}  // namespace

Trace readMuriTraceCsv(const std::string& path, const TraceReadOptions& opts) {
    CsvTable t = CsvTable::readFile(path);
    const bool muri = isMuriVariant(t);
    // Muri states times in milliseconds, Tiresias in seconds.
    auto seconds = [&](const CsvRow& row, int col) {
        const double value = t.nonNegative(row, col);
        return muri ? io::msTextToSeconds(row.cells[col]) : value;
    };

    const int c_id = t.requireColumn("job_id");
    const int c_gpus = t.requireColumn("num_gpu");
    const int c_submit = t.requireColumn("submit_time");
    const int c_iters = t.requireColumn("iterations");
    const int c_model = t.requireColumn("model_name");
    const int c_duration = t.requireColumn("duration");
    const int c_interval = t.requireColumn("interval");
    int c_batch = -1, c_iter_time = -1, c_prio = -1;
    std::array<int, 3> c_stage{};
    if (muri) {
        c_batch = t.requireColumn("batch_size");
        c_iter_time = t.requireColumn("iteration_time");
        for (int k = 0; k < 3; ++k) c_stage[k] = t.requireColumn("resource_time_" + std::to_string(k));
        c_prio = t.requireColumn("priority");
    }

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    int skipped = 0;
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        Job j;
        j.id = t.text(row, c_id, false);
        j.gpus = io::jobGpus(t, row, c_gpus);
        j.submit_time = seconds(row, c_submit);
        j.iterations = t.nonNegative(row, c_iters);
        j.model = t.text(row, c_model);
        io::checkModel(opts, j.model, t.file(), row.line, t.fieldName(c_model));
        j.duration = seconds(row, c_duration);
        // The inter-arrival interval only documents how the trace was generated; the
        // submit time already carries it, so it is validated and otherwise ignored.
        t.nonNegative(row, c_interval);
        if (muri) {
            j.batch_size = io::nonNegativeInt(t, row, c_batch);
            j.solo_iteration_time = seconds(row, c_iter_time);
            j.stage_times.reserve(3);
            for (int c : c_stage) j.stage_times.push_back(seconds(row, c));
            j.priority = io::nonNegativeInt(t, row, c_prio);
        }
        trace.jobs.push_back(std::move(j));
    });
    io::finishImport(trace, path, muri ? "Muri trace CSV" : "Tiresias trace CSV", skipped);
    return trace;
}

}  // namespace cl
