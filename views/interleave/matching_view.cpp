#include "views/interleave/matching_view.h"

#include <algorithm>
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
#include "views/common/chart_style.h"
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
    updateGeometry();  // the minimum height follows the number of jobs
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
    // Enough for the paper's four jobs in a square with their six gamma labels; more jobs with
    // long names need a taller ellipse.
    const QFontMetrics fm(font());
    return {fm.height() * 16, fm.height() * (jobCount() > 6 ? 13 : 9)};
}

namespace {

// Sum of the areas where `box` overlaps the obstacles (0: free).
double overlapArea(const QRectF& box, const std::vector<QRectF>& obstacles) {
    double sum = 0;
    for (const QRectF& o : obstacles) {
        const QRectF i = box.intersected(o);
        if (!i.isEmpty()) sum += i.width() * i.height();
    }
    return sum;
}

QRectF clampInto(QRectF box, const QRectF& bounds) {
    if (box.right() > bounds.right()) box.moveRight(bounds.right());
    if (box.bottom() > bounds.bottom()) box.moveBottom(bounds.bottom());
    if (box.left() < bounds.left()) box.moveLeft(bounds.left());
    if (box.top() < bounds.top()) box.moveTop(bounds.top());
    return box;
}

// The first candidate inside the bounds that overlaps no obstacle; else the one overlapping
// least, moved inside the bounds. Deterministic: the same size gives the same picture.
QRectF placeFirstFree(const std::vector<QRectF>& candidates, const std::vector<QRectF>& obstacles,
                      const QRectF& bounds) {
    QRectF best;
    double best_overlap = std::numeric_limits<double>::infinity();
    for (const QRectF& c : candidates) {
        const QRectF in = clampInto(c, bounds);
        const double o = overlapArea(in, obstacles) + (in == c ? 0.0 : 0.5);
        if (o == 0.0) return in;
        if (o < best_overlap) {
            best_overlap = o;
            best = in;
        }
    }
    return best;
}

}  // namespace

QString MatchingView::nodeTag(int i) const {
    return m_names[i].size() <= 2 ? m_names[i] : QString::number(i + 1);
}

bool MatchingView::edgeLabelShown(int a, int b) const {
    // Every gamma for a handful of jobs; with more, the matched pairs' (and the hovered job's).
    return jobCount() <= 6 || m_hover == a || m_hover == b ||
           (m_hover < 0 && m_mate[static_cast<std::size_t>(a)] == b);
}

MatchingView::Layout MatchingView::layout() const {
    Layout l;
    const double em = QFontMetricsF(font()).height();
    l.area = QRectF(rect()).adjusted(em * 0.8, em * 0.5 + em * 1.4, -em * 0.8, -em * 0.5);
    if (jobCount() == 0) return l;
    placeNodes(l);
    placeNames(l);
    placeEdgeLabels(l);
    return l;
}

void MatchingView::placeNodes(Layout& l) const {
    const QFontMetricsF fm(font());
    const double em = fm.height();
    const int n = jobCount();
    bool long_names = false;
    double label_w = 0;
    for (int i = 0; i < n; ++i)
        if (m_names[i].size() > 2) {
            long_names = true;
            label_w = std::max(label_w, std::min(fm.horizontalAdvance(m_names[i]), em * 9));
        }
    // Names sit outside the ellipse: on its sides they need their width, above and below a line.
    const double margin_x = long_names ? label_w + em * 0.4 : 0.0;
    const double margin_y = long_names ? em * 1.4 : 0.0;
    l.node_r = em * 0.95;
    const QPointF c = l.area.center();
    double a = 0, b = 0;
    std::vector<double> angles;
    for (int i = 0; i < n; ++i)  // from the top left, so 4 jobs sit as the paper's square (A top left)
        angles.push_back(-std::numbers::pi * 3 / 4 + 2 * std::numbers::pi * i / std::max(1, n));
    for (int attempt = 0; attempt < 8; ++attempt) {
        a = std::max(0.0, l.area.width() / 2 - l.node_r - margin_x);
        b = std::max(0.0, l.area.height() / 2 - l.node_r - margin_y);
        // A few jobs keep the paper's near-square; many use the whole width.
        if (n <= 6) a = std::min(a, std::max(b, em * 2) * 2.2);
        l.nodes.clear();
        for (double t : angles) l.nodes.emplace_back(c.x() + a * std::cos(t), c.y() + b * std::sin(t));
        double closest = std::numeric_limits<double>::infinity();
        for (int i = 0; i < n; ++i)
            for (int k = i + 1; k < n; ++k) {
                const QPointF d = l.nodes[static_cast<std::size_t>(i)] - l.nodes[static_cast<std::size_t>(k)];
                closest = std::min(closest, std::hypot(d.x(), d.y()));
            }
        if (n < 2 || closest >= 2 * l.node_r + em * 0.3 || l.node_r <= em * 0.55) break;
        l.node_r = std::max(em * 0.55, std::min(l.node_r * 0.85, (closest - em * 0.3) / 2));
    }
}

