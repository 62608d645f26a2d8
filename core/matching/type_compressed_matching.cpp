// Type-compressed matching: one GLPK integer program over counts of type pairs.
#include "core/matching/type_compressed_matching.h"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

namespace cl {

namespace {

struct Column {
    int a = 0;
    int b = 0;
    std::int64_t weight = 0;
    int upper = 0;  // largest count the type counts allow
};

struct ProblemDeleter {
    void operator()(glp_prob* p) const noexcept { glp_delete_prob(p); }
};

std::string glpkReturnCode(int rc) {
    switch (rc) {
        case GLP_EBOUND:
            return "GLP_EBOUND (incorrect bounds)";
        case GLP_EROOT:
            return "GLP_EROOT (no optimal LP basis)";
        case GLP_ENOPFS:
            return "GLP_ENOPFS (no primal feasible solution)";
        case GLP_ENODFS:
            return "GLP_ENODFS (no dual feasible solution)";
        case GLP_EFAIL:
            return "GLP_EFAIL (solver failure)";
        case GLP_EMIPGAP:
            return "GLP_EMIPGAP (MIP gap tolerance reached)";
        case GLP_ETMLIM:
            return "GLP_ETMLIM (time limit exceeded)";
        case GLP_ESTOP:
            return "GLP_ESTOP (terminated by application)";
        default:
            return "return code " + std::to_string(rc);
    }
}

// Maximum s-t flow on a small dense undirected network (Edmonds-Karp); returns the flow
// value and marks in source_side the nodes reachable from s in the final residual network
// (a minimum s-t cut).
double minCut(const std::vector<double>& capacity, int n, int s, int t, std::vector<char>& source_side) {
    constexpr double kEps = 1e-12;
    std::vector<double> residual = capacity;
    std::vector<int> parent(static_cast<std::size_t>(n));
    std::vector<int> queue;
    queue.reserve(static_cast<std::size_t>(n));
    auto at = [n](int u, int v) {
        return static_cast<std::size_t>(u) * static_cast<std::size_t>(n) + static_cast<std::size_t>(v);
    };
    double flow = 0.0;
    for (;;) {
        std::fill(parent.begin(), parent.end(), -1);
        parent[static_cast<std::size_t>(s)] = s;
        queue.assign(1, s);
        for (std::size_t head = 0; head < queue.size() && parent[static_cast<std::size_t>(t)] < 0; ++head) {
            const int u = queue[head];
            for (int v = 0; v < n; ++v) {
                if (parent[static_cast<std::size_t>(v)] < 0 && residual[at(u, v)] > kEps) {
                    parent[static_cast<std::size_t>(v)] = u;
                    queue.push_back(v);
                }
            }
        }
        if (parent[static_cast<std::size_t>(t)] < 0) break;
        double push = std::numeric_limits<double>::infinity();
        for (int v = t; v != s; v = parent[static_cast<std::size_t>(v)]) {
            push = std::min(push, residual[at(parent[static_cast<std::size_t>(v)], v)]);
        }
        for (int v = t; v != s; v = parent[static_cast<std::size_t>(v)]) {
            residual[at(parent[static_cast<std::size_t>(v)], v)] -= push;
            residual[at(v, parent[static_cast<std::size_t>(v)])] += push;
        }
        flow += push;
    }
    source_side.assign(static_cast<std::size_t>(n), 0);
    for (int v = 0; v < n; ++v)
        source_side[static_cast<std::size_t>(v)] = parent[static_cast<std::size_t>(v)] >= 0 ? 1 : 0;
    return flow;
}

// Candidate vertex sets for odd-set cuts: the fundamental cuts of a Gomory-Hu tree of the
// network (Gusfield's algorithm, n - 1 minimum cuts), each given as the side without node
// n - 1, plus the minimum cuts themselves. By Padberg and Rao a minimum T-odd cut is among
// the fundamental cuts; callers check every candidate's value directly, so the candidates
// only decide which violated cuts are found, never whether a cut is valid.
std::vector<std::vector<char>> gomoryHuCandidates(const std::vector<double>& capacity, int n) {
    std::vector<int> p(static_cast<std::size_t>(n), 0);
    std::vector<double> fl(static_cast<std::size_t>(n), 0.0);
    std::vector<std::vector<char>> candidates;
    std::vector<char> side;
    for (int s = 1; s < n; ++s) {
        const int t = p[static_cast<std::size_t>(s)];
        const double value = minCut(capacity, n, s, t, side);
        candidates.push_back(side);
        fl[static_cast<std::size_t>(s)] = value;
        for (int i = 0; i < n; ++i) {
            if (i != s && side[static_cast<std::size_t>(i)] && p[static_cast<std::size_t>(i)] == t) {
                p[static_cast<std::size_t>(i)] = s;
            }
        }
        if (side[static_cast<std::size_t>(p[static_cast<std::size_t>(t)])]) {
            p[static_cast<std::size_t>(s)] = p[static_cast<std::size_t>(t)];
            p[static_cast<std::size_t>(t)] = s;
            fl[static_cast<std::size_t>(s)] = fl[static_cast<std::size_t>(t)];
            fl[static_cast<std::size_t>(t)] = value;
        }
    }
    // Fundamental cuts of the tree {(i, p[i]) : i >= 1}: the component of i without that edge.
    std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(n));
    for (int i = 1; i < n; ++i) {
        adjacent[static_cast<std::size_t>(i)].push_back(p[static_cast<std::size_t>(i)]);
        adjacent[static_cast<std::size_t>(p[static_cast<std::size_t>(i)])].push_back(i);
    }
    for (int i = 1; i < n; ++i) {
        std::vector<char> component(static_cast<std::size_t>(n), 0);
        std::vector<int> stack{i};
        component[static_cast<std::size_t>(i)] = 1;
        while (!stack.empty()) {
            const int u = stack.back();
            stack.pop_back();
            for (const int v : adjacent[static_cast<std::size_t>(u)]) {
                const bool removed = (u == i && v == p[static_cast<std::size_t>(i)]);
                if (!removed && !component[static_cast<std::size_t>(v)]) {
                    component[static_cast<std::size_t>(v)] = 1;
                    stack.push_back(v);
                }
            }
        }
        candidates.push_back(std::move(component));
    }
    // Normalise every candidate to the side without node n - 1.
    for (auto& c : candidates) {
        if (c[static_cast<std::size_t>(n - 1)]) {
            for (auto& x : c) x = static_cast<char>(!x);
        }
    }
    return candidates;
}

// True when the current optimal basic solution is the LP's only optimum: every nonbasic
// variable (structural or a row's auxiliary) has a reduced cost clearly away from zero, so
// moving any of them off its bound loses objective, and every other feasible point moves one.
// The test errs one way only: a reduced cost below 0.25 counts as zero. That is far above the
// rounding of doubles at these magnitudes (integer weights of order 1e6), so a true zero is
// never taken for nonzero; a true nonzero below it only sends the round to branch-and-bound,
// which is exact either way.
bool hasUniqueOptimum(glp_prob* lp) {
    constexpr double kZeroReducedCost = 0.25;
    for (int j = 1; j <= glp_get_num_cols(lp); ++j)
        if (glp_get_col_stat(lp, j) != GLP_BS && std::fabs(glp_get_col_dual(lp, j)) < kZeroReducedCost)
            return false;
    for (int i = 1; i <= glp_get_num_rows(lp); ++i)
        if (glp_get_row_stat(lp, i) != GLP_BS && std::fabs(glp_get_row_dual(lp, i)) < kZeroReducedCost)
            return false;
    return true;
}

// The pairs of an integer solution (value(j) of GLPK column j, 1-based), checked for
// integrality, bounds and node counts in integer arithmetic, with its weight in int64.
template <class Value>
TypeMatchingResult readSolution(const std::vector<Column>& columns, const std::vector<int>& count_per_type,
                                Value value_of) {
    TypeMatchingResult result;
    const int types = static_cast<int>(count_per_type.size());
    std::vector<long long> used(static_cast<std::size_t>(types), 0);
    for (int j = 0; j < static_cast<int>(columns.size()); ++j) {
        const Column& c = columns[static_cast<std::size_t>(j)];
        const double value = value_of(j + 1);
        const long long pairs = std::llround(value);
        if (std::fabs(value - static_cast<double>(pairs)) > 1e-6 || pairs < 0 || pairs > c.upper) {
            throw std::runtime_error("typeCompressedMatching: GLPK returned an invalid value " +
                                     std::to_string(value) + " for pair (" + std::to_string(c.a) + ", " +
                                     std::to_string(c.b) + ")");
        }
        if (pairs == 0) continue;
        used[static_cast<std::size_t>(c.a)] += pairs;
        used[static_cast<std::size_t>(c.b)] += pairs;  // twice for a == b
        result.pairs.emplace_back(c.a, c.b, static_cast<int>(pairs));
        result.total_weight += pairs * c.weight;
    }
    for (int a = 0; a < types; ++a) {
        if (used[static_cast<std::size_t>(a)] > count_per_type[static_cast<std::size_t>(a)]) {
            throw std::runtime_error("typeCompressedMatching: GLPK solution uses too many nodes of type " +
                                     std::to_string(a));
        }
    }
    return result;
}

// Checks the arguments of typeCompressedMatching; returns the number of nodes.
long long checkedNodeCount(const std::vector<int>& count_per_type,
                           const std::function<std::int64_t(int, int)>& weight, TypeMatchingLimits limits) {
    if (!weight) {
        throw std::invalid_argument("typeCompressedMatching: empty weight function");
    }
    if (limits.simplex_iterations <= 0 || limits.branch_nodes <= 0) {
        throw std::invalid_argument("typeCompressedMatching: limits must be positive, got " +
                                    std::to_string(limits.simplex_iterations) + " simplex iterations and " +
                                    std::to_string(limits.branch_nodes) + " branch-and-bound nodes");
    }
    const int types = static_cast<int>(count_per_type.size());
    long long total_nodes = 0;
    for (int a = 0; a < types; ++a) {
        if (count_per_type[static_cast<std::size_t>(a)] < 0) {
            throw std::invalid_argument("typeCompressedMatching: negative count for type " +
                                        std::to_string(a));
        }
        total_nodes += count_per_type[static_cast<std::size_t>(a)];
    }
    return total_nodes;
}

// One integer column per type pair that can be matched and gains something; max_weight is set
// to the largest weight among them (0 when there is none).
std::vector<Column> pairColumns(const std::vector<int>& count_per_type,
                                const std::function<std::int64_t(int, int)>& weight,
                                std::int64_t& max_weight) {
    const int types = static_cast<int>(count_per_type.size());
    std::vector<Column> columns;
    max_weight = 0;
    for (int a = 0; a < types; ++a) {
        const int ca = count_per_type[static_cast<std::size_t>(a)];
        if (ca == 0) continue;
        for (int b = a; b < types; ++b) {
            const int cb = count_per_type[static_cast<std::size_t>(b)];
            const int upper = a == b ? ca / 2 : std::min(ca, cb);
            if (upper == 0) continue;
            const std::int64_t w = weight(a, b);
            if (w <= 0) continue;
            if (w > kMaxMatchingEdgeWeight) {
                throw std::invalid_argument("typeCompressedMatching: weight(" + std::to_string(a) + ", " +
                                            std::to_string(b) + ") = " + std::to_string(w) +
                                            " exceeds kMaxMatchingEdgeWeight");
            }
            max_weight = std::max(max_weight, w);
            columns.push_back({a, b, w, upper});
        }
    }
    return columns;
}

// The integer program with the degree rows only: row a bounds the nodes of type a used,
// column j counts the pairs of columns[j].
std::unique_ptr<glp_prob, ProblemDeleter> degreeProblem(const std::vector<int>& count_per_type,
                                                        const std::vector<Column>& columns) {
    const int types = static_cast<int>(count_per_type.size());
    std::unique_ptr<glp_prob, ProblemDeleter> lp(glp_create_prob());
    glp_set_obj_dir(lp.get(), GLP_MAX);
    glp_add_rows(lp.get(), types);
    for (int a = 0; a < types; ++a) {
        // Row a: nodes of type a used by the matching <= count_a.
        glp_set_row_bnds(lp.get(), a + 1, GLP_UP, 0.0,
                         static_cast<double>(count_per_type[static_cast<std::size_t>(a)]));
    }
    const int ncols = static_cast<int>(columns.size());
    glp_add_cols(lp.get(), ncols);
    // GLPK arrays are 1-based; index 0 is unused.
    std::vector<int> ia(1, 0);
    std::vector<int> ja(1, 0);
    std::vector<double> ar(1, 0.0);
    ia.reserve(2 * columns.size() + 1);
    ja.reserve(2 * columns.size() + 1);
    ar.reserve(2 * columns.size() + 1);
    for (int j = 0; j < ncols; ++j) {
        const Column& c = columns[static_cast<std::size_t>(j)];
        glp_set_col_kind(lp.get(), j + 1, GLP_IV);
        glp_set_col_bnds(lp.get(), j + 1, GLP_DB, 0.0, static_cast<double>(c.upper));
        glp_set_obj_coef(lp.get(), j + 1, static_cast<double>(c.weight));
        if (c.a == c.b) {
            ia.push_back(c.a + 1);
            ja.push_back(j + 1);
            ar.push_back(2.0);
        } else {
            ia.push_back(c.a + 1);
            ja.push_back(j + 1);
            ar.push_back(1.0);
            ia.push_back(c.b + 1);
            ja.push_back(j + 1);
            ar.push_back(1.0);
        }
    }
    glp_load_matrix(lp.get(), static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
    return lp;
}

// Strengthens the relaxation with Edmonds' odd-set (blossom) inequalities before branching:
// for a set S of types with an odd number of nodes, x(E[S]) <= (count(S) - 1) / 2, where
// E[S] are the pairs with both types in S (including (a, a)). They are valid for every
// integer solution, and together with the degree rows they describe the b-matching
// polytope exactly (Edmonds), so once none is violated the LP bound equals the integer
// optimum. Plain branch-and-bound on the degree rows alone stalls on the half-integral LP
// solutions: measured here, 16 of the first 80 random test instances (20-48 types, up
// to 300 nodes) hit a 10 s limit; with the cuts the slowest of 14,000 took 72 ms.
// The cuts only speed the search up; exactness comes from glp_intopt (branchAndBound).
// Separation is skipped for more than kMaxCutTypes types (the dense max-flows would cost
// more than they save; type compression is meant for a few dozen types).
// A set S is violated iff count(S) - 2 x(E[S]) < 1; candidates come from a Gomory-Hu tree
// of the network with capacity x_ab between types and the slack count_a - deg(a) between
// type a and an extra node (Padberg-Rao).
class OddSetCutting {
public:
    OddSetCutting(glp_prob* lp, const std::vector<Column>& columns, const std::vector<int>& count_per_type,
                  int simplex_iterations)
        : lp_(lp),
          columns_(columns),
          count_per_type_(count_per_type),
          simplex_iterations_(simplex_iterations),
          ncols_(static_cast<int>(columns.size())),
          local_(count_per_type.size(), -1),
          x_(static_cast<std::size_t>(ncols_)) {
        for (const Column& c : columns_) {
            for (const int t : {c.a, c.b}) {
                if (local_[static_cast<std::size_t>(t)] < 0) {
                    local_[static_cast<std::size_t>(t)] = static_cast<int>(active_.size());
                    active_.push_back(t);
                }
            }
        }
        m_ = static_cast<int>(active_.size()) + 1;  // + the slack node m_ - 1
        glp_init_smcp(&lp_parm_);
        lp_parm_.msg_lev = GLP_MSG_OFF;
    }

    // Solves the relaxation, adding violated cuts until none is found or the bound stalls;
    // true when its final optimum is integral and the LP's only optimum.
    bool solve() {
        constexpr int kMaxCutTypes = 128;
        constexpr int kMaxCutRounds = 50;
        double last_objective = std::numeric_limits<double>::infinity();
        for (int round = 0;; ++round) {
            if (solveRelaxation(round)) return hasUniqueOptimum(lp_);
            // Stop cutting once the bound stalls. With many ties (small integer weights) the LP
            // optimum can stay on a degenerate face whose fractional vertices the loop would chase
            // for hundreds of rounds; the bound is then (nearly) the integer optimum already and
            // branch-and-cut finishes quickly from the strengthened relaxation.
            const double objective = glp_get_obj_val(lp_);
            if (round > 0 && objective >= last_objective - 1e-9 * (1.0 + std::fabs(objective))) break;
            if (round >= kMaxCutRounds || m_ - 1 > kMaxCutTypes) break;
            last_objective = objective;
            if (addViolatedCuts(cutNetwork()) == 0) break;  // no violated odd set: the bound is optimal
        }
        return false;
    }

    // The types of each cut row, in row order (rows after the degree rows).
    std::vector<std::vector<int>>& cutRows() { return cut_rows_; }

private:
    // The simplex iterations left for the relaxation's solves (GLPK counts them on the problem).
    int iterationsLeft() const {
        const int left = simplex_iterations_ - glp_get_it_cnt(lp_);
        if (left <= 0) {
            throw std::runtime_error("typeCompressedMatching: limit of " +
                                     std::to_string(simplex_iterations_) + " simplex iterations reached");
        }
        return left;
    }

    // One simplex solve; reads the solution into x_ and tells whether it is integral.
    bool solveRelaxation(int round) {
        lp_parm_.it_lim = iterationsLeft();
        lp_parm_.meth =
            round == 0 ? GLP_PRIMAL : GLP_DUALP;  // after adding rows the basis stays dual feasible
        const int lp_rc = glp_simplex(lp_, &lp_parm_);
        if (lp_rc != 0 || glp_get_status(lp_) != GLP_OPT) {
            throw std::runtime_error("typeCompressedMatching: LP relaxation failed: " +
                                     glpkReturnCode(lp_rc));
        }
        bool integral = true;
        for (int j = 0; j < ncols_; ++j) {
            x_[static_cast<std::size_t>(j)] = glp_get_col_prim(lp_, j + 1);
            integral = integral && std::fabs(x_[static_cast<std::size_t>(j)] -
                                             std::round(x_[static_cast<std::size_t>(j)])) < 1e-7;
        }
        return integral;
    }

    // The separation network of the current solution x_: m_ x m_ capacities, row-major.
    std::vector<double> cutNetwork() const {
        const auto mi = static_cast<std::size_t>(m_);
        std::vector<double> capacity(mi * mi, 0.0);
        std::vector<double> slack(mi, 0.0);
        for (std::size_t k = 0; k + 1 < mi; ++k) {
            slack[k] = static_cast<double>(count_per_type_[static_cast<std::size_t>(active_[k])]);
        }
        for (int j = 0; j < ncols_; ++j) {
            const Column& c = columns_[static_cast<std::size_t>(j)];
            const double v = std::max(0.0, x_[static_cast<std::size_t>(j)]);
            const auto la = static_cast<std::size_t>(local_[static_cast<std::size_t>(c.a)]);
            const auto lb = static_cast<std::size_t>(local_[static_cast<std::size_t>(c.b)]);
            slack[la] -= v;
            slack[lb] -= v;  // twice for a == b
            if (la != lb) {
                capacity[la * mi + lb] += v;
                capacity[lb * mi + la] += v;
            }
        }
        for (std::size_t k = 0; k + 1 < mi; ++k) {
            const double sl = std::max(0.0, slack[k]);
            capacity[k * mi + (mi - 1)] = sl;
            capacity[(mi - 1) * mi + k] = sl;
        }
        return capacity;
    }

    // Adds a row for every candidate set that is odd, clearly violated and not a row yet;
    // returns how many were added.
    int addViolatedCuts(const std::vector<double>& capacity) {
        const auto mi = static_cast<std::size_t>(m_);
        int added = 0;
        for (const std::vector<char>& side : gomoryHuCandidates(capacity, m_)) {
            std::vector<int> members;  // types in S
            long long count_s = 0;
            for (std::size_t k = 0; k + 1 < mi; ++k) {
                if (side[k]) {
                    members.push_back(active_[k]);
                    count_s += count_per_type_[static_cast<std::size_t>(active_[k])];
                }
            }
            if (members.empty() || count_s % 2 == 0) continue;
            std::vector<int> inside;  // 1-based GLPK column indices of pairs within S
            double x_inside = 0.0;
            for (int j = 0; j < ncols_; ++j) {
                const Column& c = columns_[static_cast<std::size_t>(j)];
                if (side[static_cast<std::size_t>(local_[static_cast<std::size_t>(c.a)])] &&
                    side[static_cast<std::size_t>(local_[static_cast<std::size_t>(c.b)])]) {
                    inside.push_back(j + 1);
                    x_inside += x_[static_cast<std::size_t>(j)];
                }
            }
            if (static_cast<double>(count_s) - 2.0 * x_inside >= 1.0 - 1e-4)
                continue;  // not (clearly) violated
            if (!cuts_added_.insert(members).second) continue;
            cut_rows_.push_back(members);
            const int row = glp_add_rows(lp_, 1);
            glp_set_row_bnds(lp_, row, GLP_UP, 0.0, static_cast<double>((count_s - 1) / 2));
            std::vector<int> ind(1, 0);
            ind.insert(ind.end(), inside.begin(), inside.end());
            std::vector<double> val(ind.size(), 1.0);
            glp_set_mat_row(lp_, row, static_cast<int>(inside.size()), ind.data(), val.data());
            ++added;
        }
        return added;
    }

    glp_prob* lp_;
    const std::vector<Column>& columns_;
    const std::vector<int>& count_per_type_;
    int simplex_iterations_;
    int ncols_;
    std::vector<int> active_;  // types that appear in a column
    std::vector<int> local_;   // per type: its index in active_ (-1 = in no column)
    int m_ = 1;                // active_.size() + the slack node m_ - 1
    glp_smcp lp_parm_;
    std::set<std::vector<int>> cuts_added_;
    std::vector<std::vector<int>> cut_rows_;  // the types of each cut row, in row order
    std::vector<double> x_;                   // the relaxation's solution, per column
};

// The basis of the relaxation's unique integral optimum, for OptimalBasisCache.
OptimalBasis optimalBasis(glp_prob* lp, const std::vector<Column>& columns,
                          const std::vector<int>& count_per_type, std::vector<std::vector<int>>&& cut_rows) {
    OptimalBasis basis;
    const int types = static_cast<int>(count_per_type.size());
    basis.types = types;
    for (int a = 0; a < types; ++a) {
        basis.self_pairable.push_back(count_per_type[static_cast<std::size_t>(a)] >= 2);
        basis.row_basic.push_back(glp_get_row_stat(lp, a + 1) == GLP_BS);
    }
    for (int j = 0; j < static_cast<int>(columns.size()); ++j) {
        const Column& c = columns[static_cast<std::size_t>(j)];
        const int stat = glp_get_col_stat(lp, j + 1);
        basis.columns.push_back({c.a, c.b, c.weight,
                                 stat == GLP_BS   ? OptimalBasis::Status::Basic
                                 : stat == GLP_NU ? OptimalBasis::Status::AtUpper
                                                  : OptimalBasis::Status::AtLower});
    }
    for (std::size_t k = 0; k < cut_rows.size(); ++k)
        basis.row_basic.push_back(glp_get_row_stat(lp, types + 1 + static_cast<int>(k)) == GLP_BS);
    basis.cuts = std::move(cut_rows);
    return basis;
}

// Exact branch-and-bound (GLPK's glp_intopt) from the strengthened relaxation; throws unless
// it proves an optimum within limits.branch_nodes subproblems.
void branchAndBound(glp_prob* lp, TypeMatchingLimits limits, double objective_bound) {
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    // Stop branch-and-bound after limits.branch_nodes subproblems (glp_intopt then returns
    // GLP_ESTOP, reported below).
    struct NodeLimit {
        int nodes = 0;
    } node_limit{limits.branch_nodes};
    parm.cb_info = &node_limit;
    parm.cb_func = [](glp_tree* tree, void* info) {
        int active = 0, current = 0, total = 0;
        glp_ios_tree_size(tree, &active, &current, &total);
        if (total > static_cast<NodeLimit*>(info)->nodes) glp_ios_terminate(tree);
    };
    parm.mip_gap = 0.0;
    // GLPK prunes a subproblem whose bound is within tol_obj * (1 + |incumbent|) of the
    // incumbent. All objective values are integers, so a tolerance below one unit keeps the
    // search exact; GLPK's default (1e-7) would not be for totals above ~1e7.
    parm.tol_obj = std::min(1e-7, 0.25 / (1.0 + objective_bound));

    const int rc = glp_intopt(lp, &parm);
    if (rc != 0) {
        throw std::runtime_error("typeCompressedMatching: glp_intopt failed: " + glpkReturnCode(rc));
    }
    const int status = glp_mip_status(lp);
    if (status != GLP_OPT) {
        throw std::runtime_error("typeCompressedMatching: GLPK found no optimal integer solution (status " +
                                 std::to_string(status) + ")");
    }
}

}  // namespace

TypeMatchingResult typeCompressedMatching(const std::vector<int>& count_per_type,
                                          const std::function<std::int64_t(int, int)>& weight,
                                          TypeMatchingLimits limits) {
    return typeCompressedMatching(count_per_type, weight, limits, nullptr);
}

TypeMatchingResult typeCompressedMatching(const std::vector<int>& count_per_type,
                                          const std::function<std::int64_t(int, int)>& weight,
                                          TypeMatchingLimits limits, OptimalBasis* basis) {
    if (basis) *basis = OptimalBasis{};
    const long long total_nodes = checkedNodeCount(count_per_type, weight, limits);
    std::int64_t max_weight = 0;
    const std::vector<Column> columns = pairColumns(count_per_type, weight, max_weight);
    if (columns.empty()) {
        return {};
    }
    // At most total_nodes / 2 pairs, each worth at most max_weight: keep every objective value
    // an exactly representable double.
    const double objective_bound = static_cast<double>(total_nodes / 2) * static_cast<double>(max_weight);
    if (objective_bound > 4503599627370496.0 /* 2^52 */) {
        throw std::invalid_argument("typeCompressedMatching: total weight could exceed 2^52");
    }

    std::unique_ptr<glp_prob, ProblemDeleter> lp = degreeProblem(count_per_type, columns);
    OddSetCutting cutting(lp.get(), columns, count_per_type, limits.simplex_iterations);
    // An integral LP optimum that is the only optimum is the only integer optimum too (every
    // integer solution is feasible for the relaxation with its valid cuts, and none can do
    // better than the relaxation's bound). Branch-and-bound, exact, would return exactly it, so
    // it is read off the LP instead: the same answer at a fraction of the time (most rounds of
    // a deep queue end here; docs/architecture.md section 2.9).
    if (cutting.solve()) {
        TypeMatchingResult result =
            readSolution(columns, count_per_type, [&](int j) { return glp_get_col_prim(lp.get(), j); });
        if (basis) *basis = optimalBasis(lp.get(), columns, count_per_type, std::move(cutting.cutRows()));
        return result;
    }
    branchAndBound(lp.get(), limits, objective_bound);
    return readSolution(columns, count_per_type, [&](int j) { return glp_mip_col_val(lp.get(), j); });
}

std::vector<int> expandToMates(const std::vector<int>& node_type, const TypeMatchingResult& result) {
    MateExpander expander;
    return expander.expand(node_type, result.pairs);
}

const std::vector<int>& MateExpander::expand(std::span<const int> node_type,
                                             std::span<const std::tuple<int, int, int>> pairs) {
    // Flat arrays kept between calls, not a vector per type: the grouping expands a matching at
    // every round of every event (docs/architecture.md section 2.9).
    std::size_t types = 0;
    for (std::size_t v = 0; v < node_type.size(); ++v) {
        const int t = node_type[v];
        if (t < 0) {
            throw std::invalid_argument("expandToMates: node " + std::to_string(v) + " has negative type " +
                                        std::to_string(t));
        }
        types = std::max(types, static_cast<std::size_t>(t) + 1);
    }
    // Nodes of each type in increasing index order: nodes_of_type_[first_[t], first_[t + 1]).
    first_.assign(types + 1, 0);
    for (const int t : node_type) ++first_[static_cast<std::size_t>(t) + 1];
    for (std::size_t t = 0; t < types; ++t) first_[t + 1] += first_[t];
    nodes_of_type_.resize(node_type.size());
    next_.assign(first_.begin(), first_.end() - 1);
    for (std::size_t v = 0; v < node_type.size(); ++v)
        nodes_of_type_[static_cast<std::size_t>(next_[static_cast<std::size_t>(node_type[v])]++)] =
            static_cast<int>(v);
    // Quotas (type a, partner type b, pairs still to realise), both directions, one entry per
    // (a, b), grouped by a: quota_[quota_first_[a], quota_first_[a + 1]).
    quota_.clear();
    needed_.assign(types, 0);
    for (const auto& [a, b, count] : pairs) {
        if (count < 0) {
            throw std::invalid_argument("expandToMates: negative count for pair (" + std::to_string(a) +
                                        ", " + std::to_string(b) + ")");
        }
        for (int t : {a, b}) {
            if (t < 0 || static_cast<std::size_t>(t) >= types) {
                throw std::invalid_argument("expandToMates: the matching needs nodes of type " +
                                            std::to_string(t) + " and there are none");
            }
        }
        const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        quota_.push_back({ua, ub, count});
        if (a != b) quota_.push_back({ub, ua, count});
        needed_[ua] += count;
        needed_[ub] += count;
    }
    for (std::size_t t = 0; t < types; ++t) {
        if (needed_[t] > static_cast<long long>(first_[t + 1] - first_[t])) {
            throw std::invalid_argument("expandToMates: the matching needs more nodes of type " +
                                        std::to_string(t) + " than there are");
        }
    }
    std::sort(quota_.begin(), quota_.end(),
              [](const Quota& x, const Quota& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    std::size_t merged = 0;  // one entry per (a, b)
    for (std::size_t i = 0; i < quota_.size(); ++i) {
        if (merged > 0 && quota_[merged - 1].a == quota_[i].a && quota_[merged - 1].b == quota_[i].b)
            quota_[merged - 1].count += quota_[i].count;
        else
            quota_[merged++] = quota_[i];
    }
    quota_.resize(merged);
    quota_first_.assign(types + 1, 0);
    for (const Quota& q : quota_) ++quota_first_[q.a + 1];
    for (std::size_t t = 0; t < types; ++t) quota_first_[t + 1] += quota_first_[t];

    // Nodes are in priority order (lower index first) and which node of a type ends up with
    // which partner decides which groups form first, so every node, in index order, takes the
    // earliest still free partner its type's remaining pairs allow. This always completes:
    // a type's remaining pairs never need more nodes than it has left.
    mate_.assign(node_type.size(), -1);
    taken_.assign(node_type.size(), 0);
    next_.assign(first_.begin(), first_.end() - 1);  // first possibly free node of each type
    auto firstFree = [&](std::size_t t) -> int {
        int& i = next_[t];
        while (i < first_[t + 1] &&
               taken_[static_cast<std::size_t>(nodes_of_type_[static_cast<std::size_t>(i)])])
            ++i;
        return i < first_[t + 1] ? nodes_of_type_[static_cast<std::size_t>(i)] : -1;
    };
    for (std::size_t u = 0; u < node_type.size(); ++u) {
        if (taken_[u]) continue;
        const auto a = static_cast<std::size_t>(node_type[u]);
        taken_[u] = 1;
        int best = -1;
        std::size_t best_entry = 0;
        for (std::size_t e = quota_first_[a]; e < quota_first_[a + 1]; ++e) {
            if (quota_[e].count == 0) continue;
            const int v = firstFree(quota_[e].b);
            if (v >= 0 && (best < 0 || v < best)) {
                best = v;
                best_entry = e;
            }
        }
        if (best < 0) continue;
        taken_[static_cast<std::size_t>(best)] = 1;
        mate_[u] = best;
        mate_[static_cast<std::size_t>(best)] = static_cast<int>(u);
        const std::size_t b = quota_[best_entry].b;
        --quota_[best_entry].count;
        if (a != b)
            for (std::size_t e = quota_first_[b]; e < quota_first_[b + 1]; ++e)
                if (quota_[e].b == a) {
                    --quota_[e].count;
                    break;
                }
    }
    return mate_;
}

}  // namespace cl
