#pragma once
// Trace transforms (docs/architecture.md section 8.4). Each returns a new trace, leaves its input alone,
// appends one human-readable line to Trace::provenance and throws std::invalid_argument
// with a clear message on invalid parameters. Job order is kept everywhere.
//
// Transforms that change what a job's iteration time depends on (its model or GPU count)
// drop the per-job measured solo_iteration_time / stage_times (they belong to the old setting;
// the profile supplies the new ones) and, for jobs with a duration, reset iterations to 0
// so that they are derived again from the duration. Durations are never changed.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/trace.h"
#include "core/workload/model_mix.h"

namespace cl {

// Submit times divided by f (f > 0, finite): f = 2 doubles the arrival rate.
Trace scaleLoad(const Trace& trace, double factor);
// Every job submitted at time 0.
Trace allAtZero(const Trace& trace);
// Jobs with t0 <= submit < t1 (t0 finite, t1 > t0, t1 may be +inf), submit times shifted
// by -t0 so that the window starts at time 0.
Trace timeWindow(const Trace& trace, double t0, double t1);
// n jobs (1 <= n <= size) chosen uniformly without replacement, original order kept:
// a partial Fisher-Yates shuffle of the indices with PortableRng(seed).below(), i.e.
// std::mt19937_64 raw output only.
Trace subsample(const Trace& trace, std::size_t n, std::uint64_t seed);
// A block bootstrap of the arrivals (docs/architecture.md 8.4): the span from the first
// submission is cut into blocks of `block_seconds` (a day, a week); a trace of as many blocks is
// drawn with replacement (PortableRng(seed)), each drawn block's jobs moved to its new place
// with their times within the block kept. Jobs keep every field but their id (ID~K for the K-th
// block of the new trace) and their recorded start (dropped: it belongs to the original
// arrivals). Job order is by new block, then as before. block_seconds > 0.
Trace resampleBlocks(const Trace& trace, double block_seconds, std::uint64_t seed);
// Every job gets a model drawn from the mix: assignModels(..., seed, only_missing = false).
Trace reassignModels(const Trace& trace, const ModelMix& mix, std::uint64_t seed);
// GPU counts above c become c (c >= 1).
Trace capGpus(const Trace& trace, int max_gpus);

// CLI / GUI specs:
//   scale=F               scaleLoad(F)
//   all-at-zero           allAtZero
//   window=T0:T1          timeWindow(T0, T1), seconds; T1 may be "inf"
//   subsample=N[:SEED]    subsample(N, SEED), SEED defaults to 1
//   models=MIX[@SEED]     reassignModels(parseModelMix(MIX), SEED), SEED defaults to 1
//   tasks=SPLIT[@SEED]    reassignModels(mixFromTaskSplit(parseTaskSplit(SPLIT)), SEED)
//                         over the built-in Muri task catalog (image, language, rl)
//   cap-gpus=C            capGpus(C)
//   resample=day|week[@SEED]  resampleBlocks(86400 or 604800 s, SEED), SEED defaults to 1
// Unknown or malformed specs throw std::invalid_argument; the message lists the valid specs.
Trace applyTransform(const Trace& trace, const std::string& spec);
// In order.
Trace applyTransforms(const Trace& trace, const std::vector<std::string>& specs);
// One line per spec form with a short explanation (for --help and error messages).
std::vector<std::string> transformSpecSyntax();

}  // namespace cl
