#include "core/policies/muri_grouping.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/matching/max_weight_matching.h"
#include "core/matching/optimal_basis_cache.h"
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

// A node's member types as one number: sorted, each + 1 in 15 bits (MuriGroupTimer has fewer
// than 0x7fff types), the first in the highest bits and 0 for "no member". Comparing two keys
// compares the sorted type lists lexicographically (a proper prefix first), the canonical
// order of node types.
std::uint64_t nodeKey(const MuriBucket& bucket, std::span<const int> members) {
    std::array<int, 4> t{};
    const std::size_t n = members.size();
    for (std::size_t i = 0; i < n; ++i) {  // insertion sort of at most four types
        const int v = bucket.candidates[members[i]].type;
        std::size_t k = i;
        for (; k > 0 && t[k - 1] > v; --k) t[k] = t[k - 1];
        t[k] = v;
    }
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 4; ++i)
        key = (key << 15) | (i < n ? static_cast<std::uint64_t>(t[i]) + 1 : 0);
    return key;
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

struct InstanceHash {
    std::size_t operator()(const std::vector<std::uint64_t>& v) const noexcept {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ v.size();
        for (std::uint64_t x : v) {
            h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
            h *= 0xff51afd7ed558ccdULL;
        }
        return static_cast<std::size_t>(h ^ (h >> 33));
    }
};

// Notes why groups formed (MuriGrouper::setExplain), with its own buffers, solvers and weights:
// nothing the grouping reads is touched, so its groups are the same with or without notes.
// Weights are computed per node type (the sorted member types, nodeKey), the lower type's
// members first; the solver may have summed a pair's efficiency in the other order, which can
// differ in the last bit of a double but not in practice in the fixed-point weight.
class RoundExplainer {
public:
    // A new round of bucket `bucket` over `nodes` (members in `bn`'s arena) with `mates`.
    void begin(const MuriBucket& bucket, const BucketNodes& bn, std::span<const Node> nodes,
               std::span<const int> mates, const MuriGroupingOptions& options, MuriGroupTimer& timer) {
        bucket_ = &bucket;
        bn_ = &bn;
        nodes_ = nodes;
        options_ = &options;
        timer_ = &timer;
        const int n = static_cast<int>(nodes.size());
        keys_.clear();
        type_.assign(static_cast<std::size_t>(n), 0);
        rep_.clear();
        firsts_.clear();
        type_of_key_.clear();
        for (int u = 0; u < n; ++u) {
            const std::uint64_t key = nodeKey(bucket, bn.members(nodes[u]));
            const auto [it, added] = type_of_key_.try_emplace(key, static_cast<int>(keys_.size()));
            type_[u] = it->second;
            if (added) {
                keys_.push_back(key);
                rep_.push_back(u);
                firsts_.push_back({-1, -1, -1});
            }
            for (int& f : firsts_[it->second])  // its first three nodes
                if (f < 0) {
                    f = u;
                    break;
                }
        }
        counts_.assign(keys_.size(), 0);
        for (int u = 0; u < n; ++u) ++counts_[type_[u]];
        // The round's instance (node types with counts, in key order) names its alternatives'
        // totals across events: the same candidate mixes recur, as the round cache relies on.
        instance_.clear();
        for (std::size_t t = 0; t < keys_.size(); ++t) instance_.emplace_back(keys_[t], counts_[t]);
        std::sort(instance_.begin(), instance_.end());
        table_.assign(keys_.size() * keys_.size(), -1);
        total_ = 0;
        for (int u = 0; u < n; ++u)
            if (mates[u] > u) total_ += weight(type_[u], type_[mates[u]]);
    }

