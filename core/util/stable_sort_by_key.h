#pragma once
// A stable sort by a double key for the persistent rankings of the priority orders, which
// between two events are nearly sorted already (a few arrivals at the end, a few jobs whose
// keys moved). An insertion sort that gives up after a bounded number of moves does most
// rankings in one pass. Any stable sort of the same keys from the same starting order gives
// the same result, and the insertion sort never swaps equal keys, so finishing with
// std::stable_sort after it gave up changes nothing either. With a NaN key (no strict weak
// order) std::stable_sort does it all, as before.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace cl {

inline void stableSortByKey(std::vector<std::pair<double, int>>& v) {
    const auto less = [](const std::pair<double, int>& a, const std::pair<double, int>& b) {
        return a.first < b.first;
    };
    for (const auto& e : v)
        if (std::isnan(e.first)) {
            std::stable_sort(v.begin(), v.end(), less);
            return;
        }
    std::size_t budget = 4 * v.size() + 64;
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (!(v[i].first < v[i - 1].first)) continue;
        const std::pair<double, int> x = v[i];
        std::size_t k = i;
        while (k > 0 && x.first < v[k - 1].first && budget > 0) {
            v[k] = v[k - 1];
            --k;
            --budget;
        }
        v[k] = x;
        if (budget == 0) {
            std::stable_sort(v.begin(), v.end(), less);
            return;
        }
    }
}

}  // namespace cl
