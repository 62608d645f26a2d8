#include "core/runs/what_if_variants.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace cl {

bool policyUsesInterference(const std::string& policy) {
    if (policy == "sjf-bsbf" || policy == "sjf-ffs") return true;
    std::istringstream parts(policy);
    std::string part;
    while (std::getline(parts, part, '+'))
        if (part == "bsbf" || part == "ffs") return true;
    return false;
}

std::vector<ScenarioSpec> whatIfVariants(ScenarioStore& store, const ScenarioInfo& base,
                                         const std::vector<std::string>& policies, double load_factor,
                                         int server_count, double interference) {
    std::vector<std::string> unique;
    for (const auto& p : policies)
        if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
    if (unique.empty()) throw std::invalid_argument("choose at least one policy to run");

    const ScenarioSpec& spec = base.spec;
    const bool same_load = load_factor == spec.parameters.load_factor;
    const bool same_servers = server_count == spec.parameters.server_count;
    std::vector<ScenarioSpec> result;
    for (const auto& policy : unique) {
        const bool new_xi = interference >= 0 && interference != spec.parameters.interference &&
                            policyUsesInterference(policy);
        if (same_load && same_servers && !new_xi && policy == spec.policy) {
            result.push_back(spec);
            continue;
        }
        SweepAxes axes;
        axes.policies = {policy};
        if (!same_load) axes.load_factors = {load_factor};
        if (!same_servers) axes.server_counts = {server_count};
        std::vector<ScenarioSpec> one = expandSweep(store, spec.name, spec, axes);
        ScenarioSpec variant = std::move(one.front());
        if (new_xi) {
            std::ostringstream xi;
            xi << interference;  // 1.2, 1.85: the shortest form, as a user types it
            variant.parameters.interference = interference;
            variant.name += "/xi" + xi.str();
        }
        result.push_back(std::move(variant));
    }
    return result;
}

}  // namespace cl
