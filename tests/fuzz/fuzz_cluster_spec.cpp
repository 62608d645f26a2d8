// libFuzzer target: the Muri/Tiresias cluster spec CSV (readMuriClusterSpecCsv).
#include "core/io/layout_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = clfuzz::writeInput("cluster.csv", clfuzz::asText(data, size));
    clfuzz::rejectOnlyCleanly([&] { (void)cl::readMuriClusterSpecCsv(path); }, "cluster.csv");
    return 0;
}
