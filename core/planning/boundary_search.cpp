#include "core/planning/boundary_search.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cl {

BoundarySearch::BoundarySearch(int start, int min, int max)
    : start_(std::clamp(start, min, max)), min_(min), max_(max) {
    if (min > max)
        throw std::invalid_argument("empty search range " + std::to_string(min) + ".." + std::to_string(max));
}

void BoundarySearch::record(int x, bool holds, bool saturated) {
    known_[x] = holds;
    if (!holds && saturated) saturated_ = true;
}

std::optional<int> BoundarySearch::smallestTrue() const {
    for (const auto& [x, holds] : known_)
        if (holds) return x;
    return std::nullopt;
}

std::optional<int> BoundarySearch::largestFalse() const {
    const std::optional<int> t = smallestTrue();
    std::optional<int> f;
    for (const auto& [x, holds] : known_)
        if (!holds && (!t || x < *t)) f = x;
    return f;
}

std::optional<int> BoundarySearch::next() const {
    if (known_.empty()) return start_;
    const std::optional<int> t = smallestTrue();
    const std::optional<int> f = largestFalse();
    if (!t) {
        // Only "no" so far: double the distance from the bottom of the range, up to max.
        if (saturated_ || *f >= max_) return std::nullopt;
        return std::min(max_, *f + std::max(1, *f - min_ + 1));
    }
    if (!f) {
        // Only "yes" so far: halve towards the bottom of the range.
        if (*t <= min_) return std::nullopt;
        return *t - std::max(1, (*t - min_ + 1) / 2);
    }
    if (*t - *f <= 1) return std::nullopt;
    return *f + (*t - *f) / 2;
}

std::optional<int> BoundarySearch::boundary() const {
    return smallestTrue();
}

}  // namespace cl
