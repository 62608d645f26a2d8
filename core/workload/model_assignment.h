#pragma once
// Giving jobs a model (traces such as Philly or Helios have none) and deriving the figures
// that follow from a model's profile.
//
// The seeded rule (assignModels): a std::mt19937_64 is seeded with `seed`; the jobs are
// visited in trace order and EVERY job consumes exactly one raw 64-bit draw x, turned into
// u = (x >> 11) * 2^-53 in [0, 1); the job's model is mix.pick(u) (the first mix entry
// whose cumulative weight exceeds u * total, entries in the order given). With
// only_missing, jobs that already name a model keep it, and so do jobs that keep a measured run
// time (keepsMeasuredRunTime in core/model/job.h), but still consume their draw, so a
// job's draw depends only on (seed, its position) and both modes agree on the jobs they
// both assign. No std:: distribution is involved, so the result is the same with every
// standard library.
//
// When a job's model actually changes, the figures tied to the old model are dropped:
// batch_size, solo_iteration_time and stage_times are reset to 0 / empty (the new model's
// profile supplies them) and, if the job has a duration, iterations is reset to 0 so that
// it is derived again from the duration (deriveIterations or the simulator).
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/workload/model_mix.h"

namespace cl {

// Returns the number of jobs whose model was set. Throws std::invalid_argument on an empty
// mix or one without a positive weight.
std::size_t assignModels(Trace& trace, const ModelMix& mix, std::uint64_t seed, bool only_missing = true);
// The same with equal weights over `models` (in the given order).
std::size_t assignModels(Trace& trace, const std::vector<std::string>& models, std::uint64_t seed,
                         bool only_missing = true);

// The Synergy artifact's deterministic rule (docs/architecture.md section 8.4, `synergy-artifact`):
// jobs in trace order; each takes the task furthest below its target share, i.e. the task
// maximising w_t * (n + 1) - c_t * W (w_t its weight, W the total, c_t the jobs it got
// among the n assigned so far: how far it lags its share once this job is counted; exact
// for integer weights; ties to the earlier task in the split), and that task's next model,
// round-robin in catalog order. Zero-weight tasks are never chosen.
std::size_t assignModelsByTaskShare(Trace& trace, const TaskSplit& split, const TaskCatalog& catalog,
                                    bool only_missing = true);

// iterations = ceil(duration / iteration time) (relative tolerance 1e-9, at least 1) for
// every job with iterations == 0 and duration > 0 whose iteration time is known: its own
// solo_iteration_time if given (the trace's measurement takes precedence), else its model's
// profile at its GPU count (ModelProfile::at: exact count, else the nearest profiled one).
// Returns the number of jobs filled; other jobs are left alone.
std::size_t deriveIterations(Trace& trace, const ProfileSet& profiles);

// batch_size = the profile's batch size for every job with batch_size == 0 and a profiled
// model. Returns the number of jobs filled.
std::size_t fillBatchSizes(Trace& trace, const ProfileSet& profiles);

}  // namespace cl
