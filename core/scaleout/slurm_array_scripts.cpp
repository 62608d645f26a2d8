#include "core/scaleout/slurm_array_scripts.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/io/json_doc.h"

namespace cl {

namespace fs = std::filesystem;

std::string shellWord(const std::string& s) {
    bool plain = !s.empty();
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) ||
              std::string("/._-+=:,@%").find(c) != std::string::npos))
            plain = false;
    if (plain) return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

int specsPerTask(int specs, int requested) {
    if (requested > 0) return requested;
    return std::max(1, (specs + kMaxArrayTasks - 1) / kMaxArrayTasks);
}

int arrayTasks(int specs, int specs_per_task) {
    return (specs + specs_per_task - 1) / specs_per_task;
}

int taskTimeLimitMinutes(double measured_seconds_per_spec, int specs_per_task) {
    const double seconds = 3.0 * std::max(0.0, measured_seconds_per_spec) * specs_per_task;
    return 5 + static_cast<int>(std::ceil(seconds / 60.0));
}

int mergeTimeLimitMinutes(int specs, long long largest_trace_jobs) {
    const long long per_shard_ms = std::max(100LL, std::max(0LL, largest_trace_jobs) * 30 / 1000);
    const long long total_ms = static_cast<long long>(std::max(0, specs)) * per_shard_ms;
    return 10 + static_cast<int>((total_ms + 59999) / 60000);
}

namespace {

// Slurm reads #SBATCH lines itself, without a shell: a value there cannot be quoted.
void checkDirective(const std::string& value, const char* what) {
    for (char c : value)
        if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'')
            throw std::invalid_argument(std::string(what) + " '" + value +
                                        "' holds a space or quote, which an #SBATCH line cannot carry");
}

std::string commonDirectives(const std::string& dir, const SlurmArrayOptions& o, int minutes) {
    std::string s;
    s += "#SBATCH --cpus-per-task=" + std::to_string(o.cpus_per_task) + "\n";
    s += "#SBATCH --time=" + std::to_string(minutes) + "\n";
    s += "#SBATCH --chdir=" + dir + "\n";
    if (!o.partition.empty()) s += "#SBATCH --partition=" + o.partition + "\n";
    if (!o.account.empty()) s += "#SBATCH --account=" + o.account + "\n";
    for (const auto& opt : o.sbatch_options) s += "#SBATCH " + opt + "\n";
    return s;
}

void writeScript(const fs::path& path, const std::string& text) {
    io::writeTextFile(path.string(), text);
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
}

}  // namespace

