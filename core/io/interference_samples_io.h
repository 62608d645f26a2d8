#pragma once
#include <string>
#include <vector>

#include "core/interference/interference_fit.h"

namespace cl {

// Measured co-location samples, CSV with the header
//   own_cpu,other_cpu,socket_cores,own_pcie,other_pcie,pcie_gbps,slowdown
// (any order; extra columns are ignored). Cores and Gbps are non-negative, socket_cores and
// pcie_gbps positive; slowdown (time co-located / time alone) must be at least 0.5: a job
// measured slightly faster than alone is noise, one twice as fast is a unit error (a speed
// ratio instead of a slowdown), and at most 1e6; a load may be at most 1000 times its socket's
// cores or group's bandwidth (kMaxLoadRatio, interference_fit.h). Errors are ParseErrors naming file, line
// and field.
std::vector<InterferenceSample> readInterferenceSamplesCsv(const std::string& path);
std::vector<InterferenceSample> parseInterferenceSamplesCsv(const std::string& text, const std::string& file);

}  // namespace cl
