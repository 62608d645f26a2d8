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

    TimelineView* view() const { return m_views[0]; }
    // The second run's view, the colour-mode box and the queueing action are named
    // "secondTimelineView", "timelineColorMode" and "timelineQueueing" (the first view
    // "timelineView").

    // Draws the current view (both runs when two) with title and legend into target, at any
    // size and on any paint device, without pixmap caches (PNG/SVG/PDF export).
    void paintExport(QPainter& painter, const QRectF& target, const QString& title);
    // Where the last paintExport drew the legend swatch of merged segments, in the painter's
    // device pixels: tests check it stands out from the page in either theme.
    QRectF exportMergedSwatch() const { return m_exportMergedSwatch; }

signals:
    void jobSelected(int job);
    void timeCursorChanged(double t);

public slots:
    void setTimeCursor(double t);

private:
    void link(TimelineView* from, TimelineView* to);
    void applyColorMode();

    TimelineView* m_views[2] = {nullptr, nullptr};
    QLabel* m_titles[2] = {nullptr, nullptr};
    QWidget* m_boxes[2] = {nullptr, nullptr};
    QSplitter* m_splitter = nullptr;
    TimelineLegend* m_legend = nullptr;
    QComboBox* m_colorMode = nullptr;
    QAction* m_queueing = nullptr;
    cl::Cluster m_cluster;
    const cl::ProfileSet* m_profiles = nullptr;
    QRectF m_exportMergedSwatch;
};

}  // namespace cl::views
