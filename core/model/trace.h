#pragma once
#include <string>
#include <vector>

#include "core/model/job.h"

namespace cl {

struct Trace {
    std::string name;
    std::vector<Job> jobs;
    // Human-readable record of how the trace was produced (source file, transforms, seeds).
    std::vector<std::string> provenance;

    double firstSubmit() const;
    double lastSubmit() const;
    long long totalGpuDemand() const;
};

}  // namespace cl
