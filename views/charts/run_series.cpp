#include "views/charts/run_series.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::RunSeries", text);
}

// skip_unknown leaves out NaN samples (a value the run did not record), so that the chart
// holds the last known value instead of drawing a gap or a zero.
template <typename Get>
NamedSeries collect(const cl::SimResult& result, QString key, QString name, QString unit, SeriesGroup group,
                    Get get, bool skip_unknown = false) {
    NamedSeries s{std::move(key), std::move(name), std::move(unit), group, {}, {}};
    s.t.reserve(static_cast<qsizetype>(result.series.size()));
    s.v.reserve(static_cast<qsizetype>(result.series.size()));
    for (const cl::TimeSample& sample : result.series) {
        const double v = get(sample);
        if (skip_unknown && std::isnan(v)) continue;
        s.t.push_back(sample.t);
        s.v.push_back(v);
    }
    return s;
}

}  // namespace

const NamedSeries* RunSeries::find(const QString& key) const {
    for (const NamedSeries& s : series)
        if (s.key == key) return &s;
    return nullptr;
}

std::vector<const NamedSeries*> RunSeries::inGroup(SeriesGroup group) const {
    std::vector<const NamedSeries*> out;
    for (const NamedSeries& s : series)
        if (s.group == group) out.push_back(&s);
    return out;
}

RunSeries extractRunSeries(const cl::SimResult& result) {
    RunSeries out;
    if (result.series.empty()) return out;
    out.series.push_back(collect(result, "gpu", tr("GPUs allocated"), "%", SeriesGroup::Utilization,
                                 [](const cl::TimeSample& s) { return s.gpu_utilization * 100.0; }));
    // CPU cores and DRAM allocated (beside the GPUs), then resource use from the jobs' stages;
    // runs stored before the engine recorded them have NaN.
    struct Resource {
        const char* key;
        const char* name;
        double cl::TimeSample::*field;
    };
    static const Resource kResources[] = {
        {"cpu-allocated", QT_TRANSLATE_NOOP("cl::views::RunSeries", "CPU allocated"),
         &cl::TimeSample::cpu_allocated},
        {"memory-allocated", QT_TRANSLATE_NOOP("cl::views::RunSeries", "Memory allocated"),
         &cl::TimeSample::memory_allocated},
        {"gpu-compute", QT_TRANSLATE_NOOP("cl::views::RunSeries", "GPU compute"),
         &cl::TimeSample::gpu_compute_utilization},
        {"cpu", QT_TRANSLATE_NOOP("cl::views::RunSeries", "CPU"), &cl::TimeSample::cpu_utilization},
        {"storage", QT_TRANSLATE_NOOP("cl::views::RunSeries", "Storage"),
         &cl::TimeSample::storage_utilization},
        {"network", QT_TRANSLATE_NOOP("cl::views::RunSeries", "Network"),
         &cl::TimeSample::network_utilization}};
    for (const Resource& r : kResources) {
        const bool recorded = std::any_of(result.series.begin(), result.series.end(),
                                          [&](const cl::TimeSample& s) { return !std::isnan(s.*(r.field)); });
        if (!recorded) continue;
        out.series.push_back(collect(
            result, r.key, tr(r.name), "%", SeriesGroup::Utilization,
            [&](const cl::TimeSample& s) { return s.*(r.field) * 100.0; }, true));
    }
    out.series.push_back(collect(result, "queue", tr("Queue length"), tr("jobs"), SeriesGroup::QueueLength,
                                 [](const cl::TimeSample& s) { return double(s.queue_length); }));
    out.series.push_back(collect(result, "running", tr("Running jobs"), tr("jobs"), SeriesGroup::RunningJobs,
                                 [](const cl::TimeSample& s) { return double(s.running_jobs); }));
    out.series.push_back(collect(result, "blocking", tr("Blocking index"), QString(),
                                 SeriesGroup::BlockingIndex,
                                 [](const cl::TimeSample& s) { return s.blocking_index; }));
    return out;
}

QString groupTitle(SeriesGroup group) {
    switch (group) {
        case SeriesGroup::Utilization:
            return tr("Utilization");
        case SeriesGroup::QueueLength:
            return tr("Queue length");
        case SeriesGroup::RunningJobs:
            return tr("Running jobs");
        case SeriesGroup::BlockingIndex:
            return tr("Blocking index");
    }
    return {};
}

QString groupAxisLabel(SeriesGroup group) {
    switch (group) {
        case SeriesGroup::Utilization:
            return tr("Utilization (%)");
        case SeriesGroup::QueueLength:
            return tr("Queue (jobs)");
        case SeriesGroup::RunningJobs:
            return tr("Running (jobs)");
        case SeriesGroup::BlockingIndex:
            return tr("Blocking index");
    }
    return {};
}

}  // namespace cl::views
