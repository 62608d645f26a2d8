#pragma once
// The stage times of the 1-4 jobs shown in the interleaving teaching view, editable: one row
// per job, one column per stage (milliseconds), then the read-only time of the job running
// alone. The view's single source of truth for "which stages": the Gantt, the results line
// and the matching panel all read them from here, so an edit shows everywhere at once.
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

namespace cl::views {

class StageTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit StageTableModel(QObject* parent = nullptr);

    // names[i], stages_ms[i] (all rows the same stage count, every time finite and >= 0),
    // solo_ms[i]: the job's iteration time alone; an empty solo_ms means "the sum of its
    // stages", which then follows every edit (hand-made jobs); a given solo time is a
    // measured profile time and stays. stage_names: column titles, one per stage.
    // Returns false (and keeps the old contents) when the sizes do not fit or a time is invalid.
    bool setJobs(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                 const std::vector<double>& solo_ms, const QStringList& stage_names);

    const std::vector<std::vector<double>>& stages() const { return m_stages; }
    std::vector<double> soloTimes() const;
    const QStringList& names() const { return m_names; }
    int jobCount() const { return static_cast<int>(m_stages.size()); }
    int stageCount() const { return m_stages.empty() ? 0 : static_cast<int>(m_stages.front().size()); }
    int soloColumn() const { return stageCount(); }

    // The edit path shared by the table and the Gantt's drag: ms must be finite and > 0.
    bool setStageTime(int job, int stage, double ms);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    // After setJobs or any accepted edit.
    void stagesChanged();
    // An edit was refused; message names the job, the stage and why.
    void editRefused(const QString& message);

private:
    QStringList m_names;
    QStringList m_stageNames;
    std::vector<std::vector<double>> m_stages;
    std::vector<double> m_solo;  // measured solo time, or NaN: follows the stage sum
};

// "1.5" / "117" / "0.60": enough digits for the paper's unit examples and profile times.
QString formatMs(double ms);

}  // namespace cl::views
