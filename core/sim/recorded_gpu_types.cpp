#include "core/sim/recorded_gpu_types.h"

#include "core/sim/job_requests.h"

namespace cl {

RecordedGpuTypes inferRecordedGpuTypes(Trace& trace, const Cluster& cluster, const ProfileSet& profiles) {
    RecordedGpuTypes out;
    const JobRequests requests(cluster, trace, /*keep_unavailable=*/true);
    for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
        Job& job = trace.jobs[i];
        if (!job.gpu_type.empty() || !hasMeasuredRunTime(job)) continue;
        const auto excluded = requests.excludedServers(static_cast<int>(i));
        std::map<std::string, int> gpus;  // by type name: ties go to the first
        for (std::size_t s = 0; s < cluster.servers.size(); ++s)
            if (excluded.empty() || !excluded[s])
                gpus[cluster.servers[s].gpu_type] += cluster.servers[s].gpus;
        const std::string* best = nullptr;
        int most = 0;
        for (const auto& [type, count] : gpus)
            if (count > most) best = &type, most = count;
        if (!best || best->empty()) continue;
        job.gpu_type = *best;
        if (!job.model.empty() && job.iterations > 0)
            job.iterations *= profiles.speedFactor(job.model, job.gpu_type);
        ++out.inferred[job.gpu_type];
    }
    return out;
}

}  // namespace cl
