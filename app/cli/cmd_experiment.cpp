// clusterloom-cli experiment NAME: reproduce a paper experiment (app/cli/experiments/).
#include "cli/commands.h"
#include "cli/experiments/experiments.h"

namespace cli {

int experimentCommand(const std::vector<std::string>& argv) {
    if (!argv.empty() && argv[0] == "sjf-bsbf") return sjfBsbfExperiment({argv.begin() + 1, argv.end()});
    return synergyExperiment(argv);  // also answers --help and unknown names, listing the experiments
}

}  // namespace cli
