#include "core/workload/synergy_workload.h"

#include <string>

namespace cl {

GeneratorConfig synergyGeneratorConfig(const SynergyWorkload& w) {
    GeneratorConfig c;
    c.jobs = w.jobs;
    c.seed = w.seed;
    c.arrival = ArrivalProcess::Poisson;
    c.jobs_per_hour = w.jobs_per_hour;
    c.duration = DurationModel::SynergyLogUniform;
    if (w.multi_gpu) {
        c.max_gpus = 16;  // the paper's multi-GPU traces ask for up to 16 GPUs
    } else {
        c.gpu_weights = {{1, 1.0}};
    }
    c.tasks = w.split;
    c.task_catalog = "synergy";
    c.model_rule = ModelRule::TaskShare;
    c.name =
        std::string("synergy-") + (w.multi_gpu ? "multi" : "single") + "-" + std::to_string(w.jobs_per_hour);
    while (!c.name.empty() && (c.name.back() == '0' || c.name.back() == '.')) {
        const bool dot = c.name.back() == '.';
        c.name.pop_back();
        if (dot) break;
    }
    c.name += "jph";
    return c;
}

}  // namespace cl
