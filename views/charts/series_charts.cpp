#include "views/charts/series_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QAction>
#include <QEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QKeySequence>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QStackedLayout>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include "views/common/chart_export.h"
#include "views/common/chart_style.h"
#include "views/common/series_thinning.h"

namespace cl::views {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr SeriesGroup kGroups[] = {SeriesGroup::Utilization, SeriesGroup::QueueLength,
                                   SeriesGroup::RunningJobs, SeriesGroup::BlockingIndex};

// A line style per utilization resource so that runs keep their colour. Allocated CPU and
// memory are thicker than what is busy, dashed and dotted; patterns are in pen widths and
// short enough to show in a legend marker.
void styleFor(QPen& pen, const QString& key) {
    if (key == QLatin1String("cpu"))
        pen.setStyle(Qt::DashLine);
    else if (key == QLatin1String("storage"))
        pen.setStyle(Qt::DotLine);
    else if (key == QLatin1String("network"))
        pen.setStyle(Qt::DashDotLine);
    else if (key == QLatin1String("cpu-allocated") || key == QLatin1String("memory-allocated")) {
        pen.setWidthF(2.0 * pen.widthF());
        pen.setDashPattern(key == QLatin1String("cpu-allocated") ? QList<qreal>{2.5, 1.25}
                                                                 : QList<qreal>{0.75, 1.0});
    } else {
        pen.setStyle(Qt::SolidLine);
    }
}

// 1, 2, 2.5 or 5 times a power of ten, giving about `ticks` intervals over span.
// Utilization is the headline chart and carries the legend; the bottom chart carries the
// time axis labels. The plot areas end up about equally tall.
int stretchOf(SeriesGroup group) {
    switch (group) {
        case SeriesGroup::Utilization:
            return 9;
        case SeriesGroup::BlockingIndex:
            return 8;
        default:
            return 6;
    }
}

// Changes range and tick interval without passing through a state where the old interval
// meets the new range (thousands of tick items, which Qt Charts lays out very slowly).
void setAxis(QValueAxis* axis, double min, double max, double interval) {
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setTickCount(2);
    axis->setRange(min, max);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(interval);
    axis->setTickType(QValueAxis::TicksDynamic);
}

}  // namespace

struct SeriesCharts::Line {
    int run = 0;
    QString key;
    QVector<double> t;  // axis units
    QVector<double> v;
    QLineSeries* series = nullptr;
};

struct SeriesCharts::Panel {
    SeriesGroup group = SeriesGroup::Utilization;
    QChartView* view = nullptr;
    QChart* chart = nullptr;
    QValueAxis* x = nullptr;
    QValueAxis* y = nullptr;
    QGraphicsLineItem* cursor = nullptr;
    std::vector<Line> lines;
};

SeriesCharts::SeriesCharts(QWidget* parent) : QWidget(parent), m_cursor(kNaN) {
    m_stack = new QStackedLayout(this);
    m_message = new QLabel(tr("Utilization and queue charts appear here when a run has finished"), this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_message);
    // Each chart keeps at least kMinChartHeight: on a short screen (1366x768 with the docks) the
    // four scroll rather than shrink to unreadable strips.
    m_chartsScroll = new QScrollArea(this);
    m_chartsScroll->setObjectName(QStringLiteral("seriesChartsScroll"));
    m_chartsScroll->setFrameShape(QFrame::NoFrame);
    m_chartsScroll->setWidgetResizable(true);
    m_chartsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chartsPage = new QWidget(m_chartsScroll);
    m_chartsScroll->setWidget(m_chartsPage);
    // Scrolled, the bottom chart's time labels may be out of sight: each chart then has its own.
    m_chartsScroll->viewport()->installEventFilter(this);
    m_stack->addWidget(m_chartsScroll);
    buildPanels();

    auto* reset = new QAction(tr("Reset &Zoom"), this);
    reset->setShortcut(QKeySequence(Qt::Key_Home));
    reset->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    reset->setToolTip(tr("Show the whole time span again (Home)"));
    connect(reset, &QAction::triggered, this, &SeriesCharts::resetZoom);
    auto* exportAction = new QAction(tr("&Export Charts\u2026"), this);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    exportAction->setToolTip(tr("Save the charts as PNG, SVG or PDF (Ctrl+Shift+E)"));
    connect(exportAction, &QAction::triggered, this, &SeriesCharts::exportCharts);
    addAction(reset);
    addAction(exportAction);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    setToolTip(tr("Hover to move the time cursor, wheel to zoom in time, Home to reset"));
    clear();
}

