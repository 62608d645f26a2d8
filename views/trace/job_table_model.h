#pragma once
// The jobs of one trace as a table (read-only). The trace is shared, never copied, so a
// 100,000-job trace costs one small vector of derived durations here.
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl::views {

class JobTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        IdColumn = 0,
        SubmitColumn,
        GpusColumn,
        ModelColumn,
        DurationColumn,
        IterationsColumn,
        BatchSizeColumn,
        UserColumn,
        // What planners filter by (traces imported from a scheduler's accounting); empty
        // elsewhere, and hidden by the views when no job has them (hasPlanningFields()).
        NameColumn,
        AccountColumn,
        PartitionColumn,
        GpuTypeColumn,
        ColumnCount
    };

    // Raw value of a cell (double for numbers, QString for text) for sorting and export.
    // The duration column gives the derived duration (NaN when unknown).
    static constexpr int SortRole = Qt::UserRole;

    explicit JobTableModel(QObject* parent = nullptr);

    // row_limit > 0 shows only the first row_limit jobs (import preview). The profile set,
    // when given, must outlive the model: it supplies durations of iteration-only jobs.
    void setTrace(std::shared_ptr<const cl::Trace> trace, const cl::ProfileSet* profiles = nullptr,
                  int row_limit = 0);
    void clear();
    std::shared_ptr<const cl::Trace> trace() const { return m_trace; }
    const cl::ProfileSet* profiles() const { return m_profiles; }

    // Valid for 0 <= row < rowCount().
    const cl::Job& job(int row) const { return m_trace->jobs[static_cast<std::size_t>(row)]; }
    // The job's duration, or iterations x iteration time (its own, else the profile's) when
    // the trace gives only iterations; NaN when neither is known.
    double duration(int row) const { return m_durations[static_cast<std::size_t>(row)]; }
    // Numeric value of the job id, NaN when the id is not a number (ids sort numerically
    // when they are numbers, "10" after "9").
    double numericId(int row) const { return m_numericIds[static_cast<std::size_t>(row)]; }

    static double effectiveDuration(const cl::Job& job, const cl::ProfileSet* profiles);
    // Whether any job carries a name, account, partition or GPU type.
    bool hasPlanningFields() const { return m_planning; }
    static bool isPlanningColumn(int column) { return column >= NameColumn && column < ColumnCount; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    bool m_planning = false;
    QVariant display(const cl::Job& job, int row, int column) const;
    QVariant tooltip(const cl::Job& job, int row, int column) const;

    std::shared_ptr<const cl::Trace> m_trace;
    const cl::ProfileSet* m_profiles = nullptr;
    int m_rows = 0;
    std::vector<double> m_durations;
    std::vector<double> m_numericIds;
};

}  // namespace cl::views
