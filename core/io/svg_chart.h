#pragma once
// A dependency-free SVG chart of the sampled series, for the headless demo and reports:
// GPU utilization and queue length over time, one line per run.
#include <string>
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

std::string utilizationSvg(const std::vector<SimResult>& results, const std::string& title);
void writeUtilizationSvg(const std::vector<SimResult>& results, const std::string& title,
                         const std::string& path);

}  // namespace cl
