#include "views/interleave/interleave_gantt.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "core/interleave/stage_schedule.h"
#include "views/common/chart_style.h"
#include "views/interleave/stage_table_model.h"

namespace cl::views {

namespace {

// A "nice" tick step (1, 2 or 5 x 10^n) giving about `target` ticks over `span`.

}  // namespace

InterleaveGantt::InterleaveGantt(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(
        tr("Which job's stage holds each resource when. Hatched = idle. Drag the right edge of a "
           "block to change that stage time."));
}

QColor InterleaveGantt::jobColor(int job) {
    return seriesColor(job);
}

void InterleaveGantt::setColorSlots(const std::vector<int>& palette_slots) {
    m_colorSlots = palette_slots;
    update();
}

QColor InterleaveGantt::colorOf(int job) const {
    if (m_colorSlots.size() == static_cast<std::size_t>(m_names.size()) && job >= 0 && job < m_names.size())
        return jobColor(m_colorSlots[static_cast<std::size_t>(job)]);
    return jobColor(job);
}

QString InterleaveGantt::jobLabel(int job) const {
    const QString name = m_names.value(job);
    if (!name.isEmpty() && name.size() <= 2) return name;
    return QStringLiteral("J%1").arg(job + 1);
}

bool InterleaveGantt::setGroup(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                               const cl::Ordering& ordering, int iterations,
                               const QStringList& resource_names, double time_scale) {
    try {
        m_steady = cl::stageSchedule(stages_ms, ordering, iterations);
        m_resources = cl::scheduleResourceCount(stages_ms);
    } catch (const std::exception&) {
        clear();
        return false;
    }
    m_scale = time_scale > 0 && std::isfinite(time_scale) ? time_scale : 1.0;
    for (auto& iv : m_steady) {
        iv.t0 *= m_scale;
        iv.t1 *= m_scale;
    }
    m_intervals = m_cold ? cl::coldStartSchedule(m_steady, stages_ms.front().size() == 3) : m_steady;
    m_names = names;
    m_stages = stages_ms;
    m_iterations = iterations;
    m_resourceNames = resource_names.size() == m_resources ? resource_names : QStringList{};
    if (m_current >= m_iterations) setCurrentIteration(-1);
    updateGeometry();  // the minimum height follows the number of lanes
    update();
    return true;
}

void InterleaveGantt::setColdStart(bool cold) {
    if (cold == m_cold) return;
    m_cold = cold;
    const bool slot_rule = !m_stages.empty() && m_stages.front().size() == 3;
    m_intervals = m_cold ? cl::coldStartSchedule(m_steady, slot_rule) : m_steady;
    update();
}

void InterleaveGantt::setPlayhead(double ms) {
    m_playhead = ms;
    update();
}

void InterleaveGantt::clear() {
    m_intervals.clear();
    m_steady.clear();
    m_stages.clear();
    m_names.clear();
    m_resources = 0;
    m_iterations = 0;
    m_blocks.clear();
    setCurrentIteration(-1);
    update();
}

QString InterleaveGantt::resourceName(int resource) const {
    if (!m_resourceNames.isEmpty()) return m_resourceNames.value(resource);
    return QString::fromStdString(cl::scheduleResourceName(resource, m_resources));
}

int InterleaveGantt::stageOfResource(int resource) const {
    const bool slot_rule = !m_stages.empty() && m_stages.front().size() == 3;
    if (!slot_rule) return resource;
    return resource <= 1 ? 0 : resource - 1;
}

QString InterleaveGantt::stageLabel(int resource) const {
    const bool slot_rule = !m_stages.empty() && m_stages.front().size() == 3;
    if (!slot_rule) return resourceName(resource);
    switch (stageOfResource(resource)) {
        case 0:
            return tr("load");
        case 1:
            return tr("GPU");
        default:
            return tr("net");
    }
}

void InterleaveGantt::setCurrentIteration(int iteration) {
    if (iteration < 0 || iteration >= m_iterations) iteration = -1;
    if (iteration == m_current) return;
    m_current = iteration;
    update();
    emit currentIterationChanged(m_current);
}

double InterleaveGantt::endTime() const {
    if (m_dragJob >= 0 && m_frozenEnd > 0) return m_frozenEnd;
    double end = 0.0;
    for (const auto& iv : m_intervals) end = std::max(end, iv.t1);
    return end > 0 ? end : 1.0;
}

QSize InterleaveGantt::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 100, fm.height() * 16};
}

