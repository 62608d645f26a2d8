#include "core/interleave/group_time.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/interleave/stage_jobs.h"

namespace cl {

double interleavingEfficiency(const std::vector<std::vector<double>>& jobs, double group_time,
                              int resources) {
    checkStageJobs(jobs, "interleavingEfficiency");
    if (!(group_time > 0.0) || !std::isfinite(group_time))
        throw std::invalid_argument("interleavingEfficiency: the group time must be positive");
    if (resources <= 0) throw std::invalid_argument("interleavingEfficiency: resources must be positive");
    double busy = 0.0;
    for (const auto& job : jobs)
        for (double t : job) busy += t;
    return busy / (static_cast<double>(resources) * group_time);
}

GroupTiming groupTiming(const std::vector<std::vector<double>>& stages,
                        const std::vector<double>& solo_iteration_times, bool best,
                        const Contention& contention) {
    checkStageJobs(stages, "groupTiming");
    if (solo_iteration_times.size() != stages.size())
        throw std::invalid_argument("groupTiming: " + std::to_string(stages.size()) + " jobs but " +
                                    std::to_string(solo_iteration_times.size()) + " solo iteration times");
    for (double s : solo_iteration_times)
        if (!(s > 0.0) || !std::isfinite(s))
            throw std::invalid_argument("groupTiming: solo iteration times must be positive");

    GroupTiming g;
    g.ordering = best ? bestOrdering(stages) : worstOrdering(stages);
    g.raw_time = g.ordering.time;
    const int p = static_cast<int>(stages.size());
    g.iteration_time = p == 1 ? solo_iteration_times[0] * contention.solo : g.raw_time * contention.factor(p);
    if (!(g.iteration_time > 0.0))
        throw std::invalid_argument("groupTiming: the group's iteration time is zero (all stage times 0)");
    g.gamma = interleavingEfficiency(stages, g.iteration_time, interleaveResourceCount(stages));
    double alone = 0.0;
    for (double s : solo_iteration_times) alone += s * contention.solo;
    g.speedup_vs_alone = alone / g.iteration_time;
    return g;
}

}  // namespace cl
