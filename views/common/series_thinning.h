#pragma once
// cl::thinMinMax (core/util/series_thinning.h) on the QVectors the charts hold.
#include <QVector>

namespace cl::views {

struct ThinnedSeries {
    QVector<double> t;
    QVector<double> v;
};

// t must be non-decreasing and as long as v. Series with at most 4 * buckets points are
// returned unchanged.
ThinnedSeries thinMinMax(const QVector<double>& t, const QVector<double>& v, int buckets);

}  // namespace cl::views
