#pragma once
// Shared by the fuzz targets: the readers take paths, so each input is written to files in a
// folder of this process (libFuzzer forks nothing; parallel ctest runs are separate processes).
// Expected rejections are std::exceptions; anything else (crash, sanitizer report, leak, hang,
// a non-std exception) escapes to libFuzzer as a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>

namespace clfuzz {

inline const std::filesystem::path& workDir() {
    // Never destroyed: the exit handler below runs after function-local statics are gone.
    static const std::filesystem::path* const dir = [] {
        auto* d = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                            ("clusterloom-fuzz-" + std::to_string(::getpid())));
        std::filesystem::create_directories(*d);
        // The folder goes when the fuzzer exits normally; a crash leaves it for inspection.
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(workDir(), ec);
        });
        return d;
    }();
    return *dir;
}

// Writes the bytes to workDir()/name and returns the path.
inline std::string writeInput(const std::string& name, std::string_view bytes) {
    const std::filesystem::path p = workDir() / name;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) std::abort();  // the harness itself failed: not a finding about the readers
    return p.string();
}

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Inputs holding two files (Alibaba job + task table, Pollux placements + scalability) split
// at the first line "%%"; without one, the second file is empty.
inline std::pair<std::string_view, std::string_view> splitTwo(std::string_view text) {
    constexpr std::string_view sep = "\n%%\n";
    const auto at = text.find(sep);
    if (at == std::string_view::npos) return {text, {}};
    return {text.substr(0, at + 1), text.substr(at + sep.size())};
}

// Runs fn; a std::exception is a rejection of bad input, which is fine as long as its message
// names the input (`source`: the file name or the source given to a parse function), as the
// house rules ask. A message that does not is a finding too.
template <class Fn>
void rejectOnlyCleanly(Fn&& fn, const std::string& source) {
    try {
        fn();
    } catch (const std::exception& e) {
        if (std::string_view(e.what()).find(source) == std::string_view::npos) {
            std::fprintf(stderr, "rejection does not name '%s': %s\n", source.c_str(), e.what());
            std::abort();
        }
    }
}

}  // namespace clfuzz
