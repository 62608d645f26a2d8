#include "views/profiles/profile_spread_chart.h"

#include <algorithm>

#include <QFontMetrics>
#include <QResizeEvent>

#include "core/metrics/jct_stats.h"
#include "views/common/duration_text.h"

namespace cl::views {

ProfileSpreadChart::Figures ProfileSpreadChart::figuresOf(const std::vector<double>& values) {
    Figures f;
    if (values.empty()) return f;
    f.min = *std::min_element(values.begin(), values.end());
    f.max = *std::max_element(values.begin(), values.end());
    f.q1 = cl::percentile(values, 0.25);
    f.median = cl::median(values);
    f.q3 = cl::percentile(values, 0.75);
    return f;
}

ProfileSpreadChart::ProfileSpreadChart(QWidget* parent) : ProfilePlot(parent) {
    yAxis->setLabel(tr("milliseconds"));
    xAxis->grid()->setVisible(false);
    // The boxes are named under the axis; legend entries (empty-named, one per box and per dot
    // series) would only keep ThemedPlot's legend row in the layout, where even an invisible
    // legend takes its height from the axes.
    setAutoAddPlottableToLegend(false);
    restyle();
    clear();
}

QSize ProfileSpreadChart::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 80, fm.height() * 18};
}

QSize ProfileSpreadChart::minimumSizeHint() const {
    const QFontMetrics fm(font());
    // Title, rotated box names and at least three value ticks: about 200 px at the default font.
    return {fm.averageCharWidth() * 40, fm.height() * 12};
}

void ProfileSpreadChart::setBoxes(const std::vector<Box>& boxes, const QString& title) {
    m_boxes = boxes;
    m_titleText = title;
    rebuild();
}

void ProfileSpreadChart::clear(const QString& message) {
    m_boxes.clear();
    m_titleText = message.isEmpty() ? tr("Spread over the training steps") : message;
    rebuild();
}

void ProfileSpreadChart::restyle() {
    ProfilePlot::restyle();
    if (!m_titleText.isNull()) rebuild();
}

void ProfileSpreadChart::resizeEvent(QResizeEvent* event) {
    // The Profiles view hides this chart for a model without steps, and a splitter parks a hidden
    // child at zero size; QCustomPlot would then replot into a null pixmap (a "QPainter::begin:
    // Paint device returned engine == 0" warning per layer). The last real size is kept until
    // the chart gets one again.
    if (event->size().isEmpty()) {
        QWidget::resizeEvent(event);
        return;
    }
    fitLabels();
    ProfilePlot::resizeEvent(event);
}

void ProfileSpreadChart::fitLabels() {
    const QFontMetrics fm(xAxis->tickLabelFont());
    int widest = 0;
    for (const Box& box : m_boxes) widest = std::max(widest, fm.horizontalAdvance(box.label));
    const int perBox = m_boxes.empty() ? width() : int(width() * 0.8) / int(m_boxes.size());
    xAxis->setTickLabelRotation(widest + 2 * fm.averageCharWidth() > perBox ? -30.0 : 0.0);
    // About one value tick per four lines of height: QCustomPlot rounds the step to 1, 2, 2.5 or
    // 5 times a power of ten, which can give up to half as many ticks again, so their labels stay
    // well apart on a short chart instead of printing into each other.
    const int ticks = height() / std::max(1, 4 * fm.height());
    yAxis->ticker()->setTickCount(std::clamp(ticks, 2, 6));
}

void ProfileSpreadChart::rebuild() {
    clearPlottables();
    setTitle(m_titleText);
    const QColor text = palette().color(QPalette::Text);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QStringList tips;
    double top = 0.0;
    const double dot = std::max(3.0, QFontMetricsF(font()).height() * 0.3);
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const Box& box = m_boxes[i];
        const double key = static_cast<double>(i);
        ticker->addTick(key, box.label);
        const Figures f = figuresOf(box.values_ms);
        top = std::max(top, f.max);
        auto* plottable = new QCPStatisticalBox(xAxis, yAxis);
        QColor fill = box.color;
        fill.setAlpha(110);
        plottable->setBrush(fill);
        plottable->setPen(QPen(box.color.darker(130), 1.2));
        plottable->setMedianPen(QPen(text, 2.0));
        plottable->setWhiskerPen(QPen(text, 1.0, Qt::SolidLine));
        plottable->setWhiskerBarPen(QPen(text, 1.2));
        plottable->setWidth(0.5);
        plottable->setSelectable(QCP::stNone);
        if (!box.values_ms.empty()) plottable->addData(key, f.min, f.q1, f.median, f.q3, f.max);
        // Every step as a dot, spread across the box in step order so that a trend shows.
        auto* dots = new QCPGraph(xAxis, yAxis);
        dots->setLineStyle(QCPGraph::lsNone);
        dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, box.color.darker(150), dot));
        dots->setSelectable(QCP::stNone);
        const std::size_t n = box.values_ms.size();
        for (std::size_t s = 0; s < n; ++s) {
            const double offset =
                n > 1 ? -0.2 + 0.4 * static_cast<double>(s) / static_cast<double>(n - 1) : 0.0;
            dots->addData(key + offset, box.values_ms[s]);
        }
        tips << tr("<b>%1</b> over %n step(s)<br>fastest %2, lower quartile %3<br>median %4<br>upper "
                   "quartile %5, slowest %6",
                   nullptr, static_cast<int>(n))
                    .arg(box.label.toHtmlEscaped(), msText(f.min), msText(f.q1), msText(f.median),
                         msText(f.q3), msText(f.max));
    }
    setCategoryTips(tips);
    xAxis->setTicker(ticker);
    xAxis->setTickLength(0, 0);
    xAxis->setSubTicks(false);
    xAxis->setRange(-0.5, std::max<int>(1, static_cast<int>(m_boxes.size())) - 0.5);
    yAxis->setRange(0.0, top > 0.0 ? top * 1.08 : 1.0);
    fitLabels();
    replot();
}

}  // namespace cl::views