QSize InterleaveGantt::minimumSizeHint() const {
    // Tall enough that every lane holds a line of text: rows never overlap (a 768-pixel screen
    // still fits the four lanes of the paper's Fig. 1).
    const QFontMetricsF fm(font());
    const double em = fm.height();
    const int width = static_cast<int>(fm.averageCharWidth() * 40);
    if (m_resources <= 0) return {width, static_cast<int>(em * 9)};
    const double legend =
        legendRows(fm, std::max<double>(this->width(), width) - em * 2.0) * em * 1.3 + em * 0.3;
    const double lanes = m_resources * minLaneHeight(em) + (m_resources - 1) * em * 0.35;
    return {width, static_cast<int>(std::ceil(em * 0.9 + legend + em * 1.2 + lanes + em * 2.6)) + 2};
}

bool InterleaveGantt::hasLoadTwins() const {
    std::vector<int> spans_cpu;
    std::vector<char> is_twin;
    findLoadTwins(spans_cpu, is_twin);
    return std::any_of(is_twin.begin(), is_twin.end(), [](char c) { return c != 0; });
}

QStringList InterleaveGantt::legendTexts() const {
    QStringList texts;
    for (int j = 0; j < m_names.size(); ++j) {
        const QString label = jobLabel(j);
        texts << (label == m_names[j] ? label : tr("%1  %2").arg(label, m_names[j]));
    }
    texts << tr("idle");
    // A 3-stage job's load stage holds storage and CPU at once and is drawn as one block over
    // both lanes (docs/architecture.md section 4.5): say so, the block carries no lane of its own.
    if (hasLoadTwins()) texts << tr("load: one block over storage + CPU");
    if (m_current >= 0) texts << tr("iteration %1 of %2").arg(m_current + 1).arg(m_iterations);
    return texts;
}

int InterleaveGantt::legendRows(const QFontMetricsF& fm, double width) const {
    const double em = fm.height();
    int rows = 1;
    double x = 0;
    for (const QString& text : legendTexts()) {
        const double w = em * 1.2 + fm.horizontalAdvance(text);
        if (x > 0 && x + w > width) {
            ++rows;
            x = 0;
        }
        x += w + em * 1.2;
    }
    return rows;
}

void InterleaveGantt::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    Colors colors{pal.color(QPalette::Base), pal.color(QPalette::Text),
                  pal.color(QPalette::Mid),  pal.color(QPalette::AlternateBase),
                  pal.color(QPalette::Mid),  pal.color(QPalette::Highlight)};
    p.fillRect(rect(), colors.background);
    m_blocks.clear();
    m_laneRects.clear();
    m_textRects.clear();
    m_recording = true;
    paintChart(p, QRectF(rect()), QString(), colors, &m_blocks);
    m_recording = false;
}

void InterleaveGantt::paintExport(QPainter& painter, const QRectF& rect, const QString& title) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font());
    // Exports are figures for documents: always dark on white, whatever the theme.
    Colors colors{Qt::white,
                  QColor(0x20, 0x20, 0x20),
                  QColor(0xB0, 0xB0, 0xB0),
                  QColor(0xF4, 0xF4, 0xF4),
                  QColor(0xC0, 0xC0, 0xC0),
                  QColor(0x30, 0x80, 0xE0)};
    painter.fillRect(rect, colors.background);
    m_recording = false;
    paintChart(painter, rect, title, colors, nullptr);
    painter.restore();
}

