#pragma once
// The interleaving Gantt of one group (Muri paper Fig. 1, 4 and 6): one lane per resource,
// a coloured block per job stage, idle time hatched, dashed iteration boundaries and a
// time axis in milliseconds. The schedule comes from the engine (cl::stageSchedule); this
// widget only draws it, highlights the iteration being stepped through and turns a drag of
// a block's right edge into a stage-time request.
#include <vector>

#include <QColor>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include "core/interleave/ordering.h"
#include "core/interleave/stage_schedule.h"

class QFontMetricsF;
class QPainter;

namespace cl::views {

class InterleaveGantt : public QWidget {
    Q_OBJECT
public:
    explicit InterleaveGantt(QWidget* parent = nullptr);

    // names[i] / stages_ms[i]: job i; ordering from bestOrdering/worstOrdering (or
    // groupTiming) of the same stages; `iterations` group iterations are drawn.
    // resource_names: lane titles, empty = the engine's (storage, CPU, GPU, network).
    // Invalid input (the engine throws) clears the chart and returns false.
    // time_scale stretches every drawn stage so that an iteration on the chart lasts what the
    // numbers say: the group's time with contention, or a lone job's measured iteration time
    // (the stage times themselves stay as given; a drag still edits them).
    bool setGroup(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                  const cl::Ordering& ordering, int iterations, const QStringList& resource_names = {},
                  double time_scale = 1.0);
    double timeScale() const { return m_scale; }
    // Cold start: each job joins the pipeline with its first stage (cl::coldStartSchedule), so
    // the first iterations show the pipeline forming before it settles.
    void setColdStart(bool cold);
    bool coldStart() const { return m_cold; }
    // Draws only what happened before this time (ms; < 0: everything): the animation's frame.
    void setPlayhead(double ms);
    double playhead() const { return m_playhead; }
    // The chart's last end time (ms), as drawn.
    double chartEnd() const { return endTime(); }
    void clear();

    // Exactly the intervals drawn, from the engine.
    const std::vector<cl::StageInterval>& drawnIntervals() const { return m_intervals; }
    // Where interval i of drawnIntervals() was drawn in the last paint (widget
    // coordinates); empty before the first paint.
    QRectF blockRect(int interval) const;
    // Of the last paint (widget coordinates): each resource's lane, and every text drawn
    // (lane titles, legend, block labels, time-axis values, iteration captions), so that a
    // test can check that rows never overlap and no text leaves the widget.
    const std::vector<QRectF>& laneRects() const { return m_laneRects; }
    const std::vector<QRectF>& textRects() const { return m_textRects; }
    int resourceCount() const { return m_resources; }
    int iterationCount() const { return m_iterations; }
    QString resourceName(int resource) const;
    // The stage a resource's blocks belong to (3-stage jobs: storage and CPU hold stage 0).
    int stageOfResource(int resource) const;

    // -1: no highlight. Values outside 0..iterationCount()-1 are clamped to -1.
    int currentIteration() const { return m_current; }
    void setCurrentIteration(int iteration);

    // Draws the chart into any rectangle (export, print): title, legend, lanes, axis. No
    // cached pixmaps, so it is sharp at any size.
    void paintExport(QPainter& painter, const QRectF& rect, const QString& title);

    // Job colour (a qualitative, colour-blind-safe palette), shared with the matching view.
    static QColor jobColor(int job);
    // Palette slot of each job (so a job keeps its colour from the matching view); empty or
    // the wrong size = job i gets slot i.
    void setColorSlots(const std::vector<int>& palette_slots);
    QColor colorOf(int job) const;
    // "A" for one- or two-letter names (the paper's jobs), else "J1", "J2", ...
    QString jobLabel(int job) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A drag of the right edge of one of `job`'s `stage` blocks asks for this stage time.
    void stageTimeDragged(int job, int stage, double ms);
    void currentIterationChanged(int iteration);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Colors {
        QColor background, text, grid, lane, hatch, highlight;
    };
    struct Block {
        int interval;  // index into m_intervals
        QRectF rect;
    };
    struct Frame;
    // paintChart draws, in this order: title, legend, iteration band, lanes, axis, blocks,
    // playhead, iteration captions.
    void paintChart(QPainter& p, const QRectF& rect, const QString& title, const Colors& colors,
                    std::vector<Block>* blocks) const;
    static void paintTitle(QPainter& p, QRectF& r, const QString& title, const Colors& colors, double em);
    void paintLegend(QPainter& p, QRectF& r, const QFontMetricsF& fm, const Colors& colors) const;
    void paintLaneTitle(QPainter& p, const QRectF& box, const QString& text) const;
    std::vector<double> paintIterationBand(QPainter& p, const Frame& f, const Colors& colors) const;
    void paintLanes(QPainter& p, const Frame& f, double label_left, double label_w,
                    const Colors& colors) const;
    void paintTimeAxis(QPainter& p, const Frame& f, const QFontMetricsF& fm, const Colors& colors) const;
    void findLoadTwins(std::vector<int>& spans_cpu, std::vector<char>& is_twin) const;
    void paintBlocks(QPainter& p, const Frame& f, const QFontMetricsF& fm, std::vector<Block>* blocks) const;
    void paintIterationCaptions(QPainter& p, const Frame& f, const QFontMetricsF& fm,
                                const std::vector<double>& iter_start, const Colors& colors) const;
    QString stageLabel(int resource) const;
    double endTime() const;
    int blockAt(const QPointF& pos, bool* on_right_edge) const;

    QStringList m_names;
    QStringList m_resourceNames;
    std::vector<std::vector<double>> m_stages;
    std::vector<cl::StageInterval> m_intervals;  // what is drawn (scaled, cold or steady)
    std::vector<cl::StageInterval> m_steady;     // the scaled steady schedule
    double m_scale = 1.0;
    bool m_cold = false;
    double m_playhead = -1.0;
    int m_resources = 0;
    int m_iterations = 0;
    int m_current = -1;
    std::vector<int> m_colorSlots;

    std::vector<Block> m_blocks;  // widget coordinates of the last paint, for hit tests
    // Filled by paintChart when painting the widget (not an export), see laneRects().
    mutable std::vector<QRectF> m_laneRects, m_textRects;
    mutable bool m_recording = false;
    void record(const QRectF& text_rect) const {
        if (m_recording) m_textRects.push_back(text_rect);
    }
    // Height a lane needs for its title and block labels: one line of text.
    static double minLaneHeight(double em) { return em * 1.15; }
    // Legend rows needed at this width (the legend wraps rather than leaving the widget).
    int legendRows(const QFontMetricsF& fm, double width) const;
    QStringList legendTexts() const;
    bool hasLoadTwins() const;
    // Drag of a right edge: the time scale is frozen while dragging so the block follows
    // the pointer even though the chart is re-laid out on every change.
    int m_dragJob = -1, m_dragStage = -1;
    double m_dragStartX = 0.0, m_dragStartMs = 0.0, m_frozenEnd = 0.0, m_pxPerMs = 0.0;
};

}  // namespace cl::views
