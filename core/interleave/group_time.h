#pragma once
// Everything about one interleaved group of jobs (Muri, docs/architecture.md section 4.5): the rules
// for one ordering (stage_time_rules.h), the best/worst ordering (ordering.h), contention
// (contention.h), and here interleaving efficiency (Eq. 4) and the timing summary used by
// the simulator, the matching weights and the teaching view.
#include <vector>

#include "core/interleave/contention.h"
#include "core/interleave/ordering.h"
#include "core/interleave/stage_time_rules.h"

namespace cl {

// Eq. 4 (Eq. 2 for k = 2): gamma = 1 - (1/R) sum_r (T - sum_i t_i^r) / T
//                                 = (sum over jobs of the sum of their stage times) / (R T)
// with R = resources (4 for 3-stage built-in jobs, k for k explicit stages; see
// interleaveResourceCount) and T = group_time. Throws std::invalid_argument for
// group_time <= 0, resources <= 0 or invalid jobs.
double interleavingEfficiency(const std::vector<std::vector<double>>& jobs, double group_time, int resources);

struct GroupTiming {
    Ordering ordering;              // best or worst ordering (stage-derived time in .time)
    double raw_time = 0.0;          // = ordering.time
    double iteration_time = 0.0;    // what the group achieves per iteration, with contention
    double gamma = 0.0;             // Eq. 4, T = iteration_time (docs/architecture.md section 5.1)
    double speedup_vs_alone = 0.0;  // sum_i (solo_i x contention.solo) / iteration_time
};

// stages[i]: job i's stage times; solo_iteration_times[i]: job i's PROFILE iteration time
// running alone (same unit). iteration_time = raw_time x contention.factor(p) for p >= 2,
// and solo_iteration_times[0] x contention.solo for p = 1 (a job alone runs at its profile
// iteration time, not the sum of its stages). speedup_vs_alone compares with the members
// running alone, each at solo_i x contention.solo, so a single job has speedup 1 and a
// group is worth keeping ("autopack") when speedup_vs_alone >= 1.
// best = true: bestOrdering, false: worstOrdering (ablation).
// Throws std::invalid_argument when the sizes differ or a solo time is not positive.
GroupTiming groupTiming(const std::vector<std::vector<double>>& stages,
                        const std::vector<double>& solo_iteration_times, bool best,
                        const Contention& contention = {});

}  // namespace cl
