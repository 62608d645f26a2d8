#pragma once
// The folder `sweep --emit DIR` writes and `workspace merge --emitted DIR` folds back
// (docs/architecture.md section 9.7): DIR/inputs/<hash>.json (each input once), DIR/specs/NNNNN.json
// (one run spec each), DIR/commands.txt (one shell line per spec, in spec order, run inside DIR),
// DIR/shards/ (filled by run-spec), DIR/workspace (the target workspace's absolute path) and
// DIR/emit.json (how many specs, and how many run in one array task).
#include <string>
#include <vector>

#include "core/store/scenario_store.h"
#include "core/store/workspace_merge.h"

namespace cl {

struct EmitOptions {
    std::string cli;         // the executable each command line calls, absolute
    int specs_per_task = 1;  // how failed specs map to array tasks (slurm_array_scripts.h)
    bool force = false;      // also emit scenarios that already have an identical finished run
};

struct EmittedFolder {
    std::string dir;                 // absolute
    std::vector<std::string> names;  // the emitted scenarios, in spec order
    int already_stored = 0;          // scenarios left out: an identical finished run is stored
    int inputs = 0;                  // files in DIR/inputs
};

// Throws std::invalid_argument when the executable's path holds a character that needs quoting
// (a space, a quote, a backslash, ...): a commands.txt line goes through xargs, which strips
// quotes, before sh reads it, so no quoting survives both (docs/architecture.md section 9.7).
void checkCommandExecutable(const std::string& cli);

// Writes the folder for the scenarios (stored in `store` already). DIR must be new or empty, and
// options.cli a path checkCommandExecutable accepts. Every input is read back and checked
// against its stored content hash before a spec names it.
EmittedFolder emitRunSpecs(ScenarioStore& store, const std::vector<ScenarioInfo>& scenarios,
                           const std::string& dir, const EmitOptions& options);

std::string specFileName(std::size_t index);   // "specs/00012.json"
std::string shardFileName(std::size_t index);  // "shards/00012.sqlite"

struct EmittedMerge {
    std::vector<ShardMerge> shards;         // every shard found, in spec order
    std::vector<std::size_t> missing;       // specs without a merged shard (none, or refused)
    std::vector<std::size_t> failed_tasks;  // their array tasks (spec / specs_per_task), ascending
    std::size_t specs = 0;
};

// Merges DIR/shards/NNNNN.sqlite of every spec into `store` and writes DIR/failed-tasks.txt: the
// array tasks of specs without a merged shard, comma separated (empty when none). Throws
// ParseError for a folder that emitRunSpecs did not write (no DIR/emit.json).
EmittedMerge mergeEmittedFolder(ScenarioStore& store, const std::string& dir);

// The workspace named in DIR/workspace.
std::string emittedWorkspace(const std::string& dir);

}  // namespace cl
