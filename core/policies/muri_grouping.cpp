#include "core/policies/muri_grouping.h"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

#include "core/matching/max_weight_matching.h"
#include "core/matching/type_compressed_matching.h"

namespace cl {

namespace {

struct Node {
    std::vector<int> members;  // candidate indices within the bucket
};

std::vector<int> typesOf(const MuriBucket& bucket, const std::vector<int>& a,
                         const std::vector<int>* b = nullptr) {
    std::vector<int> t;
    for (int m : a) t.push_back(bucket.candidates[m].type);
    if (b)
        for (int m : *b) t.push_back(bucket.candidates[m].type);
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
std::vector<int> matchBucket(const MuriBucket& bucket, const std::vector<Node>& nodes,
                             const MuriGroupingOptions& options, MuriGroupTimer& timer,
                             MuriMatchingCache* cache) {
    const int n = static_cast<int>(nodes.size());
    // Node types in canonical order (by sorted member types), so equal instances share a key.
    std::map<std::vector<int>, std::vector<int>> nodes_of_type;
    for (int u = 0; u < n; ++u) {
        std::vector<int> key = typesOf(bucket, nodes[u].members);
        std::sort(key.begin(), key.end());
        nodes_of_type[key].push_back(u);
    }
    std::vector<int> node_type(n), counts;
    std::vector<const std::vector<int>*> representative;
    std::vector<int> instance;  // canonical key: member types, -1, count, -2 per node type
    for (const auto& [types, members] : nodes_of_type) {
        for (int u : members) node_type[u] = static_cast<int>(counts.size());
        counts.push_back(static_cast<int>(members.size()));
        representative.push_back(&nodes[members.front()].members);
        instance.insert(instance.end(), types.begin(), types.end());
        instance.push_back(-1);
        instance.push_back(static_cast<int>(members.size()));
        instance.push_back(-2);
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
            const auto& ma = *representative[a];
            const auto& mb = *representative[b];
            w = 0;
            if (ma.size() + mb.size() <= static_cast<std::size_t>(options.max_group_size))
                w = fixedPointWeight(timer.efficiency(typesOf(bucket, ma, &mb), options.worst_ordering));
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
    std::vector<std::vector<Node>> nodes(buckets.size());
    for (std::size_t b = 0; b < buckets.size(); ++b) {
        required += static_cast<long long>(buckets[b].candidates.size()) * buckets[b].gpus;
        for (int i = 0; i < static_cast<int>(buckets[b].candidates.size()); ++i) nodes[b].push_back({{i}});
    }

    if (!options.use_matching) {
        // Ablation: fill each admitted slot with the next jobs in priority order while the
        // candidates need more GPUs than the cluster has.
        for (std::size_t b = 0; b < buckets.size(); ++b) {
            std::vector<Node> packed;
            const int k = options.max_group_size;
            const int n = static_cast<int>(buckets[b].candidates.size());
            for (int s = 0; s < slots[b]; ++s) {
                if (s * k >= n) break;
                Node group{{s * k}};
                for (int j = 1; j < k && s * k + j < n; ++j) {
                    if (required > cluster_gpus) {
                        group.members.push_back(s * k + j);
                        required -= buckets[b].gpus;
                    } else {
                        packed.push_back({{s * k + j}});
                    }
                }
                packed.push_back(group);
            }
            nodes[b] = std::move(packed);
        }
    } else {
        for (int round = 0; round < options.max_group_size && required > cluster_gpus; ++round) {
            std::vector<std::vector<Node>> next(buckets.size());
            for (std::size_t b = 0; b < buckets.size(); ++b) {
                std::vector<int> mate = matchBucket(buckets[b], nodes[b], options, timer, cache);
                // Pairs are taken in node order (a pair at its second node), merged while the
                // candidates still need more GPUs than the cluster has.
                for (int u = 0; u < static_cast<int>(nodes[b].size()); ++u) {
                    int v = mate[u];
                    if (v > u) continue;
                    if (v < 0) {
                        next[b].push_back(nodes[b][u]);
                    } else if (required > cluster_gpus) {
                        Node merged = nodes[b][v];
                        merged.members.insert(merged.members.end(), nodes[b][u].members.begin(),
                                              nodes[b][u].members.end());
                        next[b].push_back(std::move(merged));
                        required -= buckets[b].gpus;
                    } else {
                        next[b].push_back(nodes[b][v]);
                        next[b].push_back(nodes[b][u]);
                    }
                }
            }
            nodes = std::move(next);
        }
    }

    std::vector<MuriGroup> groups;
    for (std::size_t b = 0; b < buckets.size(); ++b)
        for (auto& node : nodes[b])
            groups.push_back({buckets[b].gpus, std::move(node.members), static_cast<int>(b)});
    return groups;
}

}  // namespace cl
