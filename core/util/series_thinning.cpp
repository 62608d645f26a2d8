#include "core/util/series_thinning.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace cl {

std::vector<std::size_t> thinMinMax(std::span<const double> t, std::span<const double> v, int buckets) {
    const std::size_t n = std::min(t.size(), v.size());
    std::vector<std::size_t> keep;
    const auto everything = [&] {
        keep.resize(n);
        std::iota(keep.begin(), keep.end(), std::size_t{0});
        return keep;
    };
    if (buckets < 1 || n <= 4 * static_cast<std::size_t>(buckets)) return everything();
    const double t0 = t.front();
    const double span = t[n - 1] - t0;
    if (!(span > 0.0)) return everything();

    keep.reserve(4 * static_cast<std::size_t>(buckets) + 1);
    std::size_t i = 0;
    while (i < n) {
        const int bucket = std::min(buckets - 1, static_cast<int>((t[i] - t0) / span * buckets));
        const double bucket_end = t0 + span * (bucket + 1) / buckets;
        std::size_t first = i, lo = i, hi = i, last = i;
        // The first sample always belongs to this bucket, even if rounding put it on the edge.
        for (++i; i < n && (t[i] < bucket_end || bucket == buckets - 1); ++i) {
            if (v[i] < v[lo]) lo = i;
            if (v[i] > v[hi]) hi = i;
            last = i;
        }
        std::array<std::size_t, 4> picked{first, lo, hi, last};
        std::sort(picked.begin(), picked.end());
        for (std::size_t k = 0; k < picked.size(); ++k)
            if (k == 0 || picked[k] != picked[k - 1]) keep.push_back(picked[k]);
    }
    return keep;
}

}  // namespace cl