// Where the lanes, the axis and the iteration captions go in one paint, and the time -> x map.
struct InterleaveGantt::Frame {
    QRectF plot;
    double em = 0.0;
    double t_end = 1.0;
    double iter_h = 0.0;  // iteration captions above the lanes
    double gap = 0.0;
    double lane_h = 0.0;
    double x(double t) const { return plot.left() + plot.width() * t / t_end; }
    QRectF lane(int res) const {
        return QRectF(plot.left(), plot.top() + res * (lane_h + gap), plot.width(), lane_h);
    }
};

void InterleaveGantt::paintChart(QPainter& p, const QRectF& area, const QString& title, const Colors& colors,
                                 std::vector<Block>* blocks) const {
    const QFontMetricsF fm(p.font());
    const double em = fm.height();
    QRectF r = area.adjusted(em * 0.8, em * 0.5, -em * 1.2, -em * 0.4);

    if (!title.isEmpty()) paintTitle(p, r, title, colors, em);

    if (m_intervals.empty() || m_resources <= 0) {
        p.setPen(colors.text);
        p.drawText(r, Qt::AlignCenter, tr("Pick 1-4 jobs to see how their stages interleave."));
        return;
    }

    paintLegend(p, r, fm, colors);

    double label_w = 0;
    for (int res = 0; res < m_resources; ++res)
        label_w = std::max(label_w, fm.horizontalAdvance(resourceName(res)));
    Frame f;
    f.em = em;
    const double axis_h = em * 2.6;
    f.iter_h = em * 1.2;
    f.plot = QRectF(r.left() + label_w + em * 0.8, r.top() + f.iter_h, r.width() - label_w - em * 0.8,
                    r.height() - axis_h - f.iter_h);
    if (f.plot.width() < em * 4 || f.plot.height() < em * 2) return;
    f.t_end = endTime();
    f.gap = std::min(em * 0.35, f.plot.height() / m_resources * 0.15);
    f.lane_h = (f.plot.height() - f.gap * (m_resources - 1)) / m_resources;
    if (m_recording)
        for (int res = 0; res < m_resources; ++res) m_laneRects.push_back(f.lane(res));

    const std::vector<double> iter_start = paintIterationBand(p, f, colors);
    paintLanes(p, f, r.left(), label_w, colors);
    paintTimeAxis(p, f, fm, colors);
    paintBlocks(p, f, fm, blocks);

    if (m_playhead >= 0 && m_playhead < f.t_end) {
        p.setPen(QPen(colors.highlight, 2));
        p.drawLine(QPointF(f.x(m_playhead), f.plot.top() - f.iter_h),
                   QPointF(f.x(m_playhead), f.plot.bottom()));
    }

    paintIterationCaptions(p, f, fm, iter_start, colors);
}

void InterleaveGantt::paintTitle(QPainter& p, QRectF& r, const QString& title, const Colors& colors,
                                 double em) {
    const QFont base = p.font();
    QFont tf = base;
    tf.setBold(true);
    tf.setPointSizeF(base.pointSizeF() * 1.25);
    p.setFont(tf);
    p.setPen(colors.text);
    const double h = QFontMetricsF(tf).height();
    p.drawText(QRectF(r.left(), r.top(), r.width(), h), Qt::AlignLeft | Qt::AlignVCenter, title);
    p.setFont(base);
    r.setTop(r.top() + h + em * 0.4);
}

