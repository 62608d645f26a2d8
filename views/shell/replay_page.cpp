#include "views/shell/replay_page.h"

#include "views/replay/replay_check_view.h"

namespace cl::views {

ReplayPage::ReplayPage(QWidget* tabs, QObject* parent)
    : MainWindowPage({QStringLiteral("replay"), tr("Replay"), "run-log",
                      tr("Replay check: how closely a run follows the starts its trace recorded (a Slurm "
                         "import), the check to make before planning with a replay")},
                     parent),
      m_view(new ReplayCheckView(tabs)) {
    m_view->setObjectName(QStringLiteral("replayCheckView"));
}

QWidget* ReplayPage::widget() const {
    return m_view;
}

PaintFunction ReplayPage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { m_view->paintExport(p, r); };
}

void ReplayPage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    m_followed = 0;
    m_view->setStore(store);
}

void ReplayPage::activated() {
    // Lists again (runs may have finished), showing the followed scenario if it can be checked.
    if (m_followed != 0)
        m_view->showScenario(m_followed);  // lists again too; keeps the choice when it cannot be checked
    else
        m_view->refresh();
    m_followed = 0;
}

void ReplayPage::followScenario(qint64 scenarioId) {
    if (isCurrent())
        m_view->showScenario(scenarioId);
    else
        m_followed = scenarioId;
}

void ReplayPage::runsEnded() {
    if (isCurrent()) m_view->refresh();
}

void ReplayPage::showReplayCheck(qint64 scenarioId) {
    m_followed = 0;
    if (!m_view->showScenario(scenarioId))
        emit statusMessage(tr("That scenario cannot be checked: it needs a finished run and a trace with "
                              "recorded starts"),
                           5000);
    emit showRequested();
}

}  // namespace cl::views
