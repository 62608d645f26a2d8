#include "views/timeline/timeline_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <QApplication>
#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "views/common/chart_style.h"
#include "views/common/format.h"

namespace cl::views {

namespace {

constexpr double kMinSpan = 1.0;  // seconds: the deepest zoom
constexpr std::size_t kCacheSize = 8;

QColor bottleneckColor(int b) {
    switch (b) {
        case 0:
            return categoryColor(1);  // data loading: orange
        case 1:
            return categoryColor(4);  // GPU: green
        case 2:
            return categoryColor(0);  // network: blue
        default:
            return categoryColor(9);
    }
}

QString bottleneckName(int b) {
    switch (b) {
        case 0:
            return TimelineView::tr("data loading (storage + CPU)");
        case 1:
            return TimelineView::tr("GPU compute");
        case 2:
            return TimelineView::tr("network");
        default:
            return TimelineView::tr("no profile");
    }
}

// Clock-style tick label: "14:30", "14:30:05", "3d 04:00" or "12d".
QString tickLabel(double t, double step, bool withDays) {
    const auto total = static_cast<long long>(std::llround(t));
    const long long days = total / 86400;
    const long long rest = total % 86400;
    const auto two = [](long long v) { return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0')); };
    if (step >= 86400.0) return TimelineView::tr("%1d").arg(days);
    QString clock = QStringLiteral("%1:%2").arg(two(rest / 3600), two((rest % 3600) / 60));
    if (step < 60.0) clock += QLatin1Char(':') + two(rest % 60);
    return withDays ? TimelineView::tr("%1d %2").arg(days).arg(clock) : clock;
}

// Cores and GB to one decimal, without a trailing ".0": "12", "62.5".
QString amount(double v) {
    return QLocale().toString(std::round(v * 10.0) / 10.0, 'g', QLocale::FloatingPointShortest);
}

// A slowdown or speed ratio to two decimals, without trailing zeros: "1.8", "1.25".
QString ratio(double v) {
    return QLocale().toString(std::round(v * 100.0) / 100.0, 'g', QLocale::FloatingPointShortest);
}

// The clock-friendly step (seconds, minutes, hours, days, weeks) at least minStep long.
double clockStep(double minStep) {
    static const double steps[] = {1,     2,     5,         10,        15,         30,        60,    120,
                                   300,   600,   900,       1800,      3600,       7200,      10800, 21600,
                                   43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400};
    for (double s : steps)
        if (s >= minStep) return s;
    return std::ceil(minStep / (28 * 86400.0)) * 28 * 86400.0;
}

// The fold toggle of a server, centred in `toggle` with half-size s: a triangle pointing right
// when folded, down when expanded.
QPainterPath foldTriangle(const QRectF& toggle, double s, bool folded) {
    const double cx = toggle.center().x(), cy = toggle.center().y();
    QPainterPath tri;
    if (folded) {
        tri.moveTo(cx - s * 0.6, cy - s);
        tri.lineTo(cx + s * 0.8, cy);
        tri.lineTo(cx - s * 0.6, cy + s);
    } else {
        tri.moveTo(cx - s, cy - s * 0.6);
        tri.lineTo(cx + s, cy - s * 0.6);
        tri.lineTo(cx, cy + s * 0.8);
    }
    tri.closeSubpath();
    return tri;
}

}  // namespace

QRectF TimelineView::Geometry::plot() const {
    return {area.left() + header, area.top() + axis + strip, std::max(1.0, area.width() - header),
            std::max(1.0, area.height() - axis - strip)};
}

TimelineView::TimelineView(QWidget* parent)
    : QAbstractScrollArea(parent),
      m_cursor(std::numeric_limits<double>::quiet_NaN()),
      m_selectedTime(std::numeric_limits<double>::quiet_NaN()) {
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(QString());
    setWhatsThis(
        tr("Per-GPU timeline. Wheel: zoom around the cursor; Shift+wheel: scroll rows; drag: pan; "
           "Shift+drag: zoom into a range; Home: whole run; +/-: zoom; click a bar to select its job; "
           "Esc: clear the selection."));
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int v) {
        viewport()->update();
        emit verticalScrolled(v);
    });
}

QSize TimelineView::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 120, fm.height() * 30};
}

QSize TimelineView::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 40, fm.height() * 8};
}

void TimelineView::setRun(const cl::Cluster& cluster, std::shared_ptr<const cl::SimResult> result,
                          const cl::ProfileSet* profiles) {
    m_result = std::move(result);
    m_profiles = profiles;
    m_layout.setData(cluster, m_result);
    m_cache.clear();
    m_groupings.reset();  // another run: its page computes them again when asked
    m_groupingHint.clear();
    m_selectedTime = std::numeric_limits<double>::quiet_NaN();
    m_selected = -1;
    m_selectedGpus.clear();
    m_selectedRuns.clear();
    m_models.clear();
    m_modelIndex.clear();
    m_bottleneck.clear();
    if (m_result) {
        // Model colours follow the profile set's order so that two runs colour alike.
        std::vector<std::string> order = profiles ? profiles->modelNames() : std::vector<std::string>{};
        std::set<std::string> extra;
        for (const auto& j : m_result->jobs)
            if (std::find(order.begin(), order.end(), j.model) == order.end()) extra.insert(j.model);
        order.insert(order.end(), extra.begin(), extra.end());
        m_models = order;
        for (const auto& j : m_result->jobs) {
            m_modelIndex.push_back(
                static_cast<int>(std::find(order.begin(), order.end(), j.model) - order.begin()));
            int b = -1;
            const cl::ModelProfile* mp = profiles ? profiles->find(j.model) : nullptr;
            const cl::GpuCountProfile* at = mp ? mp->at(j.gpus) : nullptr;
            if (at && !at->stage_times.empty()) {
                const auto it = std::max_element(at->stage_times.begin(), at->stage_times.end());
                if (*it > 0.0) b = std::min(2, static_cast<int>(it - at->stage_times.begin()));
            }
            m_bottleneck.push_back(b);
        }
    }
    m_t0 = m_layout.runStart();
    m_t1 = m_layout.runEnd();
    updateScrollBars();
    verticalScrollBar()->setValue(0);
    viewport()->update();
    emitRange();
}

void TimelineView::clear() {
    setRun(cl::Cluster{}, nullptr, nullptr);
}

void TimelineView::setColorMode(TimelineColorMode mode) {
    if (m_mode == mode) return;
    m_mode = mode;
    viewport()->update();
}

void TimelineView::setShowQueueing(bool show) {
    if (m_showQueueing == show) return;
    m_showQueueing = show;
    viewport()->update();
}

void TimelineView::setShowTimeAxis(bool show) {
    m_showAxis = show;
    updateScrollBars();
    viewport()->update();
}

void TimelineView::setServerCollapsed(int server, bool collapsed) {
    if (server < 0 || server >= m_layout.serverCount() || m_layout.isCollapsed(server) == collapsed) return;
    m_layout.setCollapsed(server, collapsed);
    updateScrollBars();
    viewport()->update();
    emit serverCollapsedChanged(server, collapsed);
}

