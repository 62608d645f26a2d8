// Alibaba PAI 2020 (cluster-trace-gpu-v2020): pai_job_table and pai_task_table, published
// without header lines (a header line is accepted too). docs/architecture.md
// section 8.2.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

namespace {

// A few example names for a summary warning.
struct Examples {
    long long count = 0;
    std::string names;
    void add(const std::string& name) {
        if (count++ < 3) names += (names.empty() ? "" : ", ") + name;
    }
    std::string text() const { return names + (count > 3 ? ", ..." : ""); }
};

// Job name -> GPUs summed over its tasks, in units of whole GPUs.
std::unordered_map<std::string, double> gpusByJob(const std::string& task_table, const TraceReadOptions& opts,
                                                  int& skipped) {
    CsvTable t = CsvTable::readFile(task_table, /*has_header=*/false);
    t.useHeader({"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu",
                 "plan_mem", "plan_gpu", "gpu_type"});
    std::unordered_map<std::string, double> gpus;
    gpus.reserve(t.rows().size());
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        std::string job = t.text(row, 0, false);
        double instances = t.nonNegative(row, 2);
        // plan_gpu is a percentage of one GPU; CPU-only tasks leave it empty.
        double percent = t.text(row, 8).empty() ? 0.0 : t.nonNegative(row, 8);
        gpus[job] += instances * percent / 100.0;
    });
    return gpus;
}

}  // namespace

Trace readAlibabaPai(const std::string& job_table, const std::string& task_table,
                     const TraceReadOptions& opts) {
    int skipped = 0;
    const auto gpus = gpusByJob(task_table, opts, skipped);

    CsvTable t = CsvTable::readFile(job_table, /*has_header=*/false);
    t.useHeader({"job_name", "inst_id", "user", "status", "start_time", "end_time"});

    Trace trace;
    trace.jobs.reserve(t.rows().size());
    Examples no_gpu, no_times;
    double earliest = std::numeric_limits<double>::infinity();
    io::forEachRow(t, opts, skipped, [&](const CsvRow& row) {
        Job j;
        j.id = t.text(row, 0, false);
        j.user = t.text(row, 2);
        // Jobs that never started or are still running have empty times: skipped below.
        const bool has_start = !t.text(row, 4).empty();
        const bool has_end = !t.text(row, 5).empty();
        double start = has_start ? t.nonNegative(row, 4) : 0.0;
        double end = has_end ? t.nonNegative(row, 5) : 0.0;
        if (has_start) earliest = std::min(earliest, start);
        auto it = gpus.find(j.id);
        if (it == gpus.end() || it->second <= 0.0) {
            no_gpu.add(j.id);
            return;
        }
        if (!has_start || !has_end || end < start) {
            no_times.add(j.id);
            return;
        }
        // Shares like 3 x 33.3% must not round up to 2 GPUs because of float noise.
        long long whole = std::max(1LL, static_cast<long long>(std::ceil(it->second - 1e-6)));
        io::checkJobGpus(whole, t.file(), row.line, "plan_gpu");
        j.gpus = static_cast<int>(whole);
        j.submit_time = start;  // made relative below
        j.duration = end - start;
        trace.jobs.push_back(std::move(j));
    });
    for (Job& j : trace.jobs) j.submit_time -= earliest;
    const std::string file = io::fileName(job_table);
    if (no_gpu.count > 0)
        io::warn(opts, file + ": skipped " + std::to_string(no_gpu.count) +
                           " jobs whose tasks request no GPU (or that have no tasks): " + no_gpu.text());
    if (no_times.count > 0)
        io::warn(opts, file + ": skipped " + std::to_string(no_times.count) +
                           " jobs without a usable start and end time: " + no_times.text());
    io::finishImport(trace, job_table, "Alibaba PAI 2020 job + task tables", skipped);
    if (no_gpu.count + no_times.count > 0)
        trace.provenance.back() +=
            "; " + std::to_string(no_gpu.count + no_times.count) + " jobs without GPUs or times left out";
    return trace;
}

}  // namespace cl