SeriesCharts::~SeriesCharts() = default;

void SeriesCharts::buildPanels() {
    auto* layout = new QVBoxLayout(m_chartsPage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    for (SeriesGroup group : kGroups) {
        auto panel = std::make_unique<Panel>();
        panel->group = group;
        panel->chart = new QChart;
        panel->chart->setBackgroundRoundness(0);
        panel->chart->layout()->setContentsMargins(0, 0, 0, 0);
        panel->chart->legend()->setAlignment(Qt::AlignTop);
        panel->chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
        panel->x = new QValueAxis(panel->chart);
        panel->y = new QValueAxis(panel->chart);
        panel->chart->addAxis(panel->x, Qt::AlignBottom);
        panel->chart->addAxis(panel->y, Qt::AlignLeft);
        // Two lines ("Queue" over "(jobs)"): in one line the title of a short panel is cut to
        // "Queue (\u2026".
        panel->y->setTitleText(groupAxisLabel(group).replace(QLatin1Char(' '), QStringLiteral("<br>")));
        panel->x->setLabelFormat(QStringLiteral("%g"));
        panel->cursor = new QGraphicsLineItem(panel->chart);
        panel->cursor->setZValue(1000);
        panel->cursor->setVisible(false);
        panel->view = new QChartView(panel->chart, m_chartsPage);
        panel->view->setMinimumHeight(kMinChartHeight);
        // "seriesChart0" (utilization) to "seriesChart3" (blocking index), top to bottom.
        panel->view->setObjectName(QStringLiteral("seriesChart%1").arg(m_panels.size()));
        panel->view->setRenderHint(QPainter::Antialiasing);
        panel->view->setMouseTracking(true);
        panel->view->viewport()->setMouseTracking(true);
        panel->view->viewport()->installEventFilter(this);
        panel->view->setFocusPolicy(Qt::StrongFocus);
        panel->view->setContextMenuPolicy(Qt::NoContextMenu);
        panel->view->setToolTip(QString());
        QChart* chart = panel->chart;
        connect(chart, &QChart::plotAreaChanged, this, [this] { updateCursors(); });
        layout->addWidget(panel->view, stretchOf(group));
        panel->view->installEventFilter(this);
        m_panels.push_back(std::move(panel));
    }
    applyStyle();
}

void SeriesCharts::applyStyle() {
    const QPalette pal = palette();
    const QFontMetrics fm(font());
    const int m = fm.averageCharWidth();
    QFont small = font();
    QFont axisTitle = font();
    axisTitle.setBold(true);
    const QColor text = pal.color(QPalette::Text);
    QColor grid = pal.color(QPalette::Text);
    grid.setAlpha(40);
    QColor axisLine = pal.color(QPalette::Text);
    axisLine.setAlpha(120);
    for (const auto& panel : m_panels) {
        panel->chart->setMargins(QMargins(m, m / 2, 2 * m, m / 2));
        panel->chart->setBackgroundBrush(pal.brush(QPalette::Base));
        panel->chart->setBackgroundPen(Qt::NoPen);
        panel->chart->setPlotAreaBackgroundVisible(false);
        panel->chart->legend()->setFont(small);
        panel->chart->legend()->setLabelColor(text);
        for (QValueAxis* axis : {panel->x, panel->y}) {
            axis->setLabelsFont(small);
            axis->setLabelsColor(text);
            axis->setTitleFont(axisTitle);
            axis->setTitleBrush(text);
            axis->setGridLineColor(grid);
            axis->setLinePenColor(axisLine);
            axis->setMinorGridLineVisible(false);
        }
        // Neutral, so that it never reads as one of the runs.
        QColor cursorColor = pal.color(QPalette::Text);
        cursorColor.setAlpha(170);
        QPen cursorPen(cursorColor, 1.2, Qt::DashLine);
        panel->cursor->setPen(cursorPen);
    }
    m_message->setFont(font());
}

void SeriesCharts::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) applyStyle();
}

