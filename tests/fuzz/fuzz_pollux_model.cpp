// libFuzzer target: a Pollux model folder as fit-profile reads it: placements.csv, a line
// "%%", scalability.csv; then the fit and the SJF-BSBF profile built from it.
#include <filesystem>

#include "core/io/accumulation_profile_json.h"
#include "core/io/pollux_model_folder.h"
#include "core/model/accumulation_fit.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [placements, scalability] = clfuzz::splitTwo(clfuzz::asText(data, size));
    clfuzz::writeInput("placements.csv", placements);
    clfuzz::writeInput("scalability.csv", scalability);
    const std::string dir = clfuzz::workDir().string();
    clfuzz::rejectOnlyCleanly(
        [&] {
            const cl::AccumulationFit fit =
                cl::fitPolluxModelFolder(dir, cl::polluxModelConstantsOf("cifar10"));
            (void)cl::accumulationModelProfile(fit);
        },
        dir);
    return 0;
}
