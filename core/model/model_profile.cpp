#include "core/model/model_profile.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace cl {

ProfileExtra::ProfileExtra() = default;
ProfileExtra::~ProfileExtra() = default;
ProfileExtra::ProfileExtra(const ProfileExtra& other)
    : value_(other.value_ ? std::make_unique<nlohmann::json>(*other.value_) : nullptr) {}
ProfileExtra& ProfileExtra::operator=(const ProfileExtra& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<nlohmann::json>(*other.value_) : nullptr;
    return *this;
}
ProfileExtra::ProfileExtra(ProfileExtra&&) noexcept = default;
ProfileExtra& ProfileExtra::operator=(ProfileExtra&&) noexcept = default;

const nlohmann::json& ProfileExtra::get() const {
    static const nlohmann::json null_value;
    return value_ ? *value_ : null_value;
}

nlohmann::json& ProfileExtra::edit() {
    if (!value_) value_ = std::make_unique<nlohmann::json>();
    return *value_;
}

const GpuCountProfile* ModelProfile::at(int gpus) const {
    const GpuCountProfile* best = nullptr;
    int best_dist = 0;
    for (const auto& p : by_gpus) {
        int d = std::abs(p.gpus - gpus);
        if (!best || d < best_dist || (d == best_dist && p.gpus > best->gpus)) {
            best = &p;
            best_dist = d;
        }
    }
    return best;
}

const ModelProfile* ProfileSet::find(const std::string& model) const {
    auto it = models.find(model);
    return it == models.end() ? nullptr : &it->second;
}

std::vector<std::string> ProfileSet::modelNames() const {
    std::vector<std::string> names;
    for (const auto& [n, _] : models) names.push_back(n);
    return names;
}

double ProfileSet::speedFactor(const std::string& model, const std::string& gpu_type) const {
    if (const auto* m = find(model)) {
        auto it = m->speed_by_gpu_type.find(gpu_type);
        if (it != m->speed_by_gpu_type.end()) return it->second;
    }
    auto it = gpu_type_speed.find(gpu_type);
    return it == gpu_type_speed.end() ? 1.0 : it->second;
}

}  // namespace cl
