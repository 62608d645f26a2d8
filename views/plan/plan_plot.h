#pragma once
// What the two charts of a plan share (docs/architecture.md 7.9): the plan they draw, a redraw
// when the theme changes, the tooltip of the point under the mouse, and the look of a chart with
// nothing to show yet: no axes, a hint in the middle of the whole chart.
#include <memory>

#include <QString>

#include "core/planning/capacity_plan.h"
#include "views/common/themed_plot.h"

namespace cl::views {

class PlanPlot : public ThemedPlot {
    Q_OBJECT

public:
    explicit PlanPlot(QWidget* parent = nullptr);

    // The hint an empty chart shows ("" while it draws a plan).
    QString hint() const;
    // What a chart of one cluster shows ("3 \u00d7 dgx-a100 with srtf"); empty for none.
    QString subject() const { return m_subject; }

protected:
    bool event(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void restyle() override;
    // Draws the plan (m_request, m_report) from scratch: on a new plan and after a restyle.
    virtual void rebuild() = 0;
    // The tooltip for a widget position, or empty for none.
    virtual QString tipAt(const QPoint& pos) const = 0;
    // Clears the chart for drawing: axes and legend shown.
    void startDrawing();
    // Clears the chart and shows only `hint` (and the title) until the next drawing.
    void showEmpty(const QString& hint);

    std::shared_ptr<const cl::PlanRequest> m_request;
    std::shared_ptr<const cl::PlanReport> m_report;
    QString m_subject;

private:
    void clearChart(bool empty);
    QCPItemText* m_hint = nullptr;
};

}  // namespace cl::views
