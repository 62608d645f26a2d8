// Type-compressed matching: one GLPK integer program over counts of type pairs.
#include "core/matching/type_compressed_matching.h"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <memory>
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
        case GLP_EBOUND: return "GLP_EBOUND (incorrect bounds)";
        case GLP_EROOT: return "GLP_EROOT (no optimal LP basis)";
        case GLP_ENOPFS: return "GLP_ENOPFS (no primal feasible solution)";
        case GLP_ENODFS: return "GLP_ENODFS (no dual feasible solution)";
        case GLP_EFAIL: return "GLP_EFAIL (solver failure)";
        case GLP_EMIPGAP: return "GLP_EMIPGAP (MIP gap tolerance reached)";
        case GLP_ETMLIM: return "GLP_ETMLIM (time limit exceeded)";
        case GLP_ESTOP: return "GLP_ESTOP (terminated by application)";
        default: return "return code " + std::to_string(rc);
    }
}

}  // namespace

TypeMatchingResult typeCompressedMatching(const std::vector<int>& count_per_type,
                                          const std::function<std::int64_t(int, int)>& weight, int time_limit_ms) {
    if (!weight) {
        throw std::invalid_argument("typeCompressedMatching: empty weight function");
    }
    if (time_limit_ms <= 0) {
        throw std::invalid_argument("typeCompressedMatching: time limit must be positive, got " +
                                    std::to_string(time_limit_ms));
    }
    const int types = static_cast<int>(count_per_type.size());
    long long total_nodes = 0;
    for (int a = 0; a < types; ++a) {
        if (count_per_type[static_cast<std::size_t>(a)] < 0) {
            throw std::invalid_argument("typeCompressedMatching: negative count for type " + std::to_string(a));
        }
        total_nodes += count_per_type[static_cast<std::size_t>(a)];
    }

    // One integer column per type pair that can be matched and gains something.
    std::vector<Column> columns;
    std::int64_t max_weight = 0;
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
    TypeMatchingResult result;
    if (columns.empty()) {
        return result;
    }
    // At most total_nodes / 2 pairs, each worth at most max_weight: keep every objective value
    // an exactly representable double.
    const double objective_bound = static_cast<double>(total_nodes / 2) * static_cast<double>(max_weight);
    if (objective_bound > 4503599627370496.0 /* 2^52 */) {
        throw std::invalid_argument("typeCompressedMatching: total weight could exceed 2^52");
    }

    std::unique_ptr<glp_prob, ProblemDeleter> lp(glp_create_prob());
    glp_set_obj_dir(lp.get(), GLP_MAX);
    glp_add_rows(lp.get(), types);
    for (int a = 0; a < types; ++a) {
        // Row a: nodes of type a used by the matching <= count_a.
        glp_set_row_bnds(lp.get(), a + 1, GLP_UP, 0.0, static_cast<double>(count_per_type[static_cast<std::size_t>(a)]));
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

    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = time_limit_ms;
    parm.mip_gap = 0.0;
    // GLPK prunes a subproblem whose bound is within tol_obj * (1 + |incumbent|) of the
    // incumbent. All objective values are integers, so a tolerance below one unit keeps the
    // search exact; GLPK's default (1e-7) would not be for totals above ~1e7.
    parm.tol_obj = std::min(1e-7, 0.25 / (1.0 + objective_bound));

    const int rc = glp_intopt(lp.get(), &parm);
    if (rc != 0) {
        throw std::runtime_error("typeCompressedMatching: glp_intopt failed: " + glpkReturnCode(rc));
    }
    const int status = glp_mip_status(lp.get());
    if (status != GLP_OPT) {
        throw std::runtime_error("typeCompressedMatching: GLPK found no optimal integer solution (status " +
                                 std::to_string(status) + ")");
    }

    std::vector<long long> used(static_cast<std::size_t>(types), 0);
    for (int j = 0; j < ncols; ++j) {
        const Column& c = columns[static_cast<std::size_t>(j)];
        const double value = glp_mip_col_val(lp.get(), j + 1);
        const long long x = std::llround(value);
        if (std::fabs(value - static_cast<double>(x)) > 1e-6 || x < 0 || x > c.upper) {
            throw std::runtime_error("typeCompressedMatching: GLPK returned an invalid value " +
                                     std::to_string(value) + " for pair (" + std::to_string(c.a) + ", " +
                                     std::to_string(c.b) + ")");
        }
        if (x == 0) continue;
        used[static_cast<std::size_t>(c.a)] += x;
        used[static_cast<std::size_t>(c.b)] += x;  // twice for a == b
        result.pairs.emplace_back(c.a, c.b, static_cast<int>(x));
        result.total_weight += x * c.weight;
    }
    for (int a = 0; a < types; ++a) {
        if (used[static_cast<std::size_t>(a)] > count_per_type[static_cast<std::size_t>(a)]) {
            throw std::runtime_error("typeCompressedMatching: GLPK solution uses too many nodes of type " +
                                     std::to_string(a));
        }
    }
    return result;
}

std::vector<int> expandToMates(const std::vector<int>& node_type, const TypeMatchingResult& result) {
    // Nodes of each type in increasing index order.
    std::vector<std::vector<int>> nodes_of_type;
    for (std::size_t v = 0; v < node_type.size(); ++v) {
        const int t = node_type[v];
        if (t < 0) {
            throw std::invalid_argument("expandToMates: node " + std::to_string(v) + " has negative type " +
                                        std::to_string(t));
        }
        if (static_cast<std::size_t>(t) >= nodes_of_type.size()) {
            nodes_of_type.resize(static_cast<std::size_t>(t) + 1);
        }
        nodes_of_type[static_cast<std::size_t>(t)].push_back(static_cast<int>(v));
    }
    std::vector<std::size_t> next(nodes_of_type.size(), 0);
    auto take = [&](int t) -> int {
        if (t < 0 || static_cast<std::size_t>(t) >= nodes_of_type.size() ||
            next[static_cast<std::size_t>(t)] >= nodes_of_type[static_cast<std::size_t>(t)].size()) {
            throw std::invalid_argument("expandToMates: the matching needs more nodes of type " + std::to_string(t) +
                                        " than there are");
        }
        return nodes_of_type[static_cast<std::size_t>(t)][next[static_cast<std::size_t>(t)]++];
    };

    std::vector<int> mate(node_type.size(), -1);
    for (const auto& [a, b, count] : result.pairs) {
        if (count < 0) {
            throw std::invalid_argument("expandToMates: negative count for pair (" + std::to_string(a) + ", " +
                                        std::to_string(b) + ")");
        }
        for (int i = 0; i < count; ++i) {
            const int u = take(a);
            const int v = take(b);
            mate[static_cast<std::size_t>(u)] = v;
            mate[static_cast<std::size_t>(v)] = u;
        }
    }
    return mate;
}

}  // namespace cl
