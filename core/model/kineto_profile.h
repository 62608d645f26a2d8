#pragma once
// A model profile derived from PyTorch profiler (Kineto) traces: per training step the time
// spent on storage, CPU, GPU and network, their medians, and the cl::ModelProfile every
// mechanism can use (docs/architecture.md section 8.6). Reading the trace files is
// core/io/kineto_trace.h (readKinetoRank, kinetoProfile); this header computes on the events.
//
// The JSON of kinetoProfileJson is what `clusterloom-cli profile import` writes and what
// modelProfileFromKineto keeps in ModelProfile::extra["kineto"] (a profile set JSON round-trips
// it). Times are milliseconds; keys sort alphabetically:
//
//   {"name": "resnet", "world_size": 2, "gpu_name": "NVIDIA A100-SXM4-80GB",   (gpu_name only when known)
//    "iteration_ms": 95.6, "gpu_ms": 80.1, "nccl_ms": 12.0, "network_ms": 3.5, "storage_ms": 0.4,
//    "cpu_ms": 11.6,                    (medians over the steps of the slowest rank, each on its own)
//    "steps": [{"step": 102, "iteration_ms": ..., "gpu_ms": ..., "nccl_ms": ..., "network_ms": ...,
//               "storage_ms": ..., "cpu_ms": ...}, ...],   (the slowest rank's steps after warm-up)
//    "files": ["rank0.json.gz", ...],   (the files' names, without their folders)
//    "warnings": ["rank0.json.gz: ..."],   (only when there are any)
//    "slowest_rank": 1,                 (only with several files: the rank the figures come from)
//    "ranks": [{"file": ..., "rank": 0, "world_size": 2, "gpu_name": ..., "iteration_ms": ...,
//               ... (its medians), "steps": [...], "warnings": [...]}, ...]}   (only with several files)
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/kineto_events.h"
#include "core/model/model_profile.h"

namespace cl {

// One training step's breakdown in milliseconds (section 8.6): gpu = union of its non-NCCL
// kernels, nccl = union of its NCCL kernels, network = the part of nccl that no other kernel
// overlaps, storage = union of its DataLoader __next__ spans, cpu = the rest of the iteration.
// In a median, step is -1 and every field is the median of that field on its own.
struct KinetoStepFigures {
    int step = -1;
    double iteration_ms = 0.0, gpu_ms = 0.0, nccl_ms = 0.0, network_ms = 0.0, storage_ms = 0.0, cpu_ms = 0.0;
};

struct KinetoRankProfile {
    std::string file;
    int rank = -1;                         // distributedInfo.rank; -1 when the trace does not say
    std::vector<KinetoStepFigures> steps;  // after warm-up (the first step is left out)
    KinetoStepFigures median;
    std::string gpu_name;  // deviceProperties[0].name; empty when absent
    int world_size = 1;    // distributedInfo.world_size; 1 when absent
    std::vector<std::string> warnings;
};

struct KinetoProfile {
    std::string name;
    std::vector<KinetoRankProfile> ranks;
    std::size_t slowest_rank = 0;  // index into ranks: the largest median iteration
    KinetoStepFigures median;      // ranks[slowest_rank].median
    std::string gpu_name;
    int world_size = 1;
};

// The breakdown of one trace's events. Throws std::invalid_argument when there are fewer than
// two steps (the reader turns that into a ParseError naming the file first).
KinetoRankProfile kinetoRankProfile(const KinetoEvents& events, const std::string& file);
// The ranks of one run as one profile named `name`. Ranks whose trace does not state a rank are
// numbered by their position; world_size is the largest stated one, at least the number of
// ranks. Throws std::invalid_argument for no ranks or an empty name.
KinetoProfile combineKinetoRanks(std::vector<KinetoRankProfile> ranks, const std::string& name);

// The JSON described at the top of this header.
nlohmann::json kinetoProfileJson(const KinetoProfile& profile);
// One GpuCountProfile at world_size GPUs: solo_iteration_time = the median iteration, and the
// stage times {storage, cpu, gpu, network} (Muri's four resources, k = 4 explicit stages), in
// seconds; extra["kineto"] = kinetoProfileJson(profile).
//
// The times are as measured, on the trace's GPU. When `reference_speeds` (a profile set's
// gpu_type_speed, relative to its reference GPU) knows that GPU (the deviceProperties name by
// the GPU type table), the model also gets speed_by_gpu_type relative to the measured GPU:
// speed(type) = reference_speeds(type) / reference_speeds(measured), so that the same model on
// other GPU types in a what-if runs by the set's speed ratios (docs/architecture.md 8.6).
ModelProfile modelProfileFromKineto(const KinetoProfile& profile,
                                    const std::map<std::string, double>* reference_speeds = nullptr);

}  // namespace cl
