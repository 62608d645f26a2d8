#include "views/profiles/profile_breakdown_chart.h"

#include <algorithm>

#include <QFontMetrics>
#include <QResizeEvent>

#include "views/common/duration_text.h"

namespace cl::views {

namespace {

constexpr double kBarWidth = 0.62;
constexpr StageResource kStackOrder[] = {StageResource::Storage, StageResource::LoadCpu,
                                         StageResource::Cpu,     StageResource::Gpu,
                                         StageResource::Network, StageResource::Other};

double sumMs(const std::vector<StageSegment>& segments, StageResource resource) {
    double s = 0.0;
    for (const StageSegment& seg : segments)
        if (seg.resource == resource) s += seg.seconds * 1000.0;
    return s;
}

}  // namespace

ProfileBreakdownChart::ProfileBreakdownChart(QWidget* parent) : ProfilePlot(parent) {
    setToolTip(QString());
    xAxis->setLabel(tr("milliseconds per iteration"));
    yAxis->setRangeReversed(true);  // the first model on top, as in the table
    yAxis->grid()->setVisible(false);
    restyle();
    clear();
}

QSize ProfileBreakdownChart::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 80, fm.height() * (8 + 2 * std::max<int>(4, int(m_bars.size())))};
}

QSize ProfileBreakdownChart::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 40, fm.height() * 12};
}

void ProfileBreakdownChart::setBars(const std::vector<Bar>& bars, const QString& title) {
    m_bars = bars;
    m_titleText = title;
    if (m_highlighted >= static_cast<int>(m_bars.size())) m_highlighted = -1;
    rebuild();
}

void ProfileBreakdownChart::clear(const QString& message) {
    m_bars.clear();
    m_titleText = message.isEmpty() ? tr("Time per iteration by resource") : message;
    m_highlighted = -1;
    rebuild();
}

void ProfileBreakdownChart::setHighlighted(int index) {
    if (index == m_highlighted) return;
    m_highlighted = index;
    rebuild();
}

double ProfileBreakdownChart::drawnMs(int index, StageResource resource) const {
    if (index < 0 || index >= static_cast<int>(m_bars.size())) return 0.0;
    return sumMs(m_bars[static_cast<std::size_t>(index)].segments, resource);
}

void ProfileBreakdownChart::restyle() {
    ProfilePlot::restyle();
    if (!m_titleText.isNull()) rebuild();
}