// Legend: one swatch per job, then "idle".
void InterleaveGantt::paintLegend(QPainter& p, QRectF& r, const QFontMetricsF& fm,
                                  const Colors& colors) const {
    const double em = fm.height();
    double x = r.left(), y = r.top();
    const double sw = em * 0.9;
    // Items wrap to a new row rather than running past the right edge on a small screen.
    auto item = [&](const QBrush& brush, const QString& text, bool tall = false) {
        const double w = std::min(fm.horizontalAdvance(text), r.width() - sw - em * 0.3);
        if (x > r.left() && x + sw + em * 0.3 + w > r.right()) {
            x = r.left();
            y += em * 1.3;
        }
        const QRectF box(x, y + (em - sw) / 2 - (tall ? sw * 0.25 : 0), sw, tall ? sw * 1.5 : sw);
        p.setPen(QPen(colors.grid, 0));
        p.setBrush(brush);
        p.drawRect(box);
        p.setPen(colors.text);
        const QRectF text_box(box.right() + em * 0.3, y, w + 2, em);
        p.drawText(text_box, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(text, Qt::ElideRight, w + 1));
        record(text_box);
        x = box.right() + em * 0.3 + w + em * 1.2;
    };
    const QStringList texts = legendTexts();
    int at = 0;
    for (int j = 0; j < m_names.size(); ++j) item(colorOf(j), texts[at++]);
    QBrush hatch(colors.hatch, Qt::BDiagPattern);
    item(hatch, texts[at++]);
    if (hasLoadTwins()) item(QBrush(colors.grid), texts[at++], true);
    if (m_current >= 0) {
        QColor band = colors.highlight;
        band.setAlphaF(0.18);
        item(band, texts[at++]);
    }
    r.setTop(y + em * 1.6);
}

// Highlighted iteration: a band behind everything, from its first start to its last end.
// Returns each iteration's first start (t_end for one not drawn), for the captions.
std::vector<double> InterleaveGantt::paintIterationBand(QPainter& p, const Frame& f,
                                                        const Colors& colors) const {
    std::vector<double> iter_start(static_cast<std::size_t>(m_iterations), f.t_end),
        iter_end(static_cast<std::size_t>(m_iterations), 0.0);
    for (const auto& iv : m_intervals) {
        if (iv.iteration < 0 || iv.iteration >= m_iterations) continue;
        iter_start[static_cast<std::size_t>(iv.iteration)] =
            std::min(iter_start[static_cast<std::size_t>(iv.iteration)], iv.t0);
        iter_end[static_cast<std::size_t>(iv.iteration)] =
            std::max(iter_end[static_cast<std::size_t>(iv.iteration)], iv.t1);
    }
    if (m_current >= 0) {
        QColor band = colors.highlight;
        band.setAlphaF(0.14);
        const auto c = static_cast<std::size_t>(m_current);
        p.fillRect(QRectF(QPointF(f.x(iter_start[c]), f.plot.top() - f.iter_h),
                          QPointF(f.x(iter_end[c]), f.plot.bottom())),
                   band);
    }
    return iter_start;
}

// Lanes: idle time is the hatched lane showing through between blocks.
void InterleaveGantt::paintLanes(QPainter& p, const Frame& f, double label_left, double label_w,
                                 const Colors& colors) const {
    for (int res = 0; res < m_resources; ++res) {
        const QRectF lane = f.lane(res);
        p.fillRect(lane, colors.lane);
        p.fillRect(lane, QBrush(colors.hatch, Qt::BDiagPattern));
        p.setPen(colors.text);
        paintLaneTitle(p, QRectF(label_left, lane.top(), label_w, lane.height()), resourceName(res));
    }
}

// A lane title never taller than its lane: on a widget squeezed below its minimum height the
// font shrinks so that neighbouring titles cannot overlap.
void InterleaveGantt::paintLaneTitle(QPainter& p, const QRectF& box, const QString& text) const {
    const QFont base = p.font();
    QFont f = base;
    const double h = QFontMetricsF(base).height();
    if (h > box.height() && box.height() > 0)
        f.setPointSizeF(std::max(1.0, base.pointSizeF() * box.height() / h));
    p.setFont(f);
    const QFontMetricsF fm(f);
    const double w = std::min(box.width(), fm.horizontalAdvance(text));
    const QRectF text_box(box.right() - w, box.center().y() - fm.height() / 2, w, fm.height());
    p.drawText(text_box, Qt::AlignRight | Qt::AlignVCenter, text);
    record(text_box);
    p.setFont(base);
}

