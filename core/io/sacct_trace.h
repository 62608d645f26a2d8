#pragma once
// Slurm accounting history as a trace (docs/architecture.md 8.5): one job per kept allocation,
// submit times from the earliest kept submission, and what Slurm measured kept as measured — the
// run time (`duration`) on the job's own GPU type (`gpu_type`, in our GPU type names) — plus
// what planners filter by (name, user, account, partition, CPUs, memory), what the job asked the
// scheduler for (partitions, GPU type, nodes, time limit) and when it started. No model is set here:
// matching jobs to profiles and turning run time into iterations is core/workload's
// (profile_rules.h, measured_iterations.h).
#include <map>
#include <string>

#include "core/io/slurm_sacct.h"
#include "core/model/trace.h"

namespace cl {

// Slurm's GPU type (lower case, as in the TRES) becomes ours by the GPU type table; unknown
// types are kept as Slurm names them. `file` is named in the provenance. A never-started job
// (kept by SacctOptions::keep_unstarted) replays its time limit; one without a finite limit is
// left out and counted in `left_out` (reason -> jobs) when given.
Trace traceFromSacct(const SacctImport& history, const std::string& name, const std::string& file,
                     std::map<std::string, int>* left_out = nullptr);

}  // namespace cl
