#pragma once
// The time series a run recorded, as named, unit-tagged point lists for the charts and
// exports. Keeping the extraction here (no Qt Charts) makes "the chart shows the run's
// data" testable without a widget and gives every consumer the same names and units.
#include <vector>

#include <QString>
#include <QVector>

#include "core/model/sim_result.h"

namespace cl::views {

// Which small-multiple chart a series belongs to.
enum class SeriesGroup { Utilization, QueueLength, RunningJobs, BlockingIndex };

struct NamedSeries {
    // Stable identifier: "gpu", "cpu-allocated", "memory-allocated", "gpu-compute", "cpu", "storage",
    // "network", "queue", "running", "blocking".
    QString key;
    QString name;  // user-visible, translated: "GPU utilization"
    QString unit;  // "%", "jobs" or empty for dimensionless values
    SeriesGroup group = SeriesGroup::Utilization;
    QVector<double> t;  // seconds since the trace start, non-decreasing
    QVector<double> v;  // in `unit` (utilizations as percent 0..100)
};

struct RunSeries {
    std::vector<NamedSeries> series;

    // nullptr when the run did not record that series.
    const NamedSeries* find(const QString& key) const;
    std::vector<const NamedSeries*> inGroup(SeriesGroup group) const;
    bool empty() const { return series.empty(); }
};

// Every series the run recorded: GPUs allocated, CPU cores and DRAM allocated (fractions of the
// cluster's), how busy GPU compute, CPU, storage and network are, queue length, running jobs and
// blocking index. A utilization series a stored run does not have (NaN throughout: stored before
// the engine recorded it) is left out; single unknown (NaN) samples of one are skipped.
RunSeries extractRunSeries(const cl::SimResult& result);

// Title and axis label of a chart group, e.g. "Utilization" / "%".
QString groupTitle(SeriesGroup group);
QString groupAxisLabel(SeriesGroup group);

}  // namespace cl::views
