#include "views/shell/trace_page.h"

#include <utility>

#include <QAction>
#include <QKeySequence>

#include "views/trace/trace_browser.h"
#include "views/trace/trace_histograms.h"
#include "views/trace/trace_transform_dialog.h"

namespace cl::views {

TracePage::TracePage(const cl::ProfileSet* profiles, QWidget* tabs, QObject* parent)
    : MainWindowPage(
          {QStringLiteral("trace"), tr("Trace"), "trace", tr("Jobs of the trace, filters and histograms")},
          parent),
      m_profiles(profiles),
      m_browser(new TraceBrowser(tabs)) {
    m_browser->setObjectName(QStringLiteral("traceBrowser"));
    m_transform =
        makeAction(this, "transform-trace", tr("&Transform Trace\u2026"), QKeySequence(Qt::CTRL | Qt::Key_T),
                   tr("Scale, window, subsample or re-model the shown trace into a new stored trace"));
    connect(m_transform, &QAction::triggered, this, &TracePage::transform);
}

QWidget* TracePage::widget() const {
    return m_browser;
}

PaintFunction TracePage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { renderWidget(p, r, m_browser->histograms()); };
}

void TracePage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    m_store = store;
    if (!store) showTrace(nullptr, 0);
}

void TracePage::showTrace(std::shared_ptr<const cl::Trace> trace, qint64 storedId) {
    m_trace = std::move(trace);
    m_browser->setTrace(m_trace, m_profiles);
    m_storedId = storedId;
}

void TracePage::transform() {
    if (!m_store) return;
    if (!m_trace) {
        emit statusMessage(tr("Open a trace first (select a scenario or a trace in the workspace)"), 5000);
        return;
    }
    auto* dialog = new TraceTransformDialog(m_trace, m_browser->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (auto trace = dialog->result()) emit traceMade(*trace, tr("Transformed"));
    });
    dialog->open();
}

}  // namespace cl::views