    // The note of the merge of nodes a < b of this round. Other nodes of one type give groups of
    // one mix, so the partners are looked at type by type, each by its first node (neither a nor b).
    MuriGroupNote note(int a, int b, int round) {
        MuriGroupNote note;
        note.round = round;
        note.matching_weight = total_;
        const std::uint64_t chosen = mixOf(a, b);
        options_found_.clear();
        for (const int x : {a, b})
            for (int tc = 0; tc < static_cast<int>(keys_.size()); ++tc) {
                const int available = counts_[tc] - (type_[a] == tc) - (type_[b] == tc);
                if (available <= 0) continue;
                const std::int64_t w = weight(type_[x], tc);
                if (w <= 0) continue;
                const std::uint64_t mix = mixOf(rep_[type_[x]], rep_[tc]);
                if (mix == chosen) {
                    note.tied_partners += available;
                    continue;
                }
                int c = -1;
                for (int f : firsts_[tc])
                    if (f != a && f != b) {
                        c = f;
                        break;
                    }
                auto same = std::find_if(options_found_.begin(), options_found_.end(),
                                         [&](const auto& o) { return std::get<3>(o) == mix; });
                if (same == options_found_.end())
                    options_found_.emplace_back(x, c, w, mix);
                else if (c < std::get<1>(*same))
                    *same = {x, c, w, mix};
            }
        // Best gamma first, ties in node (priority) order.
        std::sort(options_found_.begin(), options_found_.end(), [](const auto& l, const auto& r) {
            return std::get<2>(l) > std::get<2>(r) ||
                   (std::get<2>(l) == std::get<2>(r) && std::get<1>(l) < std::get<1>(r));
        });
        for (std::size_t i = 0; i < options_found_.size() && i < 2; ++i) {
            const auto [x, c, w, mix] = options_found_[i];
            MuriGroupNote::Alternative alt;
            for (const auto& part : {bn_->members(nodes_[x]), bn_->members(nodes_[c])})
                alt.members.insert(alt.members.end(), part.begin(), part.end());
            alt.weight = w;
            alt.matching_weight = w + bestWithout(type_[x], type_[c]);
            note.alternatives.push_back(std::move(alt));
        }
        return note;
    }

private:
    std::int64_t weight(int a, int b) {
        if (a > b) std::swap(a, b);
        std::int64_t& w = table_[static_cast<std::size_t>(a) * keys_.size() + b];
        if (w < 0) {
            const auto ma = bn_->members(nodes_[rep_[a]]);
            const auto mb = bn_->members(nodes_[rep_[b]]);
            w = 0;
            if (ma.size() + mb.size() <= static_cast<std::size_t>(options_->max_group_size)) {
                std::array<int, 8> member_types{};
                std::size_t k = 0;
                for (int m : ma) member_types[k++] = bucket_->candidates[m].type;
                for (int m : mb) member_types[k++] = bucket_->candidates[m].type;
                w = fixedPointWeight(timer_->efficiency({member_types.data(), k}, options_->worst_ordering));
            }
        }
        return w;
    }

    // The merged group's sorted member types (nodeKey of its members).
    std::uint64_t mixOf(int x, int c) const {
        std::array<int, 8> members{};
        std::size_t k = 0;
        for (const auto& part : {bn_->members(nodes_[x]), bn_->members(nodes_[c])})
            for (int m : part) members[k++] = m;
        return nodeKey(*bucket_, {members.data(), std::min<std::size_t>(k, 4)});
    }

    // The maximum weight of a matching of this round's nodes without one node of type x and one
    // of type c: exact, on the full graph when small, else type-compressed (nodes of one type are
    // interchangeable), as the grouping solves its rounds.
    std::int64_t bestWithout(int x, int c) {
        memo_.clear();
        for (const auto& [key, count] : instance_) {
            memo_.push_back(key);
            memo_.push_back(static_cast<std::uint64_t>(count));
        }
        memo_.push_back(std::min(keys_[x], keys_[c]));
        memo_.push_back(std::max(keys_[x], keys_[c]));
        if (const auto it = totals_.find(memo_); it != totals_.end()) return it->second;
        std::vector<int> counts = counts_;
        --counts[x];
        --counts[c];
        int n = 0;
        for (int k : counts) n += k;
        const auto weightFn = [this](int a, int b) { return weight(a, b); };
        const auto fullGraph = [&] {
            std::vector<int> node_type;
            for (std::size_t t = 0; t < counts.size(); ++t)
                node_type.insert(node_type.end(), counts[t], static_cast<int>(t));
            std::vector<WeightedEdge> edges;
            for (int u = 0; u < n; ++u)
                for (int v = u + 1; v < n; ++v)
                    if (const std::int64_t w = weight(node_type[u], node_type[v]); w > 0)
                        edges.push_back({u, v, w});
            return matchingWeight(maxWeightMatching(n, edges), edges);
        };
        std::int64_t total = 0;
        if (options_->force_full_graph || n <= options_->full_graph_max_nodes) {
            total = fullGraph();
        } else {
            try {
                total = typeCompressedMatching(counts, weightFn,
                                               {.simplex_iterations = 20'000, .branch_nodes = 2'000})
                            .total_weight;
            } catch (const std::runtime_error&) {
                total = fullGraph();
            }
        }
        totals_.emplace(memo_, total);
        return total;
    }

