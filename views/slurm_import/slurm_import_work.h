#pragma once
// What the Slurm import dialog hands to worker threads: each function is one call into core
// (docs/architecture.md sections 2.10, 8.5, 8.7 and 8.8) that catches what it throws, so that a
// worker never lets an exception escape and the dialog shows the message instead.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QString>

#include "core/io/slurm_nodes.h"
#include "core/io/slurm_partitions.h"
#include "core/io/slurm_sacct.h"
#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/workload/measured_iterations.h"
#include "core/workload/profile_rules.h"

namespace cl::views {

// The accounting history: the jobs kept, what was left out and refused, and the trace they make
// (measured run times on their own GPU types; no model yet).
struct HistoryRead {
    std::optional<cl::SacctImport> history;
    std::shared_ptr<const cl::Trace> trace;
    std::map<std::string, int> left_out;  // by the trace: never-started jobs without a time limit
    QString error;
};
HistoryRead readHistory(const QString& path, const cl::SacctOptions& options, const QString& name);

// The node inventory as Slurm describes it; the layout is made from it on the GUI thread.
struct NodesRead {
    std::optional<cl::SlurmNodeInventory> inventory;
    QString error;
};
NodesRead readNodes(const QString& path);

// The partitions as `scontrol show partition --oneliner` describes them; laid over the layout on
// the GUI thread, as `import slurm --partitions` does.
struct PartitionsRead {
    std::optional<cl::SlurmPartitionList> partitions;
    QString error;  // file:line: field: what is wrong
};
PartitionsRead readPartitions(const QString& path);

// Which jobs of the history can never run on the imported cluster (docs/architecture.md 2.10),
// by core's JobRequests as a run resolves them: a run leaves those jobs out, named.
struct FitCheck {
    std::vector<std::string> reasons;  // per job of the trace: why it never fits, "" when it can
    std::size_t never_fit = 0;         // jobs with a reason
    // A job asks for a partition the cluster does not have: a run refuses the trace, and so does
    // the import (core's message names the job and the partition).
    QString error;
};
FitCheck checkJobsFit(const cl::Cluster& cluster, const cl::Trace& trace);

// The history's trace with every job's model set by the rules and its run time turned into
// iterations of that model (when the rules are valid for the set).
struct RuledTrace {
    std::shared_ptr<const cl::Trace> trace;
    cl::RuleMatchCounts counts;
    cl::MeasuredIterations iterations;
    QString error;  // the rules do not fit the set: nothing was assigned
};
RuledTrace applyProfileRules(const cl::Trace& trace, const cl::ProfileRules& rules,
                             const cl::ProfileSet& profiles);

}  // namespace cl::views