// Axis with ticks and vertical grid.
void InterleaveGantt::paintTimeAxis(QPainter& p, const Frame& f, const QFontMetricsF& fm,
                                    const Colors& colors) const {
    const QRectF& plot = f.plot;
    const double em = f.em;
    const double step = niceStep(f.t_end, std::max(2, static_cast<int>(plot.width() / (em * 5))));
    p.setPen(QPen(colors.text, 0));
    p.drawLine(QPointF(plot.left(), plot.bottom() + 1), QPointF(plot.right(), plot.bottom() + 1));
    for (int i = 0; i * step <= f.t_end * (1 + 1e-9); ++i) {
        const double t = i * step, x = f.x(t);
        p.setPen(QPen(colors.text, 0));
        p.drawLine(QPointF(x, plot.bottom() + 1), QPointF(x, plot.bottom() + em * 0.35));
        const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
        const QString text = QLocale().toString(t, 'f', decimals);
        const double w = fm.horizontalAdvance(text);
        // The last value stays inside the chart: it ends at the plot's right edge at most.
        QRectF text_box(x - w / 2 - 2, plot.bottom() + em * 0.35, w + 4, em);
        if (text_box.right() > plot.right() + em) text_box.moveRight(plot.right() + em);
        p.drawText(text_box, Qt::AlignCenter, text);
        record(text_box);
    }
    const double unit_w = fm.horizontalAdvance(tr("time (ms)"));
    const QRectF unit_box(plot.right() - unit_w, plot.bottom() + em * 1.35, unit_w, em);
    p.drawText(unit_box, Qt::AlignRight | Qt::AlignVCenter, tr("time (ms)"));
    record(unit_box);
}

// A 3-stage job alone in its load stage holds storage and CPU at once: it is drawn as one block
// spanning both lanes, not two copies. spans_cpu[i]: storage interval i -> its CPU twin (-1: none);
// is_twin[k]: interval k is such a twin.
void InterleaveGantt::findLoadTwins(std::vector<int>& spans_cpu, std::vector<char>& is_twin) const {
    spans_cpu.assign(m_intervals.size(), -1);
    is_twin.assign(m_intervals.size(), 0);
    const bool slot_rule = !m_stages.empty() && m_stages.front().size() == 3;
    if (slot_rule)
        for (std::size_t i = 0; i < m_intervals.size(); ++i) {
            if (m_intervals[i].resource != 0) continue;
            for (std::size_t k = 0; k < m_intervals.size(); ++k)
                if (m_intervals[k].resource == 1 && m_intervals[k].job == m_intervals[i].job &&
                    m_intervals[k].t0 == m_intervals[i].t0 && m_intervals[k].t1 == m_intervals[i].t1) {
                    spans_cpu[i] = static_cast<int>(k);
                    is_twin[k] = 1;
                    break;
                }
        }
}

