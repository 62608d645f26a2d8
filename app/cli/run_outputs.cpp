#include "cli/run_outputs.h"

#include <sstream>

#include "cli/args.h"

namespace cli {

RunOutputs parseRunOutputs(const std::string& list) {
    RunOutputs out{false, false, false, false};
    std::stringstream in(list);
    std::string item;
    int count = 0;
    while (std::getline(in, item, ',')) {
        bool* flag = item == "jobs"       ? &out.jobs
                     : item == "series"   ? &out.series
                     : item == "segments" ? &out.segments
                     : item == "metrics"  ? &out.metrics
                                          : nullptr;
        if (!flag)
            throw UsageError("--outputs: unknown output '" + item +
                             "' (valid: jobs, series, segments, metrics, separated by commas)");
        if (*flag) throw UsageError("--outputs: '" + item + "' is listed twice");
        *flag = true;
        ++count;
    }
    if (count == 0) throw UsageError("--outputs: empty list (valid: jobs, series, segments, metrics)");
    return out;
}

}  // namespace cli
