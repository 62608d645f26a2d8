#pragma once
// Shared by run/transform/demo: reading a trace the way the user asked, with models assigned
// by the seeded rule where the trace has none.
#include <string>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cli {

cl::Trace loadTrace(const std::string& path, const std::string& format, const cl::ProfileSet& profiles,
                    unsigned long long model_seed, bool quiet);

}  // namespace cli
