#include "views/common/themed_plot.h"

#include <algorithm>

#include <QEvent>

#include "views/common/chart_export.h"

namespace cl::views {

ThemedPlot::ThemedPlot(QWidget* parent) : QCustomPlot(parent) {
    setAntialiasedElements(QCP::aePlottables);
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString());
    plotLayout()->addElement(0, 0, m_title);
    // The legend under the axes in rows, so it never covers the data.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);  // row 2: see placeLegend
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(6);
    legend->setBorderPen(Qt::NoPen);
    legend->setVisible(false);
    setMouseTracking(true);
    connect(this, &QCustomPlot::beforeReplot, this, &ThemedPlot::placeLegend);
    restyle();
}

void ThemedPlot::placeLegend() {
    const bool placed = legend->layout() == plotLayout();
    if (legend->itemCount() == 0 && placed)
        plotLayout()->take(legend);
    else if (legend->itemCount() > 0 && !placed)
        plotLayout()->addElement(2, 0, legend);
}

void ThemedPlot::setTitle(const QString& title) {
    m_title->setText(title);
}

QString ThemedPlot::title() const {
    return m_title->text();
}

void ThemedPlot::resizeEvent(QResizeEvent* event) {
    // A hidden plot parked at zero size (a splitter, a layout before it is shown) keeps its last
    // real size: QCustomPlot would otherwise replot into null pixmaps, one "QPainter::begin: Paint
    // device returned engine == 0" warning per layer.
    if (event->size().isEmpty()) {
        QWidget::resizeEvent(event);
        return;
    }
    // As many legend entries to a row as fit the width: a row cut off at the edge hides names.
    const int entry = fontMetrics().averageCharWidth() * 26;
    legend->setWrap(std::max(1, width() / std::max(entry, 1)));
    QCustomPlot::resizeEvent(event);
}

void ThemedPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        restyle();
        replot();
    }
}

void ThemedPlot::restyle() {
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    const QColor text = palette().color(QPalette::Text);
    QColor grid = palette().color(QPalette::Mid);
    grid.setAlpha(110);
    setBackground(palette().brush(QPalette::Base));
    m_title->setFont(bold);
    m_title->setTextColor(text);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setLabelFont(base);
        axis->setTickLabelFont(base);
        axis->setLabelColor(text);
        axis->setTickLabelColor(text);
        axis->setBasePen(QPen(text, 1));
        axis->setTickPen(QPen(text, 1));
        axis->setSubTickPen(QPen(text, 1));
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
    legend->setFont(base);
    legend->setTextColor(text);
    legend->setBrush(Qt::NoBrush);
}

void ThemedPlot::paintExport(QPainter& painter, const QRectF& rect) {
    renderWidget(painter, rect, this);
}

}  // namespace cl::views
