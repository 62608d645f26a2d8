#pragma once
// One row per policy, one column per summary metric of its run (docs/architecture.md
// section 7.2). The model only displays cl::Summary values that a run produced; it computes nothing.
#include <optional>

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>
#include <QVector>

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
    void setFailed(const QString& policy, const QString& message);
    // Marks every row that has no result yet as cancelled.
    void setUnfinishedCancelled();

    RowState state(int row) const;
    std::optional<cl::Summary> summary(int row) const;

    static double metric(const cl::Summary& summary, int column);  // seconds; NaN for PolicyColumn

private:
    struct Row {
        QString policy;
        RowState state = RowState::Pending;
        double fraction_done = 0.0;
        std::optional<cl::Summary> summary;
        QString message;
    };

    void emitRowChanged(int row);

    QVector<Row> m_rows;
    QString m_labelTitle;
};

}  // namespace cl::views
