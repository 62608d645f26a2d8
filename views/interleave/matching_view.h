#pragma once
// Muri's grouping as a graph (paper Fig. 5): the jobs are nodes on an ellipse fitted to the
// widget, every pair that can interleave is an edge weighted with its interleaving efficiency
// gamma, and the maximum-weight matching the engine picks (cl::maxWeightMatching, Blossom) is
// drawn thick. Gammas come from cl::groupTiming (best ordering), as in the Muri grouping rounds.
// The layout is deterministic and recomputed for every size: job names and edge labels are
// placed at the first of a fixed list of candidate spots that overlaps nothing placed before.
#include <vector>

#include <QStringList>
#include <QWidget>

#include "core/interleave/contention.h"

class QPainter;

namespace cl::views {

class MatchingView : public QWidget {
    Q_OBJECT
public:
    explicit MatchingView(QWidget* parent = nullptr);

    // Up to kMaxJobs jobs (more are ignored). stages[i]: job i's stage times (any unit, the
    // same for all); stage_names label them in the node tooltips.
    void setJobs(const QStringList& names, const std::vector<std::vector<double>>& stages,
                 const QStringList& stage_names = {});
    // Contention::none() (default) = the paper's idealised figures; the simulator's factors
    // give the weights Muri-S really uses.
    void setContention(const cl::Contention& contention);

    static constexpr int kMaxJobs = 12;
    int jobCount() const { return static_cast<int>(m_stages.size()); }
    const QStringList& names() const { return m_names; }
    // gamma of the pair, or NaN when the two jobs cannot be grouped (no edge).
    double edgeGamma(int a, int b) const;
    // mate[v]: v's partner in the engine's matching, -1 when unmatched.
    const std::vector<int>& matching() const { return m_mate; }
    // Sum of gamma over the matched pairs.
    double matchedGamma() const;

    // Where everything goes at the current size (widget coordinates).
    struct EdgeLabel {
        int a = -1, b = -1;
        QRectF box;
        QString text;
        bool matched = false;
    };
    struct Layout {
        QRectF area;  // below the headline: nodes and labels stay inside
        double node_r = 0.0;
        std::vector<QPointF> nodes;
        std::vector<QRectF> names;  // job names beside the nodes (empty rect: the name is in the node)
        std::vector<EdgeLabel> labels;
        QRectF nodeRect(int i) const {
            const QPointF c = nodes[static_cast<std::size_t>(i)];
            return {c.x() - node_r, c.y() - node_r, 2 * node_r, 2 * node_r};
        }
    };
    Layout layout() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void matchingChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void recompute();
    void placeNodes(Layout& l) const;
    void placeNames(Layout& l) const;
    void placeEdgeLabels(Layout& l) const;
    bool edgeLabelShown(int a, int b) const;
    QString nodeTag(int i) const;
    int nodeAt(const QPointF& pos) const;
    // paintEvent's layers: the headline, the weighted edges with their gamma labels, then the
    // job nodes and names.
    void paintHeadline(QPainter& p, const QRectF& r) const;
    void paintEdges(QPainter& p, const Layout& l) const;
    void paintNodes(QPainter& p, const Layout& l) const;

    QStringList m_names;
    QStringList m_stageNames;
    std::vector<std::vector<double>> m_stages;
    cl::Contention m_contention = cl::Contention::none();
    std::vector<double> m_gamma;  // n x n, NaN = no edge
    std::vector<int> m_mate;
    int m_hover = -1;
    std::vector<QPointF> m_lastNodes;  // of the last paint, for hit tests
    double m_lastNodeR = 0.0;
};

}  // namespace cl::views
