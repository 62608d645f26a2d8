#pragma once
// The Cluster page: the cluster editor, with the actions that act on the edited cluster alone
// (export it as JSON, compare placements on its network) and its splitter kept in the settings.
#include "views/shell/main_window_page.h"

namespace cl::views {

class ClusterEditor;

class ClusterPage : public MainWindowPage {
    Q_OBJECT

public:
    ClusterPage(QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    ClusterEditor* editor() const { return m_editor; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;
    bool hasOwnItemKeys() const override { return true; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(const QSettings& settings) override;

    // File > Export Cluster as JSON and Simulation > Topology Placement.
    QAction* exportJsonAction() const { return m_exportJson; }
    QAction* placementAction() const { return m_placement; }

private:
    void exportJson();
    // Topology placement on the edited cluster (non-modal, one dialog per call).
    void openPlacementDialog();

    ClusterEditor* m_editor = nullptr;
    QAction* m_exportJson = nullptr;
    QAction* m_placement = nullptr;
};

}  // namespace cl::views
