#pragma once
// The cost-vs-metric frontier of a plan (docs/architecture.md 7.9): every cluster evaluated at
// the planned load as a point (cost per month across, the first target's metric up; filled when
// it meets every target, one colour per policy), the frontier as a line through the cheapest
// point of each level of the metric, and the target as a dashed line. A tooltip names the point
// under the mouse.
#include <memory>

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

protected:
    void rebuild() override;
    QString tipAt(const QPoint& pos) const override;

private:
    double m_unit = 3600.0;  // seconds per unit of the metric axis
};

}  // namespace cl::views
