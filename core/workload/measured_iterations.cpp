#include "core/workload/measured_iterations.h"

namespace cl {

MeasuredIterations iterationsFromMeasuredTime(Trace& trace, const ProfileSet& profiles) {
    MeasuredIterations out;
    for (Job& job : trace.jobs) {
        if (job.iterations > 0.0 || job.duration <= 0.0) continue;
        const ModelProfile* model = job.model.empty() ? nullptr : profiles.find(job.model);
        const GpuCountProfile* row = model ? model->at(job.gpus) : nullptr;
        if (!row || row->solo_iteration_time <= 0.0) {
            ++out.without_profile;
            continue;
        }
        double speed = 1.0;
        if (!job.gpu_type.empty()) {
            const bool known =
                model->speed_by_gpu_type.count(job.gpu_type) || profiles.gpu_type_speed.count(job.gpu_type);
            if (!known) ++out.unknown_types[job.gpu_type];
            speed = profiles.speedFactor(job.model, job.gpu_type);
        }
        const double iteration_on_type = row->solo_iteration_time / speed;
        job.iterations = job.duration / iteration_on_type;
        ++out.converted;
    }
    return out;
}

}  // namespace cl
