#pragma once
// Synergy's resource-sensitivity matrix (Mohan et al., OSDI 2022, section 3.1; docs/architecture.md
// section 4.6): a job's throughput per GPU at c CPU cores and m GB of DRAM per GPU, normalised
// so that the GPU-proportional share of the reference server (3 cores, 62.5 GB per GPU of an
// 8 GPU / 24 CPU / 500 GB server) is 1.0. A job's iteration time at an allocation is its
// base iteration time (at that proportional share) divided by the throughput there.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/model_profile.h"

namespace cl {

// Per-GPU amounts of the auxiliary resources.
struct AuxShare {
    double cpus = 0.0;
    double memory_gb = 0.0;
};

struct SensitivityMatrix {
    std::vector<double> cpu_levels;        // cores per GPU, strictly ascending, > 0
    std::vector<double> memory_levels_gb;  // GB per GPU, strictly ascending, > 0
    std::vector<double> throughput;        // row-major: [cpu level][memory level], > 0

    std::size_t cpuCount() const { return cpu_levels.size(); }
    std::size_t memoryCount() const { return memory_levels_gb.size(); }
    double at(std::size_t cpu, std::size_t memory) const {
        return throughput[cpu * memory_levels_gb.size() + memory];
    }

    // Throughput at any per-GPU allocation: the profiled point at the largest levels that the
    // allocation reaches (cores and memory between two levels buy nothing until the next one;
    // the profile measured nothing in between). Below the smallest level: the smallest level's
    // value (an allocation is never below it in practice).
    double throughputAt(AuxShare per_gpu) const;
    // The best-case demand (section 3.2: "the minimum value of CPU and memory that saturates
    // the job throughput"): the cheapest point whose throughput is within `tolerance`
    // (relative) of the matrix's maximum; cheapest = fewest cores, then least memory.
    struct Point {
        AuxShare per_gpu;
        double throughput = 1.0;
    };
    Point best(double tolerance = 1e-9) const;
    // Every profiled point that no other point beats with at most its cores and memory
    // (higher throughput needs more of something); cheapest first. OPT's choices.
    std::vector<Point> paretoPoints() const;

    // A matrix with throughput 1 everywhere (an insensitive job; also models with no profile).
    static SensitivityMatrix flat(std::vector<double> cpu_levels, std::vector<double> memory_levels_gb);
};

// Synergy's default grid (docs/architecture.md section 4.6): CPU 1,2,3,4,5,6,9,12,24 and memory
// 20.83, 62.5, 125, 187.5, 250 GB per GPU.
const std::vector<double>& synergyCpuLevels();
const std::vector<double>& synergyMemoryLevelsGb();

// The matrix of a profile: models[].extra.synergy (schema in data/README.md); std::nullopt
// when the profile has none. Throws std::invalid_argument naming the model and field for a
// malformed section (wrong sizes, non-ascending levels, non-positive values).
std::optional<SensitivityMatrix> sensitivityOf(const ModelProfile& profile);
// The JSON section for a matrix (the inverse of sensitivityOf).
nlohmann::json sensitivityJson(const SensitivityMatrix& matrix);

}  // namespace cl
