#pragma once
// Best and worst ordering of a group (Muri paper section 4.2: "we enumerate all the
// orderings to find the best one"; the worst ordering is the paper's ablation).
#include <vector>

#include "core/interleave/stage_time_rules.h"

namespace cl {

struct Ordering {
    std::vector<int> order;   // order[position] = index of the job in the input
    double time = 0.0;        // stage-derived group iteration time (no contention)
    bool split_pair = false;  // 2 jobs of 3 stages run the split-pair pattern T' instead
                              // (then order = {0, 1}: job 0 loads first)
};

// Enumerates every permutation with std::next_permutation, starting from 0..p-1 in sorted
// order, and keeps the FIRST permutation reaching the minimum (best) / maximum (worst);
// comparisons are strict, so ties keep the earlier permutation. 3-stage jobs use the slot
// rule, any other stage count Eq. 3. For p = 2 jobs of 3 stages the split-pair time T'
// (a = input job 0, b = input job 1) replaces the result when strictly smaller (best) /
// strictly larger (worst), with split_pair = true and order {0, 1}.
// A single job gets the 1-job ordering {0} with the rule's time, i.e. the sum of its
// stages; callers that model a job running alone should use its profile iteration time
// instead (groupTiming does).
// Throws std::invalid_argument as the rules do (mixed stage counts, p > k, p > 4 for
// 3-stage jobs, no jobs, negative times).
Ordering bestOrdering(const std::vector<std::vector<double>>& jobs);
Ordering worstOrdering(const std::vector<std::vector<double>>& jobs);

}  // namespace cl