void writeSlurmArrayScripts(const std::string& dir, int specs, const std::string& cli,
                            const std::string& workspace, const SlurmArrayOptions& options) {
    if (specs < 1)
        throw std::invalid_argument("no specs to submit (every scenario already has a finished run)");
    const int per_task = specsPerTask(specs, options.specs_per_task);
    const int tasks = arrayTasks(specs, per_task);
    if (tasks > kMaxArrayTasks)
        throw std::invalid_argument(
            std::to_string(specs) + " specs at " + std::to_string(per_task) + " per task make " +
            std::to_string(tasks) + " array tasks, more than Slurm's default MaxArraySize allows (" +
            std::to_string(kMaxArrayTasks) + "); give a larger --specs-per-task or leave it out");
    if (options.task_minutes < 1 || options.merge_minutes < 1)
        throw std::invalid_argument("a Slurm time limit must be at least one minute");
    if (options.cpus_per_task < 1) throw std::invalid_argument("--cpus-per-task must be at least 1");
    if (options.array_limit < 0) throw std::invalid_argument("--array-limit must be 0 (none) or more");
    checkDirective(dir, "the folder");
    checkDirective(options.partition, "--partition");
    checkDirective(options.account, "--account");
    const fs::path root(dir);
    const std::string limit = options.array_limit > 0 ? "%" + std::to_string(options.array_limit) : "";

    std::string array = "#!/bin/sh\n";
    array += "# clusterloom: " + std::to_string(specs) + " run specs of commands.txt, " +
             std::to_string(per_task) + " per array task (task i runs specs i*" + std::to_string(per_task) +
             " .. i*" + std::to_string(per_task) + "+" + std::to_string(per_task - 1) + ").\n";
    array += "#SBATCH --job-name=clusterloom-specs\n";
    array += "#SBATCH --array=0-" + std::to_string(tasks - 1) + limit + "\n";
    array += commonDirectives(dir, options, options.task_minutes);
    array += "#SBATCH --output=" + dir + "/logs/%A_%a.out\n";
    array += "cd " + shellWord(dir) + " || exit 1\n";
    array += "per_task=" + std::to_string(per_task) + "\n";
    array += "specs=" + std::to_string(specs) + "\n";
    array += "first=$((SLURM_ARRAY_TASK_ID * per_task))\n";
    array += "status=0\n";
    array += "i=$first\n";
    array += "while [ \"$i\" -lt $((first + per_task)) ] && [ \"$i\" -lt \"$specs\" ]; do\n";
    array += "  line=$(sed -n \"$((i + 1))p\" commands.txt)\n";
    array += "  sh -c \"$line\" || status=1\n";
    array += "  i=$((i + 1))\n";
    array += "done\n";
    array += "exit $status\n";
    writeScript(root / "array.sbatch", array);

    std::string merge = "#!/bin/sh\n";
    merge +=
        "# clusterloom: folds the shards of this folder into the workspace; lists failed tasks in\n"
        "# failed-tasks.txt (resubmit-failed.sh runs them again).\n";
    merge += "#SBATCH --job-name=clusterloom-merge\n";
    SlurmArrayOptions merge_options = options;
    merge_options.cpus_per_task = 1;
    merge += commonDirectives(dir, merge_options, options.merge_minutes);
    merge += "#SBATCH --output=" + dir + "/logs/merge_%j.out\n";
    merge += "cd " + shellWord(dir) + " || exit 1\n";
    merge += "exec " + shellWord(cli) + " workspace merge --emitted " + shellWord(dir) + " --into " +
             shellWord(workspace) + "\n";
    writeScript(root / "merge.sbatch", merge);

    const std::string submit_merge =
        "merge=$(sbatch --parsable --dependency=afterany:\"$array\" merge.sbatch)\n"
        "merge=${merge%%;*}\n"
        "echo \"array $array\"\n"
        "echo \"merge $merge\"\n";
    std::string submit = "#!/bin/sh\n";
    submit += "# Submits the job array, then the merge once every task has ended (afterany).\n";
    submit += "set -e\ncd " + shellWord(dir) + "\n";
    submit += "array=$(sbatch --parsable array.sbatch)\n";
    submit += "array=${array%%;*}\n";
    submit += submit_merge;
    writeScript(root / "submit.sh", submit);

    std::string resubmit = "#!/bin/sh\n";
    resubmit +=
        "# Submits again only the array tasks the last merge listed in failed-tasks.txt, and a\n"
        "# merge after them.\n";
    resubmit += "set -e\ncd " + shellWord(dir) + "\n";
    resubmit += "tasks=$(cat failed-tasks.txt 2>/dev/null || true)\n";
    resubmit += "if [ -z \"$tasks\" ]; then\n";
    resubmit +=
        "  echo \"no failed tasks to resubmit (failed-tasks.txt is empty or missing: run the merge first)\" "
        ">&2\n";
    resubmit += "  exit 0\n";
    resubmit += "fi\n";
    resubmit += "array=$(sbatch --parsable --array=\"$tasks" + limit + "\" array.sbatch)\n";
    resubmit += "array=${array%%;*}\n";
    resubmit += submit_merge;
    writeScript(root / "resubmit-failed.sh", resubmit);
}

}  // namespace cl
