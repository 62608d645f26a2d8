#include "core/policies/muri_grouping.h"

#include <algorithm>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>

#include "core/matching/max_weight_matching.h"
#include "core/matching/type_compressed_matching.h"

namespace cl {

namespace {

// A node of one bucket's matching graph, a group of candidates: a range of the bucket's member
// arena. A merge appends the merged members to the arena, so rounds copy no vectors (one
// allocation per candidate, round and event was most of the grouping's time).
struct Node {
    int first = 0;
    int size = 0;
};

struct BucketNodes {
    std::vector<int> arena;  // candidate indices within the bucket
    std::vector<Node> nodes;

    std::span<const int> members(const Node& node) const {
        return {arena.data() + node.first, static_cast<std::size_t>(node.size)};
    }
    void add(std::span<const int> a, std::span<const int> b = {}) {
        nodes.push_back({static_cast<int>(arena.size()), static_cast<int>(a.size() + b.size())});
        // a and b may lie in the arena itself: callers reserve room first, so it does not move.
        for (std::span<const int> part : {a, b})
            for (std::size_t i = 0; i < part.size(); ++i) {
                const int m = part[i];
                arena.push_back(m);
            }
    }
};

// The member types of a, then of b, in member order (the efficiency sums them in this order).
std::vector<int> typesOf(const MuriBucket& bucket, std::span<const int> a, std::span<const int> b = {}) {
    std::vector<int> t;
    t.reserve(a.size() + b.size());
    for (int m : a) t.push_back(bucket.candidates[m].type);
    for (int m : b) t.push_back(bucket.candidates[m].type);
    return t;
}

// Type-pair counts of a concrete matching, to cache it as a type-compressed solution.
std::vector<std::tuple<int, int, int>> typePairs(const std::vector<int>& mate,
                                                 const std::vector<int>& node_type) {
    std::map<std::pair<int, int>, int> count;
    for (int u = 0; u < static_cast<int>(mate.size()); ++u)
        if (mate[u] > u) {
            int a = node_type[u], b = node_type[mate[u]];
            ++count[{std::min(a, b), std::max(a, b)}];
        }
    std::vector<std::tuple<int, int, int>> pairs;
    for (const auto& [ab, c] : count) pairs.emplace_back(ab.first, ab.second, c);
    return pairs;
}

// One matching round on one bucket: mate[u] for every node (-1 unmatched). Nodes with the
// same member types are interchangeable, so the round is solved (and cached) per type mix.
std::vector<int> matchBucket(const MuriBucket& bucket, const BucketNodes& bn,
                             const MuriGroupingOptions& options, MuriGroupTimer& timer,
                             MuriMatchingCache* cache) {
    const std::vector<Node>& nodes = bn.nodes;
    const int n = static_cast<int>(nodes.size());
    if (n < 2) return std::vector<int>(n, -1);  // nothing to pair, whichever solver or cache
    // Node types in canonical order (by sorted member types, then nodes in index order), so
    // equal instances share a key.
    std::vector<int> sorted_types;  // per node, its member types sorted, at offset[u]
    std::vector<int> offset(n + 1, 0);
    sorted_types.reserve(bn.arena.size());
    for (int u = 0; u < n; ++u) {
        for (int m : bn.members(nodes[u])) sorted_types.push_back(bucket.candidates[m].type);
        offset[u + 1] = static_cast<int>(sorted_types.size());
        std::sort(sorted_types.begin() + offset[u], sorted_types.end());
    }
    const auto typeKey = [&](int u) {
        return std::span<const int>(sorted_types.data() + offset[u],
                                    static_cast<std::size_t>(offset[u + 1] - offset[u]));
    };
    std::vector<int> by_type(n);
    for (int u = 0; u < n; ++u) by_type[u] = u;
    std::sort(by_type.begin(), by_type.end(), [&](int u, int v) {
        const auto a = typeKey(u), b = typeKey(v);
        if (std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end())) return true;
        if (std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end())) return false;
        return u < v;
    });
    std::vector<int> node_type(n), counts;
    std::vector<std::span<const int>> representative;  // the members of the first node of each type
    std::vector<int> instance;  // canonical key: member types, -1, count, -2 per node type
    for (int i = 0; i < n;) {
        const auto key = typeKey(by_type[i]);
        int j = i;
        while (j < n && std::ranges::equal(typeKey(by_type[j]), key))
            node_type[by_type[j++]] = static_cast<int>(counts.size());
        counts.push_back(j - i);
        representative.push_back(bn.members(nodes[by_type[i]]));
        instance.insert(instance.end(), key.begin(), key.end());
        instance.push_back(-1);
        instance.push_back(j - i);
        instance.push_back(-2);
        i = j;
    }
    TypeMatchingResult result;
    if (cache)
        if (auto it = cache->rounds.find(instance); it != cache->rounds.end()) {
            result.pairs = it->second;
            return expandToMates(node_type, result);
        }

