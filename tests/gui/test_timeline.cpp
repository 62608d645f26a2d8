// The per-GPU timeline: hit testing (the job under a pixel), level-of-detail merging (blocks
// count exactly the segments they cover), row culling, wheel zoom around the cursor, drag to pan, Home,
// folding servers, selection, two runs sharing the visible range, CPU/memory allocations in the
// tooltip, GPU sharing partners and gradient-accumulation settings in the tooltip; and screenshots of the
// demo run, checked for the job colours they must show (CLUSTERLOOM_KEEP_SCREENSHOTS=1 keeps them for a
// look).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>

#include <QComboBox>
#include <QDebug>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/model/server_architecture.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "views/common/app_theme.h"
#include "views/common/chart_export.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

using namespace cl::views;

namespace {

// The panel's second view and colour-mode box, found by their object names.
TimelineView* secondView(const TimelinePanel& panel) {
    auto* view = panel.findChild<TimelineView*>(QStringLiteral("secondTimelineView"));
    if (!view) qFatal("no second timeline view");
    return view;
}
QComboBox* colorModeBox(const TimelinePanel& panel) {
    auto* box = panel.findChild<QComboBox*>(QStringLiteral("timelineColorMode"));
    if (!box) qFatal("no colour-mode box");
    return box;
}

cl::Cluster makeCluster(int servers, int gpus) {
    cl::Cluster c;
    c.name = "test";
    for (int s = 0; s < servers; ++s) {
        cl::Server sv;
        sv.name = "node" + std::to_string(s);
        sv.gpus = gpus;
        c.servers.push_back(sv);
    }
    return c;
}

cl::JobRecord makeJob(int index, const char* id, const char* model, int gpus, double submit, double start,
                      double end) {
    cl::JobRecord j;
    j.index = index;
    j.id = id;
    j.model = model;
    j.gpus = gpus;
    j.submit = submit;
    j.first_start = start;
    j.end = end;
    j.completed = true;
    j.solo_iteration_time = 0.1;
    return j;
}

// 2 servers x 2 GPUs over [0, 100]: a on GPU 0; b on GPU 1 twice (preempted 50-60) while
// c interleaves with it on GPU 1 from 20 to 80; d on GPUs 2 and 3.
std::shared_ptr<cl::SimResult> smallRun() {
    auto r = std::make_shared<cl::SimResult>();
    r->jobs = {makeJob(0, "a", "vgg16", 1, 0, 0, 100), makeJob(1, "b", "bert", 1, 0, 0, 100),
               makeJob(2, "c", "gpt2", 1, 5, 20, 80), makeJob(3, "d", "dqn", 2, 0, 10, 90)};
    r->jobs[1].preemptions = 1;
    r->segments = {{0, 0, 100, 0}, {1, 0, 50, 1},  {1, 60, 100, 1},
                   {1, 20, 80, 2}, {2, 10, 90, 3}, {3, 10, 90, 3}};
    return r;
}

// smallRun with Synergy-style allocation changes, listed in no job order: d (2 GPUs) starts at
// its proportional share, gets 12 cores and 250 GB at 40 s, goes back at 70 s; a's allocation
// changes twice at 0 s (the later one holds); b has one; c none.
std::shared_ptr<cl::SimResult> allocatedRun() {
    auto r = smallRun();
    r->allocations = {{0, 0, 1, 20.8, 0.37}, {3, 10, 6, 125, 1},    {1, 0, 3, 62.5, 1},
                      {0, 0, 9, 62.5, 2.4},  {3, 40, 12, 250, 2.4}, {3, 70, 6, 125, 1}};
    return r;
}

// One GPU with `groups` groups of 100 one-second segments (1 s apart), groups 100 s apart,
// plus one long segment at the end.
std::shared_ptr<cl::SimResult> denseRun(int groups) {
    auto r = std::make_shared<cl::SimResult>();
    r->jobs = {makeJob(0, "short", "vgg16", 1, 0, 0, 1), makeJob(1, "long", "bert", 1, 0, 0, 1)};
    double t = 0;
    for (int g = 0; g < groups; ++g) {
        for (int i = 0; i < 100; ++i, t += 2) r->segments.push_back({0, t, t + 1, 0});
        t += 100;
    }
    r->segments.push_back({0, t, t + 500, 1});
    r->jobs[1].end = t + 500;
    return r;
}

// SJF-BSBF-style sharing on 1 server x 2 GPUs over [0, 100]: p (resnet50) alone on GPU 0 from
// 0, q (bert) joins it at 30 and leaves at 70, both accumulating gradients while they share; r
// alone on GPU 1 throughout, with a batch setting but no partner.
std::shared_ptr<cl::SimResult> sharedRun() {
    auto r = std::make_shared<cl::SimResult>();
    r->jobs = {makeJob(0, "p", "resnet50", 1, 0, 0, 100), makeJob(1, "q", "bert", 1, 0, 30, 70),
               makeJob(2, "r", "vgg16", 1, 0, 0, 100)};
    r->segments = {{0, 0, 100, 0}, {0, 30, 70, 1}, {1, 0, 100, 2}};
    r->batches = {{0, 0, 64, 1, 1.0},
                  {1, 30, 16, 4, 1.8},
                  {0, 30, 32, 2, 1.25},
                  {0, 70, 64, 1, 1.0},
                  {2, 0, 128, 1, 1.0}};
    return r;
}

int inWindow(const cl::SimResult& r, double t0, double t1, int gpu) {
    return static_cast<int>(std::count_if(r.segments.begin(), r.segments.end(), [&](const cl::GpuSegment& s) {
        return s.gpu == gpu && s.t1 > t0 && s.t0 < t1;
    }));
}

QPoint pointAt(const TimelineView& v, double t, int row, double yInRow) {
    const QRect plot = v.plotRect();
    return {static_cast<int>(std::floor(v.xOfTime(t))),
            plot.top() + static_cast<int>((row - v.firstVisibleRow() + yInRow) * v.rowHeight())};
}

}  // namespace

class TestTimeline : public QObject {
    Q_OBJECT

private slots:
    void layoutRowsAndLanes();
    void jobUnderPixel();
    void mergedBlocksCountTheirSegments();
    void rowsOutsideTheViewportAreCulled();
    void collapsedServerShowsBusyShare();
    void wheelZoomKeepsTimeUnderCursor();
    void homeAndKeysRestoreAndZoom();
    void dragPansByTheDraggedAmount();
    void headerClickFoldsAServer();
    void clickSelectsAndHighlights();
    void mergedClickZoomsIn();
    void drawListsAreCachedPerWindow();
    void twoRunsShareTheVisibleRange();
    void allocationsInTheTooltip();
    void sharedGpuAndBatchesInTheTooltip();
    void tooltipTimesPastADayShowTheDay();
    void darkExportIsDarkUnderItsTitle();
    void mergedSwatchStandsOutInEitherTheme();
    void unsharedBarsTakeTheFullRow();
    void screenshotsOfTheDemoRun();
    void lanesGroupedBySocketAndPcieGroup();
    void exportLeavesOutTheCursorAndTheHint();
};

