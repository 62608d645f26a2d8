#include "views/common/series_thinning.h"

#include <span>

#include "core/util/series_thinning.h"

namespace cl::views {

ThinnedSeries thinMinMax(const QVector<double>& t, const QVector<double>& v, int buckets) {
    const std::span<const double> ts(t.constData(), static_cast<std::size_t>(t.size()));
    const std::span<const double> vs(v.constData(), static_cast<std::size_t>(v.size()));
    ThinnedSeries out;
    const std::vector<std::size_t> keep = cl::thinMinMax(ts, vs, buckets);
    out.t.reserve(static_cast<qsizetype>(keep.size()));
    out.v.reserve(static_cast<qsizetype>(keep.size()));
    for (std::size_t i : keep) {
        out.t.push_back(ts[i]);
        out.v.push_back(vs[i]);
    }
    return out;
}

}  // namespace cl::views