void MatchingView::placeNames(Layout& l) const {
    const QFontMetricsF fm(font());
    const double em = fm.height();
    const int n = jobCount();
    const QPointF c = l.area.center();
    std::vector<QRectF> taken;
    for (int i = 0; i < n; ++i) taken.push_back(l.nodeRect(i).adjusted(-2, -2, 2, 2));
    l.names.assign(static_cast<std::size_t>(n), QRectF());
    for (int i = 0; i < n; ++i) {
        if (m_names[i].size() <= 2) continue;
        const QPointF at = l.nodes[static_cast<std::size_t>(i)];
        const double w = std::min(fm.horizontalAdvance(m_names[i]), em * 9) + 2;
        const double gap = l.node_r + em * 0.25;
        const QRectF above(at.x() - w / 2, at.y() - gap - em, w, em),
            below(at.x() - w / 2, at.y() + gap, w, em), right(at.x() + gap, at.y() - em / 2, w, em),
            left(at.x() - gap - w, at.y() - em / 2, w, em);
        // Away from the centre first, then the other sides.
        const QPointF out = at - c;
        const bool side = std::abs(out.x()) * l.area.height() > std::abs(out.y()) * l.area.width() * 1.2;
        std::vector<QRectF> candidates;
        if (side)
            candidates = out.x() > 0 ? std::vector<QRectF>{right, above, below, left}
                                     : std::vector<QRectF>{left, above, below, right};
        else
            candidates = out.y() > 0 ? std::vector<QRectF>{below, right, left, above}
                                     : std::vector<QRectF>{above, right, left, below};
        const QRectF box = placeFirstFree(candidates, taken, l.area);
        l.names[static_cast<std::size_t>(i)] = box;
        taken.push_back(box);
    }
}

void MatchingView::placeEdgeLabels(Layout& l) const {
    const double em = QFontMetricsF(font()).height();
    const int n = jobCount();
    const QLocale locale;
    std::vector<QRectF> taken;
    for (int i = 0; i < n; ++i) taken.push_back(l.nodeRect(i).adjusted(-2, -2, 2, 2));
    for (const QRectF& r : l.names)
        if (!r.isEmpty()) taken.push_back(r);
    for (int pass = 0; pass < 2; ++pass)  // the matched pairs' labels get the best spots
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b) {
                const double g = edgeGamma(a, b);
                const bool matched = m_mate[static_cast<std::size_t>(a)] == b;
                if (std::isnan(g) || matched != (pass == 0) || !edgeLabelShown(a, b)) continue;
                EdgeLabel label{a, b, {}, locale.toString(g, 'f', 2), matched};
                QFont f = font();
                f.setBold(matched);
                const double w = QFontMetricsF(f).horizontalAdvance(label.text) + em * 0.5;
                const QPointF pa = l.nodes[static_cast<std::size_t>(a)],
                              pb = l.nodes[static_cast<std::size_t>(b)];
                const QPointF d = pb - pa;
                const double len = std::max(1e-9, std::hypot(d.x(), d.y()));
                const QPointF normal(-d.y() / len, d.x() / len);
                // Along the edge first (the label then sits on its own line), then beside it.
                std::vector<QRectF> candidates;
                for (double off : {0.0, 0.8, -0.8, 1.6, -1.6})
                    for (double t : {0.5, 0.38, 0.62, 0.28, 0.72, 0.2, 0.8, 0.44, 0.56, 0.33, 0.67}) {
                        const QPointF at = pa + d * t + normal * (off * em);
                        candidates.emplace_back(at.x() - w / 2, at.y() - em / 2, w, em);
                    }
                label.box = placeFirstFree(candidates, taken, l.area);
                taken.push_back(label.box);
                l.labels.push_back(label);
            }
}

