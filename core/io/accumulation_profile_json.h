#pragma once
// The SJF-BSBF profile set (data/profiles/sjf-bsbf.json) from fitted Pollux models: per model
// the extra.sjf_bsbf section accumulationProfileOf reads, and by_gpus rows computed with Eq. 7.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/accumulation_fit.h"
#include "core/model/model_profile.h"

namespace cl {

// The model's extra.sjf_bsbf section (milliseconds, rounded to 6 significant digits).
nlohmann::json accumulationSectionJson(const AccumulationFit& fit);
// A profile of the fitted model: by_gpus rows for 1, 2, 4, 8, 16 GPUs with iteration_ms = Eq. 7
// at default_batch x GPUs on consolidated servers of the reference machine (4 x 11 GB), with the
// largest sub-batch that fits; restart 10 s; batch_size = default_batch; gpu_memory_mb = one
// worker at the one-GPU sub-batch. Throws std::invalid_argument when one sample does not fit.
ModelProfile accumulationModelProfile(const AccumulationFit& fit);
// The profile set "sjf-bsbf" of all fitted models.
ProfileSet accumulationProfileSet(const std::vector<AccumulationFit>& fits);

}  // namespace cl
