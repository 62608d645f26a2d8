// libFuzzer target: the interference sample CSV (readInterferenceSamplesCsv) and, for what it
// accepts, the three least-squares fits: any accepted file fits or is refused cleanly, and a
// fit's errors are finite numbers.
#include <cmath>

#include "core/interference/interference_fit.h"
#include "core/io/interference_samples_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = clfuzz::writeInput("samples.csv", clfuzz::asText(data, size));
    std::vector<cl::InterferenceSample> samples;
    clfuzz::rejectOnlyCleanly([&] { samples = cl::readInterferenceSamplesCsv(path); }, "samples.csv");
    if (samples.empty() || samples.size() > 64) return 0;  // keep each input quick
    for (auto v : {cl::InterferenceFitVariant::Full, cl::InterferenceFitVariant::WithoutCpu,
                   cl::InterferenceFitVariant::WithoutPcie}) {
        try {
            const cl::InterferenceFit f = cl::fitInterference(samples, v);
            if (!std::isfinite(f.rmse) || !std::isfinite(f.mape) || !std::isfinite(f.max_error) ||
                !std::isfinite(f.coefficients.cpu_a) || !std::isfinite(f.coefficients.cpu_b) ||
                !std::isfinite(f.coefficients.pcie_a))
                std::abort();
        } catch (const std::invalid_argument&) {
        }
    }
    return 0;
}