    const MuriBucket* bucket_ = nullptr;
    const BucketNodes* bn_ = nullptr;
    std::span<const Node> nodes_;
    const MuriGroupingOptions* options_ = nullptr;
    MuriGroupTimer* timer_ = nullptr;
    std::vector<std::uint64_t> keys_;         // node type -> sorted member types
    std::vector<int> type_;                   // per node
    std::vector<int> rep_;                    // per node type: its first node
    std::vector<std::array<int, 3>> firsts_;  // per node type: its first three nodes (-1 = none)
    std::unordered_map<std::uint64_t, int> type_of_key_;
    std::vector<std::tuple<int, int, std::int64_t, std::uint64_t>> options_found_;  // (x, c, weight, mix)
    std::vector<int> counts_;                                                       // per node type
    std::vector<std::int64_t> table_;  // per node type pair, -1 = not yet computed
    std::vector<std::pair<std::uint64_t, int>> instance_;
    std::vector<std::uint64_t> memo_;
    // The best total without two nodes, by the round's instance and the two nodes' types.
    std::unordered_map<std::vector<std::uint64_t>, std::int64_t, InstanceHash> totals_;
    std::int64_t total_ = 0;
};

}  // namespace

struct MuriGrouper::Workspace {
    bool cache_rounds = true;
    // Solutions of type-compressed rounds by canonical instance: (node type key, count) per
    // node type, in key order.
    std::unordered_map<std::vector<std::uint64_t>, std::vector<std::tuple<int, int, int>>, InstanceHash>
        rounds;
    std::uint64_t hits = 0;
    std::uint64_t solved = 0;
    std::uint64_t reused_bases = 0;
    // Optimal bases by node types: most rounds that miss the cache differ from an earlier one
    // only in counts, and that round's basis answers them without GLPK (optimal_basis_cache.h).
    OptimalBasisCache bases;
    std::vector<std::uint64_t> type_ids;

    std::vector<BucketNodes> nodes;  // per bucket
    std::vector<Node> current;       // the round's nodes while the next ones are built
    // One round's scratch.
    // Distinct node keys: an open-addressing table (a slot is in use when its stamp is this
    // round's), local type ids in order of first appearance, then their rank in key order.
    std::vector<std::uint64_t> slot_key;
    std::vector<int> slot_type;
    std::vector<std::uint64_t> slot_stamp;
    std::uint64_t stamp = 0;
    std::vector<std::pair<std::uint64_t, int>> distinct;  // (node key, local type)
    std::vector<int> local_type;                          // per node
    std::vector<int> local_count;
    std::vector<int> local_first;
    std::vector<int> rank;  // local type -> node type
    std::vector<std::uint64_t> instance;
    std::vector<int> node_type;
    std::vector<int> counts;
    std::vector<int> representative;  // first node (lowest index) of each node type
    std::vector<std::int64_t> table;  // weight per node type pair, -1 = not yet computed
    std::vector<int> mate;
    MateExpander expander;
    MuriGrouping result;
    // The last round of each GPU count and round number: its node keys in node order and the
    // mates found. From one event to the next most buckets have the same candidates (an
    // arrival or completion changes one), and the same node keys in the same order give the
    // same mates: the same instance, answered by the same cached solution and expanded by the
    // same rule (docs/architecture.md section 2.9). Only with cache_rounds, whose answers are
    // a function of the instance.
    struct LastRound {
        std::vector<std::uint64_t> node_keys;
        std::vector<int> mate;
    };
    std::unordered_map<std::uint64_t, LastRound> last_rounds;  // by (GPU count, request, round)
    std::vector<std::uint64_t> node_keys;
    std::uint64_t repeated_rounds = 0;
    std::vector<long long> request_required;  // per request: GPUs its candidates need
    std::vector<long long> request_gpus;      // per request: GPUs of its servers
    // Notes (setExplain): per bucket, a note index per node (-1 = none), parallel to its nodes;
    // per result group, its note's index.
    bool explain = false;
    RoundExplainer explainer;
    std::vector<MuriGroupNote> notes;
    std::vector<std::vector<int>> node_note;
    std::vector<int> current_note;
    std::vector<int> group_note;

