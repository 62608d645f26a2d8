// libFuzzer target: Slurm accounting history in its JSON form (readSacct, which tells the forms
// apart by content, so --parsable2 inputs are reached too), once with the defaults and once keeping
// unstarted and running jobs, and the content sniffing of looksLikeSacct: any input is read or
// refused cleanly, every kept job has a finite submit time, GPUs, a run time that is not negative
// and a line, and every reason counted has at least one job.
#include <cmath>

#include "core/io/slurm_sacct.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = clfuzz::writeInput("sacct.json", clfuzz::asText(data, size));
    (void)cl::looksLikeSacct(path);
    for (bool keep : {false, true}) {
        cl::SacctOptions options;
        options.keep_unstarted = keep;
        options.keep_running = keep;
        cl::SacctImport imported;
        clfuzz::rejectOnlyCleanly([&] { imported = cl::readSacct(path, options); }, "sacct.json");
        for (const cl::SlurmJob& j : imported.jobs)
            if (!std::isfinite(j.submit) || j.gpus <= 0 || !(j.elapsed >= 0) || j.line <= 0) std::abort();
        for (const auto& [reason, count] : imported.dropped)
            if (count <= 0) std::abort();
    }
    return 0;
}
