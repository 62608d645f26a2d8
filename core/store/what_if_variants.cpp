#include "core/store/what_if_variants.h"

#include <algorithm>
#include <stdexcept>

namespace cl {

std::vector<ScenarioSpec> whatIfVariants(ScenarioStore& store, const ScenarioInfo& base,
                                         const std::vector<std::string>& policies, double load_factor,
                                         int server_count) {
    std::vector<std::string> unique;
    for (const auto& p : policies)
        if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
    if (unique.empty()) throw std::invalid_argument("choose at least one policy to run");

    const ScenarioSpec& spec = base.spec;
    const bool same_load = load_factor == spec.parameters.load_factor;
    const bool same_servers = server_count == spec.parameters.server_count;
    std::vector<ScenarioSpec> result;
    for (const auto& policy : unique) {
        if (same_load && same_servers && policy == spec.policy) {
            result.push_back(spec);
            continue;
        }
        SweepAxes axes;
        axes.policies = {policy};
        if (!same_load) axes.load_factors = {load_factor};
        if (!same_servers) axes.server_counts = {server_count};
        std::vector<ScenarioSpec> one = expandSweep(store, spec.name, spec, axes);
        result.push_back(std::move(one.front()));
    }
    return result;
}

}  // namespace cl