void TestTimeline::layoutRowsAndLanes() {
    TimelineLayout l;
    l.setData(makeCluster(2, 2), smallRun());
    QCOMPARE(l.rowCount(), 4);
    QCOMPARE(l.laneCount(0), 1);
    QCOMPARE(l.laneCount(1), 2);  // b and c interleave on GPU 1
    QCOMPARE(l.runStart(), 0.0);
    QCOMPARE(l.runEnd(), 100.0);
    QCOMPARE(l.partnersOf(1), std::vector<int>{2});
    QCOMPARE(l.partnersOf(2), std::vector<int>{1});
    QCOMPARE(l.gpusOfJob(3), (std::vector<int>{2, 3}));
    QCOMPARE(l.sharedTime(2), 50.0);  // 20-50 and 60-80
    const auto runs = l.runningIntervals(1);
    QCOMPARE(runs.size(), std::size_t{2});
    QCOMPARE(runs[0].second, 50.0);
    QCOMPARE(runs[1].first, 60.0);
}

void TestTimeline::jobUnderPixel() {
    TimelineLayout l;
    auto run = smallRun();
    l.setData(makeCluster(2, 2), run);
    // 1000 px for 100 s: 10 px per second.
    const TimelineDrawList list = l.build(0, 100, 1000, 0, l.rowCount(), false);
    const auto jobAt = [&](int row, double y, double x) {
        const int i = TimelineLayout::itemAt(list, row, y, x);
        return i < 0 ? -1 : list.items[static_cast<std::size_t>(i)].job;
    };
    QCOMPARE(jobAt(0, 0.5, 300), 0);
    QCOMPARE(jobAt(1, 0.25, 300), 1);   // upper lane: b
    QCOMPARE(jobAt(1, 0.75, 300), 2);   // lower lane: c
    QCOMPARE(jobAt(1, 0.25, 555), -1);  // b preempted 50-60
    QCOMPARE(jobAt(1, 0.75, 150), -1);  // c not started
    QCOMPARE(jobAt(2, 0.5, 95), -1);
    QCOMPARE(jobAt(2, 0.5, 100), 3);  // d starts at exactly 10 s
    QCOMPARE(jobAt(3, 0.5, 899), 3);
    QCOMPARE(jobAt(3, 0.5, 900), -1);  // and ends at 90 s

    // The same through the widget, zoomed to [40, 70].
    TimelineView v;
    v.resize(900, 500);
    v.setRun(makeCluster(2, 2), run, nullptr);
    v.setVisibleRange(40, 70);
    QCOMPARE(v.visibleStart(), 40.0);
    QCOMPARE(v.jobAt(pointAt(v, 45, 1, 0.25)), 1);
    QCOMPARE(v.jobAt(pointAt(v, 55, 1, 0.25)), -1);
    QCOMPARE(v.jobAt(pointAt(v, 55, 1, 0.75)), 2);
    QCOMPARE(v.jobAt(pointAt(v, 65, 1, 0.25)), 1);
    QCOMPARE(v.jobAt(pointAt(v, 65, 2, 0.5)), 3);
    // c at 55 s: b is preempted then, but shares the GPU during the rest of c's segment.
    const QString cTip = v.toolTipAt(pointAt(v, 55, 1, 0.75));
    QVERIFY2(cTip.contains(QStringLiteral("alone on this GPU at 00:00:5")), qPrintable(cTip));
    QVERIFY2(
        cTip.contains(QStringLiteral("shares this GPU with b (bert) at other times during this segment")),
        qPrintable(cTip));
    const QString cShared = v.toolTipAt(pointAt(v, 45, 1, 0.75));
    QVERIFY2(cShared.contains(QStringLiteral("shares GPU with b (bert) at 00:00:4")), qPrintable(cShared));
}

void TestTimeline::mergedBlocksCountTheirSegments() {
    auto run = denseRun(50);  // 50 x 100 segments, then a 500 s one
    TimelineLayout l;
    l.setData(makeCluster(1, 2), run);
    // Whole run, 1000 px: a 1 s segment is < 0.1 px, a 100 s gap is > 3 px.
    const double end = l.runEnd();
    TimelineDrawList list = l.build(0, end, 1000, 0, l.rowCount(), false);
    int merged = 0;
    for (const auto& it : list.items) {
        if (it.kind == TimelineItem::Merged) {
            ++merged;
            QCOMPARE(it.count, 100);
        } else {
            QCOMPARE(it.kind, TimelineItem::Segment);
            QCOMPARE(it.job, 1);
        }
    }
    QCOMPARE(merged, 50);
    QCOMPARE(list.segments, 5001LL);

    // Windows cutting groups: every block counts the segments inside its span, and the blocks
    // sum to the segments in view.
    for (const auto& [a, b, px] : {std::tuple{150.0, 2150.0, 800.0}, std::tuple{333.0, 9000.0, 1600.0},
                                   std::tuple{5000.0, 5400.0, 1000.0}, std::tuple{0.0, end, 37.0}}) {
        list = l.build(a, b, px, 0, l.rowCount(), false);
        long long sum = 0;
        for (const auto& it : list.items) {
            QCOMPARE(it.count, inWindow(*run, std::max(a, it.t0), std::min(b, it.t1), 0));
            sum += it.count;
            if (it.kind == TimelineItem::Segment)
                QVERIFY(it.x1 - it.x0 >= TimelineLayout::kMergePixels || it.count == 1);
        }
        QCOMPARE(sum, static_cast<long long>(inWindow(*run, a, b, 0)));
        QCOMPARE(list.segments, sum);
    }
    // Zoomed to 60 s over 1200 px (20 px per second): nothing merges.
    list = l.build(300, 360, 1200, 0, l.rowCount(), false);
    QVERIFY(!list.items.empty());
    for (const auto& it : list.items) QCOMPARE(it.kind, TimelineItem::Segment);
    QCOMPARE(static_cast<int>(list.items.size()), inWindow(*run, 300, 360, 0));
}