QSize SeriesCharts::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 120, fm.height() * 44};
}

QSize SeriesCharts::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 40, fm.height() * 24};
}

void SeriesCharts::clear() {
    setRunSeries({});
}

void SeriesCharts::setRuns(const QList<ChartRun>& runs) {
    QList<ChartRunSeries> extracted;
    extracted.reserve(runs.size());
    for (const ChartRun& run : runs)
        extracted.push_back({run.title, run.result ? extractRunSeries(*run.result) : RunSeries{}});
    setRunSeries(extracted);
}

void SeriesCharts::setRunSeries(const QList<ChartRunSeries>& runs) {
    m_runs = runs;
    double t0 = std::numeric_limits<double>::infinity();
    double t1 = -std::numeric_limits<double>::infinity();
    for (const ChartRunSeries& run : m_runs)
        for (const NamedSeries& s : run.series.series)
            if (!s.t.isEmpty()) {
                t0 = std::min(t0, s.t.front());
                t1 = std::max(t1, s.t.back());
            }
    const bool any = t0 <= t1;
    if (!any) {
        t0 = 0.0;
        t1 = 3600.0;
    }
    // The axis starts at the trace start (time zero) unless the data begins before it.
    m_dataT0 = std::min(0.0, t0);
    m_dataT1 = std::max(t1, m_dataT0 + 60.0);
    m_unitSeconds = (m_dataT1 - m_dataT0) <= 2.0 * 86400.0 ? 3600.0 : 86400.0;
    m_viewT0 = m_dataT0;
    m_viewT1 = m_dataT1;
    rebuildLines();
    updateAxes();
    refreshPoints();
    updateCursors();
    m_stack->setCurrentWidget(any ? static_cast<QWidget*>(m_chartsScroll) : m_message);
    scheduleAlign();
    emit visibleRangeChanged(m_viewT0, m_viewT1);
}

int SeriesCharts::runCount() const {
    return int(m_runs.size());
}

QColor SeriesCharts::runColor(int run) const {
    const int color = run >= 0 && run < int(m_runs.size()) ? m_runs[run].color : -1;
    return seriesColor(color >= 0 ? color : run);
}

int SeriesCharts::chartCount() const {
    return int(m_panels.size());
}

SeriesGroup SeriesCharts::chartGroup(int chart) const {
    return m_panels.at(size_t(chart))->group;
}
QGraphicsLineItem* SeriesCharts::cursorLine(int chart) const {
    return m_panels.at(size_t(chart))->cursor;
}

QLineSeries* SeriesCharts::series(int chart, int run, const QString& key) const {
    if (chart < 0 || chart >= chartCount()) return nullptr;
    for (const Line& line : m_panels[size_t(chart)]->lines)
        if (line.run == run && (key.isEmpty() || line.key == key)) return line.series;
    return nullptr;
}

