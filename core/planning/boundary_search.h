#pragma once
// Finding where a near-monotone yes/no answer flips on an integer axis
// (docs/architecture.md 7.9): the smallest server count that meets the targets, or the smallest
// load step at which a plan stops meeting them. The answer is assumed false below a boundary and
// true from it on. The search brackets the boundary by doubling (or halving) from a start,
// then bisects; it asks for one point at a time and is told the answers, so that the caller can
// evaluate the points of many searches together.
#include <map>
#include <optional>

namespace cl {

class BoundarySearch {
public:
    // Searches [min, max] from `start` (clamped into it).
    BoundarySearch(int start, int min, int max);

    // The next point to evaluate; nullopt when the search is over.
    std::optional<int> next() const;
    // `holds` is the answer at x. `saturated` says a false answer cannot become true further up
    // (e.g. no job queued at all): the search ends there with no boundary.
    void record(int x, bool holds, bool saturated = false);

    bool done() const { return !next().has_value(); }
    // The smallest x found to hold (valid once done); nullopt when none in [min, max] does.
    std::optional<int> boundary() const;
    // Every point evaluated, with its answer.
    const std::map<int, bool>& known() const { return known_; }

private:
    std::optional<int> largestFalse() const;  // below the smallest true
    std::optional<int> smallestTrue() const;
    int start_, min_, max_;
    bool saturated_ = false;
    std::map<int, bool> known_;
};

}  // namespace cl
