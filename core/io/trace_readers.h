#pragma once
// Trace readers, one file per format (docs/architecture.md sections 8.2 and 8.3). Every reader
// throws ParseError naming file, line and field on bad input and never returns a partially read
// trace, unless skip_invalid_rows is set, in which case each dropped row becomes a warning.
#include <string>
#include <vector>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl {

struct TraceReadOptions {
    const ProfileSet* profiles = nullptr;  // when set, model names must be known to it
    bool skip_invalid_rows = false;
    std::vector<std::string>* warnings = nullptr;
};

Trace readMuriTraceCsv(const std::string& path,
                       const TraceReadOptions& opts = {});  // 13- and 7-column (Tiresias)
Trace readSynergyReplayCsv(const std::string& path, const TraceReadOptions& opts = {});  // no header
Trace readPhillyJobLogJson(const std::string& path, const TraceReadOptions& opts = {});  // cluster_job_log
Trace readPolluxPhillyCsv(const std::string& path,
                          const TraceReadOptions& opts = {});  // timestamp,duration,num_gpus,...
Trace readPolluxWorkloadCsv(const std::string& path,
                            const TraceReadOptions& opts = {});                   // name,time,application,...
Trace readHeliosCsv(const std::string& path, const TraceReadOptions& opts = {});  // cluster_log.csv
Trace readAlibabaPai(const std::string& job_table, const std::string& task_table,
                     const TraceReadOptions& opts = {});
Trace readTraceJson(const std::string& path, const TraceReadOptions& opts = {});  // our format
Trace readTraceCsv(const std::string& path, const TraceReadOptions& opts = {});   // our format
// Slurm accounting history (sacct --parsable2 or --json, times taken as UTC) as measured:
// sacct_trace.h. A refused row fails the read unless skip_invalid_rows makes it a warning.
Trace readSacctTrace(const std::string& path, const TraceReadOptions& opts = {});

// Format names accepted by readTrace: auto, muri, tiresias, synergy, philly-json, pollux-philly,
// pollux-workload, helios, alibaba (path = job table; task table found beside it), sacct, json, csv.
std::vector<std::string> traceFormatNames();
std::string detectTraceFormat(const std::string& path);  // throws ParseError if unknown
Trace readTrace(const std::string& path, const std::string& format = "auto",
                const TraceReadOptions& opts = {});

}  // namespace cl
