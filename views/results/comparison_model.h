#pragma once
// The comparison table (docs/architecture.md section 7.5): one row per selected run, the headline
// metrics of its summary and each of them relative to a baseline run ("0.62×": a run taking 62%
// of the baseline's time). The figures come from cl::compareGroups (one group per run).
#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include "core/metrics/comparison.h"
#include "core/model/sim_result.h"

namespace cl::views {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Metric { AvgJct = 0, P99Jct, Makespan, AvgQueueing, P95Queueing };
    static constexpr int kMetricCount = 5;

    enum Column {
        RunColumn = 0,
        AvgJctColumn,
        AvgJctRelativeColumn,
        P99JctColumn,
        P99JctRelativeColumn,
        MakespanColumn,
        MakespanRelativeColumn,
        AvgQueueingColumn,
        AvgQueueingRelativeColumn,
        P95QueueingColumn,
        P95QueueingRelativeColumn,
        CostColumn,          // the cluster's cost for the run's makespan (docs/architecture.md 7.8)
        CostPerMonthColumn,  // en dash when the run's cluster has no priced server
        ColumnCount
    };

    // The raw double behind a cell (seconds, or the ratio), for sorting and export.
    static constexpr int RawValueRole = Qt::UserRole + 1;

    struct Run {
        qint64 id = 0;
        QString label;  // "scenario · policy"
        cl::SimResult result;
        std::optional<cl::ClusterCost> cost{};  // of the run's cluster, when known
        int cluster_servers = 0;
    };

    explicit ComparisonModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces the rows; the baseline becomes the row of the same run id if it is still
    // there, else row 0.
    void setRuns(std::vector<Run> runs);
    void clear();
    qint64 runId(int row) const;
    QString label(int row) const;
    const cl::SimResult& result(int row) const;
    int rowOfRun(qint64 id) const;  // -1 if absent

    // Throws nothing: an out-of-range row is ignored.
    void setBaseline(int row);
    int baseline() const { return m_baseline; }  // -1 when there are no rows

    // What compareGroups returned for the rows (rows in the same order); empty rows when
    // there are no runs.
    const cl::Comparison& comparison() const { return m_comparison; }
    double value(int row, Metric metric) const;  // seconds
    // value / baseline's value; NaN (shown "n/a") when the baseline's is zero or under
    // kNearZeroSeconds, and 0 when the row's is.
    double relative(int row, Metric metric) const;

    static QString metricName(Metric metric);
    static QString metricToolTip(Metric metric);
    static QString ratioText(double ratio);  // "0.62×", "0.0019×", "<0.001×"; "n/a" for NaN
    // Metric values below this many seconds count as zero in the ratios (see relative).
    static constexpr double kNearZeroSeconds = 1e-3;

signals:
    void baselineChanged(int row);

private:
    void recompute();

    struct Row {
        qint64 id = 0;
        QString label;
    };
    std::vector<Row> m_rows;
    std::vector<cl::ComparisonGroup> m_groups;  // one per row, holding its result
    cl::Comparison m_comparison;
    int m_baseline = -1;
};

}  // namespace cl::views