void TestTimeline::rowsOutsideTheViewportAreCulled() {
    // 8 servers x 8 GPUs, one long segment per GPU.
    auto run = std::make_shared<cl::SimResult>();
    run->jobs = {makeJob(0, "j", "vgg16", 64, 0, 0, 100)};
    for (int g = 0; g < 64; ++g) run->segments.push_back({g, 0, 100, 0});
    TimelineLayout l;
    l.setData(makeCluster(8, 8), run);
    const auto list = l.build(0, 100, 500, 10, 20, false);
    QCOMPARE(static_cast<int>(list.items.size()), 10);
    for (const auto& it : list.items) QVERIFY(it.row >= 10 && it.row < 20);
    QVERIFY(l.build(200, 300, 500, 0, 64, false).items.empty());  // time outside the run's data

    TimelineView v;
    v.resize(800, 300);
    v.setRun(makeCluster(8, 8), run, nullptr);
    QVERIFY(v.visibleRowCount() < 64);
    v.verticalScrollBar()->setValue(v.rowHeight() * 30);
    QCOMPARE(v.firstVisibleRow(), 30);
    QCOMPARE(v.rowAtY(v.plotRect().top()), 30);
}

void TestTimeline::collapsedServerShowsBusyShare() {
    TimelineLayout l;
    l.setData(makeCluster(2, 2), smallRun());
    l.setCollapsed(0, true);
    QCOMPARE(l.rowCount(), 3);
    QCOMPARE(l.row(0).gpu, -1);
    QCOMPARE(l.rowOfGpu(1), 0);
    QCOMPARE(l.rowOfGpu(2), 1);
    // GPU 1 is busy throughout (c fills b's gap; interleaved jobs count once): one full block.
    auto list = l.build(0, 100, 1000, 0, 1, false);
    QCOMPARE(static_cast<int>(list.items.size()), 1);
    QCOMPARE(list.items[0].busy, 1.0f);
    QCOMPARE(list.items[0].count, 4);

    // GPU 0 busy 0-100, GPU 1 busy 0-50.
    auto run = std::make_shared<cl::SimResult>();
    run->jobs = {makeJob(0, "x", "vgg16", 1, 0, 0, 100), makeJob(1, "y", "bert", 1, 0, 0, 50)};
    run->segments = {{0, 0, 100, 0}, {1, 0, 50, 1}};
    l.setData(makeCluster(1, 2), run);
    l.setAllCollapsed(true);
    QCOMPARE(l.rowCount(), 1);
    list = l.build(0, 100, 1000, 0, 1, false);
    QCOMPARE(static_cast<int>(list.items.size()), 2);
    QCOMPARE(list.items[0].busy, 1.0f);
    QCOMPARE(list.items[0].count, 2);
    QCOMPARE(list.items[1].busy, 0.5f);
    QCOMPARE(list.items[1].t0, 50.0);
    QCOMPARE(list.items[1].count, 1);
    // At 3 px for 100 s the steps merge into one block with the time-weighted mean.
    list = l.build(0, 100, 3, 0, 1, false);
    QCOMPARE(static_cast<int>(list.items.size()), 1);
    QCOMPARE(list.items[0].busy, 0.75f);
    QCOMPARE(list.items[0].count, 2);
}

