#pragma once
// The models of one profile set as a table (read-only): per model the GPU-count row shown, its
// iteration time, its stage times by resource and, for a profile imported from PyTorch profiler
// traces, how many training steps it has figures for.
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/model/model_profile.h"

namespace cl::views {

class ProfileTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        ModelColumn = 0,
        GpusColumn,
        IterationColumn,
        StorageColumn,
        CpuColumn,
        GpuColumn,
        NetworkColumn,
        StagesColumn,
        StepsColumn,
        ColumnCount
    };
    // Raw value for sorting: milliseconds or counts as double (NaN when absent), text otherwise.
    static constexpr int SortRole = Qt::UserRole;

    explicit ProfileTableModel(QObject* parent = nullptr);

    // gpus <= 0 shows each model's smallest profiled GPU count, else the row for that count
    // (the nearest profiled one, as the engine picks it: ModelProfile::at).
    void setProfiles(std::shared_ptr<const cl::ProfileSet> profiles, int gpus = 0);
    void setGpus(int gpus);
    int gpus() const { return m_gpus; }
    std::shared_ptr<const cl::ProfileSet> profiles() const { return m_profiles; }
    void clear();

    const cl::ModelProfile& profile(int row) const { return *m_rows[static_cast<std::size_t>(row)].model; }
    // The GPU-count row shown (null when the model has none).
    const cl::GpuCountProfile* shownRow(int row) const { return m_rows[static_cast<std::size_t>(row)].row; }
    int rowOf(const QString& model) const;
    // Training steps with per-step figures (0 when not imported from profiler traces).
    int steps(int row) const { return m_rows[static_cast<std::size_t>(row)].steps; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        const cl::ModelProfile* model = nullptr;
        const cl::GpuCountProfile* row = nullptr;
        int steps = 0;
    };
    void rebuild();
    // Milliseconds of a resource column, NaN when the row has no such stage.
    double columnMs(const Row& row, int column) const;

    std::shared_ptr<const cl::ProfileSet> m_profiles;
    int m_gpus = 0;
    std::vector<Row> m_rows;
};

}  // namespace cl::views
