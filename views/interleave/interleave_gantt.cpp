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
    color_slots_ = palette_slots;
    update();
}

QColor InterleaveGantt::colorOf(int job) const {
    if (color_slots_.size() == static_cast<std::size_t>(names_.size()) && job >= 0 && job < names_.size())
        return jobColor(color_slots_[static_cast<std::size_t>(job)]);
    return jobColor(job);
}

QString InterleaveGantt::jobLabel(int job) const {
    const QString name = names_.value(job);
    if (!name.isEmpty() && name.size() <= 2) return name;
    return QStringLiteral("J%1").arg(job + 1);
}

bool InterleaveGantt::setGroup(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                               const cl::Ordering& ordering, int iterations,
                               const QStringList& resource_names, double time_scale) {
    try {
        steady_ = cl::stageSchedule(stages_ms, ordering, iterations);
        resources_ = cl::scheduleResourceCount(stages_ms);
    } catch (const std::exception&) {
        clear();
        return false;
    }
    scale_ = time_scale > 0 && std::isfinite(time_scale) ? time_scale : 1.0;
    for (auto& iv : steady_) {
        iv.t0 *= scale_;
        iv.t1 *= scale_;
    }
    intervals_ = cold_ ? cl::coldStartSchedule(steady_, stages_ms.front().size() == 3) : steady_;
    names_ = names;
    stages_ = stages_ms;
    iterations_ = iterations;
    resource_names_ = resource_names.size() == resources_ ? resource_names : QStringList{};
    if (current_ >= iterations_) setCurrentIteration(-1);
    update();
    return true;
}

void InterleaveGantt::setColdStart(bool cold) {
    if (cold == cold_) return;
    cold_ = cold;
    const bool slot_rule = !stages_.empty() && stages_.front().size() == 3;
    intervals_ = cold_ ? cl::coldStartSchedule(steady_, slot_rule) : steady_;
    update();
}

void InterleaveGantt::setPlayhead(double ms) {
    playhead_ = ms;
    update();
}

void InterleaveGantt::clear() {
    intervals_.clear();
    steady_.clear();
    stages_.clear();
    names_.clear();
    resources_ = 0;
    iterations_ = 0;
    blocks_.clear();
    setCurrentIteration(-1);
    update();
}

QString InterleaveGantt::resourceName(int resource) const {
    if (!resource_names_.isEmpty()) return resource_names_.value(resource);
    return QString::fromStdString(cl::scheduleResourceName(resource, resources_));
}

int InterleaveGantt::stageOfResource(int resource) const {
    const bool slot_rule = !stages_.empty() && stages_.front().size() == 3;
    if (!slot_rule) return resource;
    return resource <= 1 ? 0 : resource - 1;
}

QString InterleaveGantt::stageLabel(int resource) const {
    const bool slot_rule = !stages_.empty() && stages_.front().size() == 3;
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
    if (iteration < 0 || iteration >= iterations_) iteration = -1;
    if (iteration == current_) return;
    current_ = iteration;
    update();
    emit currentIterationChanged(current_);
}

double InterleaveGantt::endTime() const {
    if (drag_job_ >= 0 && frozen_end_ > 0) return frozen_end_;
    double end = 0.0;
    for (const auto& iv : intervals_) end = std::max(end, iv.t1);
    return end > 0 ? end : 1.0;
}

QSize InterleaveGantt::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 100, fm.height() * 16};
}

QSize InterleaveGantt::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 40, fm.height() * 9};
}

void InterleaveGantt::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    Colors colors{pal.color(QPalette::Base), pal.color(QPalette::Text),
                  pal.color(QPalette::Mid),  pal.color(QPalette::AlternateBase),
                  pal.color(QPalette::Mid),  pal.color(QPalette::Highlight)};
    p.fillRect(rect(), colors.background);
    blocks_.clear();
    paintChart(p, QRectF(rect()), QString(), colors, &blocks_);
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
    paintChart(painter, rect, title, colors, nullptr);
    painter.restore();
}