void TestTimeline::wheelZoomKeepsTimeUnderCursor() {
    TimelineView v;
    v.resize(1000, 400);
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    QSignalSpy range(&v, &TimelineView::visibleRangeChanged);
    const QRect plot = v.plotRect();
    const QPointF pos(plot.left() + plot.width() * 0.3, plot.center().y());
    const double before = v.timeAtX(pos.x());
    QWheelEvent in(pos, v.viewport()->mapToGlobal(pos), QPoint(), QPoint(0, 240), Qt::NoButton,
                   Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(v.viewport(), &in);
    QVERIFY(v.visibleEnd() - v.visibleStart() < 100.0 * 0.7);
    QVERIFY(std::abs(v.timeAtX(pos.x()) - before) < 1e-9);
    QCOMPARE(range.count(), 1);
    QWheelEvent out(pos, v.viewport()->mapToGlobal(pos), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(v.viewport(), &out);
    QVERIFY(std::abs(v.timeAtX(pos.x()) - before) < 1e-9);
}

void TestTimeline::homeAndKeysRestoreAndZoom() {
    TimelineView v;
    v.resize(1000, 400);
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    v.setVisibleRange(30, 40);
    QTest::keyClick(&v, Qt::Key_Minus);
    QCOMPARE(v.visibleEnd() - v.visibleStart(), 20.0);
    QTest::keyClick(&v, Qt::Key_Plus);
    QCOMPARE(v.visibleEnd() - v.visibleStart(), 10.0);
    QTest::keyClick(&v, Qt::Key_Home);
    QCOMPARE(v.visibleStart(), 0.0);
    QCOMPARE(v.visibleEnd(), 100.0);
    v.setVisibleRange(50, 50.1);  // never below one second
    QCOMPARE(v.visibleEnd() - v.visibleStart(), 1.0);
    // Shift+drag zooms into the dragged range.
    const QRect plot = v.plotRect();
    v.zoomToFit();
    const QPoint a(static_cast<int>(v.xOfTime(20)), plot.center().y());
    const QPoint b(static_cast<int>(v.xOfTime(60)), plot.center().y());
    QTest::mousePress(v.viewport(), Qt::LeftButton, Qt::ShiftModifier, a);
    QMouseEvent move(QEvent::MouseMove, b, v.viewport()->mapToGlobal(b), Qt::NoButton, Qt::LeftButton,
                     Qt::ShiftModifier);
    QApplication::sendEvent(v.viewport(), &move);
    QTest::mouseRelease(v.viewport(), Qt::LeftButton, Qt::ShiftModifier, b);
    QVERIFY(std::abs(v.visibleStart() - 20) < 0.2);
    QVERIFY(std::abs(v.visibleEnd() - 60) < 0.2);
}

// A drag narrower than the plot moves the visible window by the dragged time, both ways,
// keeps its span, and selects nothing.
void TestTimeline::dragPansByTheDraggedAmount() {
    TimelineView v;
    v.resize(1000, 400);
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    v.setVisibleRange(30, 50);
    const QRect plot = v.plotRect();
    const double secondsPerPixel = 20.0 / plot.width();
    const auto drag = [&](int dx) {
        const QPoint from(plot.center().x(), plot.center().y());
        const QPoint to = from + QPoint(dx, 0);
        QTest::mousePress(v.viewport(), Qt::LeftButton, Qt::NoModifier, from);
        for (const QPoint& at : {from + QPoint(dx / 2, 0), to}) {
            QMouseEvent move(QEvent::MouseMove, at, v.viewport()->mapToGlobal(at), Qt::NoButton,
                             Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(v.viewport(), &move);
        }
        QTest::mouseRelease(v.viewport(), Qt::LeftButton, Qt::NoModifier, to);
    };
    drag(-100);  // dragging the content left shows later times
    QVERIFY2(std::abs(v.visibleStart() - (30 + 100 * secondsPerPixel)) < 1e-9,
             qPrintable(QString::number(v.visibleStart())));
    QVERIFY(std::abs(v.visibleEnd() - v.visibleStart() - 20.0) < 1e-9);
    drag(40);
    QVERIFY2(std::abs(v.visibleStart() - (30 + 60 * secondsPerPixel)) < 1e-9,
             qPrintable(QString::number(v.visibleStart())));
    QCOMPARE(v.selectedJob(), -1);
    // Past the start of the run the window stops at the run's start.
    v.setVisibleRange(5, 25);
    drag(plot.width() / 2);
    QCOMPARE(v.visibleStart(), 0.0);
    QVERIFY(std::abs(v.visibleEnd() - 20.0) < 1e-9);
}

void TestTimeline::headerClickFoldsAServer() {
    TimelineView v;
    v.resize(1000, 400);
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    QSignalSpy folded(&v, &TimelineView::serverCollapsedChanged);
    QCOMPARE(v.layout().rowCount(), 4);
    const QRect plot = v.plotRect();
    const QPoint toggle(plot.left() / 4, plot.top() + v.rowHeight() / 2);
    QTest::mouseClick(v.viewport(), Qt::LeftButton, {}, toggle);
    QCOMPARE(v.layout().rowCount(), 3);
    QVERIFY(v.isServerCollapsed(0));
    QCOMPARE(folded.count(), 1);
    QTest::mouseClick(v.viewport(), Qt::LeftButton, {}, toggle);
    QCOMPARE(v.layout().rowCount(), 4);
    v.setAllCollapsed(true);
    QCOMPARE(v.layout().rowCount(), 2);
}

void TestTimeline::clickSelectsAndHighlights() {
    TimelineView v;
    v.resize(1000, 400);
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    QSignalSpy selected(&v, &TimelineView::jobSelected);
    QTest::mouseClick(v.viewport(), Qt::LeftButton, {}, pointAt(v, 50, 3, 0.5));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toInt(), 3);
    QCOMPARE(v.selectedJob(), 3);
    QCOMPARE(v.highlightedGpus(), (std::vector<int>{2, 3}));
    QVERIFY(v.isGpuHighlighted(2) && v.isGpuHighlighted(3) && !v.isGpuHighlighted(0));
    QTest::keyClick(&v, Qt::Key_Escape);
    QCOMPARE(v.selectedJob(), -1);
    QCOMPARE(selected.last().at(0).toInt(), -1);
    QVERIFY(v.highlightedGpus().empty());
}

void TestTimeline::mergedClickZoomsIn() {
    TimelineView v;
    v.resize(1000, 300);
    v.setRun(makeCluster(1, 2), denseRun(20), nullptr);
    const auto item = v.itemAt(pointAt(v, 50, 0, 0.5));
    QVERIFY(item);
    QCOMPARE(item->kind, TimelineItem::Merged);
    QCOMPARE(item->count, 100);
    QVERIFY(v.toolTipAt(pointAt(v, 50, 0, 0.5)).contains(QStringLiteral("100 segments")));
    QTest::mouseClick(v.viewport(), Qt::LeftButton, {}, pointAt(v, 50, 0, 0.5));
    QVERIFY(v.visibleStart() <= item->t0 && v.visibleEnd() >= item->t1);
    QVERIFY(v.visibleEnd() - v.visibleStart() < 300);
}

void TestTimeline::drawListsAreCachedPerWindow() {
    TimelineView v;
    v.resize(1000, 300);
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    const QPoint p = pointAt(v, 30, 0, 0.5);
    v.itemAt(p);
    const int builds = v.drawListBuilds();
    v.itemAt(p);
    QCOMPARE(v.drawListBuilds(), builds);  // same window: cached
    v.setVisibleRange(10, 20);
    v.itemAt(p);
    QCOMPARE(v.drawListBuilds(), builds + 1);
    v.zoomToFit();
    v.itemAt(p);
    QCOMPARE(v.drawListBuilds(), builds + 1);  // back to the first window: still cached
    v.setServerCollapsed(1, true);             // rows changed: rebuilt
    v.itemAt(p);
    QCOMPARE(v.drawListBuilds(), builds + 2);
    v.setShowQueueing(true);
    v.itemAt(p);
    QCOMPARE(v.drawListBuilds(), builds + 3);
}

void TestTimeline::twoRunsShareTheVisibleRange() {
    TimelinePanel panel;
    panel.resize(1000, 700);
    const cl::Cluster cluster = makeCluster(2, 2);
    panel.setRun(cluster, smallRun(), nullptr, QStringLiteral("run A"));
    QVERIFY(!panel.hasSecondRun());
    panel.setSecondRun(smallRun(), QStringLiteral("run B"));
    QVERIFY(panel.hasSecondRun());
    panel.view()->setVisibleRange(10, 50);
    QCOMPARE(secondView(panel)->visibleStart(), 10.0);
    QCOMPARE(secondView(panel)->visibleEnd(), 50.0);
    secondView(panel)->setVisibleRange(20, 30);
    QCOMPARE(panel.view()->visibleStart(), 20.0);
    QSignalSpy selected(&panel, &TimelinePanel::jobSelected);
    panel.view()->selectJob(2);
    QCOMPARE(secondView(panel)->selectedJob(), 2);
    QCOMPARE(selected.count(), 1);
    secondView(panel)->selectJob(3);
    QCOMPARE(panel.view()->selectedJob(), 3);
    QCOMPARE(selected.count(), 2);
    QCOMPARE(selected.last().at(0).toInt(), 3);
    panel.view()->setServerCollapsed(1, true);
    QVERIFY(secondView(panel)->isServerCollapsed(1));
    colorModeBox(panel)->setCurrentIndex(2);
    QCOMPARE(secondView(panel)->colorMode(), TimelineColorMode::Job);
    panel.setTimeCursor(25);
    QCOMPARE(secondView(panel)->timeCursor(), 25.0);
    panel.setSecondRun(nullptr, QString());
    QVERIFY(!panel.hasSecondRun());
}

void TestTimeline::allocationsInTheTooltip() {
    TimelineLayout l;
    l.setData(makeCluster(2, 2), allocatedRun());
    QVERIFY(l.hasAllocations());
    QVERIFY(!l.allocationAt(3, 9.5));  // before its first change
    QCOMPARE(l.allocationAt(3, 10)->cpus, 6.0);
    QCOMPARE(l.allocationAt(3, 39.99)->memory_gb, 125.0);
    const cl::AllocationChange* boosted = l.allocationAt(3, 40);
    QVERIFY(boosted);
    QCOMPARE(boosted->cpus, 12.0);
    QCOMPARE(boosted->memory_gb, 250.0);
    QCOMPARE(boosted->speedup, 2.4);
    QCOMPARE(l.allocationAt(3, 69)->cpus, 12.0);
    QCOMPARE(l.allocationAt(3, 1e9)->cpus, 6.0);
    QCOMPARE(l.allocationAt(0, 0)->cpus, 9.0);  // the later of two changes at one instant
    QCOMPARE(l.allocationAt(1, 55)->memory_gb, 62.5);
    QVERIFY(!l.allocationAt(2, 50));
    QVERIFY(!l.allocationAt(-1, 50) && !l.allocationAt(4, 50));
    QVERIFY(!l.allocationAt(3, std::nan("")));
    l.setData(makeCluster(2, 2), smallRun());
    QVERIFY(!l.hasAllocations());
    QVERIFY(!l.allocationAt(3, 50));

    // The tooltip of a bar: the allocation at the hovered time.
    TimelineView v;
    v.resize(1000, 500);
    v.setRun(makeCluster(2, 2), allocatedRun(), nullptr);
    v.setVisibleRange(0, 100);
    const QString boostedTip = v.toolTipAt(pointAt(v, 55, 2, 0.5));
    QVERIFY2(
        boostedTip.contains(QStringLiteral("CPU 12 cores \u00b7 memory 250 GB \u00b7 speed \u00d72.40 vs "
                                           "proportional share")),
        qPrintable(boostedTip));
    QVERIFY2(boostedTip.contains(QStringLiteral("proportional share (at 00:00:5")), qPrintable(boostedTip));
    const QString startTip = v.toolTipAt(pointAt(v, 20, 3, 0.5));  // d's other GPU, before the boost
    QVERIFY2(startTip.contains(QStringLiteral("CPU 6 cores \u00b7 memory 125 GB \u00b7 speed \u00d71.00")),
             qPrintable(startTip));
    QVERIFY(v.toolTipAt(pointAt(v, 75, 2, 0.5)).contains(QStringLiteral("CPU 6 cores")));
    QVERIFY(
        v.toolTipAt(pointAt(v, 30, 0, 0.5)).contains(QStringLiteral("CPU 9 cores \u00b7 memory 62.5 GB")));
    // c has no allocation changes: nothing about them.
    const QString cTip = v.toolTipAt(pointAt(v, 55, 1, 0.75));
    QVERIFY(cTip.contains(QStringLiteral("shares this GPU with b (bert)")));
    QVERIFY2(!cTip.contains(QStringLiteral("cores")), qPrintable(cTip));

    // A run without allocations shows nothing new.
    v.setRun(makeCluster(2, 2), smallRun(), nullptr);
    v.setVisibleRange(0, 100);
    const QString plain = v.toolTipAt(pointAt(v, 55, 2, 0.5));
    QVERIFY(plain.contains(QStringLiteral("<b>d</b>")));
    QVERIFY2(!plain.contains(QStringLiteral("cores")) && !plain.contains(QStringLiteral("proportional")),
             qPrintable(plain));

    // Pictures: the panel at 1400x900 (showing d's bars in d's colour) and the tooltip as the
    // user sees it (its text in the tooltip palette's text colour).
    cl::test::ScreenshotDir shots;
    QVERIFY(shots.isValid());
    TimelinePanel panel;
    panel.resize(1400, 900);
    panel.setRun(makeCluster(2, 2), allocatedRun(), nullptr, QStringLiteral("hand-made Synergy run"));
    panel.show();
    panel.view()->setVisibleRange(0, 100);
    QCoreApplication::processEvents();
    cl::test::shoot(panel, shots, QStringLiteral("alloc_timeline.png"), panel.view()->colorOfJob(3));
    QLabel tip;
    tip.setTextFormat(Qt::RichText);
    tip.setText(panel.view()->toolTipAt(pointAt(*panel.view(), 55, 2, 0.5)));
    tip.setPalette(QToolTip::palette());
    tip.setFont(QToolTip::font());
    tip.setAutoFillBackground(true);
    tip.setMargin(tip.fontMetrics().averageCharWidth());
    tip.adjustSize();
    cl::test::shoot(tip, shots, QStringLiteral("alloc_tooltip.png"),
                    QToolTip::palette().color(QPalette::ToolTipText), 5);
}

// A GPU row split in two lanes by one overlap (b and c, 30-50 s): a before and d after it are
// alone, drawn at full height, so the split shows only where the sharing is.
void TestTimeline::unsharedBarsTakeTheFullRow() {
    auto run = std::make_shared<cl::SimResult>();
    run->jobs = {makeJob(0, "a", "vgg16", 1, 0, 0, 10), makeJob(1, "b", "bert", 1, 0, 20, 50),
                 makeJob(2, "c", "gpt2", 1, 0, 30, 60), makeJob(3, "d", "dqn", 1, 0, 70, 90)};
    run->segments = {{0, 0, 10, 0}, {0, 20, 50, 1}, {0, 30, 60, 2}, {0, 70, 90, 3}};
    TimelineLayout l;
    l.setData(makeCluster(1, 1), run);
    QCOMPARE(l.laneCount(0), 2);
    const TimelineDrawList list = l.build(0, 100, 1000, 0, l.rowCount(), false);
    QCOMPARE(list.items.size(), std::size_t{4});
    for (const TimelineItem& it : list.items) QCOMPARE(int(it.lanes), it.job == 0 || it.job == 3 ? 1 : 2);
    const auto jobAt = [&](double y, double x) {
        const int i = TimelineLayout::itemAt(list, 0, y, x);
        return i < 0 ? -1 : list.items[static_cast<std::size_t>(i)].job;
    };
    QCOMPARE(jobAt(0.25, 50), 0);
    QCOMPARE(jobAt(0.75, 50), 0);
    QCOMPARE(jobAt(0.25, 400), 1);
    QCOMPARE(jobAt(0.75, 400), 2);
    QCOMPARE(jobAt(0.75, 250), -1);  // c not started: the lower lane is empty
    QCOMPARE(jobAt(0.75, 800), 3);
}

// Times in the tooltip name their day once a run is past 24 h ("3 d 22:05:30"); during the
// first day they are a plain clock.
void TestTimeline::tooltipTimesPastADayShowTheDay() {
    constexpr double kDay = 86400.0;
    auto r = std::make_shared<cl::SimResult>();
    r->jobs = {makeJob(0, "early", "vgg16", 1, 0, 22 * 3600.0 + 5 * 60 + 30, 23 * 3600.0),
               makeJob(1, "late", "bert", 1, 2 * kDay + 23 * 3600, 3 * kDay + 22 * 3600,
                       3 * kDay + 22 * 3600 + 600)};
    r->segments = {{0, 22 * 3600.0 + 5 * 60 + 30, 23 * 3600.0, 0},
                   {0, 3 * kDay + 22 * 3600, 3 * kDay + 22 * 3600 + 600, 1}};
    TimelineView v;
    v.resize(1000, 300);
    v.setRun(makeCluster(1, 1), r, nullptr);

    v.setVisibleRange(3 * kDay + 21 * 3600, 3 * kDay + 23 * 3600);
    const QString late = v.toolTipAt(pointAt(v, 3 * kDay + 22 * 3600 + 300, 0, 0.5));
    QVERIFY2(late.contains(QStringLiteral("here: 3\u00a0d\u00a022:00:00 \u2013 3\u00a0d\u00a022:10:00")),
             qPrintable(late));
    QVERIFY2(late.contains(QStringLiteral("submitted 2\u00a0d\u00a023:00:00, started 3\u00a0d\u00a022:00:00, "
                                          "ended 3\u00a0d\u00a022:10:00")),
             qPrintable(late));
    QVERIFY2(!late.contains(QStringLiteral(" 22:05")), qPrintable(late));

    v.setVisibleRange(21 * 3600.0, 24 * 3600.0);
    const QString early = v.toolTipAt(pointAt(v, 22 * 3600.0 + 30 * 60, 0, 0.5));
    QVERIFY2(early.contains(QStringLiteral("here: 22:05:30 \u2013 23:00:00")), qPrintable(early));
    QVERIFY2(!early.contains(QStringLiteral("\u00a0d\u00a0")), qPrintable(early));
}

// File > Export View of the timeline in the dark theme: the page, title band included, is the
// theme's paper with the title in its text colour (no white band above a dark timeline).
void TestTimeline::darkExportIsDarkUnderItsTitle() {
    applyTheme(Theme::Dark);
    TimelinePanel panel;
    panel.resize(1000, 600);
    panel.setRun(makeCluster(2, 2), smallRun(), nullptr, QStringLiteral("run A"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dark.png"));
    QString error;
    QVERIFY2(exportPainting(
                 path, {QSize(1200, 700), 96.0, QStringLiteral("Timeline of run A")},
                 [&](QPainter& p, const QRectF& r) { panel.paintExport(p, r, QString()); }, &error),
             qPrintable(error));
    const QImage image(path);
    QVERIFY(!image.isNull());
    // The title band: the top 20 px across the whole width.
    int light = 0;
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < image.width(); ++x) {
            const int l = image.pixelColor(x, y).lightness();
            QVERIFY2(l < 90 || x < image.width() / 2,
                     qPrintable(QStringLiteral("(%1, %2): %3").arg(x).arg(y).arg(l)));
            if (l > 170) ++light;
        }
    QVERIFY2(image.pixelColor(2, 2).lightness() < 60, qPrintable(image.pixelColor(2, 2).name()));
    QVERIFY2(image.pixelColor(image.width() - 3, 10).lightness() < 60,
             qPrintable(image.pixelColor(image.width() - 3, 10).name()));
    QVERIFY2(light > 30, qPrintable(QString::number(light)));  // the title, in light text
    applyTheme(Theme::System);
}

// The legend swatch of "N segments merged" in an export stands out from the page: in the dark
// theme the palette's Mid, which it used to be, is all but the page colour.
void TestTimeline::mergedSwatchStandsOutInEitherTheme() {
    for (const Theme theme : {Theme::Dark, Theme::Light}) {
        applyTheme(theme);
        TimelinePanel panel;
        panel.resize(1000, 600);
        panel.setRun(makeCluster(2, 2), smallRun(), nullptr, QStringLiteral("run A"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("export.png"));
        QString error;
        QVERIFY2(exportPainting(
                     path, {QSize(1200, 700), 96.0, QStringLiteral("Timeline of run A")},
                     [&](QPainter& p, const QRectF& r) { panel.paintExport(p, r, QString()); }, &error),
                 qPrintable(error));
        const QImage image(path);
        QVERIFY(!image.isNull());
        const QRect swatch = panel.exportMergedSwatch().toRect();
        QVERIFY2(swatch.width() >= 6 && image.rect().contains(swatch),
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(swatch.x())
                                .arg(swatch.y())
                                .arg(swatch.width())
                                .arg(swatch.height())));
        const QColor page = image.pixelColor(2, 2);
        QCOMPARE(page, panel.palette().color(QPalette::Base));
        // Most of the swatch (all but its page-coloured hatch lines) differs clearly from the
        // page, its centre included or a neighbour of it.
        int clear = 0, total = 0;
        for (int y = swatch.top(); y <= swatch.bottom(); ++y)
            for (int x = swatch.left(); x <= swatch.right(); ++x) {
                ++total;
                if (std::abs(image.pixelColor(x, y).lightness() - page.lightness()) >= 60) ++clear;
            }
        QVERIFY2(clear * 3 >= total * 2, qPrintable(QStringLiteral("%1 of %2 pixels clear on %3, theme %4")
                                                        .arg(clear)
                                                        .arg(total)
                                                        .arg(page.name(), themeName(theme))));
        const QPoint c = swatch.center();
        const int centre =
            std::max(std::abs(image.pixelColor(c).lightness() - page.lightness()),
                     std::abs(image.pixelColor(c + QPoint(1, 0)).lightness() - page.lightness()));
        QVERIFY2(centre >= 60, qPrintable(image.pixelColor(c).name() + QStringLiteral(" on ") + page.name()));
    }
    applyTheme(Theme::System);
}

void TestTimeline::sharedGpuAndBatchesInTheTooltip() {
    TimelineLayout l;
    l.setData(makeCluster(1, 2), sharedRun());
    QCOMPARE(l.laneCount(0), 2);  // p and q overlap on GPU 0: two lanes
    QCOMPARE(l.laneCount(1), 1);
    QCOMPARE(l.partnersAt(0, 50), std::vector<int>{1});
    QCOMPARE(l.partnersAt(1, 50), std::vector<int>{0});
    QVERIFY(l.partnersAt(0, 10).empty());
    QVERIFY(l.partnersAt(0, 70).empty());  // q's segment ends at 70 (half-open)
    QVERIFY(l.partnersAt(2, 50).empty());
    QVERIFY(l.hasBatches());
    QCOMPARE(l.batchAt(1, 50)->sub_batch, 16);
    QCOMPARE(l.batchAt(1, 50)->accumulation_steps, 4);
    QCOMPARE(l.batchAt(0, 29.9)->sub_batch, 64);
    QCOMPARE(l.batchAt(0, 30)->interference, 1.25);
    QCOMPARE(l.batchAt(0, 80)->accumulation_steps, 1);
    QVERIFY(!l.batchAt(1, 10));  // before q's first change
    QVERIFY(!l.batchAt(3, 10) && !l.batchAt(-1, 10));

    TimelineView v;
    v.resize(1000, 400);
    v.setRun(makeCluster(1, 2), sharedRun(), nullptr);
    v.setVisibleRange(0, 100);
    // Both bars are drawn: q in the lower lane, p in the upper one, at the same moment.
    QCOMPARE(v.jobAt(pointAt(v, 50, 0, 0.25)), 0);
    QCOMPARE(v.jobAt(pointAt(v, 50, 0, 0.75)), 1);
    const QString qTip = v.toolTipAt(pointAt(v, 50, 0, 0.75));
    QVERIFY2(qTip.contains(QStringLiteral("<b>q</b>")), qPrintable(qTip));
    QVERIFY2(qTip.contains(QStringLiteral("shares GPU with p (resnet50) at 00:00:5")), qPrintable(qTip));
    QVERIFY2(
        qTip.contains(QStringLiteral("sub-batch 16 \u00d7 4 steps, slowed \u00d71.8 by sharing (at 00:00:5")),
        qPrintable(qTip));
    const QString pTip = v.toolTipAt(pointAt(v, 50, 0, 0.25));
    QVERIFY2(pTip.contains(QStringLiteral("shares GPU with q (bert)")), qPrintable(pTip));
    QVERIFY2(pTip.contains(QStringLiteral("sub-batch 32 \u00d7 2 steps, slowed \u00d71.25 by sharing")),
             qPrintable(pTip));
    // p before q arrives: alone now, q only later in the segment; one pass, full speed.
    const QString pAlone = v.toolTipAt(pointAt(v, 10, 0, 0.25));
    QVERIFY2(pAlone.contains(QStringLiteral("alone on this GPU at 00:00:1")), qPrintable(pAlone));
    QVERIFY2(!pAlone.contains(QStringLiteral("shares GPU with")), qPrintable(pAlone));
    QVERIFY2(pAlone.contains(QStringLiteral("sub-batch 64 \u00d7 1 step, full speed: not slowed by sharing")),
             qPrintable(pAlone));
    // r never overlaps anyone: no partner text at all.
    const QString rTip = v.toolTipAt(pointAt(v, 50, 1, 0.5));
    QVERIFY2(rTip.contains(QStringLiteral("<b>r</b>")), qPrintable(rTip));
    QVERIFY2(rTip.contains(QStringLiteral("alone on this GPU during this segment")), qPrintable(rTip));
    QVERIFY2(!rTip.contains(QStringLiteral("shares")), qPrintable(rTip));
    QVERIFY2(rTip.contains(QStringLiteral("sub-batch 128")), qPrintable(rTip));
    // The legend explains the split rows only when some GPU is shared.
    const auto hasLaneEntry = [](const TimelineView& view) {
        const auto entries = view.legend();
        return std::any_of(entries.begin(), entries.end(), [](const auto& e) {
            return e.first.contains(QStringLiteral("sharing that GPU")) && !e.second.isValid();
        });
    };
    QVERIFY(hasLaneEntry(v));

    // Without batch changes: no sub-batch text; without overlap: no partner text.
    auto plain = sharedRun();
    plain->batches.clear();
    plain->segments = {{0, 0, 30, 0}, {0, 30, 70, 1}, {1, 0, 100, 2}};
    v.setRun(makeCluster(1, 2), plain, nullptr);
    v.setVisibleRange(0, 100);
    QVERIFY(!v.layout().hasBatches());
    QVERIFY(!hasLaneEntry(v));
    const QString qPlain = v.toolTipAt(pointAt(v, 50, 0, 0.5));
    QVERIFY2(qPlain.contains(QStringLiteral("<b>q</b>")), qPrintable(qPlain));
    QVERIFY2(!qPlain.contains(QStringLiteral("shares")) && !qPlain.contains(QStringLiteral("sub-batch")),
             qPrintable(qPlain));

    // Pictures of the shared run: the panel shows a's bars in a's colour; the tooltip its text.
    cl::test::ScreenshotDir shots;
    QVERIFY(shots.isValid());
    TimelinePanel panel;
    panel.resize(1400, 500);
    panel.setRun(makeCluster(1, 2), sharedRun(), nullptr, QStringLiteral("hand-made SJF-BSBF run"));
    panel.show();
    panel.view()->setVisibleRange(0, 100);
    QCoreApplication::processEvents();
    cl::test::shoot(panel, shots, QStringLiteral("gui_shared_panel.png"), panel.view()->colorOfJob(0));
    QLabel tip;
    tip.setTextFormat(Qt::RichText);
    tip.setText(panel.view()->toolTipAt(pointAt(*panel.view(), 50, 0, 0.75)));
    tip.setPalette(QToolTip::palette());
    tip.setFont(QToolTip::font());
    tip.setAutoFillBackground(true);
    tip.setMargin(tip.fontMetrics().averageCharWidth());
    tip.adjustSize();
    cl::test::shoot(tip, shots, QStringLiteral("gui_shared_tooltip.png"),
                    QToolTip::palette().color(QPalette::ToolTipText), 5);
}

void TestTimeline::screenshotsOfTheDemoRun() {
    const cl::Cluster cluster = cl::builtinCluster("muri-testbed-64");
    static const cl::ProfileSet profiles = cl::builtinProfiles();
    const cl::Trace trace = cl::demoTrace();
    auto muri = std::make_shared<cl::SimResult>(cl::simulatePolicy(cluster, trace, profiles, "muri-s"));
    auto fifo = std::make_shared<cl::SimResult>(cl::simulatePolicy(cluster, trace, profiles, "fifo"));
    QVERIFY(!muri->segments.empty());

    cl::test::ScreenshotDir shots;
    QVERIFY(shots.isValid());
    TimelinePanel panel;
    panel.resize(1400, 800);
    panel.setRun(cluster, muri, &profiles, QStringLiteral("muri-s on muri-testbed-64"));
    panel.show();
    // The whole run: the first job's bars (on the first GPU rows) in its colour.
    cl::test::shoot(panel, shots, QStringLiteral("timeline_whole.png"),
                    panel.view()->colorOfJob(muri->segments.front().job));

    // Zoom to the life of a job that waited and was interleaved, and select it.
    TimelineView* v = panel.view();
    int job = 0;
    for (int j = 0; j < static_cast<int>(muri->jobs.size()); ++j)
        if (muri->jobs[static_cast<std::size_t>(j)].gpus >= 4 && !v->layout().partnersOf(j).empty()) {
            job = j;
            break;
        }
    const auto& rec = muri->jobs[static_cast<std::size_t>(job)];
    v->selectJob(job);
    QCOMPARE(v->selectedJob(), job);
    const double span = rec.end - rec.submit;
    v->setVisibleRange(rec.submit - span * 0.1, rec.end + span * 0.1);
    const int row = v->layout().rowOfGpu(v->highlightedGpus().front());
    v->verticalScrollBar()->setValue(std::max(0, row - 3) * v->rowHeight());
    panel.setTimeCursor(rec.first_start + span * 0.3);
    // The tooltip of one of its bars names its partners and both iteration times.
    const auto first = v->layout().segmentsOfJob(job).front();
    const auto& seg = muri->segments[static_cast<std::size_t>(first)];
    v->verticalScrollBar()->setValue(0);
    const QString tip =
        v->toolTipAt(pointAt(*v, 0.5 * (seg.t0 + seg.t1), v->layout().rowOfGpu(seg.gpu), 0.02));
    qInfo().noquote() << tip;
    QVERIFY(tip.contains(QStringLiteral("iteration time alone")));
    v->verticalScrollBar()->setValue(std::max(0, row - 3) * v->rowHeight());
    cl::test::shoot(panel, shots, QStringLiteral("timeline_zoom.png"), v->colorOfJob(job));

    colorModeBox(panel)->setCurrentIndex(1);
    panel.setSecondRun(fifo, QStringLiteral("fifo on muri-testbed-64"));
    v->zoomToFit();
    cl::test::shoot(panel, shots, QStringLiteral("timeline_two.png"));

    QImage image(1600, 1000, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    panel.paintExport(painter, QRectF(0, 0, 1600, 1000), QStringLiteral("Per-GPU timeline: muri-s vs fifo"));
    painter.end();
    cl::test::keep(image, QSize(1600, 1000), shots, QStringLiteral("timeline_export.png"));
}

void TestTimeline::lanesGroupedBySocketAndPcieGroup() {
    // Two power8-4gpu servers (2 sockets, one 2-GPU group each), one with a socket holding two
    // groups, and a flat server that keeps its plain labels.
    cl::Cluster c = makeCluster(4, 4);
    c.servers[0].name = "p00-e00-h0";
    c.servers[0].architecture = cl::architecturePreset("power8-4gpu").architecture;
    c.servers[1].architecture = cl::architecturePreset("power8-4gpu").architecture;
    cl::ServerArchitecture split;
    split.sockets.push_back({8, {cl::GpuGroup{1}, cl::GpuGroup{3}}});
    c.servers[2].architecture = split;
    TimelineLayout l;
    l.setData(c, smallRun());
    QVERIFY(l.hasArchitectures());
    QCOMPARE(l.rowCount(), 16);  // lane order unchanged: one row per GPU, server-major
    for (int r = 0; r < 16; ++r) QCOMPARE(l.row(r).gpu, r);
    QCOMPARE(QString::fromStdString(l.laneLabel(0)), QString("p00-e00-h0 \u00b7 S0 \u00b7 G0 \u00b7 GPU 0"));
    QCOMPARE(QString::fromStdString(l.laneLabel(2)), QString("p00-e00-h0 \u00b7 S1 \u00b7 G1 \u00b7 GPU 2"));
    QCOMPARE(QString::fromStdString(l.laneLabel(3, false)), QString("S1 \u00b7 G1 \u00b7 GPU 3"));
    QCOMPARE(QString::fromStdString(l.laneLabel(12)), QString("node3 \u00b7 GPU 0"));
    QCOMPARE(l.socketOfGpu(6), 1);
    QCOMPARE(l.groupOfGpu(6), 1);
    QCOMPARE(l.socketOfGpu(12), -1);
    using B = TimelineLayout::Boundary;
    const std::vector<B> expected = {B::Server, B::None, B::Socket, B::None,  B::Server, B::None,
                                     B::Socket, B::None, B::Server, B::Group, B::None,   B::None,
                                     B::Server, B::None, B::None,   B::None};
    for (int r = 0; r < 16; ++r) QCOMPARE(l.boundaryAbove(r), expected[static_cast<std::size_t>(r)]);
    // A folded server is one row with its name.
    l.setCollapsed(0, true);
    QCOMPARE(l.rowCount(), 13);
    QCOMPARE(QString::fromStdString(l.laneLabel(0)), QString("p00-e00-h0"));
    QCOMPARE(l.boundaryAbove(1), B::Server);

    // An architecture that disagrees with the server's GPU count is ignored, not misdrawn.
    cl::Cluster bad = makeCluster(1, 8);
    bad.servers[0].architecture = cl::architecturePreset("power8-4gpu").architecture;
    l.setData(bad, smallRun());
    QVERIFY(!l.hasArchitectures());
    QCOMPARE(QString::fromStdString(l.laneLabel(5)), QString("node0 \u00b7 GPU 5"));

    // The view draws the grouped header without trouble and keeps flat clusters' width.
    TimelineView flat;
    flat.resize(900, 500);
    flat.setRun(makeCluster(4, 4), smallRun(), nullptr);
    TimelineView grouped;
    grouped.resize(900, 500);
    grouped.setRun(c, smallRun(), nullptr);
    QImage image(grouped.size(), QImage::Format_ARGB32);
    grouped.render(&image);
    QVERIFY(grouped.plotRect().left() > flat.plotRect().left());  // room for "S0 · G0 · GPU 00"
    cl::test::ScreenshotDir shots;
    QVERIFY(shots.isValid());
    cl::test::keep(image, grouped.size(), shots, QStringLiteral("timeline_grouped.png"),
                   grouped.colorOfJob(0));
}
void TestTimeline::exportLeavesOutTheCursorAndTheHint() {
    TimelinePanel panel;
    panel.resize(1000, 600);
    panel.setRun(makeCluster(2, 2), smallRun(), nullptr, QStringLiteral("run A"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto exported = [&] {
        QImage image(QSize(900, 500), QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        panel.paintExport(painter, QRectF(0, 0, 900, 500), QStringLiteral("timeline"));
        return image;
    };
    // The hovered time shows on screen but not in the picture.
    panel.setTimeCursor(25);
    QCOMPARE(panel.view()->timeCursor(), 25.0);
    const QImage withCursor = exported();
    panel.setTimeCursor(std::numeric_limits<double>::quiet_NaN());
    QCOMPARE(withCursor, exported());
    // Nor the "click a bar" hint of the empty selection strip: an SVG keeps drawn text.
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
    QString error;
    QVERIFY2(exportPainting(
                 svg, {QSize(900, 500), 96.0, QStringLiteral("timeline")},
                 [&](QPainter& p, const QRectF& r) { panel.paintExport(p, r, QString()); }, &error),
             qPrintable(error));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("run A"));  // the export's own text is there
    QVERIFY(!text.contains("Click a bar"));
}

QTEST_MAIN(TestTimeline)
#include "test_timeline.moc"