void TimelineView::setAllCollapsed(bool collapsed) {
    for (int s = 0; s < m_layout.serverCount(); ++s) setServerCollapsed(s, collapsed);
}

void TimelineView::selectJob(int job) {
    if (job < -1 || job >= m_layout.jobCount()) job = -1;
    if (job == m_selected) return;
    m_selected = job;
    m_selectedGpus = m_layout.gpusOfJob(job);
    m_selectedRuns = m_layout.runningIntervals(job);
    viewport()->update();
    emit jobSelected(job);
}

bool TimelineView::isGpuHighlighted(int gpu) const {
    return std::binary_search(m_selectedGpus.begin(), m_selectedGpus.end(), gpu);
}

void TimelineView::setVisibleRange(double t0, double t1) {
    if (!(t1 > t0) || !std::isfinite(t0) || !std::isfinite(t1)) return;
    const double full = m_layout.runEnd() - m_layout.runStart();
    const double span = std::clamp(t1 - t0, std::min(kMinSpan, full), full);
    // Keep the centre unless that would leave the run; then slide the window back inside.
    const double centre = 0.5 * (t0 + t1);
    t0 = t1 - t0 == span ? t0 : centre - 0.5 * span;
    t0 = std::clamp(t0, m_layout.runStart(), m_layout.runEnd() - span);
    t1 = t0 + span;
    if (t0 == m_t0 && t1 == m_t1) return;
    m_t0 = t0;
    m_t1 = t1;
    viewport()->update();
    emitRange();
}

void TimelineView::setTimeCursor(double t) {
    if (t == m_cursor || (std::isnan(t) && std::isnan(m_cursor))) return;
    m_cursor = t;
    viewport()->update();
}

void TimelineView::emitRange() {
    emit visibleRangeChanged(m_t0, m_t1);
}

void TimelineView::zoomAround(double t, double factor) {
    const double full = m_layout.runEnd() - m_layout.runStart();
    const double span = std::clamp((m_t1 - m_t0) * factor, std::min(kMinSpan, full), full);
    const double f = (t - m_t0) / (m_t1 - m_t0);
    double t0 = t - f * span;
    t0 = std::clamp(t0, m_layout.runStart(), m_layout.runEnd() - span);
    setVisibleRange(t0, t0 + span);
}

void TimelineView::zoomToFit() {
    setVisibleRange(m_layout.runStart(), m_layout.runEnd());
}

// ---- geometry -------------------------------------------------------------------------

int TimelineView::rowHeight() const {
    // Rows grow with the deepest interleaving so that each lane stays readable.
    const double ems = std::clamp(0.55 * m_layout.maxLaneCount(), 1.25, 2.2);
    return std::max(4, static_cast<int>(std::ceil(QFontMetricsF(font()).height() * ems)));
}

double TimelineView::gpuColumnWidth(const QFontMetricsF& fm) const {
    // Described servers label their lanes "S0 · G1 · GPU 2".
    return fm.horizontalAdvance(m_layout.hasArchitectures() ? tr("S0 \u00b7 G0 \u00b7 GPU 00")
                                                            : tr("GPU 00"));
}

TimelineView::Geometry TimelineView::widgetGeometry() const {
    Geometry g;
    const QFontMetricsF fm(font());
    g.area = QRectF(viewport()->rect());
    QFont boldFont = font();
    boldFont.setBold(true);
    const QFontMetricsF bold(boldFont);  // server names are drawn bold
    double names = fm.horizontalAdvance(tr("GPU 00"));
    for (int s = 0; s < m_layout.serverCount(); ++s)
        names = std::max(names, bold.horizontalAdvance(QString::fromStdString(
                                    m_layout.cluster().servers[static_cast<std::size_t>(s)].name)));
    // Grouped lanes carry longer labels; a little more room keeps the server names whole.
    const double share = m_layout.hasArchitectures() ? 0.36 : 0.3;
    g.header = std::min(g.area.width() * share, names + gpuColumnWidth(fm) + fm.height() * 2.0);
    g.axis = m_showAxis ? std::ceil(fm.height() * 1.8) : 0.0;
    g.strip = std::ceil(fm.height() * 1.4);
    g.row = rowHeight();
    const int v = verticalScrollBar()->value();
    g.firstRow = static_cast<int>(v / g.row);
    g.rowOffset = v - g.firstRow * g.row;
    return g;
}

QRect TimelineView::plotRect() const {
    return widgetGeometry().plot().toAlignedRect();
}

double TimelineView::xOfTime(double t) const {
    const QRectF p = widgetGeometry().plot();
    return p.left() + (t - m_t0) / (m_t1 - m_t0) * p.width();
}

double TimelineView::timeAtX(double x) const {
    const QRectF p = widgetGeometry().plot();
    return m_t0 + (x - p.left()) / p.width() * (m_t1 - m_t0);
}

int TimelineView::rowAtY(int y) const {
    const Geometry g = widgetGeometry();
    const QRectF p = g.plot();
    if (y < p.top() || y >= p.bottom()) return -1;
    const int r = g.firstRow + static_cast<int>(std::floor((y - p.top() + g.rowOffset) / g.row));
    return r < m_layout.rowCount() ? r : -1;
}

int TimelineView::firstVisibleRow() const {
    return widgetGeometry().firstRow;
}

int TimelineView::visibleRowCount() const {
    const Geometry g = widgetGeometry();
    const int n = static_cast<int>(std::ceil((g.plot().height() + g.rowOffset) / g.row));
    return std::max(0, std::min(n, m_layout.rowCount() - g.firstRow));
}

void TimelineView::updateScrollBars() {
    const Geometry g = widgetGeometry();
    const int total = static_cast<int>(m_layout.rowCount() * g.row);
    const int page = static_cast<int>(g.plot().height());
    verticalScrollBar()->setPageStep(page);
    verticalScrollBar()->setSingleStep(static_cast<int>(g.row));
    verticalScrollBar()->setRange(0, std::max(0, total - page));
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void TimelineView::changeEvent(QEvent* event) {
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange) updateScrollBars();
}

// ---- draw lists ------------------------------------------------------------------------

std::shared_ptr<const TimelineDrawList> TimelineView::drawList(const Geometry& g) const {
    const QRectF p = g.plot();
    const int last = g.firstRow + static_cast<int>(std::ceil((p.height() + g.rowOffset) / g.row));
    const CacheKey key{m_t0, m_t1, p.width(), g.firstRow, last, m_layout.generation(), m_showQueueing};
    for (auto it = m_cache.begin(); it != m_cache.end(); ++it) {
        if (it->first == key) {
            m_cache.splice(m_cache.begin(), m_cache, it);
            return m_cache.front().second;
        }
    }
    auto list = std::make_shared<const TimelineDrawList>(
        m_layout.build(m_t0, m_t1, p.width(), g.firstRow, last, m_showQueueing));
    ++m_builds;
    m_cache.emplace_front(key, list);
    if (m_cache.size() > kCacheSize) m_cache.pop_back();
    return list;
}

