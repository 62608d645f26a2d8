// Type-compressed maximum weight matching (docs/architecture.md section 4.5, "Matching").
//
// Without profiling noise, Muri's jobs with the same (model, GPU count) are interchangeable:
// the matching weight of two jobs depends only on their types. A matching round over N jobs
// then reduces to a small integer program over counts of type pairs:
//
//   maximise   sum_{a <= b, w(a,b) > 0}  w(a,b) * x_ab
//   subject to sum_{b != a} x_ab + 2 x_aa <= count_a   for every type a   (x_ab = x_ba)
//              x_ab integer >= 0
//
// Why this is exact (same optimum as maxWeightMatching on the full graph in which nodes u,
// v of types a, b are joined by an edge of weight w(a,b) whenever w(a,b) > 0):
// - any matching of the full graph gives counts x_ab (its pairs per type pair) that satisfy
//   the constraints, since every node is matched at most once, with the same total weight;
// - conversely any feasible x is realised by a matching: type a needs sum_b x_ab + 2 x_aa
//   <= count_a distinct nodes, and because nodes of a type are interchangeable any choice of
//   them gives the same weight (expandToMates picks one deterministically).
// So the two optima are equal. The program has one variable per type pair (at most
// 48 * 49 / 2 = 1176 for the built-in types) and one row per type, independent of N.
//
// Solved with GLPK: the LP relaxation is first strengthened with Edmonds' odd-set (blossom)
// inequalities, separated exactly (Padberg-Rao, Gomory-Hu tree on the types), which makes it
// nearly or fully integral; glp_intopt (presolve on) then finishes the integer program. The
// cuts only make this fast (plain branch-and-bound stalls on half-integral LP solutions);
// exactness comes from the branch-and-bound. Weights are integers, so GLPK's relative
// objective tolerance is tightened below one weight unit (with the default 1e-7 a solution
// up to ~1e-7 * total below the optimum could be accepted); the returned solution is checked
// for feasibility in integer arithmetic and its weight is recomputed in int64.
//
// Use maxWeightMatching (the full LEMON graph) as the reference path and whenever nodes are
// not interchangeable (noisy profiles).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <tuple>
#include <vector>

#include "core/matching/max_weight_matching.h"

namespace cl {

struct TypeMatchingResult {
    // (type a, type b, count) with a <= b and count > 0, sorted by (a, b). A pair (a, a, c)
    // uses 2c nodes of type a.
    std::vector<std::tuple<int, int, int>> pairs;
    std::int64_t total_weight = 0;
};

// How much work a solve may do before it gives up (std::runtime_error). Counted in work, not
// time, so that whether a solve finishes never depends on the machine or its load (a caller
// that falls back to another solver on failure stays deterministic).
struct TypeMatchingLimits {
    int simplex_iterations = 1'000'000;  // over every LP solve of the relaxation, > 0
    int branch_nodes = 100'000;          // branch-and-bound subproblems, > 0
};

// count_per_type[a] = number of nodes of type a (types are 0..count_per_type.size()-1).
// weight(a, b) is called only with a <= b, at most once per type pair with enough nodes
// (count_a >= 1 and count_b >= 1; count_a >= 2 for a == b); it must describe a symmetric
// table. Pairs with weight <= 0 are never matched (as in maxWeightMatching).
//
// Throws std::invalid_argument for a negative count, an empty weight function, a weight
// above kMaxMatchingEdgeWeight, or a problem whose objective could exceed 2^52 (doubles in
// GLPK would no longer be exact) or limits that are not positive; std::runtime_error if GLPK
// fails, reaches a limit or does not report an optimal integer solution.
TypeMatchingResult typeCompressedMatching(const std::vector<int>& count_per_type,
                                          const std::function<std::int64_t(int, int)>& weight,
                                          TypeMatchingLimits limits = {});

// The optimal basis of a solve whose relaxation (degree rows and the blossom cuts it added) had
// a unique, integral optimum. Reduced costs depend on the matrix and the weights, not on the
// counts, so for other counts of the same types (same weights, same columns, cuts still of odd
// count) the basis is still the unique optimum wherever its basic solution is feasible; if that
// solution is integral it is the only integer optimum (optimal_basis_cache.h).
struct OptimalBasis {
    enum class Status : char { Basic, AtLower, AtUpper };
    struct Column {
        int a = 0;
        int b = 0;
        std::int64_t weight = 0;
        Status status = Status::AtLower;
    };
    int types = 0;                       // 0: no basis (the solve did not end that way)
    std::vector<char> self_pairable;     // per type: count >= 2 (decides whether (a, a) is a column)
    std::vector<Column> columns;         // in column order
    std::vector<std::vector<int>> cuts;  // the types of each cut row
    std::vector<char> row_basic;         // degree rows (one per type), then cut rows
};

// typeCompressedMatching that also hands out its optimal basis when it has one (basis->types
// > 0), for OptimalBasisCache.
TypeMatchingResult typeCompressedMatching(const std::vector<int>& count_per_type,
                                          const std::function<std::int64_t(int, int)>& weight,
                                          TypeMatchingLimits limits, OptimalBasis* basis);

// A concrete mate vector (as returned by maxWeightMatching) realising result for the nodes
// 0..node_type.size()-1, node v having type node_type[v] >= 0. Deterministic and independent
// of the order of result.pairs: nodes are visited in index order (the grouping lists them in
// priority order) and each still free node whose type has pairs left is matched with the
// lowest-indexed free node of a type it still pairs with. Throws std::invalid_argument for a
// negative node type, a negative count, or a result that needs more nodes of a type than
// node_type has.
std::vector<int> expandToMates(const std::vector<int>& node_type, const TypeMatchingResult& result);

// expandToMates for callers that expand again and again (a grouping at every event): the same
// mates, with the working arrays kept between calls. The result stays valid until the next
// call.
class MateExpander {
public:
    const std::vector<int>& expand(std::span<const int> node_type,
                                   std::span<const std::tuple<int, int, int>> pairs);

private:
    struct Quota {
        std::size_t a = 0;
        std::size_t b = 0;
        long long count = 0;
    };
    std::vector<int> first_;
    std::vector<int> nodes_of_type_;
    std::vector<int> next_;
    std::vector<Quota> quota_;
    std::vector<std::size_t> quota_first_;
    std::vector<long long> needed_;
    std::vector<int> mate_;
    std::vector<char> taken_;
};

}  // namespace cl
