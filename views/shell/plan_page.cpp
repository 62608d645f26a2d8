#include "views/shell/plan_page.h"

#include "views/plan/plan_cliff_plot.h"
#include "views/plan/plan_frontier_plot.h"
#include "views/plan/plan_queue_plot.h"
#include "views/plan/plan_view.h"

namespace cl::views {

PlanPage::PlanPage(QWidget* tabs, QObject* parent)
    : MainWindowPage(
          {QStringLiteral("plan"), tr("Plan"), "what-if",
           tr("Capacity planning: the cheapest cluster and policy that meet your targets, with the cost "
              "frontier, the cliff and the headroom")},
          parent),
      m_view(new PlanView(tabs)) {
    m_view->setObjectName(QStringLiteral("planView"));
    connect(m_view, &PlanView::planFinished, this, [this](bool cancelled) {
        emit logMessage(cancelled ? tr("Plan cancelled; what finished is stored") : tr("Plan finished"));
    });
    connect(m_view, &PlanView::planFailed, this,
            [this](const QString& message) { emit logMessage(tr("Plan failed: %1").arg(message)); });
}

QWidget* PlanPage::widget() const {
    return m_view;
}

PaintFunction PlanPage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) {
        // The chart on screen: the cliff, the queue over time, else the frontier.
        if (m_view->cliffPlot()->isVisible())
            m_view->cliffPlot()->paintExport(p, r);
        else if (m_view->queuePlot()->isVisible())
            m_view->queuePlot()->paintExport(p, r);
        else
            m_view->frontierPlot()->paintExport(p, r);
    };
}

void PlanPage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    m_view->setStore(store);
}

}  // namespace cl::views
