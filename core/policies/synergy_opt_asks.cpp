// Placeholder until the ILP lands (replaced in the same change).
#include "core/policies/synergy_mechanism.h"

namespace cl {
void SynergyScheduler::chooseOptAsks(const SchedulerInput&) {}
}  // namespace cl
