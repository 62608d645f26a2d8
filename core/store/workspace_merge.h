#pragma once
// Folding shard workspaces (each the result of `clusterloom-cli run-spec`, or any workspace) into
// a workspace (docs/architecture.md section 9.7). One transaction per shard: a shard is merged
// whole or not at all. Idempotent: inputs and scenarios are matched by content hash, and a run
// whose scenario hash and engine version already have a finished run is skipped.
#include <string>
#include <vector>

#include "core/store/scenario_store.h"

namespace cl {

struct ShardMerge {
    std::string shard;  // the file as given
    bool merged = false;
    std::string error;        // why the shard was refused (nothing of it landed); empty when merged
    int runs_added = 0;       // finished runs copied
    int runs_skipped = 0;     // finished runs already in the workspace (same hash and engine)
    int runs_unfinished = 0;  // running, failed or cancelled runs of the shard: never copied
    int scenarios_added = 0;
    int inputs_added = 0;  // clusters, profile sets and traces new to the workspace
};

// Merges one shard into `into`. A shard that is missing, not a SQLite file, damaged (a failed
// quick check, a truncated file), not a ClusterLoom workspace, from a newer schema, missing a
// table, or holding a scenario whose name the workspace has with other settings, is refused:
// the result names the shard and the reason, and the workspace is unchanged. A failure of the
// workspace itself (disk full, read-only) is reported the same way; nothing throws.
ShardMerge mergeShard(ScenarioStore& into, const std::string& shard);

}  // namespace cl
