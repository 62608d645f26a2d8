#pragma once
// clusterloom-cli experiment sjf-bsbf (cmd_experiment_sjf_bsbf.cpp).
#include <string>
#include <vector>

namespace cli {

int sjfBsbfExperiment(const std::vector<std::string>& argv);

}  // namespace cli
