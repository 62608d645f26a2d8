#pragma once
// The figures of a profiler-trace import as a table (read-only): one row per rank (its medians,
// the slowest rank marked), or one row per training step of one rank. Milliseconds.
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/model/kineto_profile.h"

namespace cl::views {

class KinetoFiguresModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        LabelColumn = 0,  // "rank 1" / step number
        IterationColumn,
        StorageColumn,
        CpuColumn,
        GpuColumn,
        NcclColumn,
        NetworkColumn,
        StepsColumn,  // ranks: steps measured; steps: empty
        FileColumn,   // ranks: trace file and GPU; steps: empty
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit KinetoFiguresModel(QObject* parent = nullptr);

    // One row per rank of the profile, plus nothing else; slowest marked in bold.
    void setRanks(const cl::KinetoProfile& profile);
    // One row per step of the rank, then its median.
    void setSteps(const cl::KinetoRankProfile& rank);
    void clear();
    bool showsRanks() const { return m_ranks; }
    const cl::KinetoStepFigures& figures(int row) const {
        return m_rows[static_cast<std::size_t>(row)].figures;
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString label;
        cl::KinetoStepFigures figures;
        int steps = -1;
        QString file;
        QString tip;
        bool bold = false;
        double order = 0.0;  // rank or step number, for sorting
    };
    bool m_ranks = true;
    std::vector<Row> m_rows;
};

}  // namespace cl::views
