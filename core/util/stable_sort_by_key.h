#pragma once
// Stable sorts of (key, id) pairs by the key, for rankings that are sorted at every scheduling
// event. Any stable sort of the same keys from the same starting order gives the same result,
// so these replace std::stable_sort without changing a ranking; they only avoid its temporary
// buffer per call and, for lists that are nearly sorted already, most of its work. With a NaN
// key (no strict weak order) std::stable_sort does it all, as before.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace cl {

using KeyedId = std::pair<double, int>;

// Bottom-up merge sort; `buffer` is scratch that callers keep between calls.
inline void mergeSortByKey(std::vector<KeyedId>& v, std::vector<KeyedId>& buffer) {
    const std::size_t n = v.size();
    for (const auto& e : v)
        if (std::isnan(e.first)) {
            std::stable_sort(v.begin(), v.end(),
                             [](const KeyedId& a, const KeyedId& b) { return a.first < b.first; });
            return;
        }
    constexpr std::size_t kRun = 16;
    for (std::size_t lo = 0; lo < n; lo += kRun) {  // short runs by insertion (strict <: stable)
        const std::size_t hi = std::min(lo + kRun, n);
        for (std::size_t i = lo + 1; i < hi; ++i) {
            const KeyedId x = v[i];
            std::size_t k = i;
            for (; k > lo && x.first < v[k - 1].first; --k) v[k] = v[k - 1];
            v[k] = x;
        }
    }
    if (n <= kRun) return;
    buffer.resize(n);
    for (std::size_t width = kRun; width < n; width *= 2) {
        for (std::size_t lo = 0; lo < n; lo += 2 * width) {
            const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
            std::size_t a = lo, b = mid, out = lo;
            while (a < mid && b < hi) buffer[out++] = (v[b].first < v[a].first) ? v[b++] : v[a++];
            while (a < mid) buffer[out++] = v[a++];
            while (b < hi) buffer[out++] = v[b++];
        }
        v.swap(buffer);
    }
}

// For lists that are nearly sorted (a few arrivals at the end, a few keys that moved): an
// insertion sort that gives up after a bounded number of moves and leaves the rest to the
// merge sort (the insertion sort never swaps equal keys, so that changes nothing either).
inline void stableSortByKey(std::vector<KeyedId>& v, std::vector<KeyedId>& buffer) {
    for (const auto& e : v)
        if (std::isnan(e.first)) return mergeSortByKey(v, buffer);
    std::size_t budget = 4 * v.size() + 64;
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (!(v[i].first < v[i - 1].first)) continue;
        const KeyedId x = v[i];
        std::size_t k = i;
        while (k > 0 && x.first < v[k - 1].first && budget > 0) {
            v[k] = v[k - 1];
            --k;
            --budget;
        }
        v[k] = x;
        if (budget == 0) return mergeSortByKey(v, buffer);
    }
}

// The same two steps for any element and strict weak order `less` (no NaN fallback: callers
// with floating-point keys check for NaN first): a bounded insertion sort for nearly sorted
// lists, then a bottom-up merge sort. Stable, so the result equals std::stable_sort's.
template <class T, class Less>
void stableSortBy(std::vector<T>& v, std::vector<T>& buffer, Less less) {
    const std::size_t n = v.size();
    std::size_t budget = 4 * n + 64;
    bool sorted = true;
    for (std::size_t i = 1; i < n && sorted; ++i) {
        if (!less(v[i], v[i - 1])) continue;
        const T x = v[i];
        std::size_t k = i;
        while (k > 0 && less(x, v[k - 1]) && budget > 0) {
            v[k] = v[k - 1];
            --k;
            --budget;
        }
        v[k] = x;
        sorted = budget > 0;
    }
    if (sorted) return;
    constexpr std::size_t kRun = 16;
    for (std::size_t lo = 0; lo < n; lo += kRun) {  // short runs by insertion (strict less: stable)
        const std::size_t hi = std::min(lo + kRun, n);
        for (std::size_t i = lo + 1; i < hi; ++i) {
            const T x = v[i];
            std::size_t k = i;
            for (; k > lo && less(x, v[k - 1]); --k) v[k] = v[k - 1];
            v[k] = x;
        }
    }
    if (n <= kRun) return;
    buffer.resize(n);
    for (std::size_t width = kRun; width < n; width *= 2) {
        for (std::size_t lo = 0; lo < n; lo += 2 * width) {
            const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
            std::size_t a = lo, b = mid, out = lo;
            while (a < mid && b < hi) buffer[out++] = less(v[b], v[a]) ? v[b++] : v[a++];
            while (a < mid) buffer[out++] = v[a++];
            while (b < hi) buffer[out++] = v[b++];
        }
        v.swap(buffer);
    }
}

}  // namespace cl
