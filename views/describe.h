#pragma once
// What the main window shows: a cluster, a trace, the profiles and the policies to compare.
#include <memory>

#include <QString>
#include <QStringList>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl::views {

struct Scenario {
    std::shared_ptr<const cl::Cluster> cluster;
    std::shared_ptr<const cl::Trace> trace;
    std::shared_ptr<const cl::ProfileSet> profiles;
    QStringList policies;

    bool isValid() const { return cluster && trace && profiles && !policies.isEmpty(); }

    // The policies the summary compares by default: fifo, srtf, srsf, tiresias.
    static QStringList defaultPolicies();
    // The built-in demo: the demo trace on the "muri-testbed-64" preset with the built-in
    // profiles. Throws std::exception (from the engine's data loaders) if data is missing.
    static Scenario demo();
};

// "muri-testbed-64 · 8 servers · 64 GPUs (64 × V100)"
QString describeCluster(const cl::Cluster& cluster);
// "demo · 40 jobs · submitted over 2.5 h"
QString describeTrace(const cl::Trace& trace);

}  // namespace cl::views