void InterleaveGantt::paintChart(QPainter& p, const QRectF& area, const QString& title, const Colors& colors,
                                 std::vector<Block>* blocks) const {
    const QFontMetricsF fm(p.font());
    const double em = fm.height();
    QRectF r = area.adjusted(em * 0.8, em * 0.5, -em * 1.2, -em * 0.4);

    if (!title.isEmpty()) {
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

    if (intervals_.empty() || resources_ <= 0) {
        p.setPen(colors.text);
        p.drawText(r, Qt::AlignCenter, tr("Pick 1-4 jobs to see how their stages interleave."));
        return;
    }

    // Legend: one swatch per job, then "idle".
    {
        double x = r.left();
        const double sw = em * 0.9;
        auto item = [&](const QBrush& brush, const QString& text) {
            const QRectF box(x, r.top() + (em - sw) / 2, sw, sw);
            p.setPen(QPen(colors.grid, 0));
            p.setBrush(brush);
            p.drawRect(box);
            p.setPen(colors.text);
            const double w = fm.horizontalAdvance(text);
            p.drawText(QRectF(box.right() + em * 0.3, r.top(), w + 2, em), Qt::AlignLeft | Qt::AlignVCenter,
                       text);
            x = box.right() + em * 0.3 + w + em * 1.2;
        };
        for (int j = 0; j < names_.size(); ++j) {
            const QString label = jobLabel(j);
            item(colorOf(j), label == names_[j] ? label : tr("%1  %2").arg(label, names_[j]));
        }
        QBrush hatch(colors.hatch, Qt::BDiagPattern);
        item(hatch, tr("idle"));
        if (current_ >= 0) {
            QColor band = colors.highlight;
            band.setAlphaF(0.18);
            item(band, tr("iteration %1 of %2").arg(current_ + 1).arg(iterations_));
        }
        r.setTop(r.top() + em * 1.6);
    }

    double label_w = 0;
    for (int res = 0; res < resources_; ++res)
        label_w = std::max(label_w, fm.horizontalAdvance(resourceName(res)));
    const double axis_h = em * 2.6;
    const double iter_h = em * 1.2;  // iteration captions above the lanes
    const QRectF plot(r.left() + label_w + em * 0.8, r.top() + iter_h, r.width() - label_w - em * 0.8,
                      r.height() - axis_h - iter_h);
    if (plot.width() < em * 4 || plot.height() < em * 2) return;
    const double t_end = endTime();
    auto xOf = [&](double t) { return plot.left() + plot.width() * t / t_end; };
    const double gap = std::min(em * 0.35, plot.height() / resources_ * 0.15);
    const double lane_h = (plot.height() - gap * (resources_ - 1)) / resources_;
    auto laneRect = [&](int res) {
        return QRectF(plot.left(), plot.top() + res * (lane_h + gap), plot.width(), lane_h);
    };

    // Highlighted iteration: a band behind everything, from its first start to its last end.
    std::vector<double> iter_start(static_cast<std::size_t>(iterations_), t_end),
        iter_end(static_cast<std::size_t>(iterations_), 0.0);
    for (const auto& iv : intervals_) {
        if (iv.iteration < 0 || iv.iteration >= iterations_) continue;
        iter_start[static_cast<std::size_t>(iv.iteration)] =
            std::min(iter_start[static_cast<std::size_t>(iv.iteration)], iv.t0);
        iter_end[static_cast<std::size_t>(iv.iteration)] =
            std::max(iter_end[static_cast<std::size_t>(iv.iteration)], iv.t1);
    }
    if (current_ >= 0) {
        QColor band = colors.highlight;
        band.setAlphaF(0.14);
        const auto c = static_cast<std::size_t>(current_);
        p.fillRect(QRectF(QPointF(xOf(iter_start[c]), plot.top() - iter_h),
                          QPointF(xOf(iter_end[c]), plot.bottom())),
                   band);
    }

    // Lanes: idle time is the hatched lane showing through between blocks.
    for (int res = 0; res < resources_; ++res) {
        const QRectF lane = laneRect(res);
        p.fillRect(lane, colors.lane);
        p.fillRect(lane, QBrush(colors.hatch, Qt::BDiagPattern));
        p.setPen(colors.text);
        p.drawText(QRectF(r.left(), lane.top(), label_w, lane.height()), Qt::AlignRight | Qt::AlignVCenter,
                   resourceName(res));
    }

    // Axis with ticks and vertical grid.
    {
        const double step = niceStep(t_end, std::max(2, static_cast<int>(plot.width() / (em * 5))));
        p.setPen(QPen(colors.text, 0));
        p.drawLine(QPointF(plot.left(), plot.bottom() + 1), QPointF(plot.right(), plot.bottom() + 1));
        for (int i = 0; i * step <= t_end * (1 + 1e-9); ++i) {
            const double t = i * step, x = xOf(t);
            p.setPen(QPen(colors.text, 0));
            p.drawLine(QPointF(x, plot.bottom() + 1), QPointF(x, plot.bottom() + em * 0.35));
            const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
            const QString text = QLocale().toString(t, 'f', decimals);
            const double w = fm.horizontalAdvance(text);
            p.drawText(QRectF(x - w / 2 - 2, plot.bottom() + em * 0.35, w + 4, em), Qt::AlignCenter, text);
        }
        p.drawText(QRectF(plot.left(), plot.bottom() + em * 1.35, plot.width(), em),
                   Qt::AlignRight | Qt::AlignVCenter, tr("time (ms)"));
    }

    // Blocks. A 3-stage job alone in its load stage holds storage and CPU at once: one block
    // spanning both lanes, not two copies.
    const bool slot_rule = !stages_.empty() && stages_.front().size() == 3;
    std::vector<int> spans_cpu(intervals_.size(), -1);  // storage interval -> its CPU twin
    std::vector<char> is_twin(intervals_.size(), 0);
    if (slot_rule)
        for (std::size_t i = 0; i < intervals_.size(); ++i) {
            if (intervals_[i].resource != 0) continue;
            for (std::size_t k = 0; k < intervals_.size(); ++k)
                if (intervals_[k].resource == 1 && intervals_[k].job == intervals_[i].job &&
                    intervals_[k].t0 == intervals_[i].t0 && intervals_[k].t1 == intervals_[i].t1) {
                    spans_cpu[i] = static_cast<int>(k);
                    is_twin[k] = 1;
                    break;
                }
        }
    for (std::size_t i = 0; i < intervals_.size(); ++i) {
        const auto& iv = intervals_[i];
        if (iv.resource < 0 || iv.resource >= resources_ || is_twin[i]) continue;
        if (playhead_ >= 0 && iv.t0 >= playhead_) continue;
        const double t1 = playhead_ >= 0 ? std::min(iv.t1, playhead_) : iv.t1;
        const QRectF lane = laneRect(iv.resource);
        const double bottom = spans_cpu[i] >= 0 ? laneRect(1).bottom() : lane.bottom();
        // Full lane height: any hatching that shows is idle time.
        const QRectF box(QPointF(xOf(iv.t0), lane.top()), QPointF(xOf(t1), bottom));
        QColor fill = colorOf(iv.job);
        const bool dim = current_ >= 0 && iv.iteration != current_;
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
        const QString text = spans_cpu[i] >= 0 ? tr("%1 load (storage + CPU)").arg(jobLabel(iv.job))
                                               : tr("%1 %2").arg(jobLabel(iv.job), stageLabel(iv.resource));
        const QRectF inner = box.adjusted(em * 0.2, 0, -em * 0.2, 0);
        if (inner.width() >= fm.horizontalAdvance(jobLabel(iv.job))) {
            p.setPen(textColorOn(fill));
            const QString shown = inner.width() >= fm.horizontalAdvance(text) ? text : jobLabel(iv.job);
            p.drawText(inner, Qt::AlignCenter, shown);
        }
    }

    if (playhead_ >= 0 && playhead_ < t_end) {
        p.setPen(QPen(colors.highlight, 2));
        p.drawLine(QPointF(xOf(playhead_), plot.top() - iter_h), QPointF(xOf(playhead_), plot.bottom()));
    }

    // Iteration boundaries and captions.
    QPen dash(colors.text, 0, Qt::DashLine);
    for (int it = 0; it < iterations_; ++it) {
        const auto c = static_cast<std::size_t>(it);
        if (iter_start[c] >= t_end && it > 0) continue;
        const double x = xOf(iter_start[c]);
        if (it > 0) {
            p.setPen(dash);
            p.drawLine(QPointF(x, plot.top() - iter_h * 0.2), QPointF(x, plot.bottom()));
        }
        QFont f = p.font();
        const bool cur = it == current_;
        f.setBold(cur);
        p.save();
        p.setFont(f);
        p.setPen(colors.text);
        const double next = it + 1 < iterations_ ? xOf(iter_start[c + 1]) : plot.right();
        p.drawText(QRectF(x + em * 0.3, plot.top() - iter_h, std::max(0.0, next - x - em * 0.3), iter_h),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(tr("iteration %1").arg(it + 1), Qt::ElideRight,
                                 std::max(0.0, next - x - em * 0.3)));
        p.restore();
    }
}

QRectF InterleaveGantt::blockRect(int interval) const {
    for (const auto& b : blocks_)
        if (b.interval == interval) return b.rect;
    return {};
}

int InterleaveGantt::blockAt(const QPointF& pos, bool* on_right_edge) const {
    const double tol = std::max(3.0, QFontMetricsF(font()).averageCharWidth() * 0.6);
    int found = -1;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
        const QRectF& b = blocks_[i].rect;
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
                intervals_[static_cast<std::size_t>(blocks_[static_cast<std::size_t>(b)].interval)];
            QToolTip::showText(help->globalPos(),
                               tr("<b>%1</b> (%2) on %3<br>iteration %4: %5 – %6 ms (%7 ms)<br>"
                                  "Drag the right edge to change this stage time.")
                                       .arg(names_.value(iv.job).toHtmlEscaped(), stageLabel(iv.resource),
                                            resourceName(iv.resource))
                                       .arg(iv.iteration + 1)
                                       .arg(formatMs(iv.t0), formatMs(iv.t1), formatMs(iv.t1 - iv.t0)) +
                                   (scale_ != 1.0 ? tr("<br>Drawn stretched ×%1: the stage time is %2 ms.")
                                                        .arg(QLocale().toString(scale_, 'f', 3),
                                                             formatMs((iv.t1 - iv.t0) / scale_))
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
    const auto& iv = intervals_[static_cast<std::size_t>(blocks_[static_cast<std::size_t>(b)].interval)];
    drag_job_ = iv.job;
    drag_stage_ = stageOfResource(iv.resource);
    drag_start_x_ = e->position().x();
    drag_start_ms_ = stages_[static_cast<std::size_t>(iv.job)][static_cast<std::size_t>(drag_stage_)];
    frozen_end_ = endTime();
    const QRectF& box = blocks_[static_cast<std::size_t>(b)].rect;
    px_per_ms_ = iv.t1 > iv.t0 ? box.width() / (iv.t1 - iv.t0) : 0.0;
    if (px_per_ms_ <= 0) drag_job_ = -1;
    e->accept();
}

void InterleaveGantt::mouseMoveEvent(QMouseEvent* e) {
    if (drag_job_ >= 0) {
        // The chart draws stages stretched by scale_; the request is in stage time.
        const double raw = drag_start_ms_ + (e->position().x() - drag_start_x_) / px_per_ms_ / scale_;
        // Round to what the table shows and never below a sliver: a stage time stays > 0.
        const double resolution = frozen_end_ >= 50 ? 0.1 : 0.01;
        const double ms = std::max(resolution, std::round(raw / resolution) * resolution);
        emit stageTimeDragged(drag_job_, drag_stage_, ms);
        e->accept();
        return;
    }
    bool edge = false;
    const int b = blockAt(e->position(), &edge);
    setCursor(b >= 0 && edge ? Qt::SizeHorCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(e);
}

void InterleaveGantt::mouseReleaseEvent(QMouseEvent* e) {
    if (drag_job_ >= 0) {
        drag_job_ = drag_stage_ = -1;
        frozen_end_ = 0.0;
        update();
        e->accept();
        return;
    }
    QWidget::mouseReleaseEvent(e);
}

void InterleaveGantt::leaveEvent(QEvent* e) {
    if (drag_job_ < 0) unsetCursor();
    QWidget::leaveEvent(e);
}

}  // namespace cl::views
