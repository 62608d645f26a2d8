#include "core/io/result_writers.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace cl {

namespace {
std::string num(double v) {
    if (std::isnan(v)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}
std::string csvText(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
}  // namespace

void writeJobsCsv(const SimResult& r, const std::string& path) {
    AtomicFile f(path);
    auto& o = f.stream();
    o << "job_index,job_id,model,gpus,iterations,submit,first_start,end,jct,queueing_delay,pending_time,"
         "preemptions,restarts\n";
    for (const auto& j : r.jobs)
        o << j.index << ',' << csvText(j.id) << ',' << csvText(j.model) << ',' << j.gpus << ','
          << num(j.iterations) << ',' << num(j.submit) << ',' << num(j.first_start) << ',' << num(j.end)
          << ',' << num(j.jct) << ',' << num(j.queueing_delay) << ',' << num(j.pending_time) << ','
          << j.preemptions << ',' << j.restarts << '\n';
    f.commit();
}

void writeSegmentsCsv(const SimResult& r, const std::string& path) {
    AtomicFile f(path);
    auto& o = f.stream();
    o << "gpu,t0,t1,job_index\n";
    for (const auto& s : r.segments)
        o << s.gpu << ',' << num(s.t0) << ',' << num(s.t1) << ',' << s.job << '\n';
    f.commit();
}

void writeSeriesCsv(const SimResult& r, const std::string& path) {
    AtomicFile f(path);
    auto& o = f.stream();
    o << "t,queue_length,running_jobs,blocking_index,gpu_utilization,storage_utilization,cpu_utilization,"
         "gpu_compute_utilization,network_utilization\n";
    for (const auto& s : r.series)
        o << num(s.t) << ',' << s.queue_length << ',' << s.running_jobs << ',' << num(s.blocking_index) << ','
          << num(s.gpu_utilization) << ',' << num(s.storage_utilization) << ',' << num(s.cpu_utilization)
          << ',' << num(s.gpu_compute_utilization) << ',' << num(s.network_utilization) << '\n';
    f.commit();
}

namespace {
// NaN (a size class without a completed job) is written as null.
nlohmann::json maybeNumber(double v) {
    return std::isnan(v) ? nlohmann::json() : nlohmann::json(v);
}
}  // namespace

nlohmann::json summaryJson(const Summary& s) {
    // The new figures take the planning targets' names (docs/architecture.md 7.7).
    return {{"jobs", s.jobs},
            {"completed", s.completed},
            {"avg_jct", s.avg_jct},
            {"median_jct", s.median_jct},
            {"p95_jct", s.p95_jct},
            {"p99_jct", s.p99_jct},
            {"makespan", s.makespan},
            {"avg_queueing_delay", s.avg_queueing_delay},
            {"p95_queueing", s.p95_queueing_delay},
            {"small:completed", s.small.completed},
            {"small:avg_jct", maybeNumber(s.small.avg_jct)},
            {"small:p95_jct", maybeNumber(s.small.p95_jct)},
            {"small:p99_jct", maybeNumber(s.small.p99_jct)},
            {"large:completed", s.large.completed},
            {"large:avg_jct", maybeNumber(s.large.avg_jct)},
            {"large:p95_jct", maybeNumber(s.large.p95_jct)},
            {"large:p99_jct", maybeNumber(s.large.p99_jct)}};
}

nlohmann::json metricsJson(const std::vector<SimResult>& results, const nlohmann::json& context) {
    nlohmann::json j = context.is_object() ? context : nlohmann::json::object();
    j["units"] = "seconds";
    nlohmann::json avg = nlohmann::json::object();
    nlohmann::json policies = nlohmann::json::object();
    for (const auto& r : results) {
        avg[r.policy] = r.summary.avg_jct;
        nlohmann::json p = summaryJson(r.summary);
        p["conventions"] = r.conventions;
        p["events"] = r.events;
        p["wall_seconds"] = r.wall_seconds;
        policies[r.policy] = p;
    }
    j["avg_jct"] = avg;
    j["policies"] = policies;
    return j;
}

void writeJson(const nlohmann::json& j, const std::string& path) {
    AtomicFile f(path);
    f.stream() << j.dump(2) << '\n';
    f.commit();
}

}  // namespace cl
