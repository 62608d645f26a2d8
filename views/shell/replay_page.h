#pragma once
// The Replay page: how closely a replay of a recorded cluster follows the record, the check to
// make before planning with it (docs/architecture.md section 7.10).
#include <cstdint>

#include "views/shell/main_window_page.h"

namespace cl::views {

class ReplayCheckView;

class ReplayPage : public MainWindowPage {
    Q_OBJECT

public:
    ReplayPage(QWidget* tabs, QObject* parent);

    QWidget* widget() const override;
    ReplayCheckView* view() const { return m_view; }
    PaintFunction exportPainting() const override;
    void setWorkspace(cl::ScenarioStore* store, const QString& path) override;

public slots:
    // Shows the page with this scenario's check (what an import of a Slurm history, or the
    // Results view, asks for once the scenario has run).
    void showReplayCheck(qint64 scenarioId);
    // The scenario selected in the workspace: shown when it can be checked, now if the page is
    // current, else when it is next shown (a check reads the whole trace and run).
    void followScenario(qint64 scenarioId);
    // Runs ended: a shown page lists again (a run may have made a scenario checkable).
    void runsEnded();

protected:
    // Runs may have finished since the page was last shown.
    void activated() override;

private:
    ReplayCheckView* m_view = nullptr;
    qint64 m_followed = 0;
};

}  // namespace cl::views
