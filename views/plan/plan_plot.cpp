#include "views/plan/plan_plot.h"

#include <QMouseEvent>
#include <QToolTip>

namespace cl::views {

PlanPlot::PlanPlot(QWidget* parent) : ThemedPlot(parent) {
    legend->setVisible(true);
}

void PlanPlot::restyle() {
    ThemedPlot::restyle();
    rebuild();
}

void PlanPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const QString tip = tipAt(event->pos());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(mapToGlobal(event->pos()), tip, this);
}

}  // namespace cl::views
