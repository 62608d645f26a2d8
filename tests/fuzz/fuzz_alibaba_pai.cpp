// libFuzzer target: readAlibabaPai; the input is the job table, a line "%%", the task table.
#include "fuzz_trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [jobs, tasks] = clfuzz::splitTwo(clfuzz::asText(data, size));
    const std::string task_path = clfuzz::writeInput("pai_task_table.csv", tasks);
    clfuzz::fuzzTraceReader(
        [&task_path](const std::string& p, const cl::TraceReadOptions& o) {
            return cl::readAlibabaPai(p, task_path, o);
        },
        "pai_job_table.csv", reinterpret_cast<const std::uint8_t*>(jobs.data()), jobs.size(),
        "_table.csv");  // either table
    return 0;
}
