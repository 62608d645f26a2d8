#pragma once
// The Synergy paper's production-derived workload (Mohan et al., OSDI 2022, section 5.1;
// docs/architecture.md section 8.4) as a generator configuration: Philly-derived GPU counts (1 GPU
// only, or {1, 2, 4, 8, 16} for multi-GPU traces), 10^x-minute durations, Poisson arrivals at a
// rate in jobs per hour, models by a task split (image, language, speech) over the Synergy
// catalog, assigned the way the authors' simulator does (each job to the task furthest below
// its share, round-robin within it; model_assignment.h).
#include <cstdint>

#include "core/workload/trace_generator.h"

namespace cl {

struct SynergyWorkload {
    double jobs_per_hour = 9.0;
    int jobs = 6500;  // enough for the steady-state window 4000-4999 to finish
    std::uint64_t seed = 42;
    bool multi_gpu = false;
    TaskSplit split{{{"image", 20}, {"language", 70}, {"speech", 10}}};
};

GeneratorConfig synergyGeneratorConfig(const SynergyWorkload& workload);

// The steady-state window the paper measures: jobs 4000-4999.
inline constexpr int kSynergyMeasureFirst = 4000;
inline constexpr int kSynergyMeasureLast = 4999;

}  // namespace cl
