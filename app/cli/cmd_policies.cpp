// clusterloom-cli policies: the policy grammar and every valid name.
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/policies/scheduler_registry.h"

namespace cli {

int policiesCommand(const std::vector<std::string>& argv) {
    Args args("policies", "List the scheduling policy names this build knows.", {});
    if (!args.parse(argv)) return 0;
    std::cout << cl::policyHelp() << "\n";
    return 0;
}

}  // namespace cli
