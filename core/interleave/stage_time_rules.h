#pragma once
// The per-iteration time of a group of interleaved jobs for ONE given ordering
// (Muri paper section 4, docs/architecture.md section 4.5). Times are in the caller's unit (the
// built-in profiles use seconds); the rules are scale-free except for the slot rule's relative
// convergence tolerance.
#include <span>
#include <vector>

namespace cl {

// Eq. 3 of the Muri paper, k explicit stages, p <= k jobs in the given order (position i
// starts with stage i, then all jobs advance one stage per phase, with a barrier between
// phases):  T = sum_{j=0}^{k-1} max_{i=0}^{p-1} t_i^{(i+j) mod k}.
// For k = 2, p = 2 this is Eq. 1: T = max(t_0^0, t_1^1) + max(t_0^1, t_1^0).
// Throws std::invalid_argument for no jobs, different stage counts, negative or non-finite
// times, or p > k.
double explicitStageGroupTime(std::span<const std::vector<double>> ordered_jobs_stage_times);

// The authors' 3-stage / 4-slot recurrence for the built-in profiles (docs/architecture.md section 4.5,
// followed literally): f[0..8] = 0; for i = 0..7, f[i+1] = max of
//     f[i]   + t^2 of pi[(i+1) mod 4]   if (i+1) mod 4 < p      (network)
//     f[i]   + t^1 of pi[(i+2) mod 4]   if (i+2) mod 4 < p      (GPU)
//     f[i-1] + t^0 of pi[(i+3) mod 4]   if i > 0 and (i+3) mod 4 < p  (load+preprocess,
//                                         which spans two slots: storage, then CPU)
// (a slot with no applicable term keeps its initial 0, which only happens for p = 1);
// T = f[i+1] - f[i-3] at the first i >= 4 where |a - b| <= 1e-3 * max(|a|, |b|) with
// a = f[i+1] - f[i-3], b = f[i] - f[i-4]; else f[8] - f[4].
// For p = 1 this gives the sum of the job's three stages.
// Throws std::invalid_argument unless 1 <= p <= 4 jobs of exactly 3 stages.
double slotRuleGroupTime(std::span<const std::vector<double>> ordered_jobs_stage_times);

// The alternative 2-job pattern for 3-stage jobs (docs/architecture.md section 4.5):
// T' = max(t_a^0, t_b^1 + t_b^2) + max(t_b^0, t_a^1 + t_a^2): a loads while b computes and
// synchronises, then the other way round. Symmetric in a and b.
double splitPairGroupTime(const std::vector<double>& a, const std::vector<double>& b);

// The rule that applies to these jobs in this order: the slot rule for 3-stage jobs, else
// Eq. 3. (The split-pair pattern is not an ordering; see bestOrdering.)
double orderedGroupTime(std::span<const std::vector<double>> ordered_jobs_stage_times);

namespace detail {
// Unchecked versions on pointers, used by the ordering search to avoid copies. The
// caller guarantees the preconditions of the checked functions above.
double explicitStageGroupTime(std::span<const std::vector<double>* const> ordered);
double slotRuleGroupTime(std::span<const std::vector<double>* const> ordered);
}  // namespace detail

}  // namespace cl
