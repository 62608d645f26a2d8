#pragma once
// The per-GPU timeline of one run: rows = GPUs grouped by server (collapsible), x = time, a
// bar per job segment (jobs interleaved on a GPU split the row into lanes), level-of-detail
// merging from TimelineLayout, wheel zoom around the cursor, drag to pan, Shift+drag to zoom
// into a range, hover tooltips and click selection of a job with its life drawn on a strip.
#include <list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QFontMetricsF;
#include <QAbstractScrollArea>
#include <QColor>
#include <QPalette>
#include <QString>
#include <QStringList>

#include "core/model/cluster.h"
#include "core/model/grouping_explanation.h"
#include "core/model/model_profile.h"
#include "core/model/sim_result.h"
#include "views/timeline/timeline_layout.h"

namespace cl::views {

enum class TimelineColorMode { Model, Bottleneck, Job };

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);

    // profiles may be null (no bottleneck colours); it must outlive the view's use of it.
    void setRun(const cl::Cluster& cluster, std::shared_ptr<const cl::SimResult> result,
                const cl::ProfileSet* profiles);
    void clear();
    const TimelineLayout& layout() const { return m_layout; }
    std::shared_ptr<const cl::SimResult> result() const { return m_result; }

    double visibleStart() const { return m_t0; }
    double visibleEnd() const { return m_t1; }
    double timeCursor() const { return m_cursor; }

    void setColorMode(TimelineColorMode mode);
    TimelineColorMode colorMode() const { return m_mode; }
    void setShowQueueing(bool show);
    bool showQueueing() const { return m_showQueueing; }
    void setServerCollapsed(int server, bool collapsed);
    void setAllCollapsed(bool collapsed);
    bool isServerCollapsed(int server) const { return m_layout.isCollapsed(server); }
    void setShowTimeAxis(bool show);

    // Selection (job = JobRecord::index, -1 = none).
    int selectedJob() const { return m_selected; }
    void selectJob(int job);
    bool isGpuHighlighted(int gpu) const;
    std::vector<int> highlightedGpus() const { return m_selectedGpus; }

    // Geometry in viewport coordinates.
    QRect plotRect() const;  // where the rows are drawn
    double xOfTime(double t) const;
    double timeAtX(double x) const;
    int rowAtY(int y) const;  // -1 outside the rows
    int rowHeight() const;
    int firstVisibleRow() const;
    int visibleRowCount() const;  // rows (partly) inside the plot

    // The item and the job under a viewport position (job -1 for none or a merged block).
    std::optional<TimelineItem> itemAt(const QPoint& pos) const;
    int jobAt(const QPoint& pos) const;
    QString toolTipAt(const QPoint& pos) const;

    // Why Muri grouped the jobs (docs/architecture.md 5.1, "Why this grouping"): computed on
    // demand by the page, which re-simulates the run. Without a log, `hint` (if any) is what a
    // shared segment's tooltip says instead (how to get one, its progress, why there is none).
    void setGroupings(std::shared_ptr<const cl::GroupingLog> log, const QString& hint);
    bool hasGroupings() const { return m_groupings != nullptr; }
    // The explanation (rich text) of the group `job` ran in at time t, empty when none is known.
    QString groupingExplanation(int job, double t) const;
    // Where the last click selected a job: its time (NaN before any).
    double selectedTime() const { return m_selectedTime; }

    // Colours and their legend for the current mode.
    QColor colorOfJob(int job) const;
    std::vector<std::pair<QString, QColor>> legend() const;
    // Merged blocks and their legend swatch: a grey halfway between the page (Base) and the
    // text, so it stands out in the light and the dark theme alike.
    static QColor mergedColor(const QPalette& palette);

    void zoomAround(double t, double factor);  // factor < 1 zooms in
    void zoomToFit();
    // Draws the same rows and time window into target at any size, without cached pixmaps.
    void paintScene(QPainter& painter, const QRectF& target) const;
    int drawListBuilds() const { return m_builds; }  // draw lists built (cache misses)