std::optional<TimelineItem> TimelineView::itemAt(const QPoint& pos) const {
    const Geometry g = widgetGeometry();
    const QRectF p = g.plot();
    const int row = rowAtY(pos.y());
    if (row < 0 || pos.x() < p.left() || pos.x() >= p.right()) return std::nullopt;
    const auto list = drawList(g);
    const double rowTop = p.top() - g.rowOffset + (row - g.firstRow) * g.row;
    const int i = TimelineLayout::itemAt(*list, row, (pos.y() - rowTop) / g.row, pos.x() - p.left());
    if (i < 0) return std::nullopt;
    return list->items[static_cast<std::size_t>(i)];
}

int TimelineView::jobAt(const QPoint& pos) const {
    const auto item = itemAt(pos);
    return item && item->kind == TimelineItem::Segment ? item->job : -1;
}

// ---- colours and legend ----------------------------------------------------------------

QColor TimelineView::colorOfJob(int job) const {
    if (job < 0 || job >= static_cast<int>(m_modelIndex.size())) return categoryColor(9);
    switch (m_mode) {
        case TimelineColorMode::Model:
            return categoryColor(m_modelIndex[static_cast<std::size_t>(job)]);
        case TimelineColorMode::Bottleneck:
            return bottleneckColor(m_bottleneck[static_cast<std::size_t>(job)]);
        case TimelineColorMode::Job: {
            // Golden-ratio hue steps keep neighbouring job indices far apart on the colour wheel.
            const double hue = std::fmod(job * 0.6180339887, 1.0);
            return QColor::fromHsvF(static_cast<float>(hue), 0.55f, 0.88f);
        }
    }
    return categoryColor(9);
}

int TimelineView::bottleneckOf(int job) const {
    return job >= 0 && job < static_cast<int>(m_bottleneck.size())
               ? m_bottleneck[static_cast<std::size_t>(job)]
               : -1;
}

QColor TimelineView::mergedColor(const QPalette& palette) {
    // The "N segments" blocks (docs/architecture.md section 1.6) must stand out from the page;
    // the palette's Mid is all but the page colour in the dark theme, so page and text are mixed.
    const QColor page = palette.color(QPalette::Base), text = palette.color(QPalette::Text);
    const auto mix = [](int from, int to) { return from + (to - from) * 45 / 100; };
    return QColor(mix(page.red(), text.red()), mix(page.green(), text.green()),
                  mix(page.blue(), text.blue()));
}

std::vector<std::pair<QString, QColor>> TimelineView::legend() const {
    std::vector<std::pair<QString, QColor>> out;
    if (!m_result) return out;
    switch (m_mode) {
        case TimelineColorMode::Model: {
            std::vector<char> used(m_models.size(), 0);
            for (int i : m_modelIndex) used[static_cast<std::size_t>(i)] = 1;
            for (std::size_t i = 0; i < m_models.size(); ++i)
                if (used[i])
                    out.emplace_back(QString::fromStdString(m_models[i]), categoryColor(static_cast<int>(i)));
            break;
        }
        case TimelineColorMode::Bottleneck: {
            std::set<int> used(m_bottleneck.begin(), m_bottleneck.end());
            for (int b : {0, 1, 2, -1})
                if (used.count(b)) out.emplace_back(bottleneckName(b), bottleneckColor(b));
            break;
        }
        case TimelineColorMode::Job:
            out.emplace_back(tr("one colour per job (hover a bar for its id)"), colorOfJob(0));
            break;
    }
    // No colour: the legend draws a row split in two for it.
    if (m_layout.maxLaneCount() > 1)
        out.emplace_back(tr("GPU row split into lanes = jobs sharing that GPU at the same time"), QColor());
    return out;
}

// ---- tooltips --------------------------------------------------------------------------

QString TimelineView::toolTipAt(const QPoint& pos) const {
    if (headerServerAt(pos) >= 0) return headerToolTip(headerServerAt(pos));
    const auto item = itemAt(pos);
    if (!item || !m_result) return {};
    const auto span =
        tr("%1 \u2013 %2 (%3)")
            .arg(formatRunTime(item->t0), formatRunTime(item->t1), formatDuration(item->t1 - item->t0));
    const TimelineRow& row = m_layout.row(item->row);
    const QString server =
        QString::fromStdString(m_layout.cluster().servers[static_cast<std::size_t>(row.server)].name);
    switch (item->kind) {
        case TimelineItem::Merged:
            return tr("<b>%1 segments</b> merged (each narrower than %2 px)<br>%3<br>on %4 GPU "
                      "%5<br><i>Click to zoom in</i>")
                .arg(QLocale().toString(item->count))
                .arg(TimelineLayout::kMergePixels)
                .arg(span, server)
                .arg(row.gpu - m_layout.serverGpuBegin(row.server));
        case TimelineItem::Busy:
            return tr("<b>%1</b> (folded): %2 of its %3 GPUs busy on average<br>%4<br>%5 "
                      "segments<br><i>Click to zoom in</i>")
                .arg(server, formatPercent(item->busy))
                .arg(m_layout.serverGpuEnd(row.server) - m_layout.serverGpuBegin(row.server))
                .arg(span, QLocale().toString(item->count));
        case TimelineItem::Queue: {
            const auto& j = m_result->jobs[static_cast<std::size_t>(item->job)];
            return tr("<b>%1</b> waiting: submitted %2, first started %3 (queued %4)")
                .arg(QString::fromStdString(j.id), formatRunTime(j.submit), formatRunTime(j.first_start),
                     formatDuration(j.first_start - j.submit));
        }
        case TimelineItem::Segment:
            break;
    }
    const auto& j = m_result->jobs[static_cast<std::size_t>(item->job)];
    QStringList lines;
    lines << tr("<b>%1</b> \u2014 %2, %3 GPU(s)")
                 .arg(QString::fromStdString(j.id), QString::fromStdString(j.model))
                 .arg(j.gpus);
    if (m_layout.socketOfGpu(row.gpu) >= 0)
        lines << tr("here: %1 on %2").arg(span, QString::fromStdString(m_layout.laneLabel(item->row)));
    else
        lines << tr("here: %1 on %2 GPU %3")
                     .arg(span, server)
                     .arg(row.gpu - m_layout.serverGpuBegin(row.server));
    const double t = std::clamp(timeAtX(pos.x()), item->t0, item->t1);
    const QString at = formatRunTime(t);
    appendAllocationLine(lines, item->job, t, at);
    appendSharingLines(lines, item->first, t, at);
    if (!m_layout.partnersAt(item->first, t).empty()) {
        if (const QString why = groupingExplanation(item->job, t); !why.isEmpty())
            lines << why;
        else if (!m_groupingHint.isEmpty())
            lines << QStringLiteral("<i>%1</i>").arg(m_groupingHint.toHtmlEscaped());
    }
    appendBatchLine(lines, item->job, t, at);
    lines << tr("iteration time alone: %1").arg(formatDurationExact(j.solo_iteration_time));
    appendSharedTimeLine(lines, item->job);
    lines << tr("submitted %1, started %2, ended %3; %4 preemption(s)")
                 .arg(formatRunTime(j.submit), formatRunTime(j.first_start),
                      std::isfinite(j.end) ? formatRunTime(j.end) : tr("never"))
                 .arg(j.preemptions);
    if (m_mode == TimelineColorMode::Bottleneck || m_profiles)
        lines << tr("bottleneck: %1").arg(bottleneckName(bottleneckOf(item->job)));
    lines << tr("<i>Click to select this job</i>");
    return lines.join(QStringLiteral("<br>"));
}

