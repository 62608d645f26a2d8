#include "views/results/utilization_plot.h"

#include <algorithm>

#include <qcustomplot.h>
#include <QEvent>
#include <QFontMetrics>
#include <QVBoxLayout>

#include "views/common/series_thinning.h"

namespace cl::views {

namespace {

struct TimeUnit {
    double seconds;
    QString label;
};

TimeUnit unitFor(double span_seconds) {
    if (span_seconds <= 2.0 * 3600.0) return {60.0, UtilizationPlot::tr("time (min)")};
    if (span_seconds <= 4.0 * 86400.0) return {3600.0, UtilizationPlot::tr("time (h)")};
    return {86400.0, UtilizationPlot::tr("time (days)")};
}

}  // namespace

UtilizationPlot::UtilizationPlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("utilizationChart"));
    m_plot->setAntialiasedElements(QCP::aePlottables);
    m_plot->setBackground(palette().brush(QPalette::Base));
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->yAxis->setRange(0.0, 105.0);
    m_plot->yAxis->setLabel(tr("GPUs busy (%)"));
    m_plot->xAxis->setLabel(tr("time"));
    m_plot->setToolTip(tr("Share of the cluster's GPUs that hold a job, sampled at every event"));
    applyFonts();
    layout->addWidget(m_plot);
    showMessage(tr("GPU utilization appears here when the first run finishes"));
}

QSize UtilizationPlot::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 90, fm.height() * 16};
}

QSize UtilizationPlot::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 40, fm.height() * 10};
}

void UtilizationPlot::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        applyFonts();
        m_plot->setBackground(palette().brush(QPalette::Base));
        m_plot->replot();
    }
}

void UtilizationPlot::applyFonts() {
    // Everything follows the widget font (point sizes, so it scales with the screen).
    const QFont base = font();
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.1);
    m_title->setFont(title);
    m_title->setTextColor(palette().color(QPalette::Text));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setLabelFont(base);
        axis->setTickLabelFont(base);
        axis->setLabelColor(palette().color(QPalette::Text));
        axis->setTickLabelColor(palette().color(QPalette::Text));
    }
}

int UtilizationPlot::pointCount() const {
    return m_plot->graphCount() > 0 ? m_plot->graph(0)->dataCount() : 0;
}

void UtilizationPlot::showMessage(const QString& message) {
    m_plot->clearGraphs();
    m_title->setText(message);
    m_plot->xAxis->setLabel(tr("time"));
    m_plot->xAxis->setRange(0.0, 1.0);
    m_plot->replot();
}

void UtilizationPlot::setResult(const QString& policy, const cl::SimResult& result) {
    if (result.series.empty()) {
        showMessage(tr("GPU utilization \u2014 %1: the run recorded no samples").arg(policy));
        return;
    }
    const double span = result.series.back().t - result.series.front().t;
    const TimeUnit unit = unitFor(std::max(span, result.series.back().t));

    QVector<double> t, v;
    t.reserve(static_cast<qsizetype>(result.series.size()));
    v.reserve(static_cast<qsizetype>(result.series.size()));
    for (const cl::TimeSample& sample : result.series) {
        t.push_back(sample.t / unit.seconds);
        v.push_back(sample.gpu_utilization * 100.0);
    }
    const int buckets = std::max(100, m_plot->width());
    const ThinnedSeries thin = thinMinMax(t, v, buckets);

    m_plot->clearGraphs();
    QCPGraph* graph = m_plot->addGraph();
    graph->setName(policy);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    QColor line = palette().color(QPalette::Highlight);
    graph->setPen(QPen(line, 1.5));
    line.setAlpha(60);
    graph->setBrush(line);
    graph->setData(thin.t, thin.v, /*alreadySorted=*/true);

    m_title->setText(tr("GPU utilization \u2014 %1").arg(policy));
    m_plot->xAxis->setLabel(unit.label);
    m_plot->xAxis->setRange(std::min(0.0, thin.t.front()), std::max(thin.t.back(), 1e-9));
    m_plot->yAxis->setRange(0.0, 105.0);
    m_plot->replot();
}

}  // namespace cl::views
