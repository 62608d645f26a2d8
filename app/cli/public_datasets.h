#pragma once
// Where the commands that read the public datasets (the Philly job log, Pollux's workloads and
// model measurements; docs/architecture.md section 10) find them when no option names a file:
// the folder in the environment variable CLUSTERLOOM_SHARED_DATA.
#include <string>

#include "cli/args.h"

namespace cli {

// "$CLUSTERLOOM_SHARED_DATA/<relative>" for --help texts.
std::string publicDatasetHint(const std::string& relative);
// The option's value if given, else CLUSTERLOOM_SHARED_DATA joined with `relative`. Throws
// UsageError naming the option and the variable when neither is set.
std::string publicDatasetOption(const Args& args, const std::string& option, const std::string& relative);

}  // namespace cli