QString TimelineView::headerToolTip(int s) const {
    return m_layout.isCollapsed(s) ? tr("Click to show each GPU of %1")
                                         .arg(QString::fromStdString(
                                             m_layout.cluster().servers[static_cast<std::size_t>(s)].name))
                                   : tr("Click to fold %1 into one row")
                                         .arg(QString::fromStdString(
                                             m_layout.cluster().servers[static_cast<std::size_t>(s)].name));
}

// What a Synergy mechanism gave the job at the hovered moment (it re-allocates every round).
void TimelineView::appendAllocationLine(QStringList& lines, int job, double t, const QString& at) const {
    if (m_layout.hasAllocations()) {
        if (const cl::AllocationChange* a = m_layout.allocationAt(job, t))
            lines
                << tr("CPU %1 cores \u00b7 memory %2 GB \u00b7 speed \u00d7%3 vs proportional share (at %4)")
                       .arg(amount(a->cpus), amount(a->memory_gb), QLocale().toString(a->speedup, 'f', 2),
                            at);
    }
}

// Who else holds this GPU at the hovered moment (Muri interleaving, AntMan and SJF-BSBF
// sharing), and who else during the rest of the segment.
void TimelineView::appendSharingLines(QStringList& lines, int segment, double t, const QString& at) const {
    const auto jobName = [&](int k) {
        const auto& p = m_result->jobs[static_cast<std::size_t>(k)];
        return tr("%1 (%2)").arg(QString::fromStdString(p.id), QString::fromStdString(p.model));
    };
    const auto names = [&](const std::vector<int>& jobs) {
        QStringList out;
        for (int k : jobs) out << jobName(k);
        return out.join(QStringLiteral(", "));
    };
    const auto partnersNow = m_layout.partnersAt(segment, t);
    std::vector<int> partnersElse;
    for (int k : m_layout.partnersOfSegment(segment))
        if (!std::binary_search(partnersNow.begin(), partnersNow.end(), k)) partnersElse.push_back(k);
    if (!partnersNow.empty())
        lines << tr("shares GPU with %1 at %2").arg(names(partnersNow), at);
    else if (!partnersElse.empty())
        lines << tr("alone on this GPU at %1").arg(at);
    else
        lines << tr("alone on this GPU during this segment");
    if (!partnersElse.empty())
        lines << tr("shares this GPU with %1 at other times during this segment").arg(names(partnersElse));
}

void TimelineView::setGroupings(std::shared_ptr<const cl::GroupingLog> log, const QString& hint) {
    m_groupings = std::move(log);
    m_groupingHint = hint;
}

QString TimelineView::jobName(int job) const {
    if (!m_result || job < 0 || job >= static_cast<int>(m_result->jobs.size())) return tr("job %1").arg(job);
    const auto& p = m_result->jobs[static_cast<std::size_t>(job)];
    return tr("%1 (%2)").arg(QString::fromStdString(p.id), QString::fromStdString(p.model));
}

// Muri's reason for the group (grouping_explanation.h): its mates, gamma and speed-up, and the
// matching that chose it against the two best alternatives it considered.
QString TimelineView::groupingExplanation(int job, double t) const {
    if (!m_groupings || !m_result) return {};
    const cl::GroupingRecord* r = m_groupings->groupOf(job, t);
    if (!r) return {};
    const QLocale locale;
    const auto weight = [&](double w) { return locale.toString(w, 'f', 3); };
    QStringList mates;
    for (int k : r->jobs)
        if (k != job) mates << jobName(k);
    QStringList lines;
    lines << tr("<b>Why this group</b> (Muri's decision at %1): with %2")
                 .arg(formatRunTime(r->time), mates.join(QStringLiteral(", ")));
    lines << tr("\u03b3 (interleaving efficiency) %1 \u00b7 speed-up %2\u00d7 over its jobs one after the "
                "other")
                 .arg(weight(r->gamma), locale.toString(r->speedup, 'f', 2));
    if (r->round < 0 || !std::isfinite(r->matching_weight)) {
        lines << tr("packed in priority order, without a matching");
        return lines.join(QStringLiteral("<br>"));
    }
    lines << tr("matching round %1: total weight %2 (the sum of the \u03b3 of the pairs it matched)")
                 .arg(r->round + 1)
                 .arg(weight(r->matching_weight));
    for (const cl::GroupingAlternative& alt : r->alternatives) {
        QStringList jobs;
        for (int k : alt.jobs) jobs << jobName(k);
        lines << tr("alternative %1: \u03b3 %2; the best matching with it totals %3")
                     .arg(jobs.join(QStringLiteral(" + ")), weight(alt.gamma), weight(alt.matching_weight));
    }
    if (r->alternatives.empty())
        lines << tr("why this one won: no group of other models could be formed in this round");
    else
        lines
            << tr("why this one won: the matching maximises the total weight, and with the best alternative "
                  "it would reach %1 (%2 less)")
                   .arg(weight(r->alternatives.front().matching_weight),
                        weight(r->matching_weight - r->alternatives.front().matching_weight));
    if (r->tied_partners > 0)
        lines << tr("%n other partner(s) of the same models were as good (ties go in priority order)",
                    nullptr, r->tied_partners);
    return lines.join(QStringLiteral("<br>"));
}

// The gradient-accumulation setting an SJF-BSBF mechanism gave the job at that moment.
void TimelineView::appendBatchLine(QStringList& lines, int job, double t, const QString& at) const {
    if (m_layout.hasBatches()) {
        if (const cl::BatchChange* b = m_layout.batchAt(job, t)) {
            const QString batch =
                b->accumulation_steps == 1
                    ? tr("sub-batch %1 \u00d7 1 step").arg(b->sub_batch)
                    : tr("sub-batch %1 \u00d7 %2 steps").arg(b->sub_batch).arg(b->accumulation_steps);
            lines
                << (b->interference > 1.0 + 1e-9
                        ? tr("%1, slowed \u00d7%2 by sharing (at %3)").arg(batch, ratio(b->interference), at)
                        : tr("%1, full speed: not slowed by sharing (at %2)").arg(batch, at));
        }
    }
}

