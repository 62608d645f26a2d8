#include "views/interleave/matching_view.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "core/interleave/group_time.h"
#include "core/matching/max_weight_matching.h"
#include "views/interleave/interleave_gantt.h"
#include "views/interleave/stage_table_model.h"

namespace cl::views {

namespace {
constexpr double kNoEdge = std::numeric_limits<double>::quiet_NaN();
}

MatchingView::MatchingView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setToolTip(
        tr("Every pair of jobs weighted with its interleaving efficiency γ; thick edges: the "
           "maximum-weight matching Muri groups by. Hover a node to see its edges."));
}

void MatchingView::setJobs(const QStringList& names, const std::vector<std::vector<double>>& stages,
                           const QStringList& stage_names) {
    const auto n = std::min<std::size_t>(
        {static_cast<std::size_t>(names.size()), stages.size(), static_cast<std::size_t>(kMaxJobs)});
    m_names = names.mid(0, static_cast<qsizetype>(n));
    m_stages.assign(stages.begin(), stages.begin() + static_cast<std::ptrdiff_t>(n));
    m_stageNames = stage_names;
    m_hover = -1;
    recompute();
}

void MatchingView::setContention(const cl::Contention& contention) {
    m_contention = contention;
    recompute();
}

void MatchingView::recompute() {
    const int n = jobCount();
    m_gamma.assign(static_cast<std::size_t>(n * n), kNoEdge);
    std::vector<cl::WeightedEdge> edges;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            const std::vector<std::vector<double>> pair{m_stages[static_cast<std::size_t>(a)],
                                                        m_stages[static_cast<std::size_t>(b)]};
            std::vector<double> solo;
            for (const auto& s : pair)
                solo.push_back(std::max(1e-12, std::accumulate(s.begin(), s.end(), 0.0)));
            try {
                const double g = cl::groupTiming(pair, solo, true, m_contention).gamma;
                m_gamma[static_cast<std::size_t>(a * n + b)] = m_gamma[static_cast<std::size_t>(b * n + a)] =
                    g;
                edges.push_back({a, b, cl::fixedPointWeight(g)});
            } catch (const std::exception&) {
                // Not groupable (different stage counts, more jobs than stages): no edge.
            }
        }
    try {
        m_mate = cl::maxWeightMatching(n, edges);
    } catch (const std::exception&) {
        m_mate.assign(static_cast<std::size_t>(n), -1);
    }
    update();
    emit matchingChanged();
}

double MatchingView::edgeGamma(int a, int b) const {
    const int n = jobCount();
    if (a < 0 || b < 0 || a >= n || b >= n || a == b) return kNoEdge;
    return m_gamma[static_cast<std::size_t>(a * n + b)];
}

double MatchingView::matchedGamma() const {
    double sum = 0.0;
    for (int v = 0; v < jobCount(); ++v)
        if (int m = m_mate[static_cast<std::size_t>(v)]; m > v) sum += edgeGamma(v, m);
    return sum;
}

QSize MatchingView::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.height() * 30, fm.height() * 24};
}

QSize MatchingView::minimumSizeHint() const {
    // Small enough that the Gantt above keeps most of a 768-pixel screen.
    const QFontMetrics fm(font());
    return {fm.height() * 14, fm.height() * 10};
}

std::vector<QPointF> MatchingView::nodePositions(const QRectF& area, double node_r) const {
    const int n = jobCount();
    std::vector<QPointF> pos;
    const QPointF c = area.center();
    const double radius = std::max(0.0, std::min(area.width(), area.height()) / 2 - node_r);
    for (int i = 0; i < n; ++i) {
        // Start at the top-left so 4 jobs sit as the paper's square (A top left, B top right, ...).
        const double angle = -std::numbers::pi * 3 / 4 + 2 * std::numbers::pi * i / std::max(1, n);
        pos.emplace_back(c.x() + radius * std::cos(angle), c.y() + radius * std::sin(angle));
    }
    return pos;
}

