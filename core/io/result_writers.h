#pragma once
// Output writers for run results ("tracers" kept out of the simulation logic).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/atomic_file.h"
#include "core/model/sim_result.h"

namespace cl {

// job_index,job_id,model,gpus,iterations,submit,first_start,end,jct,queueing_delay,pending_time,preemptions,restarts
void writeJobsCsv(const SimResult& result, const std::string& path);
// gpu,t0,t1,job_index
void writeSegmentsCsv(const SimResult& result, const std::string& path);
// t,queue_length,running_jobs,blocking_index,gpu_utilization
void writeSeriesCsv(const SimResult& result, const std::string& path);

nlohmann::json summaryJson(const Summary& s);
// {"avg_jct": {policy: seconds}, "policies": {policy: {summary}}, plus the given context}.
nlohmann::json metricsJson(const std::vector<SimResult>& results, const nlohmann::json& context);
void writeJson(const nlohmann::json& j, const std::string& path);

}  // namespace cl