// The shared-period speed is not recorded per segment. It can be derived when the job
// finished: time not shared ran at solo speed, the remaining iterations ran shared.
void TimelineView::appendSharedTimeLine(QStringList& lines, int job) const {
    const auto& j = m_result->jobs[static_cast<std::size_t>(job)];
    const double shared = m_layout.sharedTime(job);
    if (shared > 0.0) {
        double overhead = 0.0;
        if (m_profiles) {
            const cl::ModelProfile* mp = m_profiles->find(j.model);
            const cl::GpuCountProfile* at = mp ? mp->at(j.gpus) : nullptr;
            overhead = at ? at->restart_overhead : m_profiles->default_restart_overhead;
        }
        const double productive = j.running_time - j.restarts * overhead;
        const double aloneIters = (productive - shared) / j.solo_iteration_time;
        const double sharedIters = j.iterations - aloneIters;
        if (j.completed && j.solo_iteration_time > 0 && productive > shared && sharedIters > 0.5)
            lines << tr("iteration time shared: \u2248 %1 (%2\u00d7; estimated from running time, iterations "
                        "and the %3 spent sharing)")
                         .arg(formatDurationExact(shared / sharedIters))
                         .arg(QLocale().toString(shared / sharedIters / j.solo_iteration_time, 'f', 2))
                         .arg(formatDuration(shared));
        else if (m_layout.hasBatches())  // the slowdown is on the sub-batch line
            lines << tr("time shared with other jobs: %1").arg(formatDuration(shared));
        else
            lines << tr("time shared with other jobs: %1 (shared iteration time not recorded)")
                         .arg(formatDuration(shared));
    }
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

// ---- painting --------------------------------------------------------------------------

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const Geometry g = widgetGeometry();
    paintWith(p, g, *drawList(g));
    if (m_drag == Drag::Range) {
        const QRectF plot = g.plot();
        const double a =
            std::clamp<double>(std::min(m_pressPos.x(), m_lastPos.x()), plot.left(), plot.right());
        const double b =
            std::clamp<double>(std::max(m_pressPos.x(), m_lastPos.x()), plot.left(), plot.right());
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(60);
        p.fillRect(QRectF(a, g.area.top(), b - a, g.area.height()), fill);
        p.setPen(palette().color(QPalette::Highlight));
        p.drawText(QRectF(a, g.area.top(), std::max(b - a, 1.0), g.axis), Qt::AlignCenter,
                   formatDuration(timeAtX(b) - timeAtX(a)));
    }
}

void TimelineView::paintScene(QPainter& painter, const QRectF& target) const {
    Geometry g = widgetGeometry();
    const int rows = std::max(1, visibleRowCount());
    const QFontMetricsF fm(font(), painter.device());
    g.area = target;
    g.axis = m_showAxis ? std::ceil(fm.height() * 1.8) : 0.0;
    g.strip = std::ceil(fm.height() * 1.4);
    g.header = std::min(target.width() * 0.3, g.header * fm.height() / QFontMetricsF(font()).height());
    g.rowOffset = 0;
    g.row = std::max(1.0, (target.height() - g.axis - g.strip) / rows);
    const QRectF p = g.plot();
    const TimelineDrawList list =
        m_layout.build(m_t0, m_t1, p.width(), g.firstRow, g.firstRow + rows, m_showQueueing);
    painter.save();
    painter.setFont(font());
    paintWith(painter, g, list, Overlays::None);
    painter.restore();
}

void TimelineView::paintWith(QPainter& p, const Geometry& g, const TimelineDrawList& list,
                             Overlays overlays) const {
    const QPalette& pal = palette();
    p.fillRect(g.area, pal.color(QPalette::Base));
    const QRectF plot = g.plot();
    const int lastRow =
        std::min(m_layout.rowCount(),
                 g.firstRow + static_cast<int>(std::ceil((plot.height() + g.rowOffset) / g.row)) + 1);

    p.save();
    p.setClipRect(plot);
    paintRowBands(p, g, lastRow);
    paintTimeGrid(p, plot);
    paintItems(p, g, list);
    paintSelectedQueueing(p, g, lastRow);
    paintRowSeparators(p, g, lastRow);
    p.restore();

    paintHeader(p, g);
    paintStrip(p, g, overlays);
    if (m_showAxis) paintAxis(p, g);
    // Time cursor across strip and rows.
    if (overlays == Overlays::Interactive && std::isfinite(m_cursor) && m_cursor >= m_t0 &&
        m_cursor <= m_t1) {
        const double x = xOfTimeIn(plot, m_cursor);
        QColor c = pal.color(QPalette::Text);
        c.setAlpha(160);
        p.setPen(QPen(c, 0, Qt::DashLine));
        p.drawLine(QPointF(x, g.area.top() + g.axis * 0.5), QPointF(x, plot.bottom()));
    }
    if (!m_result) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter,
                   tr("The timeline of a run appears here once a run with GPU segments is loaded"));
    }
}

double TimelineView::rowTopIn(const Geometry& g, const QRectF& plot, int r) {
    return plot.top() - g.rowOffset + (r - g.firstRow) * g.row;
}

// Server bands and highlighted GPU rows.
void TimelineView::paintRowBands(QPainter& p, const Geometry& g, int lastRow) const {
    const QPalette& pal = palette();
    const QRectF plot = g.plot();
    const double width = plot.width();
    const auto rowTop = [&](int r) { return rowTopIn(g, plot, r); };
    for (int r = g.firstRow; r < lastRow; ++r) {
        const TimelineRow& row = m_layout.row(r);
        const QRectF band(plot.left(), rowTop(r), width, g.row);
        if (row.server % 2) p.fillRect(band, pal.color(QPalette::AlternateBase));
        const bool lit = row.gpu >= 0
                             ? isGpuHighlighted(row.gpu)
                             : std::any_of(m_selectedGpus.begin(), m_selectedGpus.end(),
                                           [&](int gpu) { return m_layout.serverOfGpu(gpu) == row.server; });
        if (lit) {
            QColor c = pal.color(QPalette::Highlight);
            c.setAlpha(30);
            p.fillRect(band, c);
        }
    }
}

