#pragma once
// Thinning a time series before it is drawn (docs/architecture.md section 7.4, after Tracy's
// timeline): the samples are bucketed into equal time slices and each bucket keeps its first,
// minimum, maximum and last sample in time order, so spikes survive and the drawn line has a
// bounded size. Used by the Qt charts and the SVG writers alike.
#include <cstddef>
#include <span>
#include <vector>

namespace cl {

// The indices of the samples to keep, increasing. t must be non-decreasing; only the first
// min(t.size(), v.size()) samples count. Series of at most 4 x buckets samples, or spanning no
// time, keep every sample.
std::vector<std::size_t> thinMinMax(std::span<const double> t, std::span<const double> v, int buckets);

}  // namespace cl
