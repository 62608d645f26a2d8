#include "cli/trace_loading.h"

#include <iostream>

#include "core/io/trace_readers.h"
#include "core/workload/model_assignment.h"

namespace cli {

cl::Trace loadTrace(const std::string& path, const std::string& format, const cl::ProfileSet& profiles,
                    unsigned long long model_seed, bool quiet) {
    std::vector<std::string> warnings;
    cl::TraceReadOptions opts;
    opts.profiles = &profiles;
    opts.warnings = &warnings;
    cl::Trace trace = cl::readTrace(path, format, opts);
    if (!quiet)
        for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
    std::size_t missing = 0;
    for (const auto& j : trace.jobs) missing += j.model.empty() ? 1 : 0;
    if (missing > 0) {
        cl::assignModels(trace, profiles.modelNames(), model_seed, true);
        if (!quiet)
            std::cerr << "note: " << missing << " of " << trace.jobs.size()
                      << " jobs had no model; assigned uniformly from the built-in models with seed " << model_seed
                      << " (--model-seed)\n";
    }
    return trace;
}

}  // namespace cli
