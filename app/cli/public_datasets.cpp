#include "cli/public_datasets.h"

#include <cstdlib>

namespace cli {

namespace {

constexpr const char* kVariable = "CLUSTERLOOM_SHARED_DATA";

}  // namespace

std::string publicDatasetHint(const std::string& relative) {
    return std::string("default: $") + kVariable + "/" + relative;
}

std::string publicDatasetOption(const Args& args, const std::string& option, const std::string& relative) {
    if (args.has(option)) return args.get(option);
    if (const char* folder = std::getenv(kVariable); folder && *folder)
        return std::string(folder) + "/" + relative;
    throw UsageError("--" + option + " is needed: name the file, or set " + kVariable +
                     " to the folder of the public datasets");
}

}  // namespace cli
