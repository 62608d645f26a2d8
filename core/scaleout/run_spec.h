#pragma once
// A run spec: one simulation, self-contained, for running elsewhere (a Slurm array task, another
// machine) into a shard workspace that is merged back (docs/architecture.md section 9.7). The
// scenario's settings, its three inputs by content hash and file (stored once beside the specs),
// and the engine version it was emitted for. Format: core/io/README.md ("Run specs").
#include <string>

#include "core/store/scenario_store.h"

namespace cl {

struct RunSpecInput {
    std::string hash;  // the workspace's content hash of the input (docs/architecture.md 9.3)
    std::string file;  // relative to the spec's folder, e.g. "../inputs/<hash>.json"
};

struct RunSpec {
    ScenarioSpec scenario;      // its input ids are unused (0)
    std::string scenario_hash;  // the scenario's content hash where it was emitted
    std::string engine_version;
    RunSpecInput cluster, trace, profiles;
};

inline constexpr const char* kRunSpecFormat = "clusterloom-run-spec";

std::string runSpecJsonText(const RunSpec& spec);
// Throws ParseError naming the file, line and field.
RunSpec readRunSpec(const std::string& path);

// Runs the spec into a new shard workspace at shard_path: written as shard_path + ".part" and
// renamed when complete, so the shard appears only whole; a single file (no write-ahead log
// beside it). Refuses (std::runtime_error or ParseError naming the file) a spec for another
// engine version, a missing input, or an input whose content hash is not the spec's. A failed
// simulation leaves no shard and rethrows. Returns the stored run.
RunInfo runSpecIntoShard(const std::string& spec_path, const std::string& shard_path);

}  // namespace cl