signals:
    void jobSelected(int job);
    // A click on a job's bar at time t (also when the job was already selected).
    void segmentClicked(int job, double t);
    void timeCursorChanged(double t);
    void visibleRangeChanged(double t0, double t1);
    void serverCollapsedChanged(int server, bool collapsed);
    void verticalScrolled(int value);

public slots:
    void setVisibleRange(double t0, double t1);
    void setTimeCursor(double t);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    struct Geometry {
        QRectF area;
        double header = 0;  // row header width
        double axis = 0;    // time axis height (0 when hidden)
        double strip = 0;   // selected job's life strip
        double row = 0;     // row height
        int firstRow = 0;
        double rowOffset = 0;  // pixels of firstRow scrolled above the plot top
        QRectF plot() const;
    };
    struct CacheKey {
        double t0, t1, width;
        int first, last;
        unsigned generation;
        bool queueing;
        bool operator==(const CacheKey&) const = default;
    };

    Geometry widgetGeometry() const;
    double gpuColumnWidth(const QFontMetricsF& fm) const;
    std::shared_ptr<const TimelineDrawList> drawList(const Geometry& g) const;
    // Exports leave out what only makes sense under the mouse: the time cursor and the
    // "click a bar" hint.
    enum class Overlays { Interactive, None };
    void paintWith(QPainter& p, const Geometry& g, const TimelineDrawList& list,
                   Overlays overlays = Overlays::Interactive) const;
    // paintWith's layers under the header, strip and axis, bottom to top.
    static double rowTopIn(const Geometry& g, const QRectF& plot, int r);
    void paintRowBands(QPainter& p, const Geometry& g, int lastRow) const;
    void paintTimeGrid(QPainter& p, const QRectF& plot) const;
    void paintItems(QPainter& p, const Geometry& g, const TimelineDrawList& list) const;
    void paintSelectedQueueing(QPainter& p, const Geometry& g, int lastRow) const;
    void paintRowSeparators(QPainter& p, const Geometry& g, int lastRow) const;
    void paintAxis(QPainter& p, const Geometry& g) const;
    void paintHeader(QPainter& p, const Geometry& g) const;
    void paintStrip(QPainter& p, const Geometry& g, Overlays overlays) const;
    void updateScrollBars();
    void emitRange();
    double xOfTimeIn(const QRectF& plot, double t) const;
    int bottleneckOf(int job) const;              // 0 data loading, 1 GPU, 2 network, -1 unknown
    int headerServerAt(const QPoint& pos) const;  // collapse toggle under pos, or -1
    // toolTipAt's parts: a server header, and the lines of a segment's tooltip at time t
    // (`at` is t as text).
    QString headerToolTip(int server) const;
    void appendAllocationLine(QStringList& lines, int job, double t, const QString& at) const;
    void appendSharingLines(QStringList& lines, int segment, double t, const QString& at) const;
    void appendBatchLine(QStringList& lines, int job, double t, const QString& at) const;
    void appendSharedTimeLine(QStringList& lines, int job) const;
    QString jobName(int job) const;

    TimelineLayout m_layout;
    std::shared_ptr<const cl::SimResult> m_result;
    const cl::ProfileSet* m_profiles = nullptr;
    std::vector<int> m_modelIndex;  // per job: index into m_models
    std::vector<std::string> m_models;
    std::vector<int> m_bottleneck;  // per job
    double m_t0 = 0.0;
    double m_t1 = 1.0;
    double m_cursor;
    TimelineColorMode m_mode = TimelineColorMode::Model;
    bool m_showQueueing = false;
    bool m_showAxis = true;
    int m_selected = -1;
    std::vector<int> m_selectedGpus;
    std::vector<std::pair<double, double>> m_selectedRuns;
    double m_selectedTime;
    std::shared_ptr<const cl::GroupingLog> m_groupings;
    QString m_groupingHint;

    // Mouse interaction.
    enum class Drag { None, Pan, Range } m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    double m_pressT0 = 0.0;
    double m_pressT1 = 0.0;
    int m_pressScroll = 0;
    bool m_moved = false;

    mutable std::list<std::pair<CacheKey, std::shared_ptr<const TimelineDrawList>>> m_cache;
    mutable int m_builds = 0;
};

}  // namespace cl::views
