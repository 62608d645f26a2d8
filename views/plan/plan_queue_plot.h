#pragma once
// The queue over time of one evaluated cluster (docs/architecture.md 7.9): the jobs waiting and
// the jobs not yet finished during its first seed's run, as step lines over days (or hours for a
// run shorter than two days). A queue that keeps growing to the end shows a cluster that does
// not keep up with the arrivals; a tooltip gives the figures at the time under the mouse.
#include <memory>

#include "views/plan/plan_plot.h"

namespace cl::views {

class PlanQueuePlot : public PlanPlot {
    Q_OBJECT

public:
    explicit PlanQueuePlot(QWidget* parent = nullptr);

    // The queue of evaluation `evaluation` (index into the report's evaluations; -1 for none).
    void setPlan(std::shared_ptr<const cl::PlanRequest> request, std::shared_ptr<const cl::PlanReport> report,
                 int evaluation);
    int evaluation() const { return m_evaluation; }
    // The samples drawn per line (for tests).
    int pointCount() const;

protected:
    void rebuild() override;
    QString tipAt(const QPoint& pos) const override;

private:
    const cl::PlanEvaluation* shown() const;
    int m_evaluation = -1;
    double m_unit = 86400.0;  // seconds per unit of the time axis
};

}  // namespace cl::views
