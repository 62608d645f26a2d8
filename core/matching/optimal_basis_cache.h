// Reuse of optimal bases across type-compressed matchings of the same types
// (docs/architecture.md section 4.5, "Matching").
//
// A scheduler regroups at every event, and the rounds it solves differ mostly in the counts of
// the same few job types. The relaxation's reduced costs depend on the types' weights and on
// which columns and cuts exist, not on the counts; so a basis that was the unique optimum for one
// count vector is again the unique optimum for another wherever its basic solution (solved
// directly, a small dense system) is feasible, and if that solution is integral it is the only
// integer optimum: exactly what typeCompressedMatching would return, without GLPK.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/matching/type_compressed_matching.h"

namespace cl {

class OptimalBasisCache {
public:
    // The matching for these counts read from a remembered basis of the same types, if one
    // still proves it optimal and unique; nothing otherwise. type_ids name the types: equal ids
    // must mean equal weights. Every count must be at least 1.
    std::optional<TypeMatchingResult> solve(std::span<const std::uint64_t> type_ids,
                                            const std::vector<int>& counts);

    // Keeps basis (from typeCompressedMatching) for later solves of the same types.
    void remember(std::span<const std::uint64_t> type_ids, OptimalBasis basis);

private:
    struct IdsHash {
        std::size_t operator()(const std::vector<std::uint64_t>& ids) const noexcept;
    };
    static constexpr std::size_t kBasesPerTypeSet = 32;  // the most recent first
    std::unordered_map<std::vector<std::uint64_t>, std::vector<OptimalBasis>, IdsHash> bases_;
    std::vector<std::uint64_t> key_;
    // Scratch of one solve.
    std::vector<double> matrix_;
    std::vector<double> rhs_;
    std::vector<long long> value_;
};

}  // namespace cl
