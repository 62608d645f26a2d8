#pragma once
// The eight model types of the multi-agent placement paper (Table I) as data-parallel training
// jobs, with the per-worker figures the placement simulator needs. The paper names the models but
// gives no figures; ours are documented in distributed_models.cpp.
#include <string>
#include <vector>

namespace cl {

struct DistributedModelType {
    std::string name;
    std::string domain;
    double step_seconds = 0.2;      // one mini-batch on one GPU, running alone
    double worker_cpu_cores = 4.0;  // CPU use of one worker, in cores
    double worker_pcie_gbps = 8.0;  // host <-> GPU traffic of one worker, alone
    double gradient_mb = 100.0;     // gradients exchanged per step (fp32 model size)
    double ps_cpu_cores = 2.0;      // CPU use of one parameter server
};

const std::vector<DistributedModelType>& distributedModelTypes();
// Throws std::invalid_argument listing the valid names.
const DistributedModelType& distributedModelType(const std::string& name);

}  // namespace cl
