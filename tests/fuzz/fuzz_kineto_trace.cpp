// libFuzzer target: PyTorch profiler (Kineto) traces (parseKinetoTrace, readKinetoRank and the
// figures of core/model/kineto_profile.h): any input, plain or gzip, is read or refused cleanly;
// a trace with two or more steps gives one figure row per step after the first, every figure
// finite and not negative, network no more than nccl, storage no more than the iteration; and
// the JSON and the ModelProfile can be made from it.
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/io/kineto_trace.h"
#include "core/model/kineto_profile.h"
#include "fuzz_input.h"

namespace {

bool sane(const cl::KinetoStepFigures& f) {
    for (double v : {f.iteration_ms, f.gpu_ms, f.nccl_ms, f.network_ms, f.storage_ms, f.cpu_ms})
        if (!std::isfinite(v) || v < 0) return false;
    return f.network_ms <= f.nccl_ms && f.storage_ms <= f.iteration_ms;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = clfuzz::asText(data, size);
    cl::KinetoEvents events;
    bool read = false;
    clfuzz::rejectOnlyCleanly(
        [&] {
            events = cl::parseKinetoTrace(bytes, "kineto.json");
            read = true;
        },
        "kineto.json");
    if (!read) return 0;
    const std::string path = clfuzz::writeInput("trace.json", bytes);
    if (events.steps.size() < 2) {
        clfuzz::rejectOnlyCleanly([&] { cl::readKinetoRank(path); }, "trace.json");
        return 0;
    }
    const cl::KinetoProfile p = cl::kinetoProfile({path}, "");
    const cl::KinetoRankProfile& r = p.ranks.at(0);
    if (r.steps.size() != events.steps.size() - 1 || !sane(r.median)) std::abort();
    for (const auto& s : r.steps)
        if (!sane(s)) std::abort();
    const cl::ModelProfile m = cl::modelProfileFromKineto(p);
    if (m.by_gpus.size() != 1 || m.by_gpus[0].gpus < 1 || m.by_gpus[0].stage_times.size() != 4) std::abort();
    if (!m.extra.get().contains("kineto") || m.extra.get()["kineto"]["steps"].size() != r.steps.size())
        std::abort();
    return 0;
}