void InterleaveGantt::paintBlocks(QPainter& p, const Frame& f, const QFontMetricsF& fm,
                                  std::vector<Block>* blocks) const {
    const double em = f.em;
    std::vector<int> spans_cpu;
    std::vector<char> is_twin;
    findLoadTwins(spans_cpu, is_twin);
    for (std::size_t i = 0; i < m_intervals.size(); ++i) {
        const auto& iv = m_intervals[i];
        if (iv.resource < 0 || iv.resource >= m_resources || is_twin[i]) continue;
        if (m_playhead >= 0 && iv.t0 >= m_playhead) continue;
        const double t1 = m_playhead >= 0 ? std::min(iv.t1, m_playhead) : iv.t1;
        const QRectF lane = f.lane(iv.resource);
        const double bottom = spans_cpu[i] >= 0 ? f.lane(1).bottom() : lane.bottom();
        // Full lane height: any hatching that shows is idle time.
        const QRectF box(QPointF(f.x(iv.t0), lane.top()), QPointF(f.x(t1), bottom));
        QColor fill = colorOf(iv.job);
        const bool dim = m_current >= 0 && iv.iteration != m_current;
        if (dim)
            fill = QColor::fromHslF(fill.hslHueF(), fill.hslSaturationF() * 0.35,
                                    0.5 + fill.lightnessF() * 0.45);
        p.setPen(QPen(fill.darker(135), 0));
        p.setBrush(fill);
        p.drawRect(box);
        if (blocks) {
            blocks->push_back({static_cast<int>(i), box});
            if (spans_cpu[i] >= 0) blocks->push_back({spans_cpu[i], box});
        }
        // The longest label that fits: "J2 load (storage + CPU)", "J2 load", "J2"; none when the
        // block is lower than a line of text (rows never overlap).
        QStringList texts;
        if (spans_cpu[i] >= 0) texts << tr("%1 load (storage + CPU)").arg(jobLabel(iv.job));
        texts << tr("%1 %2").arg(jobLabel(iv.job), stageLabel(iv.resource)) << jobLabel(iv.job);
        const QRectF inner = box.adjusted(em * 0.2, 0, -em * 0.2, 0);
        for (const QString& text : texts) {
            const double w = fm.horizontalAdvance(text);
            if (inner.width() < w || inner.height() < em * 0.95) continue;
            p.setPen(textColorOn(fill));
            const QRectF text_box(inner.center().x() - w / 2, inner.center().y() - em / 2, w, em);
            p.drawText(text_box, Qt::AlignCenter, text);
            record(text_box);
            break;
        }
    }
}

// Iteration boundaries and captions.
void InterleaveGantt::paintIterationCaptions(QPainter& p, const Frame& f, const QFontMetricsF& fm,
                                             const std::vector<double>& iter_start,
                                             const Colors& colors) const {
    const double em = f.em;
    QPen dash(colors.text, 0, Qt::DashLine);
    for (int it = 0; it < m_iterations; ++it) {
        const auto c = static_cast<std::size_t>(it);
        if (iter_start[c] >= f.t_end && it > 0) continue;
        const double x = f.x(iter_start[c]);
        if (it > 0) {
            p.setPen(dash);
            p.drawLine(QPointF(x, f.plot.top() - f.iter_h * 0.2), QPointF(x, f.plot.bottom()));
        }
        QFont caption_font = p.font();
        const bool cur = it == m_current;
        caption_font.setBold(cur);
        p.save();
        p.setFont(caption_font);
        p.setPen(colors.text);
        const double next = it + 1 < m_iterations ? f.x(iter_start[c + 1]) : f.plot.right();
        const QString caption =
            fm.elidedText(tr("iteration %1").arg(it + 1), Qt::ElideRight, std::max(0.0, next - x - em * 0.3));
        const QRectF caption_box(
            x + em * 0.3, f.plot.top() - f.iter_h,
            std::min(std::max(0.0, next - x - em * 0.3), fm.horizontalAdvance(caption) + 2), f.iter_h);
        p.drawText(caption_box, Qt::AlignLeft | Qt::AlignVCenter, caption);
        if (!caption.isEmpty()) record(caption_box);
        p.restore();
    }
}

QRectF InterleaveGantt::blockRect(int interval) const {
    for (const auto& b : m_blocks)
        if (b.interval == interval) return b.rect;
    return {};
}

