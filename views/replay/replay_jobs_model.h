#pragma once
// The jobs a replay check compared (docs/architecture.md 7.10), one row each: id, GPUs,
// partition, recorded and simulated start and their difference. The difference column sorts by
// its size, so "largest first" lists the jobs the replay got most wrong, early or late.
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/metrics/replay_check.h"

namespace cl::views {

class ReplayJobsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        JobColumn,
        GpusColumn,
        PartitionColumn,
        RecordedColumn,
        SimulatedColumn,
        DifferenceColumn,
        ColumnCount
    };
    // Numbers as numbers, for a QSortFilterProxyModel; the difference as its absolute value.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ReplayJobsModel(QObject* parent = nullptr);

    // The check whose jobs are listed (null: none).
    void setCheck(std::shared_ptr<const cl::ReplayCheck> check);
    const cl::ReplayJob* job(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const cl::ReplayCheck> m_check;
};

// A signed duration: "+2.5 min", "\u22121.6 min", "0 s".
QString signedDuration(double seconds);

}  // namespace cl::views
