#pragma once
// Muri's grouping (Algorithm 1 with the stop rule of docs/architecture.md section 5.1): candidates
// are bucketed by GPU count; each round builds, per bucket, a graph whose nodes are the current
// groups and whose edge weights are the interleaving efficiency of the merged group (only
// merges of at most max_group_size jobs), finds a maximum weighted matching, and merges
// matched pairs in node order while the candidates still need more GPUs than the cluster
// has. At most max_group_size rounds (so groups of 3 occur).
#include <map>
#include <tuple>
#include <vector>

#include "core/policies/muri_group_timer.h"

namespace cl {

struct MuriCandidate {
    int job = 0;
    int type = 0;  // MuriGroupTimer type
};

struct MuriBucket {
    int gpus = 0;
    std::vector<MuriCandidate> candidates;  // in priority order
};

struct MuriGroupingOptions {
    int max_group_size = 4;
    bool worst_ordering = false;
    bool use_matching = true;  // false: "no Blossom" ablation, pack in priority order
    // Small rounds use LEMON's matching on the full graph; larger ones the type-compressed
    // exact solver (nodes with the same member types are interchangeable), falling back to
    // LEMON if it cannot finish in time. Forcing either path is for tests and benchmarks.
    bool force_full_graph = false;
    bool force_type_compressed = false;
    int full_graph_max_nodes = 48;
};

// Solutions of type-compressed matching rounds by their canonical instance (node types with
// counts): the same candidate mix recurs across events.
struct MuriMatchingCache {
    std::map<std::vector<int>, std::vector<std::tuple<int, int, int>>> rounds;
};

struct MuriGroup {
    int gpus = 0;
    std::vector<int> members;  // indices into the bucket's candidates
    int bucket = 0;
};

// `slots[b]` = how many placements the candidates of bucket b were admitted with (only used
// without matching: candidates fill those slots max_group_size at a time).
std::vector<MuriGroup> groupCandidates(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                                       int cluster_gpus, const MuriGroupingOptions& options,
                                       MuriGroupTimer& timer, MuriMatchingCache* cache = nullptr);

}  // namespace cl
