#include "core/interleave/stage_time_rules.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/interleave/stage_jobs.h"

namespace cl {

namespace {

std::vector<const std::vector<double>*> pointersTo(std::span<const std::vector<double>> jobs) {
    std::vector<const std::vector<double>*> out;
    out.reserve(jobs.size());
    for (const auto& j : jobs) out.push_back(&j);
    return out;
}

bool nearlyEqual(double a, double b) {
    return std::abs(a - b) <= 1e-3 * std::max(std::abs(a), std::abs(b));
}

}  // namespace

namespace detail {

double explicitStageGroupTime(std::span<const std::vector<double>* const> ordered) {
    const std::size_t p = ordered.size();
    const std::size_t k = ordered.front()->size();
    double total = 0.0;
    for (std::size_t j = 0; j < k; ++j) {
        double phase = 0.0;
        for (std::size_t i = 0; i < p; ++i) phase = std::max(phase, (*ordered[i])[(i + j) % k]);
        total += phase;
    }
    return total;
}

double slotRuleGroupTime(std::span<const std::vector<double>* const> ordered) {
    const int p = static_cast<int>(ordered.size());
    auto t = [&](int position, int stage) {
        return (*ordered[static_cast<std::size_t>(position)])[static_cast<std::size_t>(stage)];
    };
    std::array<double, 9> f{};  // f[0..8] = 0
    for (int i = 0; i < 8; ++i) {
        double v = f[static_cast<std::size_t>(i + 1)];
        const int net = (i + 1) % 4, gpu = (i + 2) % 4, load = (i + 3) % 4;
        if (net < p) v = std::max(v, f[static_cast<std::size_t>(i)] + t(net, 2));
        if (gpu < p) v = std::max(v, f[static_cast<std::size_t>(i)] + t(gpu, 1));
        if (i > 0 && load < p) v = std::max(v, f[static_cast<std::size_t>(i - 1)] + t(load, 0));
        f[static_cast<std::size_t>(i + 1)] = v;
    }
    for (int i = 4; i < 8; ++i) {
        const double a = f[static_cast<std::size_t>(i + 1)] - f[static_cast<std::size_t>(i - 3)];
        const double b = f[static_cast<std::size_t>(i)] - f[static_cast<std::size_t>(i - 4)];
        if (nearlyEqual(a, b)) return a;
    }
    return f[8] - f[4];
}

}  // namespace detail

double explicitStageGroupTime(std::span<const std::vector<double>> ordered_jobs_stage_times) {
    const int k = checkStageJobs(ordered_jobs_stage_times, "explicitStageGroupTime");
    if (ordered_jobs_stage_times.size() > static_cast<std::size_t>(k))
        throw std::invalid_argument(
            "explicitStageGroupTime: " + std::to_string(ordered_jobs_stage_times.size()) + " jobs but only " +
            std::to_string(k) + " stages (Eq. 3 needs p <= k)");
    const auto ptrs = pointersTo(ordered_jobs_stage_times);
    return detail::explicitStageGroupTime(ptrs);
}

double slotRuleGroupTime(std::span<const std::vector<double>> ordered_jobs_stage_times) {
    const int k = checkStageJobs(ordered_jobs_stage_times, "slotRuleGroupTime");
    if (k != kSlotRuleStages)
        throw std::invalid_argument("slotRuleGroupTime: jobs have " + std::to_string(k) +
                                    " stages, the slot rule needs 3");
    if (ordered_jobs_stage_times.size() > static_cast<std::size_t>(kSlotRuleMaxJobs))
        throw std::invalid_argument("slotRuleGroupTime: at most 4 jobs per group, got " +
                                    std::to_string(ordered_jobs_stage_times.size()));
    const auto ptrs = pointersTo(ordered_jobs_stage_times);
    return detail::slotRuleGroupTime(ptrs);
}

double splitPairGroupTime(const std::vector<double>& a, const std::vector<double>& b) {
    const std::vector<double> pair[2] = {a, b};
    const int k = checkStageJobs(pair, "splitPairGroupTime");
    if (k != kSlotRuleStages)
        throw std::invalid_argument("splitPairGroupTime: jobs have " + std::to_string(k) +
                                    " stages, the split-pair pattern needs 3");
    return std::max(a[0], b[1] + b[2]) + std::max(b[0], a[1] + a[2]);
}

double orderedGroupTime(std::span<const std::vector<double>> ordered_jobs_stage_times) {
    checkStageJobs(ordered_jobs_stage_times, "orderedGroupTime");
    return usesSlotRule(ordered_jobs_stage_times) ? slotRuleGroupTime(ordered_jobs_stage_times)
                                                  : explicitStageGroupTime(ordered_jobs_stage_times);
}

}  // namespace cl