    const std::vector<int>& matchBucket(const MuriBucket& bucket, const BucketNodes& bn, int round,
                                        const MuriGroupingOptions& options, MuriGroupTimer& timer);
    void solveRound(const MuriBucket& bucket, const BucketNodes& bn, const MuriGroupingOptions& options,
                    MuriGroupTimer& timer);
    void group(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots, int cluster_gpus,
               const MuriGroupingOptions& options, MuriGroupTimer& timer);
};

// One matching round on one bucket: mate[u] for every node (-1 unmatched). Nodes with the
// same member types are interchangeable, so the round is solved (and cached) per type mix.
const std::vector<int>& MuriGrouper::Workspace::matchBucket(const MuriBucket& bucket, const BucketNodes& bn,
                                                            int round, const MuriGroupingOptions& options,
                                                            MuriGroupTimer& timer) {
    const std::size_t n = bn.nodes.size();
    if (n < 2) {
        mate.assign(n, -1);  // nothing to pair, whichever solver or cache
        return mate;
    }
    node_keys.resize(n);
    for (std::size_t u = 0; u < n; ++u) node_keys[u] = nodeKey(bucket, bn.members(bn.nodes[u]));
    if (!cache_rounds) {
        solveRound(bucket, bn, options, timer);
        return mate;
    }
    // By request as well: buckets of one GPU count and different requests are matched apart.
    const std::uint64_t count_and_request =
        static_cast<std::uint64_t>(bucket.gpus) | static_cast<std::uint64_t>(bucket.request + 1) << 32;
    LastRound& last = last_rounds[count_and_request * 4 + static_cast<std::uint64_t>(round)];
    if (last.node_keys == node_keys) {
        ++repeated_rounds;
        return last.mate;
    }
    solveRound(bucket, bn, options, timer);
    // Kept by swapping: node_keys is rewritten whole by the next round, mate by solveRound().
    last.node_keys.swap(node_keys);
    last.mate.swap(mate);
    return last.mate;
}