int InterleaveGantt::blockAt(const QPointF& pos, bool* on_right_edge) const {
    const double tol = std::max(3.0, QFontMetricsF(font()).averageCharWidth() * 0.6);
    int found = -1;
    for (std::size_t i = 0; i < m_blocks.size(); ++i) {
        const QRectF& b = m_blocks[i].rect;
        if (pos.y() < b.top() || pos.y() > b.bottom()) continue;
        if (std::abs(pos.x() - b.right()) <= tol) {
            if (on_right_edge) *on_right_edge = true;
            return static_cast<int>(i);
        }
        if (pos.x() >= b.left() && pos.x() <= b.right()) found = static_cast<int>(i);
    }
    if (on_right_edge) *on_right_edge = false;
    return found;
}

bool InterleaveGantt::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int b = blockAt(help->pos(), nullptr);
        if (b >= 0) {
            const auto& iv =
                m_intervals[static_cast<std::size_t>(m_blocks[static_cast<std::size_t>(b)].interval)];
            QToolTip::showText(help->globalPos(),
                               tr("<b>%1</b> (%2) on %3<br>iteration %4: %5 – %6 ms (%7 ms)<br>"
                                  "Drag the right edge to change this stage time.")
                                       .arg(m_names.value(iv.job).toHtmlEscaped(), stageLabel(iv.resource),
                                            resourceName(iv.resource))
                                       .arg(iv.iteration + 1)
                                       .arg(formatMs(iv.t0), formatMs(iv.t1), formatMs(iv.t1 - iv.t0)) +
                                   (m_scale != 1.0 ? tr("<br>Drawn stretched ×%1: the stage time is %2 ms.")
                                                         .arg(QLocale().toString(m_scale, 'f', 3),
                                                              formatMs((iv.t1 - iv.t0) / m_scale))
                                                   : QString()),
                               this);
            return true;
        }
    }
    return QWidget::event(e);
}

void InterleaveGantt::mousePressEvent(QMouseEvent* e) {
    bool edge = false;
    const int b = e->button() == Qt::LeftButton ? blockAt(e->position(), &edge) : -1;
    if (b < 0 || !edge) return QWidget::mousePressEvent(e);
    const auto& iv = m_intervals[static_cast<std::size_t>(m_blocks[static_cast<std::size_t>(b)].interval)];
    m_dragJob = iv.job;
    m_dragStage = stageOfResource(iv.resource);
    m_dragStartX = e->position().x();
    m_dragStartMs = m_stages[static_cast<std::size_t>(iv.job)][static_cast<std::size_t>(m_dragStage)];
    m_frozenEnd = endTime();
    const QRectF& box = m_blocks[static_cast<std::size_t>(b)].rect;
    m_pxPerMs = iv.t1 > iv.t0 ? box.width() / (iv.t1 - iv.t0) : 0.0;
    if (m_pxPerMs <= 0) m_dragJob = -1;
    e->accept();
}

void InterleaveGantt::mouseMoveEvent(QMouseEvent* e) {
    if (m_dragJob >= 0) {
        // The chart draws stages stretched by m_scale; the request is in stage time.
        const double raw = m_dragStartMs + (e->position().x() - m_dragStartX) / m_pxPerMs / m_scale;
        // Round to what the table shows and never below a sliver: a stage time stays > 0.
        const double resolution = m_frozenEnd >= 50 ? 0.1 : 0.01;
        const double ms = std::max(resolution, std::round(raw / resolution) * resolution);
        emit stageTimeDragged(m_dragJob, m_dragStage, ms);
        e->accept();
        return;
    }
    bool edge = false;
    const int b = blockAt(e->position(), &edge);
    setCursor(b >= 0 && edge ? Qt::SizeHorCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(e);
}

void InterleaveGantt::mouseReleaseEvent(QMouseEvent* e) {
    if (m_dragJob >= 0) {
        m_dragJob = m_dragStage = -1;
        m_frozenEnd = 0.0;
        update();
        e->accept();
        return;
    }
    QWidget::mouseReleaseEvent(e);
}

void InterleaveGantt::leaveEvent(QEvent* e) {
    if (m_dragJob < 0) unsetCursor();
    QWidget::leaveEvent(e);
}

}  // namespace cl::views
