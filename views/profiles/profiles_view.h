#pragma once
// The Profiles view: the workspace's profile sets, the models of the chosen set in a table,
// each model's time per iteration stacked by resource, and for a model imported from PyTorch
// profiler traces how its figures spread over the training steps.
#include <cstdint>
#include <memory>

#include <QWidget>

#include "core/model/model_profile.h"

class QComboBox;
class QLabel;
class QPainter;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace cl {
class ScenarioStore;
}

namespace cl::views {

class ProfileBreakdownChart;
class ProfileSpreadChart;
class ProfileTableModel;

class ProfilesView : public QWidget {
    Q_OBJECT

public:
    explicit ProfilesView(QWidget* parent = nullptr);

    // The open workspace (may be null); the store must outlive the view or be replaced first.
    void setStore(cl::ScenarioStore* store);
    // Reads the list of profile sets again, keeping the chosen set when it is still there.
    void refresh();
    // Shows the stored set with this id (false when there is none).
    bool showProfileSet(std::int64_t id);
    std::int64_t currentProfileSet() const;
    // Selects the model in the table (false when the set has none of that name).
    bool selectModel(const QString& model);
    QString selectedModel() const;
    // 0: each model's smallest profiled GPU count; else the row for that count.
    void setGpus(int gpus);

    // Both charts into rect of an export painter, side by side as on screen.
    void paintExport(QPainter& painter, const QRectF& rect);

signals:
    // The user asked to import a profiler trace (File > Import Profiler Trace does the same).
    void importRequested();

private:
    void loadSet(int comboIndex);
    void updateGpuChoices();
    void updateBreakdown();
    void updateSpread();
    void updateSummary();
    int selectedRow() const;

    cl::ScenarioStore* m_store = nullptr;
    std::shared_ptr<const cl::ProfileSet> m_profiles;
    QComboBox* m_sets = nullptr;
    QComboBox* m_gpus = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_import = nullptr;
    QSplitter* m_charts = nullptr;
    ProfileBreakdownChart* m_breakdown = nullptr;
    ProfileSpreadChart* m_spread = nullptr;
    ProfileTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
};

}  // namespace cl::views
