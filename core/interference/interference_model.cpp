#include "core/interference/interference_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cl {

namespace {

// exp(50) ~ 5e21: far beyond any slowdown that means something, far below overflow.
constexpr double kMaxExponent = 50.0;
// A task slowed a million-fold has effectively stopped; capping keeps every result finite
// (huge loads or coefficients would otherwise give inf, and inf - inf gives NaN downstream).
constexpr double kMaxSlowdown = 1.0e6;

void checkNonNegative(double v, const char* what) {
    if (!std::isfinite(v) || v < 0)
        throw std::invalid_argument(std::string("interference: ") + what +
                                    " must be a finite non-negative number, got " + std::to_string(v));
}

void checkPositive(double v, const char* what) {
    if (!std::isfinite(v) || v <= 0)
        throw std::invalid_argument(std::string("interference: ") + what +
                                    " must be a finite positive number, got " + std::to_string(v));
}

void checkCoefficients(const InterferenceCoefficients& c) {
    checkNonNegative(c.cpu_a, "coefficient cpu_a");
    checkNonNegative(c.cpu_b, "coefficient cpu_b");
    checkNonNegative(c.pcie_a, "coefficient pcie_a");
}

}  // namespace

// Our defaults (the multi-agent placement paper publishes no coefficients; docs/architecture.md
// section 6.4):
// - cpu_b = 2.0: slowdown stays negligible while the socket has idle cores and climbs
//   steeply once it is oversubscribed (Sec. V-B: no degradation until the load approaches
//   the physical cores). Two 1-core tasks on an 8-core socket: 1.004.
// - cpu_a = 0.115: two CPU-heavy tasks of 6 cores each (the paper's Fig. 1(a) jobs ask for 6)
//   on one 8-core socket slow by 1 + 0.115 * 0.75 * (e^1.5 - 1) = 1.300, the ~30% average
//   slowdown of Fig. 1(a).
// - pcie_a = 0.4: two tasks each moving half of a 128 Gbps group's bandwidth slow by
//   1 + 0.4 * 0.5 * 0.5 = 1.10, so sharing a GPU group's PCIe costs less than sharing a
//   CPU socket, as the paper's ablation (Table III) suggests.
// `clusterloom-cli fit-interference` fits measured values instead.
double cpuSlowdown(const InterferenceCoefficients& c, const TaskInterferenceInput& in) {
    checkCoefficients(c);
    checkNonNegative(in.own_cpu_cores, "own_cpu_cores");
    checkNonNegative(in.other_cpu_cores, "other_cpu_cores");
    checkPositive(in.socket_cores, "socket_cores");
    // Zero factors first: u / C may overflow to inf, and 0 * inf is NaN.
    if (c.cpu_a == 0 || c.cpu_b == 0 || in.own_cpu_cores == 0 || in.other_cpu_cores == 0) return 1.0;
    const double exponent = std::min(c.cpu_b * in.other_cpu_cores / in.socket_cores, kMaxExponent);
    const double extra = c.cpu_a * (in.own_cpu_cores / in.socket_cores) * std::expm1(exponent);
    return std::min(1.0 + extra, kMaxSlowdown);
}

double pcieSlowdown(const InterferenceCoefficients& c, const TaskInterferenceInput& in) {
    checkCoefficients(c);
    checkNonNegative(in.own_pcie_gbps, "own_pcie_gbps");
    checkNonNegative(in.other_pcie_gbps, "other_pcie_gbps");
    checkPositive(in.pcie_gbps, "pcie_gbps");
    if (c.pcie_a == 0 || in.own_pcie_gbps == 0 || in.other_pcie_gbps == 0) return 1.0;
    const double extra = c.pcie_a * (in.own_pcie_gbps / in.pcie_gbps) * (in.other_pcie_gbps / in.pcie_gbps);
    return std::min(1.0 + extra, kMaxSlowdown);
}

double interferenceSlowdown(const InterferenceCoefficients& c, const TaskInterferenceInput& in) {
    return std::min(cpuSlowdown(c, in) + pcieSlowdown(c, in) - 1.0, kMaxSlowdown);
}

std::vector<double> socketLoadsWithSpill(const std::vector<double>& affinity_load,
                                         const std::vector<int>& socket_cores) {
    if (affinity_load.size() != socket_cores.size())
        throw std::invalid_argument("interference: " + std::to_string(affinity_load.size()) +
                                    " socket loads for " + std::to_string(socket_cores.size()) + " sockets");
    const std::size_t n = affinity_load.size();
    for (std::size_t i = 0; i < n; ++i) {
        checkNonNegative(affinity_load[i], "socket load");
        if (socket_cores[i] <= 0)
            throw std::invalid_argument("interference: socket " + std::to_string(i) + " has " +
                                        std::to_string(socket_cores[i]) + " cores (must be positive)");
    }
    // Room is judged on the affinity loads (before any spill), so the result does not depend
    // on the order in which sockets are visited.
    std::vector<bool> has_room(n);
    for (std::size_t i = 0; i < n; ++i) has_room[i] = affinity_load[i] < socket_cores[i];
    std::vector<double> result = affinity_load;
    for (std::size_t j = 0; j < n; ++j) {
        const double excess = affinity_load[j] - socket_cores[j];
        if (excess <= 0) continue;
        std::vector<std::size_t> targets;
        for (std::size_t i = 0; i < n; ++i)
            if (i != j && has_room[i]) targets.push_back(i);
        if (targets.empty())
            for (std::size_t i = 0; i < n; ++i)
                if (i != j) targets.push_back(i);
        // A lone socket has nowhere to spill: its load stays where it is.
        for (std::size_t i : targets) result[i] += excess / static_cast<double>(targets.size());
    }
    return result;
}

}  // namespace cl
