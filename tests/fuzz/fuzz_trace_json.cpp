// libFuzzer target: readTraceJson (see fuzz_trace_reader.h).
#include "fuzz_trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    clfuzz::fuzzTraceReader(
        [](const std::string& p, const cl::TraceReadOptions& o) { return cl::readTraceJson(p, o); },
        "trace.json", data, size);
    return 0;
}
