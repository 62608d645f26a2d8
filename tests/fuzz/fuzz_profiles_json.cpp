// libFuzzer target: the profile set JSON (parseProfilesJson). A set that parses must also
// survive the store's round trip through its text.
#include "core/io/profile_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(clfuzz::asText(data, size));
    cl::ProfileSet set;
    try {
        set = cl::parseProfilesJson(text, "fuzz.json");
    } catch (const std::exception& e) {
        if (std::string_view(e.what()).find("fuzz.json") == std::string_view::npos) {
            std::fprintf(stderr, "rejection does not name 'fuzz.json': %s\n", e.what());
            std::abort();
        }
        return 0;
    }
    // Not caught: what we write we must read back.
    (void)cl::parseProfilesJson(cl::profilesJsonText(set), "roundtrip.json");
    return 0;
}
