#pragma once
// The cliff of one plan (docs/architecture.md 7.9): each target's metric against the server
// count around the answer, as a multiple of its target (1 = exactly at the target, below 1 meets
// an upper bound), so targets of different sizes share one axis; the answer is marked. A tooltip
// gives the figures of the count under the mouse.
#include <memory>
#include <vector>

#include "views/plan/plan_plot.h"

namespace cl::views {

class PlanCliffPlot : public PlanPlot {
    Q_OBJECT

public:
    explicit PlanCliffPlot(QWidget* parent = nullptr);

    // The cliff of candidate `candidate` (index into the report's candidates; -1 for none).
    void setPlan(std::shared_ptr<const cl::PlanRequest> request, std::shared_ptr<const cl::PlanReport> report,
                 int candidate);
    // The number of points drawn per target (for tests).
    int pointCount() const;

protected:
    void rebuild() override;
    QString tipAt(const QPoint& pos) const override;

private:
    int m_candidate = -1;
    std::vector<const cl::PlanEvaluation*> m_points;  // by server count
};

}  // namespace cl::views