// Time grid.
void TimelineView::paintTimeGrid(QPainter& p, const QRectF& plot) const {
    const QPalette& pal = palette();
    const double width = plot.width();
    const QFontMetricsF fm(p.font(), p.device());
    const double minStep =
        (fm.horizontalAdvance(QStringLiteral("00d 00:00:00")) + fm.height()) / width * (m_t1 - m_t0);
    const double step = clockStep(minStep);
    {
        QColor grid = pal.color(QPalette::Text);
        grid.setAlpha(28);
        p.setPen(QPen(grid, 0));
        for (double t = std::ceil(m_t0 / step) * step; t <= m_t1; t += step) {
            const double x = plot.left() + (t - m_t0) / (m_t1 - m_t0) * width;
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
    }
}

void TimelineView::paintItems(QPainter& p, const Geometry& g, const TimelineDrawList& list) const {
    const QPalette& pal = palette();
    const QRectF plot = g.plot();
    const auto rowTop = [&](int r) { return rowTopIn(g, plot, r); };
    const QFontMetricsF fm(p.font(), p.device());
    const bool dim = m_selected >= 0;
    const QColor merged = mergedColor(pal);
    const double pad = std::max(1.0, g.row * 0.08);
    for (const TimelineItem& it : list.items) {
        const double top = rowTop(it.row);
        const double x0 = plot.left() + it.x0;
        const double w = std::max<double>(it.x1 - it.x0, 1.0);
        if (it.kind == TimelineItem::Busy) {
            QColor c = pal.color(QPalette::Highlight);
            c.setAlpha(150);
            const double h = (g.row - 2 * pad) * it.busy;
            p.fillRect(QRectF(x0, top + g.row - pad - h, w, h), c);
            continue;
        }
        if (it.kind == TimelineItem::Queue) {
            QColor c = colorOfJob(it.job);
            const QRectF r(x0, top + g.row * 0.72, w, g.row * 0.2);
            p.fillRect(r, QBrush(c, Qt::BDiagPattern));
            p.fillRect(QRectF(x0, r.bottom() - 1, w, 1), c);
            continue;
        }
        const double laneH = (g.row - 2 * pad) / it.lanes;
        const QRectF r(x0, top + pad + it.lane * laneH, w, laneH - (it.lanes > 1 ? 1.0 : 0.0));
        if (it.kind == TimelineItem::Merged) {
            p.fillRect(r, merged);
            p.fillRect(r, QBrush(pal.color(QPalette::Base), Qt::BDiagPattern));
            const QString n = QLocale().toString(it.count);
            if (fm.horizontalAdvance(n) + 4 < r.width() && laneH >= fm.height() * 0.8) {
                p.setPen(pal.color(QPalette::Text));
                p.drawText(r, Qt::AlignCenter, n);
            }
            continue;
        }
        QColor c = colorOfJob(it.job);
        const bool selected = it.job == m_selected;
        if (dim && !selected) c.setAlpha(70);
        p.fillRect(r, c);
        if (r.width() > 4 && r.height() > 4) {
            // The selected job keeps its colour and gets a dark frame; others a thin edge.
            p.setPen(QPen(selected ? pal.color(QPalette::Text) : c.darker(140),
                          selected && r.height() >= 8 ? 2.0 : 0.0));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        const QString label = QString::fromStdString(m_result->jobs[static_cast<std::size_t>(it.job)].id);
        if (laneH >= fm.height() * 0.8 &&
            r.width() > fm.horizontalAdvance(label) + fm.averageCharWidth() * 2) {
            const QRectF visible = r.intersected(plot).adjusted(fm.averageCharWidth() * 0.5, 0, 0, 0);
            p.setPen(isDarkColor(c) && (!dim || selected) ? QColor(Qt::white) : QColor(Qt::black));
            p.drawText(visible, Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(label, Qt::ElideRight, visible.width()));
        }
    }
}

// The selected job's queueing on its first GPUs, even with queueing off.
void TimelineView::paintSelectedQueueing(QPainter& p, const Geometry& g, int lastRow) const {
    const QRectF plot = g.plot();
    const auto rowTop = [&](int r) { return rowTopIn(g, plot, r); };
    if (m_selected >= 0 && !m_showQueueing) {
        const auto& j = m_result->jobs[static_cast<std::size_t>(m_selected)];
        if (std::isfinite(j.first_start) && j.first_start > j.submit) {
            for (int s : m_layout.segmentsOfJob(m_selected)) {
                const auto& seg = m_result->segments[static_cast<std::size_t>(s)];
                if (seg.t0 != j.first_start) continue;
                const int r = m_layout.rowOfGpu(seg.gpu);
                if (r < g.firstRow || r >= lastRow) continue;
                const double a = std::max(plot.left() - 2, xOfTimeIn(plot, j.submit));
                const double b = std::min(plot.right() + 2, xOfTimeIn(plot, j.first_start));
                if (b <= a) continue;
                const QColor c = colorOfJob(m_selected);
                const QRectF q(a, rowTop(r) + g.row * 0.3, b - a, g.row * 0.4);
                p.fillRect(q, QBrush(c, Qt::BDiagPattern));
                p.setPen(QPen(c, 0));
                p.drawRect(q);
            }
        }
    }
}

// Server separators; inside a described server, a dotted line where its GPUs change
// socket (the tasks below share other cores) and a short dash where they change PCIe group.
void TimelineView::paintRowSeparators(QPainter& p, const Geometry& g, int lastRow) const {
    const QPalette& pal = palette();
    const QRectF plot = g.plot();
    const auto rowTop = [&](int r) { return rowTopIn(g, plot, r); };
    for (int r = g.firstRow; r < lastRow; ++r) {
        const TimelineLayout::Boundary b = m_layout.boundaryAbove(r);
        if (r == 0 || b == TimelineLayout::Boundary::None) continue;
        if (b == TimelineLayout::Boundary::Server) {
            p.setPen(QPen(pal.color(QPalette::Mid), 0));
        } else {
            QColor c = pal.color(QPalette::WindowText);
            c.setAlpha(b == TimelineLayout::Boundary::Socket ? 150 : 70);
            p.setPen(QPen(c, 0, b == TimelineLayout::Boundary::Socket ? Qt::DashLine : Qt::DotLine));
        }
        p.drawLine(QPointF(plot.left(), rowTop(r)), QPointF(plot.right(), rowTop(r)));
    }
}

double TimelineView::xOfTimeIn(const QRectF& plot, double t) const {
    return plot.left() + (t - m_t0) / (m_t1 - m_t0) * plot.width();
}

void TimelineView::paintAxis(QPainter& p, const Geometry& g) const {
    const QPalette& pal = palette();
    const QRectF plot = g.plot();
    const QRectF axis(g.area.left(), g.area.top(), g.area.width(), g.axis);
    p.fillRect(axis, pal.color(QPalette::Window));
    const QFontMetricsF fm(p.font(), p.device());
    const double minStep =
        (fm.horizontalAdvance(QStringLiteral("00d 00:00:00")) + fm.height()) / plot.width() * (m_t1 - m_t0);
    const double step = clockStep(minStep);
    const bool withDays = m_t1 >= 86400.0 && step < 86400.0;
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRectF(axis.left() + fm.averageCharWidth(), axis.top(), g.header - fm.averageCharWidth() * 2,
                      axis.height()),
               Qt::AlignVCenter | Qt::AlignLeft,
               step >= 86400.0 ? tr("time (days)")
               : step < 60.0   ? (withDays ? tr("time (d hh:mm:ss)") : tr("time (hh:mm:ss)"))
                               : (withDays ? tr("time (d hh:mm)") : tr("time (hh:mm)")));
    p.save();
    p.setClipRect(QRectF(plot.left(), axis.top(), plot.width(), axis.height()));
    for (double t = std::ceil(m_t0 / step) * step; t <= m_t1; t += step) {
        const double x = xOfTimeIn(plot, t);
        p.drawLine(QPointF(x, axis.bottom() - fm.height() * 0.35), QPointF(x, axis.bottom()));
        const QString label = tickLabel(t, step, withDays);
        const double w = fm.horizontalAdvance(label);
        const double lx = std::clamp(x - w / 2, plot.left() + 2, plot.right() - w - 2);
        p.drawText(QRectF(lx, axis.top(), w + 1, axis.height() - fm.height() * 0.35), Qt::AlignCenter, label);
    }
    p.restore();
    p.setPen(QPen(pal.color(QPalette::Mid), 0));
    p.drawLine(QPointF(axis.left(), axis.bottom()), QPointF(axis.right(), axis.bottom()));
}

void TimelineView::paintHeader(QPainter& p, const Geometry& g) const {
    const QPalette& pal = palette();
    const QRectF plot = g.plot();
    const QRectF header(g.area.left(), plot.top(), g.header, plot.height());
    p.save();
    p.fillRect(header, pal.color(QPalette::Window));
    p.setClipRect(header);
    const QFontMetricsF fm(p.font(), p.device());
    const double em = fm.averageCharWidth();
    const int lastRow =
        std::min(m_layout.rowCount(),
                 g.firstRow + static_cast<int>(std::ceil((plot.height() + g.rowOffset) / g.row)) + 1);
    const double gpuCol = gpuColumnWidth(fm) + em;
    for (int r = g.firstRow; r < lastRow; ++r) {
        const TimelineRow& row = m_layout.row(r);
        const double top = plot.top() - g.rowOffset + (r - g.firstRow) * g.row;
        const QRectF rowRect(header.left(), top, header.width(), g.row);
        if (row.gpu >= 0 && isGpuHighlighted(row.gpu)) {
            QColor c = pal.color(QPalette::Highlight);
            c.setAlpha(70);
            p.fillRect(rowRect, c);
        }
        p.setPen(pal.color(QPalette::WindowText));
        if (row.gpu >= 0) {
            QColor c = pal.color(QPalette::WindowText);
            c.setAlpha(170);
            p.setPen(c);
            const QString lane = m_layout.socketOfGpu(row.gpu) >= 0
                                     ? QString::fromStdString(m_layout.laneLabel(r, false))
                                     : tr("GPU %1").arg(row.gpu - m_layout.serverGpuBegin(row.server));
            p.drawText(QRectF(header.right() - gpuCol, top, gpuCol - em, g.row),
                       Qt::AlignVCenter | Qt::AlignRight, lane);
            // Socket and group boundaries reach into the GPU column, so the header shows them too.
            const TimelineLayout::Boundary b = m_layout.boundaryAbove(r);
            if (top >= plot.top() &&
                (b == TimelineLayout::Boundary::Socket || b == TimelineLayout::Boundary::Group)) {
                QColor line = pal.color(QPalette::WindowText);
                line.setAlpha(b == TimelineLayout::Boundary::Socket ? 150 : 70);
                p.setPen(QPen(line, 0, b == TimelineLayout::Boundary::Socket ? Qt::DashLine : Qt::DotLine));
                p.drawLine(QPointF(header.right() - gpuCol, top), QPointF(header.right(), top));
            }
            p.setPen(c);
        }
        // The server name sits on the server's first visible row (sticky while scrolling).
        const bool firstOfServer = r == g.firstRow || m_layout.row(r - 1).server != row.server;
        if (!firstOfServer) continue;
        const QString name =
            QString::fromStdString(m_layout.cluster().servers[static_cast<std::size_t>(row.server)].name);
        const double nameTop = std::max(top, plot.top());
        const QRectF toggle(header.left() + em * 0.5, nameTop, fm.height(), g.row);
        const QPainterPath tri = foldTriangle(toggle, fm.height() * 0.28, row.gpu < 0);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.fillPath(tri, pal.color(QPalette::WindowText));
        p.setRenderHint(QPainter::Antialiasing, false);
        QFont bold = p.font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(pal.color(QPalette::WindowText));
        const double nameRight = row.gpu < 0 ? header.right() - em : header.right() - gpuCol;
        const QRectF nameRect(toggle.right() + em * 0.3, nameTop, nameRight - toggle.right() - em * 0.3,
                              g.row);
        QString text = name;
        if (row.gpu < 0)
            text += QStringLiteral(" \u00b7 ") +
                    tr("%n GPU(s)", nullptr,
                       m_layout.serverGpuEnd(row.server) - m_layout.serverGpuBegin(row.server));
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
                   QFontMetricsF(bold, p.device()).elidedText(text, Qt::ElideRight, nameRect.width()));
        p.setFont(fm.height() > 0 ? font() : p.font());
        if (r > 0 && top >= plot.top()) {
            p.setPen(QPen(pal.color(QPalette::Mid), 0));
            p.drawLine(QPointF(header.left(), top), QPointF(header.right(), top));
        }
    }
    p.restore();
    p.setPen(QPen(pal.color(QPalette::Mid), 0));
    p.drawLine(QPointF(header.right(), g.area.top()), QPointF(header.right(), plot.bottom()));
}

