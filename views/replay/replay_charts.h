#pragma once
// The two charts of the replay check (docs/architecture.md 7.10): the distributions of the
// recorded and the simulated waits (start - submit) as two step lines, and every compared job's
// simulated against its recorded start with the diagonal where the two agree. Times in the
// largest unit that keeps the axis readable; colours from the palette and the series palette,
// so both themes work.
#include <memory>

#include <QString>

#include "core/metrics/replay_check.h"
#include "views/common/themed_plot.h"

namespace cl::views {

// A unit for an axis of times: its size in seconds and its name.
struct TimeUnit {
    double seconds = 1.0;
    QString name;
};
// Seconds up to two minutes, minutes up to two hours, hours up to two days, then days.
TimeUnit timeUnitFor(double largestSeconds);

// What both charts share: the check they draw, a redraw on a theme change, and a hint in the
// middle of an empty chart.
class ReplayPlot : public ThemedPlot {
    Q_OBJECT

public:
    explicit ReplayPlot(QWidget* parent = nullptr);

    // Draws this check (null: the hint alone).
    void setCheck(std::shared_ptr<const cl::ReplayCheck> check);
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void restyle() override;
    virtual void draw(const cl::ReplayCheck& check) = 0;
    std::shared_ptr<const cl::ReplayCheck> m_check;

private:
    void rebuild();
};

class ReplayWaitCdf : public ReplayPlot {
    Q_OBJECT

public:
    explicit ReplayWaitCdf(QWidget* parent = nullptr);

protected:
    void draw(const cl::ReplayCheck& check) override;
};

class ReplayStartScatter : public ReplayPlot {
    Q_OBJECT

public:
    explicit ReplayStartScatter(QWidget* parent = nullptr);

protected:
    void draw(const cl::ReplayCheck& check) override;
    // A tooltip naming the job under the mouse, else the chart's own.
    bool event(QEvent* event) override;

private:
    // The job under a widget position (within a few pixels of its dot), or null.
    const cl::ReplayJob* jobAt(const QPoint& pos) const;
    double m_origin = 0.0;  // seconds: the first submit, shown as 0
    TimeUnit m_unit;
};

}  // namespace cl::views