void MatchingView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const double em = QFontMetricsF(font()).height();
    const QRectF r = QRectF(rect()).adjusted(em * 0.8, em * 0.5, -em * 0.8, -em * 0.5);
    p.setPen(pal.color(QPalette::Text));
    if (jobCount() == 0) {
        p.drawText(r, Qt::AlignCenter, tr("No jobs to match."));
        return;
    }
    paintHeadline(p, r);
    const Layout l = layout();
    m_lastNodes = l.nodes;
    m_lastNodeR = l.node_r;
    paintEdges(p, l);
    paintNodes(p, l);
}

void MatchingView::paintHeadline(QPainter& p, const QRectF& r) const {
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
    p.drawText(QRectF(r.left(), r.top(), r.width(), em), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(bold).elidedText(head, Qt::ElideRight, r.width()));
    p.setFont(font());
}

void MatchingView::paintEdges(QPainter& p, const Layout& l) const {
    const QPalette& pal = palette();
    const double em = QFontMetricsF(font()).height();
    const int n = jobCount();
    const QColor text = pal.color(QPalette::Text);
    // Matched edges in the text colour, thick: no clash with the job colours of the nodes.
    const QColor matched_col = text;
    const QColor faint = pal.color(QPalette::Mid);
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
                p.setPen(QPen(c, w, Qt::SolidLine, Qt::RoundCap));
                p.drawLine(l.nodes[static_cast<std::size_t>(a)], l.nodes[static_cast<std::size_t>(b)]);
            }
    for (const auto& label : l.labels) {
        QFont f = font();
        f.setBold(label.matched);
        p.setFont(f);
        p.setPen(QPen(label.matched ? matched_col : faint, 0));
        p.setBrush(pal.color(QPalette::Base));
        p.drawRoundedRect(label.box, em * 0.25, em * 0.25);
        p.setPen(label.matched ? matched_col : text);
        p.drawText(label.box, Qt::AlignCenter, label.text);
    }
    p.setFont(font());
}

void MatchingView::paintNodes(QPainter& p, const Layout& l) const {
    const QFontMetricsF fm(font());
    const double em = fm.height();
    const int n = jobCount();
    const QColor text = palette().color(QPalette::Text);
    for (int i = 0; i < n; ++i) {
        const QPointF c = l.nodes[static_cast<std::size_t>(i)];
        const QColor fill = InterleaveGantt::jobColor(i);
        p.setPen(QPen(m_hover == i ? text : fill.darker(140), m_hover == i ? em * 0.12 : 1.0));
        p.setBrush(fill);
        p.drawEllipse(c, l.node_r, l.node_r);
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        p.setPen(textColorOn(fill));
        p.drawText(l.nodeRect(i), Qt::AlignCenter, nodeTag(i));
        p.setFont(font());
        const QRectF& box = l.names[static_cast<std::size_t>(i)];
        if (!box.isEmpty()) {
            // On the page's background, so that the edges behind do not cross the letters.
            p.setPen(Qt::NoPen);
            p.setBrush(palette().color(QPalette::Base));
            p.drawRoundedRect(box, em * 0.2, em * 0.2);
            p.setPen(text);
            p.drawText(box, Qt::AlignCenter, fm.elidedText(m_names[i], Qt::ElideRight, box.width()));
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
