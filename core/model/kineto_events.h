#pragma once
// The events of one PyTorch profiler (Kineto) trace that a model profile is derived from
// (docs/architecture.md section 8.6), as core/io/kineto_trace.h reads them. Times are
// microseconds since the trace's own origin, as the trace states them.
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct KinetoEvents {
    // A `ProfilerStep#N` span of the CPU side: one training step.
    struct Step {
        int number = 0;  // N
        double start_us = 0.0;
        double duration_us = 0.0;
    };
    // A GPU kernel (category `kernel`; memcpy and memset are not kernels).
    struct Kernel {
        double start_us = 0.0;
        double duration_us = 0.0;
        bool nccl = false;             // its name contains "nccl" in any case
        bool has_correlation = false;  // args.correlation was present
        std::int64_t correlation = 0;  // links it to the runtime call that launched it
    };
    // The CUDA runtime or driver call (`cuda_runtime`, `cuda_driver`) with a correlation id.
    struct Launch {
        std::int64_t correlation = 0;
        double start_us = 0.0;
    };
    struct Span {
        double start_us = 0.0;
        double duration_us = 0.0;
    };

    std::vector<Step> steps;              // in file order
    std::vector<Kernel> kernels;          // in file order
    std::vector<Launch> launches;         // in file order
    std::vector<Span> data_loader_spans;  // CPU spans named "...DataLoader...__next__"
    int world_size = 0;                   // distributedInfo.world_size; 0 when absent
    int rank = -1;                        // distributedInfo.rank; -1 when absent
    std::string gpu_name;                 // deviceProperties[0].name; empty when absent
};

}  // namespace cl
