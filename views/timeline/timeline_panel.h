#pragma once
// The timeline tab: a toolbar (colour mode, queueing, fold/unfold servers, zoom to fit), a
// legend, and one TimelineView per run; with a second run (what-if) both views share the
// visible time range, the row scrolling, the folded servers, the selection and the cursor.
#include <memory>

#include <QRectF>
#include <QString>
#include <QWidget>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/sim_result.h"

class QAction;
class QComboBox;
class QLabel;
class QPainter;
class QSplitter;

namespace cl::views {

class TimelineView;
class TimelineLegend;

class TimelinePanel : public QWidget {
    Q_OBJECT

public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    // profiles may be null; it must outlive the panel's use of it. A null result clears.
    void setRun(const cl::Cluster& cluster, std::shared_ptr<const cl::SimResult> result,
                const cl::ProfileSet* profiles, const QString& title);
    // A second run of the same trace on the same cluster, shown below; null removes it.
    void setSecondRun(std::shared_ptr<const cl::SimResult> result, const QString& title);
    bool hasSecondRun() const;
    // Whether a run was stored without its GPU segments: its notes say so
    // (cl::kTimelineNotStoredNote; a capacity plan's points, docs/architecture.md 7.9 "Storage").
    static bool timelineNotStored(const cl::SimResult& result);

    TimelineView* view() const { return m_views[0]; }
    // The second run's view, the colour-mode box and the queueing action are named
    // "secondTimelineView", "timelineColorMode" and "timelineQueueing" (the first view
    // "timelineView"). A run stored without its timeline shows the label "timelineNotStored"
    // and the button "simulateWithTimeline" instead (the second run: "secondTimelineNotStored",
    // "secondSimulateWithTimeline").

    // Draws the current view (both runs when two) with title and legend into target, at any
    // size and on any paint device, without pixmap caches (PNG/SVG/PDF export).
    void paintExport(QPainter& painter, const QRectF& target, const QString& title);
    // Where the last paintExport drew the legend swatch of merged segments, in the painter's
    // device pixels: tests check it stands out from the page in either theme.
    QRectF exportMergedSwatch() const { return m_exportMergedSwatch; }

signals:
    void jobSelected(int job);
    void timeCursorChanged(double t);
    // The button of a run stored without its timeline was pressed: run 0 (first) or 1 (second).
    void simulateWithTimelineRequested(int which);

public slots:
    void setTimeCursor(double t);

private:
    void link(TimelineView* from, TimelineView* to);
    void applyColorMode();
    QWidget* createNotStoredNotice(int which, QWidget* parent);
    // Shows the notice instead of the rows of run `which` when `result` has no stored timeline.
    void showNotStored(int which, const cl::SimResult* result);
    static QString notStoredText(const cl::SimResult& result);

    TimelineView* m_views[2] = {nullptr, nullptr};
    QLabel* m_titles[2] = {nullptr, nullptr};
    QWidget* m_boxes[2] = {nullptr, nullptr};
    QWidget* m_notices[2] = {nullptr, nullptr};  // shown instead of the view: no timeline stored
    QLabel* m_noticeTexts[2] = {nullptr, nullptr};
    bool m_notStored[2] = {false, false};  // whether m_notices[i] stands in for the view
    QSplitter* m_splitter = nullptr;
    TimelineLegend* m_legend = nullptr;
    QComboBox* m_colorMode = nullptr;
    QAction* m_queueing = nullptr;
    cl::Cluster m_cluster;
    const cl::ProfileSet* m_profiles = nullptr;
    QRectF m_exportMergedSwatch;
};

}  // namespace cl::views
