#pragma once
// The paper experiments behind `clusterloom-cli experiment NAME`; each takes the arguments
// after its name and returns the exit code.
#include <string>
#include <vector>

namespace cli {

// The Synergy paper's FIFO single-GPU experiment and its load sweep (synergy_experiment.cpp).
// Takes the whole argument list of `experiment` (its usage text lists every experiment).
int synergyExperiment(const std::vector<std::string>& argv);
// The SJF-BSBF paper's tables and interference sweep (sjf_bsbf_experiment.cpp).
int sjfBsbfExperiment(const std::vector<std::string>& argv);

}  // namespace cli
