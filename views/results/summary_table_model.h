#pragma once
// One row per policy, one column per summary metric of its run (docs/architecture.md
// section 7.2) and the cost of its cluster for the run (section 7.8). The model displays the
// cl::Summary a run produced and the cost it is given; it computes nothing else.
#include <optional>

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>
#include <QVector>

#include "core/metrics/cluster_cost.h"
#include "core/model/sim_result.h"

namespace cl::views {

class SummaryTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        PolicyColumn = 0,
        AvgJctColumn,
        MedianJctColumn,
        P95JctColumn,
        P99JctColumn,
        MakespanColumn,
        AvgQueueingColumn,
        P95QueueingColumn,
        // Before the size classes, so that a small screen shows them without scrolling.
        CostColumn,  // the cluster's cost for the run's makespan (docs/architecture.md 7.8)
        CostPerMonthColumn,
        SmallP95JctColumn,
        SmallP99JctColumn,
        LargeP95JctColumn,
        LargeP99JctColumn,
        ColumnCount
    };

    enum class RowState { Pending, Running, Done, Failed, Cancelled };

    // Raw value of a metric cell in seconds (double), for sorting and export.
    static constexpr int RawValueRole = Qt::UserRole + 1;
    // RowState of the row as an int.
    static constexpr int StateRole = Qt::UserRole + 2;

    explicit SummaryTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Header of the first column ("Policy" unless set, e.g. "Scenario").
    void setLabelTitle(const QString& title);
    // Replaces all rows with pending rows for these policies.
    void setPolicies(const QStringList& policies);
    void clear();
    QStringList policies() const;
    int rowOf(const QString& policy) const;  // -1 if absent

    void setRunning(const QString& policy, double fraction_done);
    void setSummary(const QString& policy, const cl::Summary& summary);
    // The cost of the row's cluster; without one (or with no priced server) the cost cells
    // show an en dash. `servers` is the cluster's server count.
    void setCost(const QString& policy, const cl::ClusterCost& cost, int servers);
    void setFailed(const QString& policy, const QString& message);
    // The row's run stopped as soon as its outcome was known (a plan's point, docs/architecture.md
    // 7.9): its figures cover only the jobs finished by then. `note` is the run's note saying so.
    void setStoppedEarly(const QString& policy, const QString& note);
    // The trace the row's scenario runs, shown beside its name (empty: not shown; the view shows
    // it only when the rows run different traces).
    void setTraceName(int row, const QString& trace);
    // Marks every row that has no result yet as cancelled.
    void setUnfinishedCancelled();

    RowState state(int row) const;
    std::optional<cl::Summary> summary(int row) const;

    // Seconds; NaN for PolicyColumn, the cost columns and a size class without a completed job.
    static double metric(const cl::Summary& summary, int column);
    // USD of a cost column for the row, NaN when its cluster is not priced or it has no result.
    double cost(int row, int column) const;

private:
    struct Row {
        QString policy;
        RowState state = RowState::Pending;
        double fraction_done = 0.0;
        std::optional<cl::Summary> summary;
        QString message;
        std::optional<cl::ClusterCost> cost;  // only when some server is priced
        QString stoppedEarly;                 // setStoppedEarly's note
        QString trace;                        // setTraceName's
    };

    void emitRowChanged(int row);

    QVector<Row> m_rows;
    QString m_labelTitle;
};

}  // namespace cl::views