void ProfileBreakdownChart::rebuild() {
    clearPlottables();
    clearItems();
    setTitle(m_titleText);
    const int n = static_cast<int>(m_bars.size());
    const QColor text = palette().color(QPalette::Text);

    QCPBars* below = nullptr;
    double right = 0.0;
    std::vector<double> totals(static_cast<std::size_t>(n), 0.0);
    auto addStack = [&](const QString& name, const QColor& color, auto valueOf) {
        QVector<double> keys, values;
        bool any = false;
        for (int i = 0; i < n; ++i) {
            const double v = valueOf(m_bars[static_cast<std::size_t>(i)]);
            keys << i;
            values << v;
            any = any || v > 0.0;
            totals[static_cast<std::size_t>(i)] += v;
        }
        if (!any) return;
        auto* bars = new QCPBars(yAxis, xAxis);
        bars->setName(name);
        bars->setWidth(kBarWidth);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(140), 0.8));
        bars->setSelectable(QCP::stNone);
        bars->setData(keys, values, true);
        if (below) bars->moveAbove(below);
        below = bars;
    };
    for (StageResource resource : kStackOrder)
        addStack(stageResourceName(resource), stageResourceColor(resource),
                 [resource](const Bar& bar) { return sumMs(bar.segments, resource); });
    // A profile without stages: its iteration time, in a neutral grey halfway between page
    // and text so that it shows on both themes and never reads as one of the resources.
    QColor plain = palette().color(QPalette::Base);
    plain = QColor((plain.red() + text.red()) / 2, (plain.green() + text.green()) / 2,
                   (plain.blue() + text.blue()) / 2);
    addStack(tr("iteration (no stages)"), plain,
             [](const Bar& bar) { return bar.segments.empty() ? bar.iteration_s * 1000.0 : 0.0; });

    // The iteration time on every bar with stages: the stages need not add up to it (stages of
    // different jobs interleave; a job alone runs at its iteration time, section 4.5).
    QVector<double> markKeys, markValues;
    for (int i = 0; i < n; ++i) {
        const Bar& bar = m_bars[static_cast<std::size_t>(i)];
        right = std::max({right, totals[static_cast<std::size_t>(i)], bar.iteration_s * 1000.0});
        if (!bar.segments.empty() && bar.iteration_s > 0.0) {
            markKeys << i;
            markValues << bar.iteration_s * 1000.0;
        }
    }
    if (!markKeys.isEmpty()) {
        auto* marks = new QCPGraph(yAxis, xAxis);
        marks->setName(tr("iteration time"));
        marks->setLineStyle(QCPGraph::lsNone);
        const double size = QFontMetricsF(font()).height() * 0.7;
        marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(text, 1.2),
                                               palette().brush(QPalette::Base), size));
        marks->setSelectable(QCP::stNone);
        marks->setData(markKeys, markValues, true);
    }
    if (m_highlighted >= 0 && m_highlighted < n) {
        auto* frame = new QCPItemRect(this);
        frame->topLeft->setAxes(xAxis, yAxis);
        frame->bottomRight->setAxes(xAxis, yAxis);
        frame->topLeft->setCoords(0.0, m_highlighted - kBarWidth / 2 - 0.12);
        const double width = std::max(totals[static_cast<std::size_t>(m_highlighted)],
                                      m_bars[static_cast<std::size_t>(m_highlighted)].iteration_s * 1000.0);
        frame->bottomRight->setCoords(width, m_highlighted + kBarWidth / 2 + 0.12);
        frame->setPen(QPen(palette().color(QPalette::Highlight), 2.0));
        frame->setBrush(Qt::NoBrush);
        frame->setSelectable(false);
    }

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QStringList tips;
    for (int i = 0; i < n; ++i) {
        const Bar& bar = m_bars[static_cast<std::size_t>(i)];
        ticker->addTick(i, bar.label);
        QStringList lines{QStringLiteral("<b>%1</b>").arg(bar.label.toHtmlEscaped())};
        if (!bar.note.isEmpty()) lines << bar.note.toHtmlEscaped();
        for (const StageSegment& seg : bar.segments)
            lines << tr("%1: %2").arg(stageResourceName(seg.resource), msText(seg.seconds * 1000.0));
        if (bar.segments.empty()) lines << tr("no stage times");
        lines << tr("iteration: %1").arg(msText(bar.iteration_s * 1000.0));
        tips << lines.join(QStringLiteral("<br>"));
    }
    setCategoryTips(tips);
    yAxis->setTicker(ticker);
    yAxis->setTickLength(0, 0);
    yAxis->setSubTicks(false);
    // Room for at least four bars, so that one or two models do not make slabs of bars.
    yAxis->setRange(-0.5, std::max(n, 4) - 0.5);
    xAxis->setRange(0.0, right > 0.0 ? right * 1.06 : 1.0);
    legend->setVisible(plottableCount() > 0);
    fitLegend();
    replot();
}

void ProfileBreakdownChart::resizeEvent(QResizeEvent* event) {
    ProfilePlot::resizeEvent(event);
    fitLegend();
    replot(rpQueuedReplot);
}

// As many legend entries to a row as fit whole. QCustomPlot squeezes a row wider than the chart,
// so that each name ran under the next entry's swatch; and a new wrap only applies to entries
// added after it unless the legend is rearranged.
void ProfileBreakdownChart::fitLegend() {
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)  // the grid's cells, empty ones too
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    const int room = width() - legend->margins().left() - legend->margins().right();
    // Entry i goes to column i % columns; each column is as wide as its widest entry.
    int columns = std::max<int>(1, static_cast<int>(widths.size()));
    for (; columns > 1; --columns) {
        std::vector<int> column(static_cast<std::size_t>(columns), 0);
        for (std::size_t i = 0; i < widths.size(); ++i)
            column[i % column.size()] = std::max(column[i % column.size()], widths[i]);
        int needed = (columns - 1) * legend->columnSpacing();
        for (int w : column) needed += w;
        if (needed <= room) break;
    }
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true);
}

}  // namespace cl::views
