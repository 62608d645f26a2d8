#pragma once
// Per-model performance profiles. Times are seconds (the JSON files state milliseconds).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/interference/interference_coefficients.h"

namespace cl {

struct GpuCountProfile {
    int gpus = 1;
    double solo_iteration_time = 0.0;  // seconds per iteration, running alone
    std::vector<double> stage_times;   // seconds; Muri: 0 = load+preprocess, 1 = GPU, 2 = network
    double restart_overhead = 10.0;    // seconds lost when the job (re)starts
};

// A profile's optional sections for later schedulers (a JSON object: "synergy", "sjf_bsbf",
// "kineto"), held behind a pointer: nearly every file includes this header through the scheduler
// boundary, and parsing nlohmann/json.hpp in each cost minutes of every build (docs/architecture.md
// 1.7). Copies are deep; an unset value reads as JSON null.
class ProfileExtra {
public:
    ProfileExtra();
    ~ProfileExtra();
    ProfileExtra(const ProfileExtra& other);
    ProfileExtra& operator=(const ProfileExtra& other);
    ProfileExtra(ProfileExtra&&) noexcept;
    ProfileExtra& operator=(ProfileExtra&&) noexcept;

    const nlohmann::json& get() const;
    nlohmann::json& edit();  // creates it (null) when unset

private:
    std::unique_ptr<nlohmann::json> value_;
};

struct ModelProfile {
    std::string name;
    int batch_size = 0;
    double gpu_memory_mb = 0.0;
    std::vector<GpuCountProfile> by_gpus;             // sorted by gpus
    std::map<std::string, double> speed_by_gpu_type;  // relative to the reference GPU (1.0)
    ProfileExtra extra;                               // optional sections for later schedulers

    // Exact GPU count if profiled, else the nearest profiled count (ties to the larger one).
    const GpuCountProfile* at(int gpus) const;
};

struct ProfileSet {
    std::string name;
    std::string source;  // where the figures come from
    std::map<std::string, ModelProfile> models;
    std::map<std::string, double> gpu_type_speed;  // default relative speed per GPU type
    double default_restart_overhead = 10.0;
    // Co-location interference (multi-agent placement paper); the documented defaults unless
    // the file sets them.
    InterferenceCoefficients interference = defaultInterferenceCoefficients();

    const ModelProfile* find(const std::string& model) const;
    bool has(const std::string& model) const { return find(model) != nullptr; }
    std::vector<std::string> modelNames() const;
    // Relative speed of a model on a GPU type: model-specific, else set default, else 1.0.
    double speedFactor(const std::string& model, const std::string& gpu_type) const;
};

}  // namespace cl
