#pragma once
// The GPU type a job from accounting ran on when the accounting does not say (sacct's AllocTRES
// names a type only when AccountingStorageTRES lists typed GPUs; docs/architecture.md 8.8): the
// type holding the most GPUs on the servers the job may use in the imported cluster (its
// partitions, its requested type), ties to the first by name. Without it such a job's measured
// time would count at the reference GPU's speed and run faster or slower than it did on the very
// cluster it ran on.
#include <cstddef>
#include <map>
#include <string>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl {

struct RecordedGpuTypes {
    std::map<std::string, std::size_t> inferred;  // GPU type -> jobs that got it
};

// Sets gpu_type for every job from accounting (a recorded start or a time limit, and a measured
// run time) without one; a job whose iterations came from its measured time (a rule gave it a
// model, iterationsFromMeasuredTime counted it at the reference GPU) has them scaled by the
// type's speed, so that it still takes its measured time on that type. Jobs that can use no
// server of the cluster keep no type.
RecordedGpuTypes inferRecordedGpuTypes(Trace& trace, const Cluster& cluster, const ProfileSet& profiles);

}  // namespace cl
