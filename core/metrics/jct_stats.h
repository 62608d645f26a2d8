#pragma once
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

// Nearest-rank percentile (p in [0,1]) of unsorted values; 0 for an empty list.
double percentile(std::vector<double> values, double p);
// The middle value; the mean of the two middle values for an even count.
double median(std::vector<double> values);
// Over the given (measured) jobs, docs/architecture.md section 7.2; the size classes split at
// kLargeJobAboveGpus (section 7.3).
Summary summarize(const std::vector<JobRecord>& jobs);

}  // namespace cl