void MatchingView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetricsF fm(font());
    const double em = fm.height();
    const int n = jobCount();
    QRectF r = QRectF(rect()).adjusted(em * 0.8, em * 0.5, -em * 0.8, -em * 0.5);

    p.setPen(pal.color(QPalette::Text));
    if (n == 0) {
        p.drawText(r, Qt::AlignCenter, tr("No jobs to match."));
        return;
    }
    paintHeadline(p, r);

    // Node labels sit outside the circle: leave room for the longest one.
    double label_w = 0;
    for (const QString& s : m_names) label_w = std::max(label_w, fm.horizontalAdvance(s));
    label_w = std::min(label_w, em * 9);
    const double node_r = em * 1.0;
    const QRectF circle = r.adjusted(label_w + em * 0.5, em * 1.2, -label_w - em * 0.5, -em * 1.2);
    const auto pos = nodePositions(circle, node_r);
    m_lastNodes = pos;
    m_lastNodeR = node_r;

    paintEdges(p, pos);
    paintNodes(p, pos, circle, node_r, label_w);
}

void MatchingView::paintHeadline(QPainter& p, QRectF& r) const {
    const double em = QFontMetricsF(font()).height();
    const int n = jobCount();
    const QLocale locale;
    int pairs = 0;
    for (int v = 0; v < n; ++v)
        if (m_mate[static_cast<std::size_t>(v)] > v) ++pairs;
    const QString total = locale.toString(matchedGamma(), 'f', 2);
    const QString head = pairs == 1
                             ? tr("Maximum-weight matching: 1 pair, total γ = %1").arg(total)
                             : tr("Maximum-weight matching: %1 pairs, total γ = %2").arg(pairs).arg(total);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(r.left(), r.top(), r.width(), em), Qt::AlignLeft | Qt::AlignVCenter, head);
    p.setFont(font());
    r.setTop(r.top() + em * 1.4);
}

void MatchingView::paintEdges(QPainter& p, const std::vector<QPointF>& pos) const {
    const QPalette& pal = palette();
    const double em = QFontMetricsF(font()).height();
    const int n = jobCount();
    const QLocale locale;
    const bool all_labels = n <= 6;
    const QColor text = pal.color(QPalette::Text);
    // Matched edges in the text colour, thick: no clash with the job colours of the nodes.
    const QColor matched_col = text;
    QColor faint = pal.color(QPalette::Mid);

    auto edgeVisibleLabel = [&](int a, int b) {
        return all_labels || m_hover == a || m_hover == b ||
               (m_hover < 0 && m_mate[static_cast<std::size_t>(a)] == b);
    };
    struct Label {
        QPointF at;
        QString text;
        bool matched;
    };
    std::vector<Label> labels;
    for (int pass = 0; pass < 2; ++pass)  // unmatched edges first, matched on top
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b) {
                const double g = edgeGamma(a, b);
                if (std::isnan(g)) continue;
                const bool matched = m_mate[static_cast<std::size_t>(a)] == b;
                if (matched != (pass == 1)) continue;
                const bool hovered = m_hover == a || m_hover == b;
                QColor c = matched ? matched_col : (hovered ? text : faint);
                if (!matched && !hovered && m_hover >= 0) c.setAlphaF(0.35);
                const double w =
                    matched ? em * 0.3 : std::max(1.0, em * 0.06 * (1 + 2 * std::clamp(g, 0.0, 1.0)));
                p.setPen(QPen(c, w, matched ? Qt::SolidLine : Qt::SolidLine, Qt::RoundCap));
                p.drawLine(pos[static_cast<std::size_t>(a)], pos[static_cast<std::size_t>(b)]);
                if (edgeVisibleLabel(a, b)) {
                    // Labels of crossing diagonals would meet in the centre: shift along the edge.
                    const double f = (n == 4 && (b - a) == 2) ? (a == 0 ? 0.3 : 0.7) : 0.5;
                    labels.push_back(
                        {pos[static_cast<std::size_t>(a)] * (1 - f) + pos[static_cast<std::size_t>(b)] * f,
                         locale.toString(g, 'f', 2), matched});
                }
            }
    for (const auto& l : labels) {
        QFont f = font();
        f.setBold(l.matched);
        p.setFont(f);
        const QFontMetricsF lfm(f);
        const QRectF box(l.at.x() - lfm.horizontalAdvance(l.text) / 2 - em * 0.25, l.at.y() - em * 0.5,
                         lfm.horizontalAdvance(l.text) + em * 0.5, em);
        p.setPen(QPen(l.matched ? matched_col : faint, 0));
        p.setBrush(pal.color(QPalette::Base));
        p.drawRoundedRect(box, em * 0.25, em * 0.25);
        p.setPen(l.matched ? matched_col : text);
        p.drawText(box, Qt::AlignCenter, l.text);
    }
    p.setFont(font());
}

