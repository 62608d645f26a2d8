#pragma once
// Slurm node inventory (docs/architecture.md section 8.7): what `scontrol show node --oneliner`
// (or its multi-line form), `sinfo --Node --json` of Slurm 22.05 and `scontrol show node --json`
// of Slurm 23.02 and later say about each node. The form is detected from the text. A file that
// cannot be read is refused as a whole with a ParseError naming file, line and field.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cl {

struct SlurmNode {
    std::string name;
    int line = 0;  // where its record starts in the file
    int cpus = 0;  // CPUTot / "cpus": what jobs ask CPUs of (threads when ThreadsPerCore > 1)
    int sockets = 0;
    int cores_per_socket = 0;  // 0 = not stated
    double memory_gb = 0;      // RealMemory (MB) / 1024
    int gpus = 0;              // all gres/gpu entries together; 0 = a CPU-only node
    std::string gpu_type;      // as Slurm names it ("a100", "nvidia_a100-sxm4-80gb"); "" = untyped
    // Each GPU type's count, in Slurm's order ("" = untyped GPUs); more than one entry for a node
    // with GPUs of several types (Gres=gpu:a100:8,gpu:v100:8).
    std::vector<std::pair<std::string, int>> gpus_by_type;
    std::vector<std::string> partitions;  // in Slurm's order
    std::string state;         // upper case, flags joined by '+': "IDLE+DRAIN", "DOWN+NOT_RESPONDING"
    bool unavailable = false;  // down, drained or draining, failing, not responding, future
};

struct SlurmNodeInventory {
    std::string file;    // as named in messages
    std::string format;  // "scontrol", "sinfo-json" (Slurm 22.05 JSON), "scontrol-json" (23.02+)
    std::vector<SlurmNode> nodes;
    std::vector<std::string> warnings;  // "file:line: ..." for what was read but is odd
};

SlurmNodeInventory readSlurmNodes(const std::string& path);  // detects the form; throws ParseError
SlurmNodeInventory parseSlurmNodes(std::string_view text, const std::string& file);

// True when the text is one of the forms above (an scontrol file starts with "NodeName=", a JSON
// one is an object with a "nodes" array and is not our own layout); for readCluster.
bool looksLikeSlurmNodes(std::string_view text);

// The pieces, for the reader and tests.
struct SlurmGres {
    int gpus = 0;
    std::string type;                 // the first typed gpu entry's type; "" when none is typed
    std::vector<std::string> others;  // other GPU types on the same node, in order
    std::vector<std::pair<std::string, int>> by_type;  // every type's count, in order ("" = untyped)
};
// "gpu:a100:4(S:0-1),shard:a100:16(S:0-1)", "gpu:2", "gpu:v100:no_consume:2", "(null)" ->
// GPUs and their type. Throws std::invalid_argument saying what it expected.
SlurmGres parseSlurmGres(std::string_view gres);
// "IDLE+DRAIN", "DOWN*", "MIXED~" (scontrol) or the JSON words -> whether the node is unavailable.
bool slurmStateUnavailable(const std::string& state);

}  // namespace cl
