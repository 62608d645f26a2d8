#pragma once
// Slurm accounting history read into one record per job allocation, with what each row dropped
// and why (docs/architecture.md section 8.5), from either machine form of sacct: `--parsable2`
// (the '|'-separated form with a header naming the --format fields in any order) or `--json`
// (Slurm 22.05's openapi/dbv0.0.38 and the data_parser v0.0.39 to v0.0.4x of 23.02 and later).
// The rules, the same for both forms:
//  - steps (123.batch, 123.extern, 123.0) fold into their job; a step whose job is missing is
//    dropped; array tasks (123_4) and heterogeneous components (123+1) are jobs of their own; a
//    pending array range (123_[3-5,7%2]) is one never-started job per task.
//  - GPUs and their type come from AllocTRES for a job that ran, else ReqTRES (gres/gpu=N,
//    gres/gpu:TYPE=N); a job without GPUs is dropped. The type ReqTRES names (what the job asked
//    for, sbatch --gres=gpu:TYPE:N) is kept apart from the type it ran on.
//  - State: COMPLETED, FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE
//    and CANCELLED after start keep their run time; PENDING and CANCELLED before start never ran
//    and RUNNING (also SUSPENDED, RESIZING) has not finished: both are dropped unless kept by an
//    option; a REQUEUED row is an earlier attempt of a job sacct lists again (with --duplicates)
//    and is dropped, the job's final record is kept.
//  - Times are ISO 8601 as sacct prints them, local to the cluster: `utc_offset_s` turns them
//    into UTC; Unknown and None mean no time. Elapsed is [D-][HH:]MM:SS. Timelimit is
//    [D-]HH:MM:SS, UNLIMITED, or Partition_Limit (none of its own: the partition's MaxTime).
//    In the JSON form times are Unix epoch seconds, already UTC: `utc_offset_s` does not apply.
//  - A row that cannot be read is refused with its file, line and field, and counted. In the JSON
//    form a refused job names the line of its job object and the field's path in it.
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cl {

struct SlurmJob {
    std::string id;  // JobID: "123", "123_4", "123+1"
    int line = 0;    // line of its record in the file
    std::string name, user, account;
    std::string partition;  // as sacct prints it: a job submitted to several partitions lists them "a,b"
    std::string state;      // first word of State ("CANCELLED by 42" -> "CANCELLED")
    double submit = std::numeric_limits<double>::quiet_NaN();  // seconds since 1970-01-01 UTC
    double start = std::numeric_limits<double>::quiet_NaN();
    double end = std::numeric_limits<double>::quiet_NaN();
    // Timelimit: what the job asked for (seconds; infinity for UNLIMITED, NaN when not given or
    // Partition_Limit). A never-started job kept by an option replays its time limit
    // (docs/architecture.md 8.8).
    double time_limit = std::numeric_limits<double>::quiet_NaN();
    double elapsed = 0.0;  // seconds it ran (0 for a job that never started)
    bool started = false;
    int gpus = 0;
    std::string gpu_type;            // lower case; empty when the TRES names no type
    std::string requested_gpu_type;  // the type ReqTRES names, lower case; empty = any
    int cpus = 0;
    int nodes = 0;
    double memory_gb = std::numeric_limits<double>::quiet_NaN();  // the whole job's
};

struct SacctOptions {
    double utc_offset_s = 0.0;    // the cluster's local time minus UTC
    bool keep_unstarted = false;  // PENDING and CANCELLED before start
    bool keep_running = false;    // RUNNING, SUSPENDED, RESIZING (run time so far)
};

struct SacctImport {
    std::vector<SlurmJob> jobs;          // kept, in file order
    std::map<std::string, int> dropped;  // reason -> jobs
    std::vector<std::string> refused;    // "file:line: field: what is wrong", one per refused row
    int rows = 0;                        // data rows read (steps included)
};

// Throws ParseError (file, line 1 or 0) when the header lacks JobID/JobIDRaw, State or Submit.
SacctImport parseSacctParsable(std::string_view text, const std::string& file,
                               const SacctOptions& options = {});
SacctImport readSacctParsable(const std::string& path, const SacctOptions& options = {});

// `sacct --json` output: the top-level "jobs" array, steps nested in each job's "steps". Throws
// ParseError for invalid JSON (with the line where it stops) or a document without "jobs".
SacctImport parseSacctJson(std::string_view text, const std::string& file, const SacctOptions& options = {});

// The same from a file, read a block at a time: the memory held is one job's besides the result,
// whatever the size of the export.
SacctImport readSacctJson(const std::string& path, const SacctOptions& options = {});

// Either form, told apart by the content: JSON when the first character that is not white space
// is '{', else --parsable2.
SacctImport readSacct(const std::string& path, const SacctOptions& options = {});

// Content sniffing for format auto-detection (reads at most the first megabyte): a --parsable2
// header line with JobID (or JobIDRaw) and State among its '|'-separated fields, or JSON whose
// top-level "jobs" array starts with an object holding "job_id" and "steps" or "tres".
bool looksLikeSacct(const std::string& path);

// The pieces, for the readers and tests. Each throws std::invalid_argument saying what it expected.
// "[D-][HH:]MM:SS[.fff]" -> seconds; UNLIMITED and Partition_Limit -> inf (the readers tell the two
// apart for Timelimit before calling it).
double parseSlurmElapsed(std::string_view text);
// ReqMem in every form sacct writes: "64G", "4000M", "4000Mc" (per CPU), "64Gn" (per node),
// K/M/G/T units (binary, to GB = 1024^3 bytes), no unit = MB.
double parseSlurmMemoryGb(std::string_view req_mem, int cpus, int nodes);
struct TresGpus {
    int count = 0;
    std::string type;
};
TresGpus parseTresGpus(std::string_view tres);  // "cpu=4,gres/gpu:a100=4,mem=64G" -> {4, "a100"}
// "UTC", "Z", "+02:00", "-0530", "+2" -> seconds east of UTC.
double parseUtcOffset(std::string_view text);

}  // namespace cl
