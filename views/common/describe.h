#pragma once
// One-line descriptions of a cluster and a trace for labels and the properties view.
#include <QString>

#include "core/model/cluster.h"
#include "core/model/trace.h"

namespace cl::views {

// "muri-testbed-64 · 8 servers · 64 GPUs (64 × V100)"
QString describeCluster(const cl::Cluster& cluster);
// "demo · 40 jobs · submitted over 2.5 h"
QString describeTrace(const cl::Trace& trace);

}  // namespace cl::views
