#include "core/policies/muri_group_timer.h"

#include <algorithm>
#include <stdexcept>

namespace cl {

int MuriGroupTimer::typeOf(std::span<const double> stage_times, double solo_iteration_time) {
    for (std::size_t t = 0; t < types_.size(); ++t)
        if (types_[t].solo == solo_iteration_time &&
            std::equal(types_[t].stages.begin(), types_[t].stages.end(), stage_times.begin(),
                       stage_times.end()))
            return static_cast<int>(t);
    if (types_.size() >= 0x7fff) throw std::runtime_error("too many distinct job profiles for Muri grouping");
    TypeInfo info;
    info.stages.assign(stage_times.begin(), stage_times.end());
    info.solo = solo_iteration_time;
    for (double s : info.stages) info.stage_sum += s;
    types_.push_back(std::move(info));
    return static_cast<int>(types_.size()) - 1;
}

std::uint64_t MuriGroupTimer::key(std::span<const int> types, bool worst) const {
    int sorted[4] = {0, 0, 0, 0};
    const std::size_t n = std::min<std::size_t>(types.size(), 4);
    for (std::size_t i = 0; i < n; ++i) {  // insertion sort of at most four ids
        int v = types[i];
        std::size_t k = i;
        for (; k > 0 && sorted[k - 1] > v; --k) sorted[k] = sorted[k - 1];
        sorted[k] = v;
    }
    std::uint64_t k = worst ? 1 : 0;
    for (std::size_t i = 0; i < n; ++i) k |= static_cast<std::uint64_t>(sorted[i] + 1) << (1 + 15 * i);
    return k;
}

double MuriGroupTimer::iterationTime(std::span<const int> types, bool worst) {
    if (types.empty() || types.size() > 4) throw std::invalid_argument("a Muri group has 1 to 4 jobs");
    if (types.size() == 1) return types_[types[0]].solo;
    std::uint64_t k = key(types, worst);
    if (auto it = cache_.find(k); it != cache_.end()) return it->second;
    std::vector<std::vector<double>> stages;
    for (int t : types) stages.push_back(types_[t].stages);
    // Jobs without stage profiles cannot interleave: they take turns, one after the other.
    bool profiled = std::all_of(stages.begin(), stages.end(),
                                [&](const auto& s) { return !s.empty() && s.size() == stages[0].size(); });
    double raw = 0.0;
    if (profiled) {
        raw = worst ? worstOrdering(stages).time : bestOrdering(stages).time;
    } else {
        for (int t : types) raw += types_[t].solo;
    }
    double time = raw * contention_.factor(static_cast<int>(types.size()));
    cache_.emplace(k, time);
    return time;
}

double MuriGroupTimer::efficiency(std::span<const int> types, bool worst) {
    double busy = 0.0;
    int resources = 0;
    for (int t : types) {
        busy += types_[t].stage_sum;
        int r = types_[t].stages.size() == 3 ? 4 : static_cast<int>(types_[t].stages.size());
        resources = std::max(resources, r);
    }
    double time = iterationTime(types, worst);
    if (resources == 0 || time <= 0) return 0.0;
    return busy / (resources * time);
}

}  // namespace cl
