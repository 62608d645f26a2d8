// core/matching: LEMON maximum weight matching against brute force, the type-compressed
// GLPK program against LEMON on the expanded graph, and edge cases.
#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/matching/max_weight_matching.h"
#include "core/matching/optimal_basis_cache.h"
#include "core/matching/type_compressed_matching.h"

using namespace cl;

namespace {

// mt19937_64's output sequence is fixed by the standard; the reduction below is ours, so the
// instances are the same with every standard library.
struct Rng {
    explicit Rng(std::uint64_t seed) : engine(seed) {}
    std::int64_t uniform(std::int64_t lo, std::int64_t hi) {  // inclusive
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(engine() % span);
    }
    double unit() { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }
    std::mt19937_64 engine;
};

// Heaviest positive edge between every pair (0 if none), as in maxWeightMatching.
std::vector<std::vector<std::int64_t>> bestWeights(int n, const std::vector<WeightedEdge>& edges) {
    std::vector<std::vector<std::int64_t>> w(static_cast<std::size_t>(n),
                                             std::vector<std::int64_t>(static_cast<std::size_t>(n), 0));
    for (const WeightedEdge& e : edges) {
        auto& a = w[static_cast<std::size_t>(e.u)][static_cast<std::size_t>(e.v)];
        a = std::max(a, e.weight);
        w[static_cast<std::size_t>(e.v)][static_cast<std::size_t>(e.u)] = a;
    }
    return w;
}

// Exhaustive maximum weight matching: the lowest free node is left unmatched or matched to
// any later free neighbour. Memoised over the set of used nodes (n <= 12).
std::int64_t bruteForce(int n, const std::vector<std::vector<std::int64_t>>& w, unsigned used,
                        std::vector<std::int64_t>& memo) {
    if (memo[used] >= 0) return memo[used];
    int i = 0;
    while (i < n && (used & (1u << i)) != 0) ++i;
    std::int64_t best = 0;
    if (i < n) {
        best = bruteForce(n, w, used | (1u << i), memo);
        for (int j = i + 1; j < n; ++j) {
            const std::int64_t wij = w[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
            if ((used & (1u << j)) == 0 && wij > 0) {
                best = std::max(best, wij + bruteForce(n, w, used | (1u << i) | (1u << j), memo));
            }
        }
    }
    memo[used] = best;
    return best;
}

std::int64_t bruteForce(int n, const std::vector<WeightedEdge>& edges) {
    std::vector<std::int64_t> memo(std::size_t{1} << n, -1);
    return bruteForce(n, bestWeights(n, edges), 0, memo);
}

// Empty string if mate is a matching of n nodes using only positive edges; else the reason.
std::string matchingProblem(const std::vector<int>& mate, int n,
                            const std::vector<std::vector<std::int64_t>>& w) {
    if (static_cast<int>(mate.size()) != n) return "wrong size";
    for (int v = 0; v < n; ++v) {
        const int m = mate[static_cast<std::size_t>(v)];
        if (m == -1) continue;
        if (m < 0 || m >= n) return "mate out of range at " + std::to_string(v);
        if (m == v) return "self mate at " + std::to_string(v);
        if (mate[static_cast<std::size_t>(m)] != v) return "asymmetric at " + std::to_string(v);
        if (w[static_cast<std::size_t>(v)][static_cast<std::size_t>(m)] <= 0) {
            return "pair without positive edge at " + std::to_string(v);
        }
    }
    return {};
}

// A typed instance: node types, a symmetric type weight table, and the expanded full graph.
struct TypedInstance {
    int types = 0;
    std::vector<int> node_type;
    std::vector<int> count;
    std::vector<std::vector<std::int64_t>> table;
    std::vector<WeightedEdge> edges;  // every node pair, including weights <= 0
};

TypedInstance makeTyped(Rng& rng, bool gamma_like) {
    TypedInstance in;
    in.types = static_cast<int>(rng.uniform(1, 48));
    const int n = static_cast<int>(rng.uniform(2, 300));
    const auto T = static_cast<std::size_t>(in.types);
    in.table.assign(T, std::vector<std::int64_t>(T, 0));
    if (!gamma_like) {
        // Random table with some zeros; a narrow range in some instances to force ties.
        const double zero_share = rng.unit() * 0.6;
        const std::int64_t hi = rng.uniform(0, 2) == 0 ? 5 : 1'000'000;
        for (std::size_t a = 0; a < T; ++a) {
            for (std::size_t b = a; b < T; ++b) {
                const std::int64_t w = rng.unit() < zero_share ? 0 : rng.uniform(1, hi);
                in.table[a][b] = in.table[b][a] = w;
            }
        }
    } else {
        // Mimic Muri's gamma: each type has 3 stage times; two jobs interleave with the best
        // rotation of the second one, gamma = total work / (3 * interleaved time).
        std::vector<std::array<double, 3>> stages(T);
        for (auto& s : stages) {
            const int dominant = static_cast<int>(rng.uniform(0, 2));
            for (int j = 0; j < 3; ++j) {
                s[static_cast<std::size_t>(j)] =
                    j == dominant ? 50.0 + 450.0 * rng.unit() : 0.5 + 100.0 * rng.unit();
            }
        }
        const double threshold = rng.uniform(0, 1) == 0 ? 0.0 : 0.6;  // 0.6: some pairs not worth it
        for (std::size_t a = 0; a < T; ++a) {
            for (std::size_t b = a; b < T; ++b) {
                double best_time = std::numeric_limits<double>::infinity();
                for (int r = 1; r <= 2; ++r) {
                    double t = 0;
                    for (int j = 0; j < 3; ++j) {
                        t += std::max(stages[a][static_cast<std::size_t>(j)],
                                      stages[b][static_cast<std::size_t>((j + r) % 3)]);
                    }
                    best_time = std::min(best_time, t);
                }
                double work = 0;
                for (int j = 0; j < 3; ++j)
                    work += stages[a][static_cast<std::size_t>(j)] + stages[b][static_cast<std::size_t>(j)];
                const double gamma = work / (3.0 * best_time);
                in.table[a][b] = in.table[b][a] = fixedPointWeight(gamma - threshold);
            }
        }
    }
    in.count.assign(T, 0);
    for (int v = 0; v < n; ++v) {
        const int t = static_cast<int>(rng.uniform(0, in.types - 1));
        in.node_type.push_back(t);
        ++in.count[static_cast<std::size_t>(t)];
    }
    for (int u = 0; u < n; ++u) {
        for (int v = u + 1; v < n; ++v) {
            in.edges.push_back(
                {u, v,
                 in.table[static_cast<std::size_t>(in.node_type[static_cast<std::size_t>(u)])]
                         [static_cast<std::size_t>(in.node_type[static_cast<std::size_t>(v)])]});
        }
    }
    return in;
}

}  // namespace

class TestMatching : public QObject {
    Q_OBJECT

