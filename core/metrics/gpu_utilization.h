#pragma once
// The mean GPU utilisation of a run (docs/architecture.md section 7.4): its utilisation series
// integrated as steps, each sample holding until the next (section 2.8), over the span from
// the first sample to the last.
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

// NaN for an empty series; the one value of a series whose samples all fall at one instant.
double meanGpuUtilization(const std::vector<TimeSample>& series);

}  // namespace cl
