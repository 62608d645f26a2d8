// Maximum weighted matching on a general graph (Muri's grouping rounds, docs/architecture.md
// section 4.5).
//
// This header is deliberately free of LEMON: LEMON 1.3.1 headers do not compile as C++20
// with GCC 12, so the implementation lives in max_weight_matching_cxx17.cpp, which the
// build compiles as C++17 into its own static library. Keep this header valid C++17.
#pragma once

#include <cstdint>
#include <vector>

namespace cl {

struct WeightedEdge {
    int u = 0;
    int v = 0;
    std::int64_t weight = 0;
};

// Largest edge weight accepted by maxWeightMatching and typeCompressedMatching. LEMON works
// with dual values scaled by 4 and sums them over nodes; this bound leaves ample headroom
// in 64 bits. Fixed-point gammas (fixedPointWeight, about 4e6) are far below it.
inline constexpr std::int64_t kMaxMatchingEdgeWeight = std::int64_t{1} << 40;

// A maximum weight matching (not necessarily perfect, not necessarily maximum cardinality)
// of the graph with nodes 0..nodes-1, computed with lemon::MaxWeightedMatching (Edmonds'
// blossom algorithm with integer duals, hence exact for integer weights).
//
// Returns mate with mate.size() == nodes: mate[v] is v's partner, or -1 if v is unmatched;
// mate[mate[v]] == v for every matched v.
//
// - Only edges with weight > 0 enter the graph. LEMON may match an edge of weight 0 (it
//   does not change the total), so zero-weight and negative edges are dropped: a pair is
//   matched only if it gains something.
// - Parallel edges between the same two nodes are allowed; the heaviest one counts.
// - Throws std::invalid_argument if nodes < 0, an endpoint is outside [0, nodes), an edge
//   is a self loop (u == v), or a weight exceeds kMaxMatchingEdgeWeight.
// - Deterministic for a given input (LEMON has no randomness; edges are normalised and
//   sorted before they are added).
std::vector<int> maxWeightMatching(int nodes, const std::vector<WeightedEdge>& edges);

// Total weight of the matching mate over edges. Each matched pair {u, v} contributes the
// largest weight among the edges joining u and v (the edge maxWeightMatching would use).
// Throws std::invalid_argument if mate is not a matching (entry out of range, self mate or
// mate[mate[v]] != v), an edge endpoint is outside [0, mate.size()), or a matched pair is
// joined by no edge.
std::int64_t matchingWeight(const std::vector<int>& mate, const std::vector<WeightedEdge>& edges);

// Integer fixed-point weight for the matching: llround(w * 1e6). LEMON has no tolerance for
// floating-point weights, so callers convert gammas with this. Throws std::invalid_argument
// if w is not finite or |w * 1e6| does not fit in kMaxMatchingEdgeWeight.
std::int64_t fixedPointWeight(double w);

}  // namespace cl
