#pragma once
// Which files `run --out DIR` writes (--outputs jobs,series,segments,metrics): per policy
// jobs.csv, series.csv and segments.csv, and metrics.json for all of them. A run's segments and
// series grow with its preemptions and events; a user who needs only the summary leaves them
// out, and what is not written is not recorded either.
#include <string>

namespace cli {

struct RunOutputs {
    bool jobs = true;
    bool series = true;
    bool segments = true;
    bool metrics = true;
};

// "jobs,series,segments,metrics" in any order and subset; throws UsageError naming an unknown
// or repeated entry and the valid ones, or an empty list.
RunOutputs parseRunOutputs(const std::string& list);

}  // namespace cli
