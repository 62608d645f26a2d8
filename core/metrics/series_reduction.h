#pragma once
// A run's time series reduced to a bounded number of samples for storage (a plan's points,
// docs/architecture.md 7.9 "Storage"): a run of the whole Philly trace has one sample per event,
// some 160,000, and a plan stores dozens of runs whose series only its overload check and queue
// chart read.
#include <cstddef>
#include <vector>

#include "core/model/sim_result.h"

namespace cl {

// At most `max_samples` + 3 samples, each standing for consecutive samples
// of the series (change points, each holding until the next) within an equal share of its span:
// its time is the first one's, its shares and utilisations are their means weighted by how long
// each held, and its queue length and running jobs are their largest, so no peak is lost. The
// integral of every share over the whole series, and over any span from a reduced sample's time
// or from `exact_from` on, is that of the full series (the overload check integrates the GPU
// utilisation from the last arrival, docs/architecture.md 7.9 "Overload"). A series of at most
// `max_samples` + 3 samples is returned as it is; max_samples must be positive.
std::vector<TimeSample> reduceSeries(const std::vector<TimeSample>& series, std::size_t max_samples,
                                     double exact_from);

}  // namespace cl
