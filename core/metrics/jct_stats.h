#pragma once
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

// Nearest-rank percentile (p in [0,1]) of unsorted values; 0 for an empty list.
double percentile(std::vector<double> values, double p);
// The middle value; the mean of the two middle values for an even count.
double median(std::vector<double> values);
Summary summarize(const std::vector<JobRecord>& jobs);

}  // namespace cl