void SeriesCharts::rebuildLines() {
    for (const auto& panel : m_panels) {
        for (Line& line : panel->lines) {
            panel->chart->removeSeries(line.series);
            delete line.series;
        }
        panel->lines.clear();
        for (int run = 0; run < int(m_runs.size()); ++run) {
            const std::vector<const NamedSeries*> members = m_runs[run].series.inGroup(panel->group);
            for (const NamedSeries* s : members) {
                Line line;
                line.run = run;
                line.key = s->key;
                line.t.reserve(s->t.size());
                for (double t : s->t) line.t.push_back(t / m_unitSeconds);
                line.v = s->v;
                line.series = new QLineSeries;
                // Several resources in one chart are told apart by the line style and name.
                line.series->setName(members.size() > 1 ? tr("%1 \u00b7 %2").arg(m_runs[run].title, s->name)
                                                        : m_runs[run].title);
                QPen pen(runColor(run));
                pen.setWidthF(1.6);
                styleFor(pen, s->key);
                // Crisp corners on the steps at any export resolution.
                pen.setCapStyle(Qt::FlatCap);
                pen.setJoinStyle(Qt::MiterJoin);
                line.series->setPen(pen);
                panel->chart->addSeries(line.series);
                line.series->attachAxis(panel->x);
                line.series->attachAxis(panel->y);
                panel->lines.push_back(std::move(line));
            }
        }
        // One legend for the stack: colours mean the same run in every chart.
        panel->chart->legend()->setVisible(!panel->lines.empty() && panel.get() == m_panels.front().get());
    }
}

void SeriesCharts::updateAxes() {
    const double a = m_viewT0 / m_unitSeconds;
    const double b = m_viewT1 / m_unitSeconds;
    const QString unit = m_unitSeconds >= 86400.0 ? tr("Time (days)") : tr("Time (h)");
    for (size_t i = 0; i < m_panels.size(); ++i) {
        Panel& panel = *m_panels[i];
        setAxis(panel.x, a, b, niceStep(b - a, 10));
        // Small multiples: the time labels and title only under the bottom chart (under every
        // chart while they scroll).
        const bool bottom = i + 1 == m_panels.size();
        panel.x->setLabelsVisible(bottom || m_scrolling);
        panel.x->setTitleText(bottom ? unit : QString());
        panel.x->setTitleVisible(bottom);

        fitValueAxis(panel);
    }
}

void SeriesCharts::fitValueAxis(Panel& panel) {
    // As many ticks as the panel's height has room for: Qt Charts elides a label ("\u2026") whose
    // share of the axis is lower than the text, so a short panel gets fewer, wider steps. Queue
    // length and running jobs count jobs: integer steps, or "%.0f" repeats a rounded "0".
    // Qt Charts gives each of the n + 1 labels the n + 1st part of the axis less twice its label
    // padding (5 pixels).
    const double plotHeight = panel.chart->plotArea().height();
    const double perLabel = QFontMetricsF(panel.y->labelsFont()).height() + 2 * 5.0 + 2.0;
    const int intervals = plotHeight > 0.0 ? std::clamp(int(plotHeight / perLabel) - 1, 1, 4) : 4;
    double top = 0.0;
    for (const Line& line : panel.lines)
        for (double v : line.v)
            if (std::isfinite(v)) top = std::max(top, v);
    double step = 0.0;
    switch (panel.group) {
        case SeriesGroup::Utilization:
            top = 100.0;
            step = intervals >= 4 ? 25.0 : intervals >= 2 ? 50.0 : 100.0;
            break;
        case SeriesGroup::BlockingIndex:
            step = niceStep(std::max(top, 0.1), intervals);
            break;
        case SeriesGroup::QueueLength:
        case SeriesGroup::RunningJobs:
            step = std::max(1.0, niceStep(std::max(top, 1.0), intervals));
            break;
    }
    top = std::max(step, std::ceil(std::max(top, 1e-12) / step - 1e-9) * step);
    const QString format =
        panel.group == SeriesGroup::BlockingIndex ? QStringLiteral("%.3g") : QStringLiteral("%.0f");
    if (panel.y->min() == 0.0 && panel.y->max() == top && panel.y->tickInterval() == step &&
        panel.y->labelFormat() == format)
        return;
    setAxis(panel.y, 0.0, top, step);
    panel.y->setLabelFormat(format);
}

