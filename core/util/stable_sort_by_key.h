#pragma once
// Stable sorts of (key, id) pairs by the key, for rankings that are sorted at every scheduling
// event. Any stable sort of the same keys from the same starting order gives the same result,
// so these replace std::stable_sort without changing a ranking; they only avoid its temporary
// buffer per call and, for lists that are nearly sorted already, most of its work. With a NaN
// key (no strict weak order) std::stable_sort does it all, as before.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cl {

using KeyedId = std::pair<double, int>;

// Stable sorts of any element by a strict weak order `less` (callers with floating-point keys
// rule out NaN first). mergeSortBy: bottom-up, short runs by insertion; `buffer` is scratch that
// callers keep between calls.
template <class T, class Less>
void mergeSortBy(std::vector<T>& v, std::vector<T>& buffer, Less less) {
    const std::size_t n = v.size();
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

// For lists that are nearly sorted (a few arrivals at the end, a few keys that moved): an
// insertion sort that gives up after a bounded number of moves and leaves the rest to the
// merge sort (the insertion sort never moves an element past an equal one, so that changes
// nothing either).
template <class T, class Less>
void stableSortBy(std::vector<T>& v, std::vector<T>& buffer, Less less) {
    std::size_t budget = 4 * v.size() + 64;
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (!less(v[i], v[i - 1])) continue;
        const T x = v[i];
        std::size_t k = i;
        while (k > 0 && less(x, v[k - 1]) && budget > 0) {
            v[k] = v[k - 1];
            --k;
            --budget;
        }
        v[k] = x;
        if (budget == 0) return mergeSortBy(v, buffer, less);
    }
}

inline bool keyLess(const KeyedId& a, const KeyedId& b) {
    return a.first < b.first;
}
// keyLess as a type of its own, so that the sorts inline it (through a function pointer, a call
// per comparison was a twentieth of a Muri run's time).
inline constexpr auto kKeyLess = [](const KeyedId& a, const KeyedId& b) { return a.first < b.first; };

inline bool anyNanKey(const std::vector<KeyedId>& v) {
    for (const auto& e : v)
        if (std::isnan(e.first)) return true;
    return false;
}

// (key, id) pairs by the key; with a NaN key (no strict weak order) std::stable_sort does it
// all, as before.
inline void mergeSortByKey(std::vector<KeyedId>& v, std::vector<KeyedId>& buffer) {
    if (anyNanKey(v)) return std::stable_sort(v.begin(), v.end(), keyLess);
    mergeSortBy(v, buffer, kKeyLess);
}

// (key, id) pairs by the key, stably, without comparisons: a least-significant-digit radix sort
// of the keys' bits, one byte per pass (passes where every key has the same byte are skipped).
// For lists in no particular order, where a comparison sort mispredicts about every other
// comparison (Muri's packs, sorted at every event: docs/architecture.md section 2.9). Equal keys
// keep their order, as in a stable sort by `<` (a negative zero counts as zero). With a NaN key
// std::stable_sort does it all, as before.
inline void radixSortByKey(std::vector<KeyedId>& v, std::vector<KeyedId>& buffer) {
    if (anyNanKey(v)) return std::stable_sort(v.begin(), v.end(), keyLess);
    const std::size_t n = v.size();
    if (n < 2) return;
    // Doubles as unsigned numbers in the same order: flip every bit of a negative, the sign bit
    // of the rest.
    const auto bits = [](double key) {
        const auto u = std::bit_cast<std::uint64_t>(key == 0.0 ? 0.0 : key);
        return (u >> 63) != 0 ? ~u : u | (std::uint64_t{1} << 63);
    };
    std::array<std::array<std::size_t, 256>, 8> count{};
    for (const KeyedId& e : v) {
        const std::uint64_t u = bits(e.first);
        for (int d = 0; d < 8; ++d) ++count[static_cast<std::size_t>(d)][(u >> (8 * d)) & 0xff];
    }
    buffer.resize(n);
    for (int d = 0; d < 8; ++d) {
        std::array<std::size_t, 256>& c = count[static_cast<std::size_t>(d)];
        if (c[(bits(v[0].first) >> (8 * d)) & 0xff] == n) continue;  // one value of this byte
        std::size_t at = 0;
        for (std::size_t& k : c) {
            const std::size_t here = k;
            k = at;
            at += here;
        }
        for (const KeyedId& e : v) buffer[c[(bits(e.first) >> (8 * d)) & 0xff]++] = e;
        v.swap(buffer);
    }
}

inline void stableSortByKey(std::vector<KeyedId>& v, std::vector<KeyedId>& buffer) {
    if (anyNanKey(v)) return mergeSortByKey(v, buffer);
    stableSortBy(v, buffer, kKeyLess);
}

}  // namespace cl
