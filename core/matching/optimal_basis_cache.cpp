#include "core/matching/optimal_basis_cache.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cl {

namespace {

// The largest basis solved directly (rows = types + cuts); beyond it GLPK is as fast.
constexpr int kMaxRows = 48;

bool inCut(const std::vector<int>& cut, int type) {
    return std::find(cut.begin(), cut.end(), type) != cut.end();
}

// The matching a basis gives for these counts when it proves itself the unique optimum.
std::optional<TypeMatchingResult> solveWith(const OptimalBasis& basis, const std::vector<int>& counts,
                                            std::vector<double>& matrix, std::vector<double>& rhs,
                                            std::vector<long long>& value) {
    const int types = basis.types;
    if (types != static_cast<int>(counts.size())) return std::nullopt;
    // The same columns: every type present, and a type pairs with itself exactly as before.
    for (int a = 0; a < types; ++a)
        if (counts[a] < 1 || (counts[a] >= 2) != static_cast<bool>(basis.self_pairable[a]))
            return std::nullopt;
    const int cuts = static_cast<int>(basis.cuts.size());
    const int rows = types + cuts;
    if (rows > kMaxRows) return std::nullopt;
    // Row bounds; a cut of even count is no longer valid (nor needed) and the basis says nothing.
    std::vector<long long> bound(static_cast<std::size_t>(rows));
    for (int a = 0; a < types; ++a) bound[a] = counts[a];
    for (int k = 0; k < cuts; ++k) {
        long long count_s = 0;
        for (int t : basis.cuts[k]) count_s += counts[t];
        if (count_s % 2 == 0) return std::nullopt;
        bound[types + k] = (count_s - 1) / 2;
    }
    const int ncols = static_cast<int>(basis.columns.size());
    auto upperOf = [&](const OptimalBasis::Column& c) -> long long {
        return c.a == c.b ? counts[c.a] / 2 : std::min(counts[c.a], counts[c.b]);
    };
    // Coefficient of column c in row r.
    auto coefficient = [&](const OptimalBasis::Column& c, int r) -> int {
        if (r < types) return (c.a == r ? 1 : 0) + (c.b == r ? 1 : 0);
        const auto& cut = basis.cuts[r - types];
        return inCut(cut, c.a) && inCut(cut, c.b) ? 1 : 0;
    };

    // The basic solution: rows r = A x, with nonbasic columns at a bound and nonbasic rows at
    // their bound; unknowns are the basic columns, then the basic rows' activities.
    std::vector<int> basic_columns, basic_rows;
    for (int j = 0; j < ncols; ++j)
        if (basis.columns[j].status == OptimalBasis::Status::Basic) basic_columns.push_back(j);
    for (int r = 0; r < rows; ++r)
        if (basis.row_basic[r]) basic_rows.push_back(r);
    const int n = static_cast<int>(basic_columns.size() + basic_rows.size());
    if (n != rows) return std::nullopt;
    matrix.assign(static_cast<std::size_t>(rows) * n, 0.0);
    rhs.assign(static_cast<std::size_t>(rows), 0.0);
    auto at = [&](int r, int k) -> double& { return matrix[static_cast<std::size_t>(r) * n + k]; };
    for (int r = 0; r < rows; ++r) {
        if (!basis.row_basic[r]) rhs[r] = static_cast<double>(bound[r]);
        for (int j = 0; j < ncols; ++j) {
            const auto& c = basis.columns[j];
            if (c.status == OptimalBasis::Status::AtUpper)
                rhs[r] -= coefficient(c, r) * static_cast<double>(upperOf(c));
        }
        for (std::size_t k = 0; k < basic_columns.size(); ++k)
            at(r, static_cast<int>(k)) = coefficient(basis.columns[basic_columns[k]], r);
    }
    for (std::size_t k = 0; k < basic_rows.size(); ++k)
        at(basic_rows[k], static_cast<int>(basic_columns.size() + k)) = -1.0;
    // Gaussian elimination with partial pivoting (the basis matrix is nonsingular: it was a
    // basis of the same matrix).
    std::vector<int> perm(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) perm[k] = k;
    for (int k = 0; k < n; ++k) {
        int pivot = k;
        for (int r = k + 1; r < rows; ++r)
            if (std::fabs(at(r, k)) > std::fabs(at(pivot, k))) pivot = r;
        if (std::fabs(at(pivot, k)) < 1e-9) return std::nullopt;
        if (pivot != k) {
            for (int c = 0; c < n; ++c) std::swap(at(k, c), at(pivot, c));
            std::swap(rhs[k], rhs[pivot]);
        }
        for (int r = k + 1; r < rows; ++r) {
            const double f = at(r, k) / at(k, k);
            if (f == 0.0) continue;
            for (int c = k; c < n; ++c) at(r, c) -= f * at(k, c);
            rhs[r] -= f * rhs[k];
        }
    }
    std::vector<double> z(static_cast<std::size_t>(n));
    for (int k = n - 1; k >= 0; --k) {
        double v = rhs[k];
        for (int c = k + 1; c < n; ++c) v -= at(k, c) * z[c];
        z[k] = v / at(k, k);
    }

    // The column values, integral and within bounds, checked in integer arithmetic against
    // every row: nonbasic rows exactly at their bound (so this is the basic solution), basic
    // rows within it.
    value.assign(static_cast<std::size_t>(ncols), 0);
    for (int j = 0; j < ncols; ++j)
        if (basis.columns[j].status == OptimalBasis::Status::AtUpper) value[j] = upperOf(basis.columns[j]);
    for (std::size_t k = 0; k < basic_columns.size(); ++k) {
        const double v = z[k];
        const long long rounded = std::llround(v);
        const int j = basic_columns[k];
        if (std::fabs(v - static_cast<double>(rounded)) > 1e-6 || rounded < 0 ||
            rounded > upperOf(basis.columns[j]))
            return std::nullopt;
        value[j] = rounded;
    }
    for (int r = 0; r < rows; ++r) {
        long long activity = 0;
        for (int j = 0; j < ncols; ++j) activity += coefficient(basis.columns[j], r) * value[j];
        if (activity > bound[r] || (!basis.row_basic[r] && activity != bound[r])) return std::nullopt;
    }
    TypeMatchingResult result;
    for (int j = 0; j < ncols; ++j) {
        if (value[j] == 0) continue;
        const auto& c = basis.columns[j];
        result.pairs.emplace_back(c.a, c.b, static_cast<int>(value[j]));
        result.total_weight += value[j] * c.weight;
    }
    return result;
}

}  // namespace