void SeriesCharts::refreshPoints() {
    const double a = m_viewT0 / m_unitSeconds;
    const double b = m_viewT1 / m_unitSeconds;
    for (const auto& panel : m_panels) {
        // About one min/max bucket per pixel of the plot; at least a screenful for hidden widgets.
        const int buckets = std::max(600, int(panel->chart->plotArea().width()));
        for (Line& line : panel->lines) {
            // The visible slice plus one sample either side, so lines reach the edges.
            qsizetype lo = std::lower_bound(line.t.cbegin(), line.t.cend(), a) - line.t.cbegin();
            qsizetype hi = std::upper_bound(line.t.cbegin(), line.t.cend(), b) - line.t.cbegin();
            lo = std::max<qsizetype>(0, lo - 1);
            hi = std::min<qsizetype>(line.t.size(), hi + 1);
            const bool whole = lo == 0 && hi == line.t.size();
            const ThinnedSeries thin =
                whole ? thinMinMax(line.t, line.v, buckets)
                      : thinMinMax(line.t.mid(lo, hi - lo), line.v.mid(lo, hi - lo), buckets);
            // Samples hold until the next event: draw steps, each sample followed by the
            // point where the next one replaces it.
            QList<QPointF> points;
            points.reserve(2 * thin.t.size());
            for (qsizetype i = 0; i < thin.t.size(); ++i) {
                points.append(QPointF(thin.t[i], thin.v[i]));
                if (i + 1 < thin.t.size()) points.append(QPointF(thin.t[i + 1], thin.v[i]));
            }
            line.series->replace(points);
        }
    }
}

void SeriesCharts::setVisibleRange(double t0, double t1) {
    const double data_span = m_dataT1 - m_dataT0;
    const double min_span = std::max(1.0, data_span * 1e-5);
    if (!(t1 - t0 >= min_span)) {
        const double mid = 0.5 * (t0 + t1);
        t0 = mid - 0.5 * min_span;
        t1 = mid + 0.5 * min_span;
    }
    if (t1 - t0 >= data_span) {
        t0 = m_dataT0;
        t1 = m_dataT1;
    } else if (t0 < m_dataT0) {
        t1 += m_dataT0 - t0;
        t0 = m_dataT0;
    } else if (t1 > m_dataT1) {
        t0 -= t1 - m_dataT1;
        t1 = m_dataT1;
    }
    if (t0 == m_viewT0 && t1 == m_viewT1) return;
    m_viewT0 = t0;
    m_viewT1 = t1;
    updateAxes();
    refreshPoints();
    updateCursors();
    emit visibleRangeChanged(m_viewT0, m_viewT1);
}

void SeriesCharts::zoomTime(double factor, double anchor) {
    if (!(factor > 0.0)) return;
    if (!std::isfinite(anchor)) anchor = 0.5 * (m_viewT0 + m_viewT1);
    setVisibleRange(anchor - (anchor - m_viewT0) * factor, anchor + (m_viewT1 - anchor) * factor);
}

void SeriesCharts::resetZoom() {
    setVisibleRange(m_dataT0, m_dataT1);
}

void SeriesCharts::setTimeCursor(double seconds) {
    m_cursor = seconds;
    updateCursors();
}

void SeriesCharts::updateCursors() {
    const double x = m_cursor / m_unitSeconds;
    for (const auto& panel : m_panels) {
        const QRectF plot = panel->chart->plotArea();
        const double a = panel->x->min(), b = panel->x->max();
        const bool show =
            std::isfinite(x) && x >= a && x <= b && b > a && plot.width() > 0 && !panel->lines.empty();
        panel->cursor->setVisible(show);
        if (!show) continue;
        const double px = plot.left() + (x - a) / (b - a) * plot.width();
        panel->cursor->setLine(px, plot.top(), px, plot.bottom());
    }
}

int SeriesCharts::panelOf(QObject* viewport) const {
    for (size_t i = 0; i < m_panels.size(); ++i)
        if (m_panels[i]->view->viewport() == viewport) return int(i);
    return -1;
}

