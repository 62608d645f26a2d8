#include "core/interleave/ordering.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/interleave/stage_jobs.h"

namespace cl {

namespace {

Ordering searchOrdering(const std::vector<std::vector<double>>& jobs, bool best, const char* where) {
    const int k = checkStageJobs(jobs, where);
    const bool slot = usesSlotRule(jobs);
    const std::size_t p = jobs.size();
    if (slot && p > static_cast<std::size_t>(kSlotRuleMaxJobs))
        throw std::invalid_argument(std::string(where) + ": at most 4 jobs of 3 stages per group, got " +
                                    std::to_string(p));
    if (!slot && p > static_cast<std::size_t>(k))
        throw std::invalid_argument(std::string(where) + ": " + std::to_string(p) + " jobs but only " +
                                    std::to_string(k) + " stages (Eq. 3 needs p <= k)");

    std::vector<int> perm(p);
    std::iota(perm.begin(), perm.end(), 0);
    std::vector<const std::vector<double>*> ordered(p);
    Ordering result;
    bool have = false;
    do {
        for (std::size_t i = 0; i < p; ++i) ordered[i] = &jobs[static_cast<std::size_t>(perm[i])];
        const double t = slot ? detail::slotRuleGroupTime(ordered) : detail::explicitStageGroupTime(ordered);
        if (!have || (best ? t < result.time : t > result.time)) {
            result.order = perm;
            result.time = t;
            have = true;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));

    if (slot && p == 2) {
        const double t = splitPairGroupTime(jobs[0], jobs[1]);
        if (best ? t < result.time : t > result.time) {
            result.order = {0, 1};
            result.time = t;
            result.split_pair = true;
        }
    }
    return result;
}

}  // namespace

Ordering bestOrdering(const std::vector<std::vector<double>>& jobs) {
    return searchOrdering(jobs, true, "bestOrdering");
}

Ordering worstOrdering(const std::vector<std::vector<double>>& jobs) {
    return searchOrdering(jobs, false, "worstOrdering");
}

}  // namespace cl
