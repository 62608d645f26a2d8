#include "views/shell/interleave_page.h"

#include "views/interleave/interleave_gantt.h"
#include "views/interleave/interleave_panel.h"

namespace cl::views {

InterleavePage::InterleavePage(const cl::ProfileSet* profiles, QWidget* tabs, QObject* parent)
    : MainWindowPage(
          {QStringLiteral("interleave"), tr("Interleaving"), "what-if",
           tr("How training stages of jobs sharing GPUs interleave (Muri), with gamma and speedup")},
          parent),
      m_panel(new InterleavePanel(profiles, tabs)) {
    m_panel->setObjectName(QStringLiteral("interleavePanel"));
}

QWidget* InterleavePage::widget() const {
    return m_panel;
}

PaintFunction InterleavePage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { m_panel->gantt()->paintExport(p, r, QString()); };
}

}  // namespace cl::views
