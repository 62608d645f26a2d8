// Microsoft Philly cluster_job_log (JSON array; docs/architecture.md section 8.2):
// [{"status","vc","jobid","submitted_time","user","attempts":[{"start_time","end_time",
//   "detail":[{"ip","gpus":[...]}]}]}], times "YYYY-MM-DD HH:MM:SS".
//
// A job is taken from its LAST attempt: GPUs = sum of len(gpus) over that attempt's
// details, duration = end_time - start_time of that attempt. Jobs without a usable last
// attempt (no attempts, a null or unparseable start/end time, end before start, 0 GPUs)
// never ran in a way we can replay; they are skipped and reported in one summary warning.
// Submit times count from the earliest submitted_time in the file, skipped jobs included.
#include <algorithm>
#include <limits>
#include <optional>

#include "core/io/json_doc.h"
#include "core/io/read_helpers.h"
#include "core/io/trace_readers.h"

namespace cl {

namespace {

using io::JsonDoc;
using io::JsonPath;
using nlohmann::json;

// An optional string member: absent or null -> "".
std::string optionalString(const JsonDoc& doc, const json& obj, const JsonPath& at, const std::string& key) {
    const json* v = doc.member(obj, at, key);
    return (!v || v->is_null()) ? std::string() : doc.string(*v, at / key);
}

// An attempt time: null, absent or unparseable (the log has "None") -> no time.
std::optional<double> attemptTime(const JsonDoc& doc, const json& attempt, const JsonPath& at,
                                  const std::string& key) {
    const json* v = doc.member(attempt, at, key);
    if (!v || v->is_null()) return std::nullopt;
    return io::parseDateTime(doc.string(*v, at / key));
}

// GPUs of an attempt: sum of len(gpus) over its details.
long long attemptGpus(const JsonDoc& doc, const json& attempt, const JsonPath& at) {
    const json* details = doc.member(attempt, at, "detail");
    if (!details || details->is_null()) return 0;
    doc.array(*details, at / "detail");
    long long gpus = 0;
    for (std::size_t k = 0; k < details->size(); ++k) {
        const JsonPath dk = (at / "detail")[k];
        const json& d = doc.object((*details)[k], dk);
        const json* list = doc.member(d, dk, "gpus");
        if (list && !list->is_null()) gpus += static_cast<long long>(doc.array(*list, dk / "gpus").size());
    }
    return gpus;
}

}  // namespace

Trace readPhillyJobLogJson(const std::string& path, const TraceReadOptions& opts) {
    const JsonDoc doc = JsonDoc::read(path);
    const json& jobs = doc.array(doc.root(), JsonPath());

    Trace trace;
    trace.jobs.reserve(jobs.size());
    int skipped = 0;
    long long unusable = 0;
    std::string examples;
    double earliest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const JsonPath at = JsonPath()[i];
        io::guardRow(opts, skipped, [&] {
            const json& v = doc.object(jobs[i], at);
            Job j;
            j.id = doc.string(doc.require(v, at, "jobid"), at / "jobid", false);
            const std::string submitted =
                doc.string(doc.require(v, at, "submitted_time"), at / "submitted_time");
            auto submit = io::parseDateTime(submitted);
            if (!submit)
                doc.fail(at / "submitted_time",
                         "expected a time 'YYYY-MM-DD HH:MM:SS', found '" + submitted + "'");
            j.user = optionalString(doc, v, at, "user");
            j.vc = optionalString(doc, v, at, "vc");
            earliest = std::min(earliest, *submit);

            std::optional<double> start, end;
            long long gpus = 0;
            const json* attempts = doc.member(v, at, "attempts");
            if (attempts && !attempts->is_null() && !doc.array(*attempts, at / "attempts").empty()) {
                const JsonPath last_at = (at / "attempts")[attempts->size() - 1];
                const json& last = doc.object(attempts->back(), last_at);
                start = attemptTime(doc, last, last_at, "start_time");
                end = attemptTime(doc, last, last_at, "end_time");
                gpus = attemptGpus(doc, last, last_at);
            }
            if (!start || !end || *end < *start || gpus == 0) {
                if (unusable++ < 3) examples += (examples.empty() ? "" : ", ") + j.id;
                return;
            }
            if (gpus > io::kMaxJobGpus)
                doc.fail(at / "attempts", "implausible GPU count " + std::to_string(gpus));
            j.gpus = static_cast<int>(gpus);
            j.submit_time = *submit;  // made relative below
            j.duration = *end - *start;
            trace.jobs.push_back(std::move(j));
        });
    }
    for (Job& j : trace.jobs) j.submit_time -= earliest;
    if (unusable > 0)
        io::warn(opts, io::fileName(path) + ": skipped " + std::to_string(unusable) +
                           " jobs without a usable last attempt (no attempts, missing times or 0 GPUs): " +
                           examples + (unusable > 3 ? ", ..." : ""));
    io::finishImport(trace, path, "Philly cluster_job_log JSON", skipped);
    if (unusable > 0)
        trace.provenance.back() +=
            "; " + std::to_string(unusable) + " jobs without a usable attempt left out";
    return trace;
}

}  // namespace cl
