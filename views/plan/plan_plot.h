#pragma once
// What the two charts of a plan share (docs/architecture.md 7.9): the plan they draw, a redraw
// when the theme changes, and the tooltip of the point under the mouse.
#include <memory>

#include <QString>

#include "core/planning/capacity_plan.h"
#include "views/common/themed_plot.h"

namespace cl::views {

class PlanPlot : public ThemedPlot {
    Q_OBJECT

public:
    explicit PlanPlot(QWidget* parent = nullptr);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void restyle() override;
    // Draws the plan (m_request, m_report) from scratch: on a new plan and after a restyle.
    virtual void rebuild() = 0;
    // The tooltip for a widget position, or empty for none.
    virtual QString tipAt(const QPoint& pos) const = 0;

    std::shared_ptr<const cl::PlanRequest> m_request;
    std::shared_ptr<const cl::PlanReport> m_report;
};

}  // namespace cl::views
