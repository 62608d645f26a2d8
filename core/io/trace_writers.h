#pragma once
#include <string>

#include "core/model/trace.h"

namespace cl {

// Our JSON trace format (documented in README): {"format":"clusterloom-trace","version":1,...}.
void writeTraceJson(const Trace& trace, const std::string& path);
// Our CSV trace format: job_id,submit_time,gpus,model,iterations,duration,batch_size,user,vc.
void writeTraceCsv(const Trace& trace, const std::string& path);
// By extension: .json -> JSON, anything else -> CSV.
void writeTrace(const Trace& trace, const std::string& path);

}  // namespace cl
