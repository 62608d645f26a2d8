#pragma once
// One trace reader over the input, twice: strict, then skipping invalid rows with model names
// checked against the Muri profile set (the import dialog's two modes).
#include <memory>

#include "core/io/profile_io.h"
#include "core/io/trace_readers.h"
#include "fuzz_input.h"

namespace clfuzz {

inline const cl::ProfileSet* muriProfiles() {
    static const std::unique_ptr<cl::ProfileSet> set = [] {
        try {
            return std::make_unique<cl::ProfileSet>(
                cl::readProfilesJson(CLUSTERLOOM_SOURCE_DATA_DIR "/profiles/muri.json"));
        } catch (const std::exception&) {
            std::abort();  // the repository's own data must load
        }
    }();
    return set.get();
}

// Every rejection must name `mention` (by default the file name).
template <class Reader>
void fuzzTraceReader(Reader&& read, const std::string& file_name, const std::uint8_t* data, std::size_t size,
                     const std::string& mention = {}) {
    const std::string& named = mention.empty() ? file_name : mention;
    const std::string path = writeInput(file_name, asText(data, size));
    rejectOnlyCleanly([&] { (void)read(path, cl::TraceReadOptions{}); }, named);
    std::vector<std::string> warnings;
    cl::TraceReadOptions lenient;
    lenient.profiles = muriProfiles();
    lenient.skip_invalid_rows = true;
    lenient.warnings = &warnings;
    rejectOnlyCleanly([&] { (void)read(path, lenient); }, named);
}

}  // namespace clfuzz
