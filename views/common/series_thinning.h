#pragma once
// Thinning a time series before plotting (docs/architecture.md section 7.4, after Tracy): points
// are bucketed into equal time slices and each bucket keeps its first, minimum, maximum and
// last sample in time order, so spikes survive and the plotted line has a bounded size.
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
