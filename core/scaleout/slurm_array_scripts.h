#pragma once
// The Slurm scripts beside an emitted folder (docs/architecture.md section 9.7): array.sbatch
// runs the specs as one job array, merge.sbatch folds the shards back, submit.sh submits both
// (the merge after the array, afterany) and resubmit-failed.sh only the tasks listed in
// failed-tasks.txt. Text only: nothing here talks to Slurm.
#include <string>
#include <vector>

namespace cl {

// Slurm's default MaxArraySize is 1001 (task indices 0..1000): an emission keeps to 1000 tasks.
inline constexpr int kMaxArrayTasks = 1000;

struct SlurmArrayOptions {
    int specs_per_task = 0;  // 0: the fewest that keeps the array within kMaxArrayTasks
    int array_limit = 0;     // at most this many tasks at once (%LIMIT); 0: no limit
    int cpus_per_task = 1;
    int task_minutes = 0;   // --time of an array task
    int merge_minutes = 0;  // --time of the merge job
    std::string partition, account;
    std::vector<std::string> sbatch_options;  // passed through as "#SBATCH OPTION" lines
};

// A word the shell takes as it is: quoted ('...') unless made of safe characters only.
std::string shellWord(const std::string& word);

// K: the requested specs per task, else ceil(specs / kMaxArrayTasks) (at least 1).
int specsPerTask(int specs, int requested);
int arrayTasks(int specs, int specs_per_task);

// An array task's time limit in minutes: three times the measured seconds of one simulation per
// spec in the task, plus five minutes for start-up and writing the shard.
int taskTimeLimitMinutes(double measured_seconds_per_spec, int specs_per_task);
// The merge job's: ten minutes plus, per shard, 0.1 s or 30 microseconds per job of the largest
// trace, whichever is more. A shard's size, and so its merge, grows with its trace: measured 31 ms
// per shard of Muri trace1's 1,494 jobs (four policies) and 0.4 s per shard of the 82,247-job
// Philly trace (srtf) (README "Scaling out", bench/bench_workspace_merge.cpp).
int mergeTimeLimitMinutes(int specs, long long largest_trace_jobs = 0);

// Writes DIR/array.sbatch, merge.sbatch, submit.sh and resubmit-failed.sh (executable) for
// `specs` specs of DIR/commands.txt. `cli` is the executable the merge calls; `workspace` the
// target of the merge. Throws std::invalid_argument for a bad option (a specs per task giving
// more than kMaxArrayTasks tasks, a time limit below one minute).
void writeSlurmArrayScripts(const std::string& dir, int specs, const std::string& cli,
                            const std::string& workspace, const SlurmArrayOptions& options);

}  // namespace cl
