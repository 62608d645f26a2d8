#include "core/interleave/stage_jobs.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace cl {

int checkStageJobs(std::span<const std::vector<double>> jobs, const char* where) {
    const std::string prefix = std::string(where) + ": ";
    if (jobs.empty()) throw std::invalid_argument(prefix + "a group needs at least one job");
    const std::size_t k = jobs.front().size();
    if (k == 0) throw std::invalid_argument(prefix + "a job needs at least one stage");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].size() != k)
            throw std::invalid_argument(prefix + "job " + std::to_string(i) + " has " +
                                        std::to_string(jobs[i].size()) + " stages, job 0 has " +
                                        std::to_string(k) + " (all jobs must have the same count)");
        for (double t : jobs[i])
            if (!std::isfinite(t) || t < 0.0)
                throw std::invalid_argument(prefix + "job " + std::to_string(i) +
                                            " has a stage time that is negative or not finite");
    }
    return static_cast<int>(k);
}

bool usesSlotRule(std::span<const std::vector<double>> jobs) {
    return !jobs.empty() && jobs.front().size() == static_cast<std::size_t>(kSlotRuleStages);
}

int interleaveResourceCount(std::span<const std::vector<double>> jobs) {
    if (jobs.empty()) return 0;
    return usesSlotRule(jobs) ? kSlotRuleResources : static_cast<int>(jobs.front().size());
}

}  // namespace cl
