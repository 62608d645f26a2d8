#include "core/sim/job_resolution.h"

#include <cmath>
#include <optional>

#include "core/model/accumulation_speed.h"
#include "core/sim/simulator.h"

namespace cl {

namespace {
// Without a profile or a measured iteration time a job is modelled as one-second iterations.
constexpr double kGenericIterationTime = 1.0;
}  // namespace

ResolvedJob resolveJob(const Job& job, int index, const ProfileSet& profiles,
                       const Conventions& conventions) {
    const ModelProfile* model = job.model.empty() ? nullptr : profiles.find(job.model);
    const GpuCountProfile* at = model ? model->at(job.gpus) : nullptr;

    double iter = job.solo_iteration_time;
    double iterations = job.iterations;
    if (model && iter <= 0) {
        // SJF-BSBF's speed model: Eq. 7 on the reference servers, with as much accumulation
        // as the job's full batch needs to fit GPU memory (docs/architecture.md section 4.7).
        std::optional<AccumulationProfile> acc;
        try {
            acc = accumulationProfileOf(*model);
        } catch (const std::invalid_argument& e) {
            throw SimulationError(e.what());
        }
        if (acc) {
            int batch = 0;
            try {
                batch = jobBatch(*acc, job.batch_size, job.gpus);
            } catch (const std::invalid_argument& e) {
                throw SimulationError("job '" + job.id + "' (#" + std::to_string(index) + "): " + e.what());
            }
            const int sub =
                largestFittingSubBatch(*acc, localBatch(batch, job.gpus), acc->reference_gpu_memory_mb);
            if (sub == 0)
                throw SimulationError("job '" + job.id + "' (#" + std::to_string(index) +
                                      "): one sample of model '" + job.model +
                                      "' does not fit the GPU memory of the profile's reference GPU");
            iter = accumulatedIterationTime(
                *acc, job.gpus, consolidatedServers(job.gpus, acc->reference_gpus_per_server), batch, sub);
            // Pollux's workloads state no length: train the model's samples at its batch.
            if (iterations <= 0 && job.duration <= 0 && acc->train_samples > 0)
                iterations = std::ceil(acc->train_samples / batch);
        }
    }
    if (iter <= 0 && at) iter = at->solo_iteration_time;
    if (iter <= 0 && job.iterations > 0 && job.duration > 0) iter = job.duration / job.iterations;
    if (iter <= 0) iter = kGenericIterationTime;

    if (job.iterations < 0 || job.duration < 0 || !std::isfinite(job.iterations) ||
        !std::isfinite(job.duration))
        throw SimulationError("job '" + job.id + "' (#" + std::to_string(index) +
                              ") has negative or non-finite iterations or duration");
    ResolvedJob r;
    r.iterations = iterations;
    if (r.iterations <= 0 && job.duration > 0) r.iterations = job.duration / iter;
    // A measured run time is on the GPU type the job ran on: in reference-GPU work that is the
    // time times that type's speed, so that on the same type it runs exactly as long again and
    // on another type by the speed ratio (the rule of measured iterations, section 8.8).
    // (As a longer iteration rather than more of them: on the same type the speed divides out
    // exactly.)
    const double measured_speed = keepsMeasuredRunTime(job) && !job.gpu_type.empty()
                                      ? profiles.speedFactor(job.model, job.gpu_type)
                                      : 1.0;
    if (!(r.iterations >= 0) || !std::isfinite(r.iterations))
        throw SimulationError("job '" + job.id + "' (#" + std::to_string(index) + ") has an invalid length");
    // A measured run time is what the job took on real GPUs: neither the solo factor (which
    // models the gap between a profile and a real run, section 2.5) nor a start-up overhead
    // applies to it, whether it keeps that time or a rule turned it into a model's iterations.
    r.first_start_free = hasMeasuredRunTime(job);
    r.solo_iteration_time = r.first_start_free ? iter * measured_speed : iter * conventions.solo_factor;
    r.restart_overhead = at ? at->restart_overhead : profiles.default_restart_overhead;
    r.stage_times =
        !job.stage_times.empty() ? job.stage_times : (at ? at->stage_times : std::vector<double>{});
    return r;
}

}  // namespace cl
