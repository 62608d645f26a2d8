// libFuzzer target: readTrace's format detection from the first bytes, then the chosen reader.
// The file name tells nothing (no extension), so detection works from content alone.
#include "fuzz_trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    clfuzz::fuzzTraceReader(
        [](const std::string& p, const cl::TraceReadOptions& o) { return cl::readTrace(p, "auto", o); },
        "imported", data, size);
    return 0;
}