std::size_t OptimalBasisCache::IdsHash::operator()(const std::vector<std::uint64_t>& ids) const noexcept {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ ids.size();
    for (std::uint64_t x : ids) {
        h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    return static_cast<std::size_t>(h ^ (h >> 33));
}

std::optional<TypeMatchingResult> OptimalBasisCache::solve(std::span<const std::uint64_t> type_ids,
                                                           const std::vector<int>& counts) {
    key_.assign(type_ids.begin(), type_ids.end());
    auto it = bases_.find(key_);
    if (it == bases_.end()) return std::nullopt;
    for (std::size_t i = 0; i < it->second.size(); ++i)
        if (auto result = solveWith(it->second[i], counts, matrix_, rhs_, value_)) {
            if (i > 0)
                std::rotate(it->second.begin(), it->second.begin() + static_cast<std::ptrdiff_t>(i),
                            it->second.begin() + static_cast<std::ptrdiff_t>(i) + 1);
            return result;
        }
    return std::nullopt;
}

void OptimalBasisCache::remember(std::span<const std::uint64_t> type_ids, OptimalBasis basis) {
    if (basis.types == 0 || basis.types + static_cast<int>(basis.cuts.size()) > kMaxRows) return;
    auto& list = bases_[std::vector<std::uint64_t>(type_ids.begin(), type_ids.end())];
    list.insert(list.begin(), std::move(basis));
    if (list.size() > kBasesPerTypeSet) list.pop_back();
}

}  // namespace cl