    void checkTypedInstances(bool gamma_like, std::uint64_t seed_base, int instances) {
        for (int k = 0; k < instances; ++k) {
            const std::uint64_t seed = seed_base + static_cast<std::uint64_t>(k);
            Rng rng(seed);
            const TypedInstance in = makeTyped(rng, gamma_like);
            const int n = static_cast<int>(in.node_type.size());
            const std::string ctx = "seed " + std::to_string(seed) + ", " + std::to_string(n) + " nodes, " +
                                    std::to_string(in.types) + " types";

            const std::vector<int> lemon_mate = maxWeightMatching(n, in.edges);
            const std::int64_t lemon_weight = matchingWeight(lemon_mate, in.edges);

            int calls = 0;
            const TypeMatchingResult tc = typeCompressedMatching(in.count, [&](int a, int b) {
                ++calls;
                if (a > b) throw std::logic_error("weight called with a > b");
                return in.table[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
            });
            QVERIFY2(calls <= in.types * (in.types + 1) / 2, ctx.c_str());
            QVERIFY2(tc.total_weight == lemon_weight,
                     (ctx + ": type-compressed " + std::to_string(tc.total_weight) + " vs LEMON " +
                      std::to_string(lemon_weight))
                         .c_str());

            std::int64_t from_pairs = 0;
            for (std::size_t i = 0; i < tc.pairs.size(); ++i) {
                const auto [a, b, c] = tc.pairs[i];
                QVERIFY2(0 <= a && a <= b && b < in.types && c > 0, ctx.c_str());
                QVERIFY2(in.table[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] > 0, ctx.c_str());
                if (i > 0)
                    QVERIFY2(std::make_pair(std::get<0>(tc.pairs[i - 1]), std::get<1>(tc.pairs[i - 1])) <
                                 std::make_pair(a, b),
                             ctx.c_str());
                from_pairs += c * in.table[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
            }
            QVERIFY2(from_pairs == tc.total_weight, ctx.c_str());

            const std::vector<int> mate = expandToMates(in.node_type, tc);
            const auto w = bestWeights(n, in.edges);
            const std::string problem = matchingProblem(mate, n, w);
            QVERIFY2(problem.empty(), (ctx + ": " + problem).c_str());
            QVERIFY2(matchingWeight(mate, in.edges) == tc.total_weight, ctx.c_str());
            QVERIFY2(expandToMates(in.node_type, tc) == mate, ctx.c_str());  // deterministic
            // One expander reused across every instance (as the grouping reuses it) expands
            // the same mates as a fresh one.
            QVERIFY2(reused_expander_.expand(in.node_type, tc.pairs) == mate, ctx.c_str());
        }
    }

    MateExpander reused_expander_;

private slots:
    // (a) LEMON against exhaustive search on small random graphs.
    void lemonMatchesBruteForceOnRandomGraphs() {
        for (std::uint64_t seed = 1; seed <= 400; ++seed) {
            Rng rng(seed);
            const int n = static_cast<int>(rng.uniform(2, 12));
            const double density = 0.1 + 0.9 * rng.unit();
            const std::int64_t hi =
                std::array<std::int64_t, 3>{3, 100, 1'000'000}[static_cast<std::size_t>(rng.uniform(0, 2))];
            std::vector<WeightedEdge> edges;
            for (int u = 0; u < n; ++u) {
                for (int v = u + 1; v < n; ++v) {
                    if (rng.unit() >= density) continue;
                    const bool flip = rng.uniform(0, 1) == 1;  // either orientation is accepted
                    edges.push_back({flip ? v : u, flip ? u : v, rng.uniform(1, hi)});
                    if (rng.unit() < 0.05) edges.push_back({u, v, rng.uniform(1, hi)});  // parallel edge
                }
            }
            std::shuffle(edges.begin(), edges.end(), rng.engine);
            const std::string ctx = "seed " + std::to_string(seed) + ", n " + std::to_string(n);
            const std::vector<int> mate = maxWeightMatching(n, edges);
            const std::string problem = matchingProblem(mate, n, bestWeights(n, edges));
            QVERIFY2(problem.empty(), (ctx + ": " + problem).c_str());
            const std::int64_t expected = bruteForce(n, edges);
            const std::int64_t got = matchingWeight(mate, edges);
            QVERIFY2(got == expected,
                     (ctx + ": LEMON " + std::to_string(got) + " vs brute force " + std::to_string(expected))
                         .c_str());
        }
    }

    // (b) The type-compressed program against LEMON on the expanded graph.
    void typeCompressedEqualsLemonRandomTable() { checkTypedInstances(false, 1000, 60); }
    void typeCompressedEqualsLemonGammaLike() { checkTypedInstances(true, 5000, 60); }

    // An instance where the LP relaxation is fractional (odd cycle of types).
    void typeCompressedOddCycle() {
        const std::vector<int> count{1, 1, 1};
        const auto r = typeCompressedMatching(count, [](int a, int b) { return a == b ? 0 : 1; });
        QCOMPARE(r.total_weight, std::int64_t{1});
        QCOMPARE(r.pairs.size(), std::size_t{1});
    }

    // Two matchings 1 unit apart on a total of ~2e11: GLPK's default relative tolerance (1e-7)
    // would allow accepting the worse one.
    void typeCompressedIsExactForLargeTotals() {
        constexpr std::int64_t W = 100'000'000'000;  // 1e11
        const std::vector<int> count{1, 1, 1, 1};
        auto weight = [](int a, int b) -> std::int64_t {
            if (a == 0 && b == 1) return W;
            if (a == 2 && b == 3) return W;
            if (a == 0 && b == 2) return W;
            if (a == 1 && b == 3) return W + 1;
            return 0;
        };
        const auto r = typeCompressedMatching(count, weight);
        QCOMPARE(r.total_weight, 2 * W + 1);
        // Same with many interchangeable copies: 2,000 nodes, total ~1e14.
        const std::vector<int> many{500, 500, 500, 500};
        const auto r2 = typeCompressedMatching(many, [&](int a, int b) { return weight(a, b) / 1000; });
        QCOMPARE(r2.total_weight, 500 * (2 * (W / 1000)));  // (W+1)/1000 == W/1000: all ties
        const auto r3 = typeCompressedMatching(
            many, [&](int a, int b) { return weight(a, b) == W + 1 ? W / 1000 + 1 : weight(a, b) / 1000; });
        QCOMPARE(r3.total_weight, 500 * (2 * (W / 1000) + 1));
    }

    // (c) Edge cases.
    void noEdges() {
        QCOMPARE(maxWeightMatching(5, {}), std::vector<int>(5, -1));
        QCOMPARE(maxWeightMatching(0, {}), std::vector<int>{});
        QCOMPARE(matchingWeight(std::vector<int>(5, -1), {}), std::int64_t{0});
        const auto r = typeCompressedMatching({}, [](int, int) { return std::int64_t{1}; });
        QVERIFY(r.pairs.empty());
        QCOMPARE(r.total_weight, std::int64_t{0});
        QCOMPARE(expandToMates({}, r), std::vector<int>{});
    }

    void oneNode() {
        QCOMPARE(maxWeightMatching(1, {}), std::vector<int>{-1});
        int calls = 0;
        const auto r = typeCompressedMatching({1}, [&](int, int) {
            ++calls;
            return std::int64_t{7};
        });
        QCOMPARE(calls, 0);  // a single node of a type cannot pair with itself
        QVERIFY(r.pairs.empty());
        QCOMPARE(expandToMates({0}, r), std::vector<int>{-1});
    }

    void allWeightsZeroOrNegative() {
        const std::vector<WeightedEdge> edges{{0, 1, 0}, {1, 2, 0}, {2, 3, -5}, {0, 3, 0}};
        QCOMPARE(maxWeightMatching(4, edges), std::vector<int>(4, -1));
        const auto r = typeCompressedMatching(
            {3, 2, 4}, [](int a, int b) { return a == b ? std::int64_t{0} : std::int64_t{-1}; });
        QVERIFY(r.pairs.empty());
        QCOMPARE(r.total_weight, std::int64_t{0});
        QCOMPARE(expandToMates({0, 1, 2, 0, 1, 2, 0, 2, 2}, r), std::vector<int>(9, -1));
    }

    void oddNodeCount() {
        // Triangle: only one pair; the heaviest wins.
        const std::vector<WeightedEdge> tri{{0, 1, 3}, {1, 2, 5}, {0, 2, 4}};
        const auto m = maxWeightMatching(3, tri);
        QCOMPARE(m, (std::vector<int>{-1, 2, 1}));
        QCOMPARE(matchingWeight(m, tri), std::int64_t{5});
        // Path 0-1-2-3-4 with weights 2, 3, 3, 2: two pairs, total 5 (node 4 or 0 left over).
        // Maximum weight, not maximum cardinality: 1-2 (10) beats 0-1 + 2-3 (8).
        const std::vector<WeightedEdge> path{{0, 1, 2}, {1, 2, 3}, {2, 3, 3}, {3, 4, 2}};
        QCOMPARE(matchingWeight(maxWeightMatching(5, path), path), std::int64_t{5});
        const std::vector<WeightedEdge> heavy{{0, 1, 4}, {1, 2, 10}, {2, 3, 4}};
        QCOMPARE(maxWeightMatching(4, heavy), (std::vector<int>{-1, 2, 1, -1}));
        // Types: 5 nodes of one type pair up twice, one node left over.
        const auto r = typeCompressedMatching({5}, [](int, int) { return std::int64_t{9}; });
        QCOMPARE(r.pairs, (std::vector<std::tuple<int, int, int>>{{0, 0, 2}}));
        QCOMPARE(r.total_weight, std::int64_t{18});
        QCOMPARE(expandToMates({0, 0, 0, 0, 0}, r), (std::vector<int>{1, 0, 3, 2, -1}));
    }

    void parallelEdgesUseTheHeaviest() {
        const std::vector<WeightedEdge> edges{{0, 1, 2}, {1, 0, 9}, {0, 1, 4}};
        const auto m = maxWeightMatching(2, edges);
        QCOMPARE(m, (std::vector<int>{1, 0}));
        QCOMPARE(matchingWeight(m, edges), std::int64_t{9});
    }

    void expandToMatesTakesLowestIndicesFirst() {
        // Types of nodes 0..6: 1 0 1 2 0 1 2
        const std::vector<int> node_type{1, 0, 1, 2, 0, 1, 2};
        TypeMatchingResult r;
        r.pairs = {{0, 1, 2}, {2, 2, 1}};
        QCOMPARE(expandToMates(node_type, r), (std::vector<int>{1, 0, 4, 6, 2, -1, 3}));
        r.pairs = {{0, 1, 3}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandToMates(node_type, r));
        r.pairs = {{0, 3, 1}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandToMates(node_type, r));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandToMates({0, -1}, TypeMatchingResult{}));
    }

    void expandToMatesPairsTheEarliestNodesTogether() {
        // Types of nodes 0..5: 0 0 1 1 2 2; one pair of each type combination. Node 0 takes
        // the earliest partner it may (node 2), whatever order the pairs are listed in.
        const std::vector<int> node_type{0, 0, 1, 1, 2, 2};
        TypeMatchingResult r;
        r.pairs = {{0, 2, 1}, {0, 1, 1}, {1, 2, 1}};
        const std::vector<int> expected{2, 4, 0, 5, 1, 3};
        QCOMPARE(expandToMates(node_type, r), expected);
        std::reverse(r.pairs.begin(), r.pairs.end());
        QCOMPARE(expandToMates(node_type, r), expected);
    }

    void invalidInputsThrow() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxWeightMatching(-1, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxWeightMatching(3, {{0, 3, 1}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxWeightMatching(3, {{-1, 2, 1}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxWeightMatching(3, {{1, 1, 1}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxWeightMatching(3, {{1, 1, 0}}));  // even if unused
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 maxWeightMatching(3, {{0, 1, kMaxMatchingEdgeWeight + 1}}));
        QCOMPARE(maxWeightMatching(2, {{0, 1, kMaxMatchingEdgeWeight}}), (std::vector<int>{1, 0}));

        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, matchingWeight({1, 1}, {{0, 1, 1}}));  // asymmetric
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, matchingWeight({0}, {}));              // self mate
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, matchingWeight({2, -1}, {}));          // out of range
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, matchingWeight({1, 0}, {}));           // no edge
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 matchingWeight({-1, -1}, {{0, 2, 1}}));  // edge out of range

        const auto one = [](int, int) { return std::int64_t{1}; };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, typeCompressedMatching({2, -1}, one));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, typeCompressedMatching({2}, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 typeCompressedMatching({2}, one, {.simplex_iterations = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, typeCompressedMatching({2}, [](int, int) {
                                     return kMaxMatchingEdgeWeight + 1;
                                 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, typeCompressedMatching({20'000'000}, [](int, int) {
                                     return kMaxMatchingEdgeWeight;
                                 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 typeCompressedMatching({2}, one, {.branch_nodes = -1}));
    }

    // A remembered optimal basis answers other counts of the same types exactly as a fresh
    // solve does (the answer is the unique optimum either way), and answers most of them.
    void optimalBasisCacheEqualsFreshSolves() {
        int reused = 0, solved = 0;
        for (int series = 0; series < 20; ++series) {
            Rng rng(9000 + static_cast<std::uint64_t>(series));
            const int types = 3 + static_cast<int>(rng.uniform(0, 7));
            std::vector<std::vector<std::int64_t>> table(types, std::vector<std::int64_t>(types, 0));
            for (int a = 0; a < types; ++a)
                for (int b = a; b < types; ++b)
                    table[a][b] = table[b][a] =
                        rng.uniform(0, 4) == 0 ? 0 : 900'000 + rng.uniform(0, 200'000);
            const auto weight = [&](int a, int b) { return table[a][b]; };
            std::vector<std::uint64_t> ids(static_cast<std::size_t>(types));
            for (int a = 0; a < types; ++a) ids[a] = static_cast<std::uint64_t>(a + 1);
            std::vector<int> counts(static_cast<std::size_t>(types));
            for (int& c : counts) c = 1 + static_cast<int>(rng.uniform(0, 40));
            OptimalBasisCache cache;
            for (int step = 0; step < 60; ++step) {
                // Counts drift by one or two, as between two scheduling events.
                for (int& c : counts) c = std::max(1, c + static_cast<int>(rng.uniform(0, 4)) - 2);
                const TypeMatchingResult fresh = typeCompressedMatching(counts, weight);
                if (auto answer = cache.solve(ids, counts)) {
                    ++reused;
                    QCOMPARE(answer->pairs, fresh.pairs);
                    QCOMPARE(answer->total_weight, fresh.total_weight);
                } else {
                    ++solved;
                    OptimalBasis basis;
                    const TypeMatchingResult again = typeCompressedMatching(counts, weight, {}, &basis);
                    QCOMPARE(again.pairs, fresh.pairs);
                    cache.remember(ids, std::move(basis));
                }
            }
        }
        QVERIFY2(reused > solved,
                 (std::to_string(reused) + " reused, " + std::to_string(solved) + " solved").c_str());
    }

    // The limits count work, not time: a solve that needs more simplex iterations than allowed
    // fails the same way on every machine, and one allowed enough finishes.
    void typeCompressedWorkLimitIsDeterministic() {
        std::vector<int> count(30);
        for (int a = 0; a < 30; ++a) count[static_cast<std::size_t>(a)] = 1 + a % 7;
        const auto weight = [](int a, int b) { return std::int64_t{1 + (a * 7 + b * 13) % 97}; };
        for (int repeat = 0; repeat < 3; ++repeat)
            QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                     typeCompressedMatching(count, weight, {.simplex_iterations = 1}));
        const TypeMatchingResult r = typeCompressedMatching(count, weight);
        QVERIFY(r.total_weight > 0);
    }

    void fixedPoint() {
        QCOMPARE(fixedPointWeight(1.0), std::int64_t{1'000'000});
        QCOMPARE(fixedPointWeight(0.1234567), std::int64_t{123'457});
        QCOMPARE(fixedPointWeight(-0.5), std::int64_t{-500'000});
        QCOMPARE(fixedPointWeight(0.0), std::int64_t{0});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fixedPointWeight(std::nan("")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fixedPointWeight(std::numeric_limits<double>::infinity()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fixedPointWeight(1e9));
    }
};

QTEST_APPLESS_MAIN(TestMatching)
#include "test_matching.moc"
