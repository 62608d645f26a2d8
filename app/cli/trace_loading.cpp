#include "cli/trace_loading.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "cli/args.h"
#include "core/io/builtin_data.h"
#include "core/io/profile_io.h"
#include "core/model/optimistic_profiling.h"

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
    for (const auto& j : trace.jobs) missing += j.model.empty() && !cl::keepsMeasuredRunTime(j) ? 1 : 0;
    if (missing > 0) {
        cl::assignModels(trace, profiles.modelNames(), model_seed, true);
        if (!quiet)
            std::cerr << "note: " << missing << " of " << trace.jobs.size()
                      << " jobs had no model; assigned uniformly from the built-in models with seed "
                      << model_seed << " (--model-seed)\n";
    }
    return trace;
}

cl::ProfileSet resolveProfiles(const std::string& name_or_file, bool optimistic) {
    const auto names = cl::builtinProfileNames();
    cl::ProfileSet set;
    if (std::find(names.begin(), names.end(), name_or_file) != names.end()) {
        set = cl::builtinProfiles(name_or_file);
    } else if (std::filesystem::exists(name_or_file)) {
        set = cl::readProfilesJson(name_or_file);
    } else {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        throw UsageError("--profiles: '" + name_or_file + "' is neither a built-in profile set (" + list +
                         ") nor a profile file");
    }
    return optimistic ? cl::withOptimisticProfiles(set) : set;
}

std::pair<int, int> parseMeasureWindow(const std::string& text) {
    const auto dash = text.find('-');
    try {
        if (dash == std::string::npos) throw std::invalid_argument("no dash");
        std::size_t used_first = 0, used_last = 0;
        const std::string a = text.substr(0, dash), b = text.substr(dash + 1);
        const int first = std::stoi(a, &used_first);
        const int last = std::stoi(b, &used_last);
        if (used_first != a.size() || used_last != b.size() || first < 0 || last < first)
            throw std::invalid_argument("order");
        return {first, last};
    } catch (const std::exception&) {
        throw UsageError("--measure: expected FIRST-LAST job positions, e.g. 4000-4999, got '" + text + "'");
    }
}

}  // namespace cli
