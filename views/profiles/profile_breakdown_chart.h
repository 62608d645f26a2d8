#pragma once
// One horizontal bar per model (or per rank of a profiler trace): its time per iteration
// stacked by the resource each stage occupies (storage, CPU, GPU, network; load+CPU for the
// built-in three-stage profiles), with the iteration time marked on each bar. A model that
// knows only its iteration time gets a plain grey bar of that length.
#include <vector>

#include <QString>

#include "views/profiles/profile_figures.h"
#include "views/profiles/profile_plot.h"

namespace cl::views {

class ProfileBreakdownChart : public ProfilePlot {
    Q_OBJECT

public:
    struct Bar {
        QString label;
        std::vector<StageSegment> segments;  // seconds; empty: iteration time only
        double iteration_s = 0.0;
        QString note;  // added to the tooltip (e.g. "at 8 GPUs", "slowest rank")
    };

    explicit ProfileBreakdownChart(QWidget* parent = nullptr);

    void setBars(const std::vector<Bar>& bars, const QString& title);
    void clear(const QString& message = {});
    const std::vector<Bar>& bars() const { return m_bars; }
    // The bar drawn with a frame (the selected model), -1 for none.
    void setHighlighted(int index);
    int highlighted() const { return m_highlighted; }

    // The stacked value of resource at bar index in milliseconds, as drawn (0 when absent).
    double drawnMs(int index, StageResource resource) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void restyle() override;
    QCPAxis* categoryAxis() const override { return yAxis; }

private:
    void rebuild();
    void fitLegend();

    std::vector<Bar> m_bars;
    QString m_titleText;
    int m_highlighted = -1;
};

}  // namespace cl::views
