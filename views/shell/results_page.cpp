#include "views/shell/results_page.h"

#include "views/results/results_view.h"
#include "views/results/utilization_plot.h"

namespace cl::views {

ResultsPage::ResultsPage(QWidget* tabs, QObject* parent)
    : MainWindowPage({QStringLiteral("results"), tr("Results"), "results",
                      tr("Summary of the selected scenario family's runs and GPU utilization")},
                     parent),
      m_view(new ResultsView(tabs)) {
    m_view->setObjectName(QStringLiteral("resultsView"));
}

QWidget* ResultsPage::widget() const {
    return m_view;
}

PaintFunction ResultsPage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { renderWidget(p, r, m_view->plot()); };
}

void ResultsPage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    m_view->setStore(store);
}

}  // namespace cl::views
