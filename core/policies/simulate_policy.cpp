#include "core/policies/simulate_policy.h"

#include "core/policies/muri_mechanism.h"

namespace cl {

SimResult simulatePolicy(const Cluster& cluster, const Trace& trace, const ProfileSet& profiles,
                         const std::string& policy, const SimOptions& options,
                         const SchedulerTuning& tuning) {
    const std::unique_ptr<Scheduler> scheduler = makeScheduler(policy, options.conventions, tuning);
    // Only Muri explains its groupings (docs/architecture.md 5.1, "Why this grouping").
    if (options.grouping_log)
        if (auto* muri = dynamic_cast<MuriScheduler*>(scheduler.get()))
            muri->setGroupingLog(options.grouping_log);
    return simulate(cluster, trace, profiles, *scheduler, options);
}

}  // namespace cl
