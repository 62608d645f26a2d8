#include "views/common/series_thinning.h"

#include <algorithm>
#include <array>

namespace cl::views {

ThinnedSeries thinMinMax(const QVector<double>& t, const QVector<double>& v, int buckets) {
    const qsizetype n = std::min(t.size(), v.size());
    if (buckets < 1 || n <= 4 * static_cast<qsizetype>(buckets)) return {t.first(n), v.first(n)};

    ThinnedSeries out;
    out.t.reserve(4 * buckets + 1);
    out.v.reserve(4 * buckets + 1);
    const double t0 = t.front();
    const double span = t.at(n - 1) - t0;
    if (span <= 0.0) return {t.first(n), v.first(n)};

    qsizetype i = 0;
    while (i < n) {
        const int bucket = std::min(buckets - 1, static_cast<int>((t.at(i) - t0) / span * buckets));
        const double bucket_end = t0 + span * (bucket + 1) / buckets;
        qsizetype first = i, lo = i, hi = i, last = i;
        // The first point always belongs to this bucket, even if rounding put it on the edge.
        for (++i; i < n && (t.at(i) < bucket_end || bucket == buckets - 1); ++i) {
            if (v.at(i) < v.at(lo)) lo = i;
            if (v.at(i) > v.at(hi)) hi = i;
            last = i;
        }
        std::array<qsizetype, 4> keep{first, lo, hi, last};
        std::sort(keep.begin(), keep.end());
        qsizetype previous = -1;
        for (qsizetype k : keep) {
            if (k == previous) continue;
            previous = k;
            out.t.push_back(t.at(k));
            out.v.push_back(v.at(k));
        }
    }
    return out;
}

}  // namespace cl::views
