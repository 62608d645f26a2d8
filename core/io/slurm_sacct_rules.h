#pragma once
// Internal to the sacct readers: the rules both machine forms of sacct (--parsable2 and --json)
// share, so that the same job reads the same from either (docs/architecture.md section 8.5).
// Not part of the io API.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/slurm_sacct.h"

namespace cl::io::sacct {

// The states a job can be in (sacct(1), JOB STATE CODES), by what the job contributes.
enum class StateKind { Finished, Cancelled, Pending, Running, Requeued };
std::optional<StateKind> stateKind(std::string_view state);

// "3-5,7,9-10%2" -> 3,4,5,7,9,10 (the %limit is how many may run at once). Throws
// std::invalid_argument saying what it expected.
std::vector<long long> expandArrayRange(std::string_view spec);

// A cancelled job that never ran for a moment did not start (docs/architecture.md section 8.5).
void settleCancelled(SlurmJob& job, StateKind kind);

// Why the job is left out ("never started", "still running", ...), or nullptr when it is kept.
const char* dropReason(StateKind kind, const SlurmJob& job, const SacctOptions& options);

// Memory in GB from megabytes and a multiplier (CPUs for per-CPU, nodes for per-node requests),
// computed as parseSlurmMemoryGb does so that both forms give the same double.
double memoryGb(double megabytes, int per);

// The GPU entry of one TRES item (name "gpu" or "gpu:TYPE"), folded like parseTresGpus: an
// untyped count wins, else typed counts add up; the type is the first typed one, lower case.
struct GpuTally {
    long long untyped = -1;
    long long typed = 0;
    std::string type;
    void add(std::string_view gres_name, long long count);  // gres_name without "gres/"
    TresGpus result() const;
};

// Content sniffing of the JSON form: a top-level "jobs" array whose first element has "job_id"
// and "steps" or "tres". `prefix` may be the start of a longer file.
bool looksLikeSacctJson(std::string_view prefix);

}  // namespace cl::io::sacct
