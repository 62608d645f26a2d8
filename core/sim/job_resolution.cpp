#include "core/sim/job_resolution.h"

#include <cmath>

#include "core/sim/simulator.h"

namespace cl {

namespace {
// Without a profile or a measured iteration time a job is modelled as one-second iterations.
constexpr double kGenericIterationTime = 1.0;
}

ResolvedJob resolveJob(const Job& job, int index, const ProfileSet& profiles, const Conventions& conventions) {
    const ModelProfile* model = job.model.empty() ? nullptr : profiles.find(job.model);
    const GpuCountProfile* at = model ? model->at(job.gpus) : nullptr;

    double iter = job.iteration_time;
    if (iter <= 0 && at) iter = at->iteration_time;
    if (iter <= 0 && job.iterations > 0 && job.duration > 0) iter = job.duration / job.iterations;
    if (iter <= 0) iter = kGenericIterationTime;

    if (job.iterations < 0 || job.duration < 0 || !std::isfinite(job.iterations) || !std::isfinite(job.duration))
        throw SimulationError("job '" + job.id + "' (#" + std::to_string(index) +
                              ") has negative or non-finite iterations or duration");
    ResolvedJob r;
    r.iterations = job.iterations;
    if (r.iterations <= 0 && job.duration > 0) r.iterations = job.duration / iter;
    if (!(r.iterations >= 0) || !std::isfinite(r.iterations))
        throw SimulationError("job '" + job.id + "' (#" + std::to_string(index) + ") has an invalid length");
    r.iter_time = iter * conventions.solo_factor;
    r.restart_overhead = at ? at->restart_overhead : profiles.default_restart_overhead;
    r.stage_times = !job.stage_times.empty() ? job.stage_times : (at ? at->stage_times : std::vector<double>{});
    return r;
}

}  // namespace cl
