#pragma once
// Utilization, queue length, running jobs and blocking index over time (docs/architecture.md
// section 7.4): stacked small-multiple Qt Charts sharing one time axis, one or several runs
// overlaid with a fixed colour per run, a time cursor synchronized with the timeline, and
// wheel zoom in time applied to every chart at once. Long runs are thinned to min/max per
// pixel of the visible window, so zooming in brings back the detail.
#include <memory>
#include <vector>

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

#include "core/model/sim_result.h"
#include "views/charts/run_series.h"
#include "views/common/chart_export.h"

class QChart;
class QGraphicsLineItem;
class QLabel;
class QLineSeries;
class QPainter;
class QScrollArea;
class QStackedLayout;
class QValueAxis;

namespace cl::views {

struct ChartRun {
    QString title;  // legend entry, e.g. the policy or scenario name
    std::shared_ptr<const cl::SimResult> result;
};

// A run already reduced to its named series (what setRuns extracts from a SimResult).
struct ChartRunSeries {
    QString title;
    RunSeries series;
    // Which seriesColor the run gets; -1: its position. A run keeps its colour when the runs
    // drawn beside it change, as long as no two runs given together share an index.
    int color = -1;
};

class SeriesCharts : public QWidget, public ExportPaintable {
    Q_OBJECT

public:
    // The least height of each chart on screen (docs/architecture.md 1.6: every chart of a view
    // at least 200 px tall at 1366x768); below it the charts scroll.
    static constexpr int kMinChartHeight = 200;

    explicit SeriesCharts(QWidget* parent = nullptr);
    ~SeriesCharts() override;

    // Replaces the plotted runs; the time range is reset to the span of all runs.
    void setRuns(const QList<ChartRun>& runs);
    void setRunSeries(const QList<ChartRunSeries>& runs);
    void clear();
    int runCount() const;
    QColor runColor(int run) const;

    // Charts top to bottom: utilization, queue length, running jobs, blocking index.
    int chartCount() const;
    // The charts are taller than their room and scroll; each then shows its own time labels.
    bool chartsScroll() const { return m_scrolling; }
    SeriesGroup chartGroup(int chart) const;
    // Chart i is drawn by the QChartView child "seriesChart<i>".
    // The line of `run` in `chart`; key selects among several (e.g. "gpu", "cpu") and
    // defaults to the first one. nullptr if absent.
    QLineSeries* series(int chart, int run, const QString& key = QString()) const;
    QGraphicsLineItem* cursorLine(int chart) const;

    // Seconds per x-axis unit: 3600 (hours) or 86400 (days), chosen from the span.
    double timeUnitSeconds() const { return m_unitSeconds; }
    double timeCursor() const { return m_cursor; }  // seconds; NaN when hidden
    // Visible time window in seconds.
    double visibleStart() const { return m_viewT0; }
    double visibleEnd() const { return m_viewT1; }
    void setVisibleRange(double t0_seconds, double t1_seconds);
    // Zooms the time axis by factor (< 1 zooms in) around the time `anchor_seconds`.
    void zoomTime(double factor, double anchor_seconds);

    // Renders all charts stacked, or one chart with its own time axis labels, into rect
    // (logical pixels) of an export or report painter.
    void paint(QPainter& painter, const QRectF& rect) override;
    void paintChart(int chart, QPainter& painter, const QRectF& rect);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    // Moves the cursor line on every chart; NaN hides it. Does not emit timeCursorChanged.
    void setTimeCursor(double seconds);
    void resetZoom();
    // Asks for a file, size and DPI and exports all charts.
    void exportCharts();

signals:
    // The user hovered a chart at this time (seconds).
    void timeCursorChanged(double seconds);
    void visibleRangeChanged(double t0_seconds, double t1_seconds);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Line;
    struct Panel;

    void buildPanels();
    void rebuildLines();
    void refreshPoints();
    void updateAxes();
    void fitValueAxis(Panel& panel);
    void updateCursors();
    void applyStyle();
    int panelOf(QObject* viewport) const;
    void layoutChart(Panel& panel, const QSizeF& size);
    void alignPlotAreas();
    void scheduleAlign();
    void restoreOnScreenLayout();
    void renderPanel(Panel& panel, QPainter& painter, const QRectF& target);
    double timeAt(int panel, const QPointF& viewport_pos, bool* inside) const;

    std::vector<std::unique_ptr<Panel>> m_panels;
    QList<ChartRunSeries> m_runs;
    QStackedLayout* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QScrollArea* m_chartsScroll = nullptr;
    QWidget* m_chartsPage = nullptr;  // the charts, inside m_chartsScroll
    bool m_scrolling = false;         // the charts are taller than their room: they scroll
    double m_unitSeconds = 3600.0;
    double m_dataT0 = 0.0;
    double m_dataT1 = 1.0;
    double m_viewT0 = 0.0;
    double m_viewT1 = 1.0;
    double m_cursor;
    bool m_alignPending = false;
};

}  // namespace cl::views