void TimelineView::paintStrip(QPainter& p, const Geometry& g, Overlays overlays) const {
    const QPalette& pal = palette();
    const QRectF plot = g.plot();
    const QRectF strip(g.area.left(), g.area.top() + g.axis, g.area.width(), g.strip);
    p.save();
    p.fillRect(strip, pal.color(QPalette::Window));
    const QFontMetricsF fm(p.font(), p.device());
    const double em = fm.averageCharWidth();
    const QRectF label(strip.left() + em, strip.top(), g.header - 2 * em, strip.height());
    if (m_selected < 0 || !m_result) {
        QColor c = pal.color(QPalette::WindowText);
        c.setAlpha(140);
        p.setPen(c);
        p.drawText(QRectF(plot.left() + em, strip.top(), plot.width() - 2 * em, strip.height()),
                   Qt::AlignVCenter | Qt::AlignLeft,
                   m_result && overlays == Overlays::Interactive
                       ? tr("Click a bar to select its job; its submit, start, preemptions and end show here")
                       : QString());
        p.restore();
        return;
    }
    const auto& j = m_result->jobs[static_cast<std::size_t>(m_selected)];
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(
        label, Qt::AlignVCenter | Qt::AlignLeft,
        fm.elidedText(tr("life of %1").arg(QString::fromStdString(j.id)), Qt::ElideRight, label.width()));
    p.setClipRect(QRectF(plot.left(), strip.top(), plot.width(), strip.height()));
    const QColor c = colorOfJob(m_selected);
    const double mid = strip.center().y();
    const double h = strip.height() * 0.45;
    const auto X = [&](double t) { return xOfTimeIn(plot, t); };
    const double endT = std::isfinite(j.end) ? j.end : m_layout.runEnd();
    // Waiting (before the first start and between running spells) as a thin line.
    p.setPen(QPen(pal.color(QPalette::WindowText), 0, Qt::DotLine));
    p.drawLine(QPointF(X(j.submit), mid), QPointF(X(endT), mid));
    if (std::isfinite(j.first_start) && j.first_start > j.submit)
        p.fillRect(QRectF(X(j.submit), mid - h / 2, X(j.first_start) - X(j.submit), h),
                   QBrush(c, Qt::BDiagPattern));
    for (const auto& run : m_selectedRuns)
        p.fillRect(QRectF(X(run.first), mid - h / 2, std::max(1.0, X(run.second) - X(run.first)), h), c);
    // Markers: submit (open triangle), start and resumes (bar), stops before the end (red bar).
    p.setRenderHint(QPainter::Antialiasing, true);
    const double s = strip.height() * 0.32;
    QPainterPath submit;
    submit.moveTo(X(j.submit) - s * 0.7, mid - s);
    submit.lineTo(X(j.submit) + s * 0.7, mid - s);
    submit.lineTo(X(j.submit), mid);
    submit.closeSubpath();
    p.setPen(QPen(pal.color(QPalette::WindowText), 1.2));
    p.setBrush(pal.color(QPalette::Window));
    p.drawPath(submit);
    for (std::size_t i = 0; i < m_selectedRuns.size(); ++i) {
        p.setPen(QPen(pal.color(QPalette::WindowText), 2.0));
        p.drawLine(QPointF(X(m_selectedRuns[i].first), mid - s),
                   QPointF(X(m_selectedRuns[i].first), mid + s));
        if (i + 1 < m_selectedRuns.size()) {  // a preemption: the job left all its GPUs
            p.setPen(QPen(QColor(0xC0, 0x39, 0x2B), 2.0));
            const double x = X(m_selectedRuns[i].second);
            p.drawLine(QPointF(x - s * 0.6, mid - s * 0.6), QPointF(x + s * 0.6, mid + s * 0.6));
            p.drawLine(QPointF(x - s * 0.6, mid + s * 0.6), QPointF(x + s * 0.6, mid - s * 0.6));
        }
    }
    if (std::isfinite(j.end)) {
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::WindowText));
        p.drawRect(QRectF(X(j.end) - s * 0.5, mid - s * 0.5, s, s));
    }
    p.restore();
}

