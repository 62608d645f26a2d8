#pragma once
// Group iteration times for Muri, cached by the multiset of member types: a type is one
// distinct (stage times, solo iteration time) profile, so a run with thousands of jobs only
// ever evaluates a few hundred distinct groups.
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/interleave/group_time.h"

namespace cl {

class MuriGroupTimer {
public:
    explicit MuriGroupTimer(Contention contention) : contention_(contention) {}

    // Interns a member profile; returns its type id.
    int typeOf(std::span<const double> stage_times, double solo_iteration_time);
    double soloTime(int type) const { return types_[type].solo; }

    // Contention-scaled seconds per iteration of a group (best or worst stage ordering); a
    // single job runs at its solo time.
    double iterationTime(std::span<const int> types, bool worst);
    // Interleaving efficiency gamma (Eq. 4): busy resource time / (resources x group time).
    double efficiency(std::span<const int> types, bool worst);

    // Overrides the factor for one group size (the artifact's no-Blossom ablation uses 1.3/1.015 for 4).
    void setContention(const Contention& c) {
        contention_ = c;
        cache_.clear();
    }

private:
    struct TypeInfo {
        std::vector<double> stages;
        double solo = 0.0;
        double stage_sum = 0.0;
    };
    std::uint64_t key(std::span<const int> types, bool worst) const;

    Contention contention_;
    std::vector<TypeInfo> types_;
    std::unordered_map<std::uint64_t, double> cache_;  // group key -> iteration time
};

}  // namespace cl
