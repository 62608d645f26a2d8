#include "core/io/sacct_trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/io/read_helpers.h"

namespace cl {

Trace traceFromSacct(const SacctImport& history, const std::string& name, const std::string& file) {
    Trace trace;
    trace.name = name;
    double first = std::numeric_limits<double>::infinity();
    for (const SlurmJob& s : history.jobs)
        if (std::isfinite(s.submit)) first = std::min(first, s.submit);
    if (!std::isfinite(first)) first = 0.0;
    trace.jobs.reserve(history.jobs.size());
    for (const SlurmJob& s : history.jobs) {
        Job j;
        j.id = s.id;
        j.submit_time = std::isfinite(s.submit) ? s.submit - first : 0.0;
        j.gpus = s.gpus;
        j.duration = s.elapsed;
        j.user = s.user;
        j.name = s.name;
        j.account = s.account;
        j.partition = s.partition;
        j.cpus = s.cpus;
        j.memory_gb = std::isfinite(s.memory_gb) ? s.memory_gb : 0.0;
        j.gpu_type = s.gpu_type;  // PENDING-MERGE: map by the GPU type table
        trace.jobs.push_back(std::move(j));
    }
    std::string dropped;
    int total_dropped = 0;
    for (const auto& [reason, n] : history.dropped) {
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

}  // namespace cl
