#pragma once
// What a scheduler's accounting measured, in our model's terms (docs/architecture.md 8.5): a job
// that ran for `duration` seconds on its own GPU type did duration / (its profile's iteration time
// on that type) iterations, where the iteration time on a type is the profile's reference time
// divided by the set's speed factor for the model on that type. With iterations set, moving the
// same jobs to other GPU types in a what-if changes their run time by the speed ratio.
#include <cstddef>
#include <map>
#include <string>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl {

struct MeasuredIterations {
    std::size_t converted = 0;                         // jobs that got iterations
    std::size_t without_profile = 0;                   // no model, or a model not in the set: duration kept
    std::map<std::string, std::size_t> unknown_types;  // GPU types the set has no speed for (speed 1.0)
};

// Sets iterations for every job with a model of the set, a positive duration and no iterations
// yet; duration stays as measured. Jobs without a GPU type count as the reference GPU.
MeasuredIterations iterationsFromMeasuredTime(Trace& trace, const ProfileSet& profiles);

}  // namespace cl
