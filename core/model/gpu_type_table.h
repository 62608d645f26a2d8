#pragma once
// Which of our GPU type names a vendor or scheduler GPU name stands for, and its memory
// (docs/architecture.md section 8.7). Our names are the ones profile sets give speeds for
// (data/profiles/muri.json gpu_type_speed: V100, A100, H100, T4, RTX2080Ti, K80, P100); the
// table adds more names that no profile set has a speed for yet, so they run at 1.0 until the
// user sets one (ProfileSet::speedFactor).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cl {

struct GpuTypeEntry {
    std::vector<std::string> keys;  // lower case, without separators: "a100", "rtxa6000"
    std::string name;               // our GPU type name: "A100"
    double memory_gb = 0;           // the memory of the common model, from the vendor data sheet
    std::string source;             // where memory_gb comes from
};

struct GpuTypeMatch {
    std::string name;
    double memory_gb = 0;  // from the table, or from an "80gb" part of the name
};

// The documented table, in the order docs/architecture.md section 8.7 lists it.
const std::vector<GpuTypeEntry>& gpuTypeTable();

// "a100", "nvidia_a100-sxm4-80gb", "NVIDIA A100 80GB PCIe", "rtx_a6000", "tesla_v100-sxm2-16gb":
// lower-cased and split at '_', '-', ' ' and '.', vendor words (nvidia, tesla, geforce, quadro,
// amd, instinct) dropped; the longest run of leading parts that joins to a key picks the entry.
// A part "80gb" (or "80g") sets the memory. MIG slices ("3g.20gb") and names without a key give
// nullopt.
std::optional<GpuTypeMatch> matchGpuType(std::string_view vendor_name);

}  // namespace cl
