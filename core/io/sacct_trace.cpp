#include "core/io/sacct_trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/io/read_helpers.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/trace_readers.h"

namespace cl {

namespace {

// What the job asked Slurm for, and when the recorded run started it (docs/architecture.md 8.8):
// the GPU type of ReqTRES in our names (empty = any type), NNodes, and Timelimit in seconds, where
// UNLIMITED and Partition_Limit become 0 (none of its own: the engine applies the partition's
// MaxTime, or none). Start counts from the same origin as the submit times.
void addRequest(Job& j, const SlurmJob& s, double origin) {
    j.requested_gpu_type =
        s.requested_gpu_type.empty() ? std::string() : gpuTypeFromSlurm(s.requested_gpu_type);
    j.nodes = s.nodes;
    j.time_limit = std::isfinite(s.time_limit) && s.time_limit > 0 ? s.time_limit : 0.0;
    // A start before the earliest submission (clocks out of step) is not a time before the trace.
    j.recorded_start = s.started && std::isfinite(s.start) ? std::max(0.0, s.start - origin) : -1.0;
}

}  // namespace

Trace traceFromSacct(const SacctImport& history, const std::string& name, const std::string& file,
                     std::map<std::string, int>* left_out) {
    std::map<std::string, int> dropped_here;
    Trace trace;
    trace.name = name;
    double first = std::numeric_limits<double>::infinity();
    for (const SlurmJob& s : history.jobs)
        if (std::isfinite(s.submit)) first = std::min(first, s.submit);
    if (!std::isfinite(first)) first = 0.0;
    trace.jobs.reserve(history.jobs.size());
    for (const SlurmJob& s : history.jobs) {
        double run_time = s.elapsed;
        if (!s.started) {
            if (!(std::isfinite(s.time_limit) && s.time_limit > 0)) {
                ++dropped_here["never started, no time limit to replay"];
                continue;
            }
            run_time = s.time_limit;
        }
        Job j;
        j.id = s.id;
        j.submit_time = std::isfinite(s.submit) ? s.submit - first : 0.0;
        j.gpus = s.gpus;
        j.duration = run_time;
        j.user = s.user;
        j.name = s.name;
        j.account = s.account;
        j.partition = s.partition;  // a comma list when it was submitted to several (sbatch --partition)
        j.cpus = s.cpus;
        j.memory_gb = std::isfinite(s.memory_gb) ? s.memory_gb : 0.0;
        j.gpu_type = s.gpu_type.empty() ? std::string() : gpuTypeFromSlurm(s.gpu_type);
        addRequest(j, s, first);
        trace.jobs.push_back(std::move(j));
    }
    std::string dropped;
    int total_dropped = 0;
    std::map<std::string, int> all_dropped = history.dropped;
    for (const auto& [reason, n] : dropped_here) all_dropped[reason] += n;
    if (left_out) *left_out = dropped_here;
    for (const auto& [reason, n] : all_dropped) {
        dropped += (dropped.empty() ? "" : ", ") + std::to_string(n) + " " + reason;
        total_dropped += n;
    }
    trace.provenance.push_back(
        "imported " + io::fileName(file) + " as Slurm accounting history (" +
        std::to_string(trace.jobs.size()) + " jobs from " + std::to_string(history.rows) + " rows" +
        (total_dropped ? "; left out: " + dropped : "") +
        (history.refused.empty() ? "" : "; " + std::to_string(history.refused.size()) + " rows refused") +
        ")");
    return trace;
}

Trace readSacctTrace(const std::string& path, const TraceReadOptions& opts) {
    const SacctImport history = readSacct(path);
    if (!history.refused.empty()) {
        if (!opts.skip_invalid_rows)
            throw ParseError(path, 0, "",
                             std::to_string(history.refused.size()) +
                                 " rows cannot be read, the first: " + history.refused.front() +
                                 " ('clusterloom-cli import slurm' lists them all and imports the rest)");
        for (const std::string& row : history.refused) io::warn(opts, row + " (row skipped)");
    }
    return traceFromSacct(history, io::fileStem(path), path);
}

}  // namespace cl
