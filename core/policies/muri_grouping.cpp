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
                // Pairs are taken in node order (a pair at its second node), merged while the
                // candidates still need more GPUs than the cluster (or the request) has.
                for (int u = 0; u < static_cast<int>(current.size()); ++u) {
                    int v = mates[u];
                    if (v > u) continue;
                    if (v < 0) {
                        bn.nodes.push_back(current[u]);
                    } else if (over(b)) {
                        bn.add(bn.members(current[v]), bn.members(current[u]));
                        merged(b);
                    } else {
                        bn.nodes.push_back(current[v]);
                        bn.nodes.push_back(current[u]);
                    }
                }
            }
        }
    }

    result.groups.clear();
    result.members.clear();
    for (std::size_t b = 0; b < buckets.size(); ++b)
        for (const Node& node : nodes[b].nodes) {
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