double SeriesCharts::timeAt(int panel_index, const QPointF& viewport_pos, bool* inside) const {
    const Panel& panel = *m_panels[size_t(panel_index)];
    const QPointF scene = panel.view->mapToScene(viewport_pos.toPoint());
    const QPointF local = panel.chart->mapFromScene(scene);
    const QRectF plot = panel.chart->plotArea();
    if (inside) *inside = plot.contains(local);
    if (plot.width() <= 0) return kNaN;
    const double x =
        panel.x->min() + (local.x() - plot.left()) / plot.width() * (panel.x->max() - panel.x->min());
    return x * m_unitSeconds;
}

bool SeriesCharts::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize) scheduleAlign();
    if (watched == m_chartsScroll->viewport() && event->type() == QEvent::Resize) {
        const bool scrolling =
            m_chartsPage->minimumSizeHint().height() > m_chartsScroll->viewport()->height();
        if (scrolling != m_scrolling) {
            m_scrolling = scrolling;
            if (!m_runs.isEmpty()) updateAxes();
        }
        return QWidget::eventFilter(watched, event);
    }
    const int index = panelOf(watched);
    // Qt Charts 6.4's QChartView::mousePressEvent dereferences the item under the pointer without
    // a check: a press where no chart item lies would crash the app (found by the random-input
    // test), so such a press ends here.
    if (index >= 0 &&
        (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonDblClick)) {
        const Panel& panel = *m_panels[size_t(index)];
        const QPoint pos = static_cast<QMouseEvent*>(event)->position().toPoint();
        if (watched == panel.view->viewport() && !panel.view->itemAt(pos)) return true;
    }
    if (index < 0 || m_runs.isEmpty()) return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::MouseMove) {
        auto* move = static_cast<QMouseEvent*>(event);
        bool inside = false;
        const double t = timeAt(index, move->position(), &inside);
        if (inside && std::isfinite(t)) {
            setTimeCursor(t);
            emit timeCursorChanged(t);
            // Values of every run at the cursor, as a tooltip of the hovered chart.
            const Panel& panel = *m_panels[size_t(index)];
            QStringList rows{tr("t = %1 %2")
                                 .arg(t / m_unitSeconds, 0, 'f', 2)
                                 .arg(m_unitSeconds >= 86400.0 ? tr("days") : tr("h"))};
            for (const Line& line : panel.lines) {
                const auto it = std::upper_bound(line.t.cbegin(), line.t.cend(), t / m_unitSeconds);
                if (it == line.t.cbegin()) continue;
                const double v = line.v[(it - line.t.cbegin()) - 1];
                rows << tr("%1: %2").arg(line.series->name(), panel.group == SeriesGroup::BlockingIndex
                                                                  ? QString::number(v, 'g', 3)
                                                              : panel.group == SeriesGroup::Utilization
                                                                  ? tr("%1 %").arg(v, 0, 'f', 1)
                                                                  : QString::number(v, 'f', 0));
            }
            QToolTip::showText(move->globalPosition().toPoint(), rows.join('\n'), panel.view);
        }
    } else if (event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        const double notches = wheel->angleDelta().y() / 120.0;
        if (notches != 0.0) {
            bool inside = false;
            const double t = timeAt(index, wheel->position(), &inside);
            zoomTime(std::pow(0.8, notches), t);
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void SeriesCharts::layoutChart(Panel& panel, const QSizeF& size) {
    // Laid out now, not at the next event loop turn, so that the result can be rendered.
    panel.chart->setPlotArea(QRectF());
    panel.chart->resize(size);
    // Freeing the plot area does not invalidate the layout: without this a resized window
    // kept the old plot width (the charts did not follow a maximized window).
    panel.chart->layout()->invalidate();
    panel.chart->layout()->activate();
}

void SeriesCharts::alignPlotAreas() {
    m_alignPending = false;
    // Small multiples share the time axis: give every plot the same left and right edge.
    double left = 0.0, right = std::numeric_limits<double>::infinity();
    for (const auto& panel : m_panels) {
        layoutChart(*panel, panel->chart->size());
        fitValueAxis(*panel);
        layoutChart(*panel, panel->chart->size());
        left = std::max(left, panel->chart->plotArea().left());
        right = std::min(right, panel->chart->plotArea().right());
    }
    if (right > left)
        for (const auto& panel : m_panels) {
            const QRectF plot = panel->chart->plotArea();
            panel->chart->setPlotArea(QRectF(left, plot.top(), right - left, plot.height()));
        }
    updateCursors();
}

void SeriesCharts::scheduleAlign() {
    if (m_alignPending) return;
    m_alignPending = true;
    QMetaObject::invokeMethod(
        this, [this] { alignPlotAreas(); }, Qt::QueuedConnection);
}

void SeriesCharts::restoreOnScreenLayout() {
    for (const auto& panel : m_panels) layoutChart(*panel, panel->view->viewport()->size());
    alignPlotAreas();
}

void SeriesCharts::renderPanel(Panel& panel, QPainter& painter, const QRectF& target) {
    panel.chart->scene()->render(&painter, target, panel.chart->sceneBoundingRect(), Qt::IgnoreAspectRatio);
}

void SeriesCharts::paintChart(int index, QPainter& painter, const QRectF& rect) {
    Panel& panel = *m_panels.at(size_t(index));
    // A chart exported alone carries its own legend and time axis labels.
    const bool legend = panel.chart->legend()->isVisible();
    const QString title = panel.x->titleText();
    panel.chart->legend()->setVisible(!panel.lines.empty());
    panel.x->setLabelsVisible(true);
    panel.x->setTitleText(m_unitSeconds >= 86400.0 ? tr("Time (days)") : tr("Time (h)"));
    panel.x->setTitleVisible(true);
    layoutChart(panel, rect.size());
    fitValueAxis(panel);
    layoutChart(panel, rect.size());
    panel.cursor->setVisible(false);  // the hover cursor is no part of an export
    renderPanel(panel, painter, rect);
    panel.chart->legend()->setVisible(legend);
    panel.x->setLabelsVisible(!title.isEmpty());
    panel.x->setTitleText(title);
    panel.x->setTitleVisible(!title.isEmpty());
    restoreOnScreenLayout();
}

void SeriesCharts::paint(QPainter& painter, const QRectF& rect) {
    if (m_stack->currentWidget() == m_message) {
        renderWidget(painter, rect, m_message);
        return;
    }
    int total = 0;
    for (const auto& panel : m_panels) total += stretchOf(panel->group);
    std::vector<QRectF> targets;
    double y = rect.top();
    for (const auto& panel : m_panels) {
        const double h = rect.height() * stretchOf(panel->group) / total;
        targets.emplace_back(rect.left(), y, rect.width(), h);
        layoutChart(*panel, targets.back().size());
        fitValueAxis(*panel);
        layoutChart(*panel, targets.back().size());
        y += h;
    }
    double left = 0.0, right = std::numeric_limits<double>::infinity();
    for (const auto& panel : m_panels) {
        left = std::max(left, panel->chart->plotArea().left());
        right = std::min(right, panel->chart->plotArea().right());
    }
    for (const auto& panel : m_panels) {
        const QRectF plot = panel->chart->plotArea();
        if (right > left) panel->chart->setPlotArea(QRectF(left, plot.top(), right - left, plot.height()));
    }
    // The hover cursor is no part of an export; restoreOnScreenLayout puts it back.
    for (const auto& panel : m_panels) panel->cursor->setVisible(false);
    for (size_t i = 0; i < m_panels.size(); ++i) renderPanel(*m_panels[i], painter, targets[i]);
    restoreOnScreenLayout();
}

void SeriesCharts::exportCharts() {
    ExportDialog dialog(this);
    QString path;
    ExportOptions options;
    if (!dialog.ask(&path, &options)) return;
    QString error;
    if (!exportPainting(
            path, options, [this](QPainter& p, const QRectF& r) { paint(p, r); }, &error))
        QMessageBox::warning(this, tr("Export Charts"), error);
}

}  // namespace cl::views
