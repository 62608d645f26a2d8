#pragma once
// The jobs of an imported Slurm history as a table (read-only): what Slurm recorded (name,
// user, account, partition, GPUs and their type, CPUs, memory, submit time, run time, time limit,
// how long it waited) and the
// profile the rules gave each job with the iterations its run time makes. The trace is shared.
// A job that can never run on the imported cluster carries a warning sign and, as the tooltip of
// its row, the reason (docs/architecture.md 2.10).
#include <memory>
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "core/model/trace.h"

namespace cl::views {

class SlurmJobTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        IdColumn = 0,
        NameColumn,
        UserColumn,
        AccountColumn,
        PartitionColumn,
        GpusColumn,
        GpuTypeColumn,
        CpusColumn,
        MemoryColumn,
        SubmitColumn,
        DurationColumn,
        TimeLimitColumn,  // what the replay ends the job at (docs/architecture.md 2.10)
        WaitedColumn,     // recorded start - submit: what the Replay view compares against
        ProfileColumn,
        IterationsColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit SlurmJobTableModel(QObject* parent = nullptr);

    void setTrace(std::shared_ptr<const cl::Trace> trace);
    // The first submission as seconds since 1970-01-01 UTC: the Submitted column then shows
    // absolute UTC times (so the history's time zone visibly moves them); NaN: times after the
    // first job's.
    void setFirstSubmitUtc(double seconds);
    std::shared_ptr<const cl::Trace> trace() const { return m_trace; }
    const cl::Job& job(int row) const { return m_trace->jobs[static_cast<std::size_t>(row)]; }
    // Per job of the trace, why it can never run on the cluster ("" when it can); empty: unknown.
    void setNeverFits(std::vector<std::string> reasons);
    QString neverFits(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString submitText(double submit) const;

    std::shared_ptr<const cl::Trace> m_trace;
    double m_first = 0.0;
    double m_firstUtc;  // NaN: unknown
    std::vector<std::string> m_neverFits;
};

}  // namespace cl::views
