#pragma once
// The cost-vs-metric frontier of a plan (docs/architecture.md 7.9): every cluster evaluated at
// the planned load as a point (cost per month across, the first target's metric up; filled when
// it meets every target, one colour per policy), the frontier as a line through the cheapest
// point of each level of the metric, and the target as a dashed line. A tooltip names the point
// under the mouse with all its figures.
//
// The cost axis has its ticks where the points are. It is logarithmic only when the costs span a
// decade or more (a search that doubled far past the answer), linear otherwise. When no cluster
// has a price (every cost zero) the axis is the GPU count instead, and says so.
#include <memory>
#include <vector>

#include "views/plan/plan_plot.h"

namespace cl::views {

class PlanFrontierPlot : public PlanPlot {
    Q_OBJECT

public:
    explicit PlanFrontierPlot(QWidget* parent = nullptr);

    void setPlan(std::shared_ptr<const cl::PlanRequest> request,
                 std::shared_ptr<const cl::PlanReport> report);
    // The evaluation nearest to a widget position within a few pixels, or -1.
    int evaluationAt(const QPoint& pos) const;
    // The tooltip of evaluation `index` (into the report's evaluations): server type, count,
    // policy, cost, every metric and, when assessed, the overload figures. Empty for no point.
    QString pointToolTip(int index) const;
    // True when the x axis counts GPUs because no cluster of the plan has a price.
    bool axisCountsGpus() const { return m_byGpus; }

protected:
    void rebuild() override;
    QString tipAt(const QPoint& pos) const override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Where evaluation `e` lies across: its cost, or its GPU count when nothing is priced.
    double across(const cl::PlanEvaluation& e) const;
    void drawTarget(double lowest);
    void setAcrossAxis();
    // Ticks at the points' positions, as many as fit the axis without overlapping labels.
    void placeTicks();

    double m_unit = 3600.0;  // seconds per unit of the metric axis
    bool m_byGpus = false;
    std::vector<double> m_tickValues;  // the distinct positions of the points, ascending
};

}  // namespace cl::views
