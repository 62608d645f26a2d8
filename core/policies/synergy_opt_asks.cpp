// Synergy-OPT's first step inside the mechanism: the ILP over every runnable job's discrete
// (CPU, memory) points with the cluster as one machine (synergy_opt_ilp.h) decides what each
// job asks for; the packing then places those asks like TUNE (synergy_mechanism.h).
//
// Requests (partitions and GPU types, docs/architecture.md 2.10): the ILP pools the cluster's CPU
// and memory and has no servers, so it has nothing to forbid; it chooses the asks of constrained
// jobs like everyone else's, and the packing, which skips every server a job may not use, places
// them like TUNE (a constrained job whose ask does not fit on its servers falls back to a lesser
// point or its proportional share there). Its objective then stays an upper bound, only a looser
// one when requests crowd some partitions (optPlacedShortfall() counts those rounds).
#include "core/policies/synergy_mechanism.h"
#include "core/policies/synergy_opt_ilp.h"

namespace cl {

void SynergyScheduler::chooseOptAsks(const SchedulerInput& in) {
    if (packed_.empty()) return;
    std::vector<OptJob> jobs(packed_.size());
    for (std::size_t i = 0; i < packed_.size(); ++i) {
        const ModelDemand& demand = *packed_demand_[i];
        const double g = packed_[i].gpus;
        OptJob& job = jobs[i];
        job.min_throughput = demand.proportional_throughput;
        for (const auto& p : demand.choices)
            job.choices.push_back({p.per_gpu.cpus * g, p.per_gpu.memory_gb * g, p.throughput});
        // The GPU-proportional share is always an option (and the fallback): it fits
        // whenever the jobs' GPUs do.
        job.fallback = static_cast<int>(job.choices.size());
        job.choices.push_back(
            {reference_share_.cpus * g, reference_share_.memory_gb * g, demand.proportional_throughput});
    }
    const OptResult result = solveOptIlp(jobs, in.cluster->totalCpuCores(), in.cluster->totalMemoryGb(),
                                         options_.opt_time_limit_s);
    if (result.time_limited) ++opt_time_limited_;
    for (std::size_t i = 0; i < packed_.size(); ++i) {
        const OptChoice& c = jobs[i].choices[static_cast<std::size_t>(result.choice[i])];
        packed_[i].ask = {c.cpus / packed_[i].gpus, c.memory_gb / packed_[i].gpus};
    }
}

}  // namespace cl
