#include "core/policies/simulate_policy.h"

namespace cl {

SimResult simulatePolicy(const Cluster& cluster, const Trace& trace, const ProfileSet& profiles,
                         const std::string& policy, const SimOptions& options,
                         const SchedulerTuning& tuning) {
    const std::unique_ptr<Scheduler> scheduler = makeScheduler(policy, options.conventions, tuning);
    return simulate(cluster, trace, profiles, *scheduler, options);
}

}  // namespace cl