    const int types = static_cast<int>(counts.size());
    std::vector<std::int64_t> table(static_cast<std::size_t>(types) * types, -1);
    auto weight = [&](int a, int b) -> std::int64_t {
        std::int64_t& w = table[static_cast<std::size_t>(a) * types + b];
        if (w < 0) {
            const auto ma = representative[a];
            const auto mb = representative[b];
            w = 0;
            if (ma.size() + mb.size() <= static_cast<std::size_t>(options.max_group_size))
                w = fixedPointWeight(timer.efficiency(typesOf(bucket, ma, mb), options.worst_ordering));
            table[static_cast<std::size_t>(b) * types + a] = w;
        }
        return w;
    };
    auto fullGraph = [&] {
        std::vector<WeightedEdge> edges;
        for (int u = 0; u < n; ++u)
            for (int v = u + 1; v < n; ++v)
                if (std::int64_t w = weight(node_type[u], node_type[v]); w > 0) edges.push_back({u, v, w});
        return maxWeightMatching(n, edges);
    };

    // Without a single positive edge every solver leaves every node unmatched (only positive
    // edges are ever matched), so neither a solver nor the cache is needed.
    bool any_edge = false;
    for (int a = 0; a < types && !any_edge; ++a)
        for (int b = a; b < types && !any_edge; ++b)
            if ((a != b || counts[a] >= 2) && weight(a, b) > 0) any_edge = true;
    if (!any_edge) return std::vector<int>(n, -1);

    bool compressed =
        options.force_type_compressed || (!options.force_full_graph && n > options.full_graph_max_nodes);
    std::vector<int> mate;
    if (compressed) {
        try {
            result = typeCompressedMatching(counts, weight, /*time_limit_ms=*/200);
            mate = expandToMates(node_type, result);
        } catch (const std::runtime_error&) {
            mate = fullGraph();  // exact as well, only slower
            result.pairs = typePairs(mate, node_type);
            mate = expandToMates(node_type, result);
        }
    } else {
        mate = fullGraph();
        result.pairs = typePairs(mate, node_type);
        // Which node of a type gets which partner is free (same weight) but decides which
        // groups form first; let one rule decide it whichever solver ran or the cache answered.
        mate = expandToMates(node_type, result);
    }
    if (cache) cache->rounds.emplace(std::move(instance), std::move(result.pairs));
    return mate;
}

}  // namespace

std::vector<MuriGroup> groupCandidates(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                                       int cluster_gpus, const MuriGroupingOptions& options,
                                       MuriGroupTimer& timer, MuriMatchingCache* cache) {
    long long required = 0;
    std::vector<BucketNodes> nodes(buckets.size());
    for (std::size_t b = 0; b < buckets.size(); ++b) {
        const int n = static_cast<int>(buckets[b].candidates.size());
        required += static_cast<long long>(n) * buckets[b].gpus;
        nodes[b].arena.resize(n);
        nodes[b].nodes.resize(n);
        for (int i = 0; i < n; ++i) {
            nodes[b].arena[i] = i;
            nodes[b].nodes[i] = {i, 1};
        }
    }

    if (!options.use_matching) {
        // Ablation: fill each admitted slot with the next jobs in priority order while the
        // candidates need more GPUs than the cluster has.
        for (std::size_t b = 0; b < buckets.size(); ++b) {
            BucketNodes packed;
            const int k = options.max_group_size;
            const int n = static_cast<int>(buckets[b].candidates.size());
            std::vector<int> group;
            for (int s = 0; s < slots[b]; ++s) {
                if (s * k >= n) break;
                group.assign(1, s * k);
                for (int j = 1; j < k && s * k + j < n; ++j) {
                    if (required > cluster_gpus) {
                        group.push_back(s * k + j);
                        required -= buckets[b].gpus;
                    } else {
                        const int single = s * k + j;
                        packed.add(std::span<const int>(&single, 1));
                    }
                }
                packed.add(group);
            }
            nodes[b] = std::move(packed);
        }
    } else {
        for (int round = 0; round < options.max_group_size && required > cluster_gpus; ++round) {
            for (std::size_t b = 0; b < buckets.size(); ++b) {
                BucketNodes& bn = nodes[b];
                std::vector<int> mate = matchBucket(buckets[b], bn, options, timer, cache);
                // Merges append at most every current member once: no reallocation while the
                // loop holds spans into the arena.
                bn.arena.reserve(2 * bn.arena.size());
                const std::vector<Node> current = std::move(bn.nodes);
                bn.nodes.clear();
                // Pairs are taken in node order (a pair at its second node), merged while the
                // candidates still need more GPUs than the cluster has.
                for (int u = 0; u < static_cast<int>(current.size()); ++u) {
                    int v = mate[u];
                    if (v > u) continue;
                    if (v < 0) {
                        bn.nodes.push_back(current[u]);
                    } else if (required > cluster_gpus) {
                        bn.add(bn.members(current[v]), bn.members(current[u]));
                        required -= buckets[b].gpus;
                    } else {
                        bn.nodes.push_back(current[v]);
                        bn.nodes.push_back(current[u]);
                    }
                }
            }
        }
    }

    std::vector<MuriGroup> groups;
    for (std::size_t b = 0; b < buckets.size(); ++b)
        for (const Node& node : nodes[b].nodes) {
            const auto members = nodes[b].members(node);
            groups.push_back(
                {buckets[b].gpus, std::vector<int>(members.begin(), members.end()), static_cast<int>(b)});
        }
    return groups;
}

}  // namespace cl