void MatchingView::paintNodes(QPainter& p, const std::vector<QPointF>& pos, const QRectF& circle,
                              double node_r, double label_w) const {
    const QFontMetricsF fm(font());
    const double em = fm.height();
    const int n = jobCount();
    const QColor text = palette().color(QPalette::Text);
    for (int i = 0; i < n; ++i) {
        const QPointF c = pos[static_cast<std::size_t>(i)];
        const QColor fill = InterleaveGantt::jobColor(i);
        p.setPen(QPen(m_hover == i ? text : fill.darker(140), m_hover == i ? em * 0.12 : 1.0));
        p.setBrush(fill);
        p.drawEllipse(c, node_r, node_r);
        const QString tag = m_names[i].size() <= 2 ? m_names[i] : QString::number(i + 1);
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        p.setPen(Qt::white);
        p.drawText(QRectF(c.x() - node_r, c.y() - node_r, 2 * node_r, 2 * node_r), Qt::AlignCenter, tag);
        p.setFont(font());
        if (m_names[i].size() > 2) {
            // Name outside the circle, on the side away from the centre.
            const QPointF out = c - circle.center();
            const double len = std::hypot(out.x(), out.y());
            const QPointF dir = len > 0 ? out / len : QPointF(0, -1);
            const QString name = fm.elidedText(m_names[i], Qt::ElideRight, label_w);
            const double w = fm.horizontalAdvance(name);
            QPointF at = c + dir * (node_r + em * 0.4);
            QRectF box(at.x() - w / 2, at.y() - em / 2, w, em);
            if (dir.x() > 0.3)
                box.moveLeft(at.x());
            else if (dir.x() < -0.3)
                box.moveRight(at.x());
            if (dir.y() > 0.7)
                box.moveTop(at.y());
            else if (dir.y() < -0.7)
                box.moveBottom(at.y());
            p.setPen(text);
            p.drawText(box, Qt::AlignCenter, name);
        }
    }
}

int MatchingView::nodeAt(const QPointF& pos) const {
    for (std::size_t i = 0; i < m_lastNodes.size(); ++i) {
        const QPointF d = pos - m_lastNodes[i];
        if (std::hypot(d.x(), d.y()) <= m_lastNodeR * 1.2) return static_cast<int>(i);
    }
    return -1;
}

void MatchingView::mouseMoveEvent(QMouseEvent* e) {
    const int h = nodeAt(e->position());
    if (h != m_hover) {
        m_hover = h;
        update();
    }
    QWidget::mouseMoveEvent(e);
}

void MatchingView::leaveEvent(QEvent* e) {
    if (m_hover >= 0) {
        m_hover = -1;
        update();
    }
    QWidget::leaveEvent(e);
}

bool MatchingView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int v = nodeAt(help->pos());
        if (v >= 0) {
            QStringList parts;
            const auto& s = m_stages[static_cast<std::size_t>(v)];
            for (std::size_t k = 0; k < s.size(); ++k)
                parts << tr("%1 %2 ms")
                             .arg(m_stageNames.value(static_cast<qsizetype>(k), tr("stage %1").arg(k + 1)),
                                  formatMs(s[k]));
            const int m = m_mate[static_cast<std::size_t>(v)];
            const QString partner =
                m >= 0 ? tr("grouped with %1 (γ = %2)")
                             .arg(m_names[m].toHtmlEscaped(), QLocale().toString(edgeGamma(v, m), 'f', 2))
                       : tr("not grouped");
            QToolTip::showText(
                help->globalPos(),
                tr("<b>%1</b><br>%2<br>%3")
                    .arg(m_names[v].toHtmlEscaped(), parts.join(QStringLiteral(", ")), partner),
                this);
            return true;
        }
    }
    return QWidget::event(e);
}

}  // namespace cl::views
