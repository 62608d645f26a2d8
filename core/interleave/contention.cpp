#include "core/interleave/contention.h"

#include <stdexcept>
#include <string>

namespace cl {

double Contention::factor(int jobs) const {
    if (jobs < 1)
        throw std::invalid_argument("Contention::factor: a group has at least one job, got " +
                                    std::to_string(jobs));
    return per_size[jobs > 4 ? 4 : jobs];
}

Contention Contention::none() {
    Contention c;
    c.solo = 1.0;
    for (double& f : c.per_size) f = 1.0;
    return c;
}

}  // namespace cl
