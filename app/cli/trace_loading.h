#pragma once
// Shared by run/transform/demo: reading a trace the way the user asked, with models assigned
// by the seeded rule where the trace has none.
#include <string>
#include <utility>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cli {

cl::Trace loadTrace(const std::string& path, const std::string& format, const cl::ProfileSet& profiles,
                    unsigned long long model_seed, bool quiet);

// --profiles: a built-in profile set's name (muri, synergy, sjf-bsbf) or a profile JSON file; with
// optimistic, the Synergy matrices as optimistic profiling would estimate them.
cl::ProfileSet resolveProfiles(const std::string& name_or_file, bool optimistic = false);

// --measure FIRST-LAST (job positions, inclusive); throws UsageError naming the option.
std::pair<int, int> parseMeasureWindow(const std::string& text);

}  // namespace cli