int TimelineView::headerServerAt(const QPoint& pos) const {
    const Geometry g = widgetGeometry();
    const QRectF plot = g.plot();
    if (pos.x() < g.area.left() || pos.x() >= g.area.left() + g.header) return -1;
    const int r = rowAtY(pos.y());
    if (r < 0) return -1;
    const TimelineRow& row = m_layout.row(r);
    // The toggle and name are on the server's first row, or the first visible one.
    const bool first = r == g.firstRow || m_layout.row(r - 1).server != row.server;
    if (!first && row.gpu >= 0) {
        const double gpuCol = gpuColumnWidth(QFontMetricsF(font()));
        if (pos.x() > g.area.left() + g.header - gpuCol) return -1;
    }
    (void)plot;
    return first || row.gpu < 0 ? row.server : -1;
}

// ---- interaction -----------------------------------------------------------------------

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint pos = event->position().toPoint();
    const double steps = event->angleDelta().y() / 120.0;
    const QRect plot = plotRect();
    if (event->modifiers() & Qt::ShiftModifier || pos.x() < plot.left()) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() -
                                      static_cast<int>(steps * 3 * rowHeight()));
        event->accept();
        return;
    }
    if (steps == 0.0) return;
    zoomAround(timeAtX(event->position().x()), std::pow(0.8, steps));
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QAbstractScrollArea::mousePressEvent(event);
    m_pressPos = m_lastPos = event->position().toPoint();
    m_pressT0 = m_t0;
    m_pressT1 = m_t1;
    m_pressScroll = verticalScrollBar()->value();
    m_moved = false;
    m_drag = event->modifiers() & Qt::ShiftModifier ? Drag::Range : Drag::Pan;
    if (m_drag == Drag::Pan && m_pressPos.x() >= plotRect().left())
        viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    const QRect plot = plotRect();
    if (pos.x() >= plot.left() && pos.x() < plot.right() && m_result) {
        const double t = timeAtX(pos.x());
        setTimeCursor(t);
        emit timeCursorChanged(t);
    }
    if (m_drag == Drag::None) return;
    m_lastPos = pos;
    if ((pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) m_moved = true;
    if (!m_moved) return;
    if (m_drag == Drag::Pan) {
        // Seconds per pixel times pixels dragged; the division is in double, an int quotient
        // would be 0 for any drag narrower than the plot.
        const double dt = static_cast<double>(pos.x() - m_pressPos.x()) / std::max(1, plot.width()) *
                          (m_pressT1 - m_pressT0);
        setVisibleRange(m_pressT0 - dt, m_pressT1 - dt);
        verticalScrollBar()->setValue(m_pressScroll - (pos.y() - m_pressPos.y()));
    } else {
        viewport()->update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_drag == Drag::None)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    const Drag drag = m_drag;
    m_drag = Drag::None;
    viewport()->unsetCursor();
    const QPoint pos = event->position().toPoint();
    if (drag == Drag::Range && m_moved) {
        const double a = timeAtX(std::min(m_pressPos.x(), pos.x()));
        const double b = timeAtX(std::max(m_pressPos.x(), pos.x()));
        if (std::abs(pos.x() - m_pressPos.x()) >= 3) setVisibleRange(a, b);
        viewport()->update();
        return;
    }
    if (m_moved) return;
    // A click.
    const int server = headerServerAt(pos);
    if (server >= 0) {
        setServerCollapsed(server, !m_layout.isCollapsed(server));
        return;
    }
    const auto item = itemAt(pos);
    if (!item) {
        if (rowAtY(pos.y()) >= 0) selectJob(-1);
        return;
    }
    if (item->kind == TimelineItem::Segment || item->kind == TimelineItem::Queue) {
        m_selectedTime = std::clamp(timeAtX(pos.x()), item->t0, item->t1);
        selectJob(item->job);
        emit segmentClicked(item->job, m_selectedTime);
    } else {
        const double margin = (item->t1 - item->t0) * 0.05;
        setVisibleRange(item->t0 - margin, item->t1 + margin);
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const double centre =
        std::isfinite(m_cursor) && m_cursor >= m_t0 && m_cursor <= m_t1 ? m_cursor : 0.5 * (m_t0 + m_t1);
    switch (event->key()) {
        case Qt::Key_Home:
            zoomToFit();
            break;
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomAround(centre, 0.5);
            break;
        case Qt::Key_Minus:
            zoomAround(centre, 2.0);
            break;
        case Qt::Key_Left:
            setVisibleRange(m_t0 - 0.1 * (m_t1 - m_t0), m_t1 - 0.1 * (m_t1 - m_t0));
            break;
        case Qt::Key_Right:
            setVisibleRange(m_t0 + 0.1 * (m_t1 - m_t0), m_t1 + 0.1 * (m_t1 - m_t0));
            break;
        case Qt::Key_Escape:
            if (m_drag != Drag::None) {
                m_drag = Drag::None;
                viewport()->update();
            } else {
                selectJob(-1);
            }
            break;
        default:
            QAbstractScrollArea::keyPressEvent(event);
            return;
    }
    event->accept();
}

}  // namespace cl::views