// One round from scratch (node_keys set): node types, then the cached solution of the
// instance, a reused basis, GLPK or LEMON.
void MuriGrouper::Workspace::solveRound(const MuriBucket& bucket, const BucketNodes& bn,
                                        const MuriGroupingOptions& options, MuriGroupTimer& timer) {
    const std::vector<Node>& nodes = bn.nodes;
    const int n = static_cast<int>(nodes.size());
    mate.assign(static_cast<std::size_t>(n), -1);
    // Node types in canonical order (by sorted member types; the representative of a type is
    // its lowest-indexed node), so equal instances share a key. The distinct keys are found
    // with a small hash table and only they are sorted: thousands of nodes share a few dozen
    // keys.
    std::size_t capacity = 16;
    while (capacity < 2 * static_cast<std::size_t>(n)) capacity *= 2;
    if (slot_key.size() < capacity) {
        slot_key.resize(capacity);
        slot_type.resize(capacity);
        slot_stamp.assign(capacity, 0);
        stamp = 0;
    }
    ++stamp;
    const std::size_t mask = capacity - 1;
    // Fibonacci hashing takes the product's top bits: its middle bits were zero for every key of
    // one member (a type in the top 15 bits), so those keys all probed from one slot.
    const int shift = 64 - std::countr_zero(capacity);
    local_type.resize(static_cast<std::size_t>(n));
    distinct.clear();  // (key, local type)
    local_count.clear();
    local_first.clear();
    for (int u = 0; u < n; ++u) {
        const std::uint64_t key = node_keys[static_cast<std::size_t>(u)];
        std::size_t h = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> shift);
        while (slot_stamp[h] == stamp && slot_key[h] != key) h = (h + 1) & mask;
        if (slot_stamp[h] != stamp) {
            slot_stamp[h] = stamp;
            slot_key[h] = key;
            slot_type[h] = static_cast<int>(distinct.size());
            distinct.emplace_back(key, static_cast<int>(distinct.size()));
            local_count.push_back(0);
            local_first.push_back(u);
        }
        local_type[u] = slot_type[h];
        ++local_count[static_cast<std::size_t>(slot_type[h])];
    }
    std::sort(distinct.begin(), distinct.end());
    rank.resize(distinct.size());
    node_type.resize(static_cast<std::size_t>(n));
    counts.clear();
    representative.clear();
    instance.clear();
    for (const auto& [key, local] : distinct) {
        rank[static_cast<std::size_t>(local)] = static_cast<int>(counts.size());
        counts.push_back(local_count[static_cast<std::size_t>(local)]);
        representative.push_back(local_first[static_cast<std::size_t>(local)]);
        instance.push_back(key);
        instance.push_back(static_cast<std::uint64_t>(counts.back()));
    }
    for (int u = 0; u < n; ++u) node_type[u] = rank[static_cast<std::size_t>(local_type[u])];
    if (cache_rounds)
        if (auto it = rounds.find(instance); it != rounds.end()) {
            ++hits;
            mate = expander.expand(node_type, it->second);
            return;
        }

    const int types = static_cast<int>(counts.size());
    table.assign(static_cast<std::size_t>(types) * types, -1);
    auto weight = [&](int a, int b) -> std::int64_t {
        std::int64_t& w = table[static_cast<std::size_t>(a) * types + b];
        if (w < 0) {
            const auto ma = bn.members(nodes[representative[a]]);
            const auto mb = bn.members(nodes[representative[b]]);
            w = 0;
            if (ma.size() + mb.size() <= static_cast<std::size_t>(options.max_group_size)) {
                // The member types of a, then of b, in member order (the efficiency sums them
                // in this order).
                std::array<int, 8> member_types{};
                std::size_t k = 0;
                for (int m : ma) member_types[k++] = bucket.candidates[m].type;
                for (int m : mb) member_types[k++] = bucket.candidates[m].type;
                w = fixedPointWeight(timer.efficiency({member_types.data(), k}, options.worst_ordering));
            }
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
    if (!any_edge) return;

    ++solved;
    const bool compressed =
        options.force_type_compressed || (!options.force_full_graph && n > options.full_graph_max_nodes);
    TypeMatchingResult result;
    if (compressed) {
        try {
            // About a thousand times a typical round's work; beyond it LEMON on the full graph
            // is faster. Work, not time, so the fallback never depends on the machine's load.
            type_ids.clear();
            for (std::size_t i = 0; i < instance.size(); i += 2) type_ids.push_back(instance[i]);
            if (auto reused = bases.solve(type_ids, counts)) {
                result = std::move(*reused);
                ++reused_bases;
            } else {
                OptimalBasis basis;
                result = typeCompressedMatching(
                    counts, weight, {.simplex_iterations = 20'000, .branch_nodes = 2'000}, &basis);
                bases.remember(type_ids, std::move(basis));
            }
        } catch (const std::runtime_error&) {
            result.pairs = typePairs(fullGraph(), node_type);  // exact as well, only slower
        }
    } else {
        result.pairs = typePairs(fullGraph(), node_type);
    }
    // Which node of a type gets which partner is free (same weight) but decides which groups
    // form first; one rule decides it whichever solver ran or the cache answered.
    mate = expander.expand(node_type, result.pairs);
    if (cache_rounds) rounds.emplace(instance, std::move(result.pairs));
}

void MuriGrouper::Workspace::group(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                                   int cluster_gpus, const MuriGroupingOptions& options,
                                   MuriGroupTimer& timer) {
    if (options.max_group_size < 1 || options.max_group_size > 4)
        throw std::invalid_argument("a Muri group has 1 to 4 jobs, not " +
                                    std::to_string(options.max_group_size));
    long long required = 0;
    notes.clear();
    // Per request (MuriBucket::request): the GPUs its candidates need and its servers have.
    request_required.clear();
    request_gpus.clear();
    if (nodes.size() < buckets.size()) nodes.resize(buckets.size());
    for (std::size_t b = 0; b < buckets.size(); ++b) {
        const int n = static_cast<int>(buckets[b].candidates.size());
        required += static_cast<long long>(n) * buckets[b].gpus;
        if (const int r = buckets[b].request; r >= 0) {
            if (request_required.size() <= static_cast<std::size_t>(r)) {
                request_required.resize(static_cast<std::size_t>(r) + 1, 0);
                request_gpus.resize(static_cast<std::size_t>(r) + 1, 0);
            }
            request_required[r] += static_cast<long long>(n) * buckets[b].gpus;
            request_gpus[r] = buckets[b].request_gpus;
        }
        nodes[b].arena.resize(n);
        nodes[b].nodes.resize(n);
        if (explain) {
            if (node_note.size() < buckets.size()) node_note.resize(buckets.size());
            node_note[b].assign(static_cast<std::size_t>(n), -1);
        }
        for (int i = 0; i < n; ++i) {
            nodes[b].arena[i] = i;
            nodes[b].nodes[i] = {i, 1};
        }
    }
    // Merges go on while the candidates need more GPUs than the cluster has, or than the
    // servers of a bucket's request have (its jobs can use no others, docs/architecture.md
    // 2.10). Without requests this is the cluster's rule alone.
    const auto over = [&](std::size_t b) {
        const int r = buckets[b].request;
        return required > cluster_gpus || (r >= 0 && request_required[r] > request_gpus[r]);
    };
    const auto anyOver = [&] {
        if (required > cluster_gpus) return true;
        for (std::size_t r = 0; r < request_required.size(); ++r)
            if (request_required[r] > request_gpus[r]) return true;
        return false;
    };
    const auto merged = [&](std::size_t b) {
        required -= buckets[b].gpus;
        if (const int r = buckets[b].request; r >= 0) request_required[r] -= buckets[b].gpus;
    };

    if (!options.use_matching) {
        // Ablation: fill each admitted slot with the next jobs in priority order while the
        // candidates need more GPUs than the cluster has.
        for (std::size_t b = 0; b < buckets.size(); ++b) {
            BucketNodes packed;
            const int k = options.max_group_size;
            const int n = static_cast<int>(buckets[b].candidates.size());
            std::vector<int> members;
            for (int s = 0; s < slots[b]; ++s) {
                if (s * k >= n) break;
                members.assign(1, s * k);
                for (int j = 1; j < k && s * k + j < n; ++j) {
                    if (over(b)) {
                        members.push_back(s * k + j);
                        merged(b);
                    } else {
                        const int single = s * k + j;
                        packed.add(std::span<const int>(&single, 1));
                    }
                }
                packed.add(members);
            }
            nodes[b] = std::move(packed);
        }
    } else {
        for (int round = 0; round < options.max_group_size && anyOver(); ++round) {
            for (std::size_t b = 0; b < buckets.size(); ++b) {
                // A request's bucket that needs no merge is left as it is (a bucket of every
                // server is matched as it always was: its rounds feed the caches).
                if (buckets[b].request >= 0 && !over(b)) continue;
                BucketNodes& bn = nodes[b];
                const std::vector<int>& mates = matchBucket(buckets[b], bn, round, options, timer);
                // Merges append at most every current member once: no reallocation while the
                // loop holds spans into the arena.
                bn.arena.reserve(2 * bn.arena.size());
                current.swap(bn.nodes);
                bn.nodes.clear();
                if (explain) {
                    current_note.swap(node_note[b]);
                    node_note[b].clear();
                    explainer.begin(buckets[b], bn, current, mates, options, timer);
                }
                // Pairs are taken in node order (a pair at its second node), merged while the
                // candidates still need more GPUs than the cluster (or the request) has.
                for (int u = 0; u < static_cast<int>(current.size()); ++u) {
                    int v = mates[u];
                    if (v > u) continue;
                    if (v < 0) {
                        bn.nodes.push_back(current[u]);
                        if (explain) node_note[b].push_back(current_note[u]);
                    } else if (over(b)) {
                        if (explain) {
                            notes.push_back(explainer.note(v, u, round));
                            node_note[b].push_back(static_cast<int>(notes.size()) - 1);
                        }
                        bn.add(bn.members(current[v]), bn.members(current[u]));
                        merged(b);
                    } else {
                        bn.nodes.push_back(current[v]);
                        bn.nodes.push_back(current[u]);
                        if (explain) {
                            node_note[b].push_back(current_note[v]);
                            node_note[b].push_back(current_note[u]);
                        }
                    }
                }
            }
        }
    }

    result.groups.clear();
    result.members.clear();
    group_note.clear();
    for (std::size_t b = 0; b < buckets.size(); ++b)
        for (std::size_t i = 0; i < nodes[b].nodes.size(); ++i) {
            const Node& node = nodes[b].nodes[i];
            if (explain) group_note.push_back(options.use_matching ? node_note[b][i] : -1);
            const auto members = nodes[b].members(node);
            result.groups.push_back(
                {buckets[b].gpus, static_cast<int>(b), static_cast<int>(result.members.size()), node.size});
            result.members.insert(result.members.end(), members.begin(), members.end());
        }
}

MuriGrouper::MuriGrouper(bool cache_rounds) : work_(std::make_unique<Workspace>()) {
    work_->cache_rounds = cache_rounds;
}
MuriGrouper::~MuriGrouper() = default;
MuriGrouper::MuriGrouper(MuriGrouper&&) noexcept = default;
MuriGrouper& MuriGrouper::operator=(MuriGrouper&&) noexcept = default;

const MuriGrouping& MuriGrouper::group(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                                       int cluster_gpus, const MuriGroupingOptions& options,
                                       MuriGroupTimer& timer) {
    work_->group(buckets, slots, cluster_gpus, options, timer);
    return work_->result;
}

std::uint64_t MuriGrouper::cacheHits() const {
    return work_->hits;
}
std::uint64_t MuriGrouper::solvedRounds() const {
    return work_->solved;
}
std::uint64_t MuriGrouper::reusedBases() const {
    return work_->reused_bases;
}
std::uint64_t MuriGrouper::repeatedRounds() const {
    return work_->repeated_rounds;
}

void MuriGrouper::setExplain(bool on) {
    work_->explain = on;
}

const MuriGroupNote* MuriGrouper::noteOf(std::size_t g) const {
    if (!work_->explain || g >= work_->group_note.size() || work_->group_note[g] < 0) return nullptr;
    return &work_->notes[static_cast<std::size_t>(work_->group_note[g])];
}

std::vector<MuriGroup> groupCandidates(const std::vector<MuriBucket>& buckets, const std::vector<int>& slots,
                                       int cluster_gpus, const MuriGroupingOptions& options,
                                       MuriGroupTimer& timer) {
    MuriGrouper grouper(/*cache_rounds=*/false);
    const MuriGrouping& grouping = grouper.group(buckets, slots, cluster_gpus, options, timer);
    std::vector<MuriGroup> groups;
    for (const MuriGrouping::Group& g : grouping.groups) {
        const auto members = grouping.membersOf(g);
        groups.push_back({g.gpus, std::vector<int>(members.begin(), members.end()), g.bucket});
    }
    return groups;
}

}  // namespace cl
