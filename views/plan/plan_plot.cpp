#include "views/plan/plan_plot.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>

namespace cl::views {

PlanPlot::PlanPlot(QWidget* parent) : ThemedPlot(parent) {
    legend->setVisible(true);
}

QString PlanPlot::hint() const {
    return m_hint ? m_hint->text() : QString();
}

void PlanPlot::clearChart(bool empty) {
    clearPlottables();
    clearItems();
    m_hint = nullptr;
    // Hidden axes take their grids with them and leave the whole chart to the hint.
    xAxis->setVisible(!empty);
    yAxis->setVisible(!empty);
    legend->setVisible(!empty);
}

void PlanPlot::startDrawing() {
    clearChart(false);
}

void PlanPlot::showEmpty(const QString& hint) {
    clearChart(true);
    m_hint = new QCPItemText(this);
    m_hint->setText(hint);
    m_hint->setColor(palette().color(QPalette::PlaceholderText));
    m_hint->setFont(font());
    m_hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_hint->position->setCoords(0.5, 0.5);
    replot();
}

void PlanPlot::restyle() {
    ThemedPlot::restyle();
    rebuild();
}

bool PlanPlot::event(QEvent* event) {
    // The hover delay's tooltip names the point under the mouse too; the chart's own tooltip
    // (what it shows) only away from the points, instead of replacing a point's figures.
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const QString tip = tipAt(help->pos()); !tip.isEmpty()) {
            QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
    }
    return ThemedPlot::event(event);
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
