// The stage-interleaving teaching view: the paper's numbers (Fig. 4 gamma 1.0 / 0.75,
// Fig. 6's ordering, Table 2's 2.00x) come out of the engine and into the results line;
// edits in the table or by dragging update gamma at once and invalid ones are refused; the
// Gantt draws exactly the engine's schedule with no overlap per resource; stepping moves
// the highlight; the matching view highlights exactly the engine's matching.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include "screenshot_checks.h"

#include "core/interleave/group_time.h"
#include "core/interleave/stage_schedule.h"
#include "core/io/builtin_data.h"
#include "core/matching/max_weight_matching.h"
#include "views/interleave/interleave_gantt.h"
#include "views/interleave/interleave_panel.h"
#include "views/interleave/matching_view.h"
#include "views/interleave/stage_table_model.h"

using cl::views::InterleaveGantt;
using cl::views::InterleavePanel;
using cl::views::MatchingView;
using cl::views::StageTableModel;
using Jobs = std::vector<std::vector<double>>;

namespace {

const cl::ProfileSet& profiles() {
    static const cl::ProfileSet set = cl::builtinProfiles();
    return set;
}

bool near(double a, double b, double tol = 1e-9) {
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

// The engine's matching for these jobs, built the way Muri's grouping weights pairs.
std::vector<int> engineMatching(const Jobs& jobs, const cl::Contention& c) {
    std::vector<cl::WeightedEdge> edges;
    const int n = static_cast<int>(jobs.size());
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            const Jobs pair{jobs[static_cast<std::size_t>(a)], jobs[static_cast<std::size_t>(b)]};
            std::vector<double> solo;
            for (const auto& s : pair) solo.push_back(std::accumulate(s.begin(), s.end(), 0.0));
            edges.push_back({a, b, cl::fixedPointWeight(cl::groupTiming(pair, solo, true, c).gamma)});
        }
    return cl::maxWeightMatching(n, edges);
}

// The stage table's model, found by its objectName.
StageTableModel* stageModelOf(const InterleavePanel& panel) {
    auto* model = panel.findChild<StageTableModel*>(QStringLiteral("interleaveStageModel"));
    if (!model) qFatal("the panel has no interleaveStageModel");
    return model;
}

void checkNoOverlap(const InterleaveGantt& gantt) {
    std::map<int, std::vector<cl::StageInterval>> by_resource;
    for (const auto& iv : gantt.drawnIntervals()) {
        QVERIFY(iv.t1 > iv.t0);
        QVERIFY(iv.resource >= 0 && iv.resource < gantt.resourceCount());
        by_resource[iv.resource].push_back(iv);
    }
    for (auto& [res, list] : by_resource) {
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.t0 < b.t0; });
        for (std::size_t i = 1; i < list.size(); ++i)
            QVERIFY2(list[i].t0 >= list[i - 1].t1 - 1e-9,
                     qPrintable(QStringLiteral("resource %1: [%2, %3] overlaps [%4, %5]")
                                    .arg(res)
                                    .arg(list[i - 1].t0)
                                    .arg(list[i - 1].t1)
                                    .arg(list[i].t0)
                                    .arg(list[i].t1)));
    }
}

// The suite's screenshot folder (removed at exit unless CLUSTERLOOM_KEEP_SCREENSHOTS=1).
const cl::test::ScreenshotDir& shots() {
    static const cl::test::ScreenshotDir dir;
    return dir;
}

// A picture of the panel: it shows the first job's colour (its stages in the Gantt chart).
void save(QWidget& w, const QString& name) {
    w.resize(1400, 800);
    w.show();
    QCoreApplication::processEvents();
    cl::test::shoot(w, shots(), QStringLiteral("interleave_%1.png").arg(name), InterleaveGantt::jobColor(0),
                    20, 8);
}

QPushButton* findButton(QWidget& parent, const QString& text) {
    for (QPushButton* b : parent.findChildren<QPushButton*>())
        if (b->text().remove(QLatin1Char('&')) == text && b->isVisibleTo(&parent)) return b;
    for (QPushButton* b : parent.findChildren<QPushButton*>())
        if (b->text().remove(QLatin1Char('&')) == text) return b;
    return nullptr;
}

bool labelShowing(QWidget& parent, const QString& text) {
    for (const QLabel* label : parent.findChildren<QLabel*>())
        if (label->text() == text) return true;
    return false;
}

// The Interleaving page's size in the main window, maximised on a 1366 x 768 screen (the
// workspace dock on the left, the run dock on the right, the log below) and on 1920 x 1080.
constexpr QSize kPanelAt1366(780, 540);
constexpr QSize kPanelAt1920(1330, 860);

// Does the circle (c, r) meet the rectangle?
bool circleMeetsRect(const QPointF& c, double r, const QRectF& box) {
    const double x = std::clamp(c.x(), box.left(), box.right());
    const double y = std::clamp(c.y(), box.top(), box.bottom());
    return std::hypot(c.x() - x, c.y() - y) < r;
}

QString str(const QRectF& r) {
    return QStringLiteral("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// Every node and label of the matching graph readable: nothing overlaps anything, everything
// inside the part of the view the window shows.
void checkMatchingReadable(const MatchingView& view, const QString& what, bool hovering = false) {
    const auto l = view.layout();
    const QRectF visible = view.visibleRegion().boundingRect();
    QVERIFY2(!visible.isEmpty(), qPrintable(what + ": the graph is not on screen"));
    const double em = QFontMetricsF(view.font()).height();
    QVERIFY2(l.node_r >= em * 0.5, qPrintable(what + QStringLiteral(": nodes of radius %1").arg(l.node_r)));
    const int n = view.jobCount();
    QCOMPARE(static_cast<int>(l.nodes.size()), n);
    std::vector<QRectF> texts;  // names and gamma labels
    for (const QRectF& r : l.names)
        if (!r.isEmpty()) texts.push_back(r);
    for (const auto& e : l.labels) texts.push_back(e.box);
    for (int i = 0; i < n; ++i) {
        QVERIFY2(visible.contains(l.nodeRect(i)),
                 qPrintable(what + ": node " + view.names()[i] + " " + str(l.nodeRect(i)) + " outside " +
                            str(visible)));
        for (int k = i + 1; k < n; ++k) {
            const QPointF d = l.nodes[static_cast<std::size_t>(i)] - l.nodes[static_cast<std::size_t>(k)];
            QVERIFY2(
                std::hypot(d.x(), d.y()) >= 2 * l.node_r,
                qPrintable(what + ": nodes " + view.names()[i] + " and " + view.names()[k] + " overlap"));
        }
        for (const QRectF& t : texts)
            QVERIFY2(!circleMeetsRect(l.nodes[static_cast<std::size_t>(i)], l.node_r, t),
                     qPrintable(what + ": a label " + str(t) + " covers node " + view.names()[i]));
    }
    for (std::size_t a = 0; a < texts.size(); ++a) {
        QVERIFY2(visible.contains(texts[a]),
                 qPrintable(what + ": label " + str(texts[a]) + " outside " + str(visible)));
        for (std::size_t b = a + 1; b < texts.size(); ++b)
            QVERIFY2(!texts[a].intersects(texts[b]),
                     qPrintable(what + ": labels " + str(texts[a]) + " and " + str(texts[b]) + " overlap"));
    }
    // A handful of jobs shows every gamma, more show the matched pairs' (or the hovered job's).
    if (hovering) return;
    int edges = 0, matched = 0;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            edges += std::isfinite(view.edgeGamma(a, b));
            matched += view.matching()[static_cast<std::size_t>(a)] == b;
        }
    QCOMPARE(static_cast<int>(l.labels.size()), n <= 6 ? edges : matched);
}

// The Gantt's rows never overlap and every text it draws stays inside the widget.
void checkGanttReadable(const InterleaveGantt& gantt, const QString& what) {
    const auto& lanes = gantt.laneRects();
    QCOMPARE(static_cast<int>(lanes.size()), gantt.resourceCount());
    const double em = QFontMetricsF(gantt.font()).height();
    for (std::size_t a = 0; a < lanes.size(); ++a) {
        QVERIFY2(lanes[a].height() >= em * 0.95,
                 qPrintable(what + QStringLiteral(": lane %1 is %2 px high").arg(a).arg(lanes[a].height())));
        QVERIFY(QRectF(gantt.rect()).contains(lanes[a]));
        for (std::size_t b = a + 1; b < lanes.size(); ++b)
            QVERIFY2(!lanes[a].intersects(lanes[b]), qPrintable(what + ": rows overlap"));
    }
    const auto& texts = gantt.textRects();
    QVERIFY(!texts.empty());
    for (std::size_t a = 0; a < texts.size(); ++a) {
        QVERIFY2(QRectF(gantt.rect()).contains(texts[a]),
                 qPrintable(what + ": text " + str(texts[a]) + " outside " + str(gantt.rect())));
        for (std::size_t b = a + 1; b < texts.size(); ++b)
            QVERIFY2(!texts[a].intersects(texts[b]),
                     qPrintable(what + ": texts " + str(texts[a]) + " and " + str(texts[b]) + " overlap"));
    }
}

// Show the panel at `size` and let the layouts settle.
void showAt(QWidget& panel, QSize size) {
    panel.resize(size);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
}

// Click a tab of the chart area, as a user does.
void clickChartTab(InterleavePanel& panel, int index) {
    QTabBar* bar = panel.chartTabs()->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(index).center());
    QCOMPARE(panel.chartTabs()->currentIndex(), index);
    QCoreApplication::processEvents();
}

// Paint now (the Gantt records where it drew).
void paintNow(QWidget* w) {
    w->repaint();
    QCoreApplication::processEvents();
}

}  // namespace

class TestInterleaveView : public QObject {
    Q_OBJECT

private slots:
    void stageModelEditsAndRefusals() {
        StageTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(model.setJobs({"A", "B"}, {{2, 1}, {1, 2}}, {}, {"CPU", "GPU"}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 3);  // two stages + alone
        QCOMPARE(model.data(model.index(0, 2), Qt::EditRole).toDouble(), 3.0);
        QVERIFY(!(model.flags(model.index(0, 2)) & Qt::ItemIsEditable));
        QVERIFY(model.flags(model.index(0, 0)) & Qt::ItemIsEditable);

        QSignalSpy changed(&model, &StageTableModel::stagesChanged);
        QSignalSpy refused(&model, &StageTableModel::editRefused);
        QVERIFY(model.setData(model.index(1, 1), 2.5));
        QCOMPARE(model.stages()[1][1], 2.5);
        QCOMPARE(model.data(model.index(1, 2), Qt::EditRole).toDouble(), 3.5);  // the sum follows
        QVERIFY(model.setData(model.index(1, 0), QStringLiteral("1.5")));
        QCOMPARE(model.stages()[1][0], 1.5);
        QCOMPARE(changed.count(), 2);

        for (const QVariant& bad : {QVariant(0.0), QVariant(-1.0), QVariant(QStringLiteral("fast")),
                                    QVariant(std::numeric_limits<double>::infinity()),
                                    QVariant(std::numeric_limits<double>::quiet_NaN())})
            QVERIFY2(!model.setData(model.index(0, 0), bad), qPrintable(bad.toString()));
        QVERIFY(!model.setData(model.index(0, 2), 5.0));  // alone is read-only
        QCOMPARE(model.stages()[0][0], 2.0);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(refused.count(), 5);
        QVERIFY(refused.last().first().toString().contains(QStringLiteral("CPU")));

        // A measured solo time stays when stages change; bad input is refused whole.
        QVERIFY(model.setJobs({"vgg16"}, {{82, 75, 66}}, {214}, {"load+preprocess", "GPU", "network"}));
        QVERIFY(model.setData(model.index(0, 1), 90.0));
        QCOMPARE(model.soloTimes()[0], 214.0);
        QVERIFY(!model.setJobs({"x"}, {{1, -1, 1}}, {}, {"a", "b", "c"}));
        QVERIFY(!model.setJobs({"x", "y"}, {{1, 1, 1}, {1, 1}}, {}, {"a", "b", "c"}));
        QCOMPARE(model.names(), QStringList{"vgg16"});
    }

    // Fig. 4: grouping A with B overlaps perfectly (gamma 1.0); A with C leaves the GPU
    // idle half the time (gamma 0.75). Both from the engine, both in the results line.
    void fig4Numbers() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig4Plan1);
        QCOMPARE(panel.gamma(), 1.0);
        QCOMPARE(panel.iterationTime(), 3.0);
        QCOMPARE(panel.speedup(), 2.0);
        QVERIFY2(panel.resultText().startsWith(
                     QStringLiteral("γ = 1.00 · iteration time 3.00 ms · speedup 2.00×")),
                 qPrintable(panel.resultText()));
        // k = 2: both orderings pair the same stages, so the worst is the same.
        panel.setBestOrdering(false);
        QCOMPARE(panel.gamma(), 1.0);
        panel.setBestOrdering(true);

        panel.showExample(InterleavePanel::Example::Fig4Plan2);
        QCOMPARE(panel.gamma(), 0.75);
        QCOMPARE(panel.iterationTime(), 4.0);
        QCOMPARE(panel.speedup(), 1.5);
        QVERIFY2(panel.resultText().startsWith(
                     QStringLiteral("γ = 0.75 · iteration time 4.00 ms · speedup 1.50×")),
                 qPrintable(panel.resultText()));
        const Jobs ac{{2, 1}, {2, 1}};
        QCOMPARE(panel.gamma(), cl::interleavingEfficiency(ac, cl::bestOrdering(ac).time, 2));
        QCOMPARE(panel.gantt()->resourceName(0), QStringLiteral("CPU"));

        // Fig. 5: the matching of A-D picks plan 1 (total gamma 2.0), not plan 2 (1.5).
        auto* m = panel.findChild<MatchingView*>(QStringLiteral("interleaveMatching"));
        QVERIFY(m);
        QCOMPARE(m->jobCount(), 4);
        QCOMPARE(m->matchedGamma(), 2.0);
        QCOMPARE(m->edgeGamma(0, 2), 0.75);  // A-C
        QCOMPARE(m->edgeGamma(0, 1), 1.0);   // A-B
        QCOMPARE(m->matching(), engineMatching({{2, 1}, {1, 2}, {2, 1}, {1, 2}}, cl::Contention::none()));
    }

    // Fig. 6: on four resources the ordering matters; the toggle switches the engine's
    // best and worst ordering and the line follows.
    void fig6BestAndWorst() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig6);
        QCOMPARE(panel.gamma(), 0.5);
        QCOMPARE(panel.iterationTime(), 5.0);
        QSignalSpy spy(&panel, &InterleavePanel::resultChanged);
        panel.setBestOrdering(false);
        QCOMPARE(spy.count(), 1);
        QVERIFY(near(panel.gamma(), 10.0 / 24.0));
        QCOMPARE(panel.iterationTime(), 6.0);
        QVERIFY2(panel.resultText().startsWith(QStringLiteral("γ = 0.42 · iteration time 6.00 ms")),
                 qPrintable(panel.resultText()));
        checkNoOverlap(*panel.gantt());

        panel.showExample(InterleavePanel::Example::Fig1FourBottlenecks);
        QCOMPARE(panel.bestOrdering(), false);
        panel.setBestOrdering(true);
        QCOMPARE(panel.gamma(), 1.0);
        QCOMPARE(panel.speedup(), 4.0);
        checkNoOverlap(*panel.gantt());
    }

    // Table 2: ShuffleNet + A2C + GPT-2 + VGG16 on 16 GPUs, total normalised throughput
    // 2.00 = the group's speedup vs the four jobs running alone (with contention).
    void table2Speedup() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Table2);
        QVERIFY(panel.contentionEnabled());
        QCOMPARE(stageModelOf(panel)->jobCount(), 4);
        QVERIFY2(std::abs(panel.speedup() - 2.00) <= 0.005, qPrintable(panel.resultText()));
        QVERIFY2(panel.resultText().contains(QStringLiteral("speedup 2.00×")),
                 qPrintable(panel.resultText()));
        QCOMPARE(panel.timing().ordering.order, (std::vector<int>{0, 3, 2, 1}));
        checkNoOverlap(*panel.gantt());
        // The trade is spelled out: each member is slower than alone, the group does 2.00x.
        const QString trade = panel.tradeText();
        QVERIFY2(trade.contains(QStringLiteral("the group does 2.00× the work")), qPrintable(trade));
        QVERIFY2(trade.contains(QStringLiteral("only while jobs would otherwise wait")), qPrintable(trade));
        bool shown = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            shown = shown || label->text().contains(trade);
        QVERIFY(shown);
        save(panel, QStringLiteral("table2"));
    }

    void editUpdatesGammaAtOnce() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig4Plan1);
        QSignalSpy spy(&panel, &InterleavePanel::resultChanged);
        StageTableModel* model = stageModelOf(panel);
        QVERIFY(model->setData(model->index(1, 1), 4.0));  // B's GPU stage 2 -> 4
        QCOMPARE(spy.count(), 1);
        const Jobs stages{{2, 1}, {1, 4}};
        const cl::GroupTiming expect = cl::groupTiming(stages, {3, 5}, true, cl::Contention::none());
        QCOMPARE(panel.gamma(), expect.gamma);
        QCOMPARE(panel.iterationTime(), expect.iteration_time);
        QVERIFY(panel.gamma() < 1.0);
        QVERIFY(panel.resultText().contains(QLocale().toString(expect.gamma, 'f', 2)));
        // The Gantt shows the new stages, exactly as the engine schedules them.
        const auto chart = cl::stageSchedule(stages, expect.ordering, panel.gantt()->iterationCount());
        QCOMPARE(panel.gantt()->drawnIntervals().size(), chart.size());
        for (std::size_t i = 0; i < chart.size(); ++i) {
            QCOMPARE(panel.gantt()->drawnIntervals()[i].t0, chart[i].t0);
            QCOMPARE(panel.gantt()->drawnIntervals()[i].t1, chart[i].t1);
        }
        // Invalid edits change nothing.
        QVERIFY(!model->setData(model->index(0, 0), 0.0));
        QVERIFY(!model->setData(model->index(0, 0), -2.0));
        QVERIFY(!model->setData(model->index(0, 0), QStringLiteral("abc")));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(panel.gamma(), expect.gamma);
    }

    void dragRightEdgeChangesStage() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig4Plan1);
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        InterleaveGantt* g = panel.gantt();
        g->repaint();
        // A's CPU stage in iteration 1.
        int index = -1;
        for (std::size_t i = 0; i < g->drawnIntervals().size(); ++i) {
            const auto& iv = g->drawnIntervals()[i];
            if (iv.job == 0 && iv.resource == 0 && iv.iteration == 0) index = static_cast<int>(i);
        }
        QVERIFY(index >= 0);
        const QRectF box = g->blockRect(index);
        QVERIFY(!box.isEmpty());
        const QPoint edge(qRound(box.right()), qRound(box.center().y()));
        const double px_per_ms = box.width() / 2.0;
        QSignalSpy spy(&panel, &InterleavePanel::resultChanged);
        QTest::mousePress(g, Qt::LeftButton, {}, edge);
        QTest::mouseMove(g, edge + QPoint(qRound(px_per_ms), 0));
        QTest::mouseRelease(g, Qt::LeftButton, {}, edge + QPoint(qRound(px_per_ms), 0));
        QVERIFY(spy.count() >= 1);
        QVERIFY2(std::abs(stageModelOf(panel)->stages()[0][0] - 3.0) <= 0.05,
                 qPrintable(QString::number(stageModelOf(panel)->stages()[0][0])));
        const Jobs now = stageModelOf(panel)->stages();
        QCOMPARE(panel.gamma(),
                 cl::groupTiming(now, stageModelOf(panel)->soloTimes(), true, cl::Contention::none()).gamma);
    }

    void ganttNeverOverlapsOnRealModels() {
        InterleavePanel panel(&profiles());
        panel.setIterations(4);
        const QStringList names =
            QString::fromStdString("vgg16 resnet18 shufflenet_v2_x1_0 bert gpt2 a2c dqn vgg19").split(' ');
        for (int size = 1; size <= 4; ++size)
            for (int start = 0; start + size <= names.size(); start += 2)
                for (bool best : {true, false}) {
                    QVERIFY(panel.setModels(names.mid(start, size)));
                    panel.setBestOrdering(best);
                    QVERIFY2(panel.valid(), qPrintable(panel.resultText()));
                    QCOMPARE(stageModelOf(panel)->jobCount(), size);
                    checkNoOverlap(*panel.gantt());
                    const auto chart =
                        cl::stageSchedule(stageModelOf(panel)->stages(), panel.timing().ordering, 4);
                    QCOMPARE(panel.gantt()->drawnIntervals().size(), chart.size());
                }
        QVERIFY(!panel.setModels({"no-such-model"}));
    }

    void stepAdvancesHighlight() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig6);
        panel.setIterations(3);
        InterleaveGantt* g = panel.gantt();
        QCOMPARE(g->currentIteration(), -1);
        QSignalSpy spy(g, &InterleaveGantt::currentIterationChanged);
        panel.step();
        QCOMPARE(g->currentIteration(), 0);
        panel.step();
        QCOMPARE(g->currentIteration(), 1);
        panel.step();
        panel.step();
        QCOMPARE(g->currentIteration(), 0);  // wraps
        QCOMPARE(spy.count(), 4);
        save(panel, QStringLiteral("fig6_step"));
    }

    // Play starts the group cold: at first only the job that starts with the first stage runs,
    // the others join one by one, and at the end the whole cold-started chart stays.
    void playFormsThePipelineFromAColdStart() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig1FourBottlenecks);
        panel.setIterations(4);
        InterleaveGantt* g = panel.gantt();
        const auto jobsStartedBy = [&](double t) {
            std::set<int> jobs;
            for (const auto& iv : g->drawnIntervals())
                if (iv.t0 < t) jobs.insert(iv.job);
            return jobs.size();
        };
        QCOMPARE(jobsStartedBy(1e-9), std::size_t(4));  // the steady pattern: all at once
        QTest::mouseClick(findButton(panel, "Play"), Qt::LeftButton);
        QVERIFY(panel.isPlaying());
        QVERIFY(g->coldStart());
        QCOMPARE(g->playhead(), 0.0);
        QCOMPARE(jobsStartedBy(1e-9), std::size_t(1));           // cold: one job loads first
        QCOMPARE(jobsStartedBy(g->chartEnd()), std::size_t(4));  // ... the others join
        double last = 0;
        int frames = 0;
        while (panel.isPlaying() && frames < 10000) {
            panel.playFrame();
            if (panel.isPlaying()) {
                QVERIFY(g->playhead() > last);
                last = g->playhead();
            }
            ++frames;
        }
        QVERIFY(!panel.isPlaying());
        QVERIFY(frames > 20);           // an animation, not a jump
        QCOMPARE(g->playhead(), -1.0);  // then everything is drawn
        QVERIFY(g->coldStart());
        panel.step();  // stepping keeps the chart, highlights an iteration
        QCOMPARE(g->currentIteration(), 0);
    }

    // The chart draws what the headline says: with contention, an iteration on the chart lasts
    // the group's iteration time, not the stage-derived one.
    void drawnIterationLastsTheHeadlineTime() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Table2);
        QVERIFY(panel.contentionEnabled());
        const auto& chart = panel.gantt()->drawnIntervals();
        const double period = cl::schedulePeriod(chart, 0, 1, 2);
        QVERIFY2(std::abs(period - panel.iterationTime()) <= 1e-9 * panel.iterationTime(),
                 qPrintable(QString("%1 vs %2").arg(period).arg(panel.iterationTime())));
        QVERIFY(panel.gantt()->timeScale() > 1.0);
        // Definitions with the numbers plugged in, on screen.
        const QString formula = panel.formulaText();
        QVERIFY2(formula.contains(QStringLiteral("γ (interleaving efficiency, Muri Eq. 4)")),
                 qPrintable(formula));
        QVERIFY2(formula.contains(QLocale().toString(panel.gamma(), 'f', 2)), qPrintable(formula));
        QVERIFY2(formula.contains(QStringLiteral("= 2.00×")), qPrintable(formula));
        QVERIFY(labelShowing(panel, formula));
    }

    // A job alone: the chart lasts its measured iteration time, and the detail line says why
    // that differs from its stages; its load stage is one block over storage and CPU.
    void loneJobIsExplained() {
        InterleavePanel panel(&profiles());
        QVERIFY(panel.setModels({QStringLiteral("vgg16")}));
        QCOMPARE(stageModelOf(panel)->jobCount(), 1);
        const auto& chart = panel.gantt()->drawnIntervals();
        QVERIFY(std::abs(cl::schedulePeriod(chart, 0, 1, 2) - panel.iterationTime()) <= 1e-6);
        bool explained = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            explained = explained || label->text().contains(QStringLiteral("measured iteration time"));
        QVERIFY(explained);
        QVERIFY(panel.formulaText().contains(QStringLiteral("4 ×")));  // four resources
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.grab();  // lays out the blocks
        int storage = -1, cpu = -1;
        for (std::size_t i = 0; i < chart.size() && (storage < 0 || cpu < 0); ++i) {
            if (chart[i].iteration != 0) continue;
            if (chart[i].resource == 0) storage = static_cast<int>(i);
            if (chart[i].resource == 1) cpu = static_cast<int>(i);
        }
        QVERIFY(storage >= 0 && cpu >= 0);
        const QRectF a = panel.gantt()->blockRect(storage), b = panel.gantt()->blockRect(cpu);
        QCOMPARE(a, b);  // one block over both lanes
        QVERIFY(a.height() > panel.gantt()->height() / 8.0);
    }

    // The worst ordering of a pair explains why the matching graph's edge shows another γ.
    void worstOrderingNamesTheMatchingWeight() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig6);
        panel.setBestOrdering(false);
        bool shown = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            shown = shown || (label->text().contains(QStringLiteral("best ordering (γ = 0.50)")) &&
                              label->text().contains(QStringLiteral("worst ordering reaches γ = 0.42")));
        QVERIFY(shown);
    }

    // At 1366 pixels the headline is not cut: it has a row of its own and wraps.
    void headlineFitsASmallScreen() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Table2);
        panel.resize(1366 - 300, 700);  // the view beside the workspace dock
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QString headline = panel.resultText();
        QLabel* label = nullptr;
        for (QLabel* l : panel.findChildren<QLabel*>())
            if (l->text() == headline) label = l;
        QVERIFY(label);
        QVERIFY(label->wordWrap());
        QVERIFY2(
            label->height() >= label->heightForWidth(label->width()),
            qPrintable(QString("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
        QVERIFY(headline.contains(QStringLiteral("speedup")));
    }

    // The guided tour walks the paper's figures with a caption per step.
    void guidedTourWalksThePapersFigures() {
        InterleavePanel panel(&profiles());
        panel.show();
        QTest::mouseClick(findButton(panel, "Guided tour"), Qt::LeftButton);
        QVERIFY(panel.touring());
        QCOMPARE(panel.tourStep(), 0);
        QVERIFY2(panel.tourCaption().contains(QStringLiteral("Fig. 1")), qPrintable(panel.tourCaption()));
        QVERIFY2(panel.tourCaption().contains(QStringLiteral("γ = 1.00")), qPrintable(panel.tourCaption()));
        QVERIFY(labelShowing(panel, panel.tourCaption()));
        QStringList seen{panel.tourCaption()};
        while (panel.tourStep() + 1 < panel.tourLength()) {
            QTest::mouseClick(findButton(panel, "Next"), Qt::LeftButton);
            seen << panel.tourCaption();
        }
        QCOMPARE(seen.size(), panel.tourLength());
        QVERIFY(seen.filter(QStringLiteral("Fig. 4, plan 1")).size() == 1);
        QVERIFY(seen.filter(QStringLiteral("Fig. 4, plan 2")).size() == 1);
        QVERIFY(seen.filter(QStringLiteral("Fig. 6, worst ordering")).size() == 1);
        QVERIFY2(
            seen.last().contains(QStringLiteral("Table 2")) && seen.last().contains(QStringLiteral("2.00×")),
            qPrintable(seen.last()));
        QTest::mouseClick(findButton(panel, "Back"), Qt::LeftButton);
        QVERIFY(panel.tourCaption().contains(QStringLiteral("Fig. 6, worst ordering")));
        QVERIFY(!panel.timing().ordering.order.empty());
        QCOMPARE(panel.gamma(), panel.gamma());  // valid numbers
        QTest::mouseClick(findButton(panel, "Next"), Qt::LeftButton);
        QTest::mouseClick(findButton(panel, "Finish"), Qt::LeftButton);
        QVERIFY(!panel.touring());
    }

    // At 1366 x 768 (and 1920 x 1080) the matching graph shows every node and every gamma
    // label, none overlapping another or a node, all on screen: the paper's A-D (the tour's
    // Fig. 5 step), the built-in models, the four Fig. 1 jobs, and while the window is resized.
    void matchingGraphReadableOnSmallAndLargeScreens() {
        for (QSize size : {kPanelAt1366, kPanelAt1920}) {
            const QString at = QStringLiteral("%1x%2 ").arg(size.width()).arg(size.height());
            InterleavePanel panel(&profiles());
            showAt(panel, size);
            // The tour's Fig. 5 step turns to the graph by itself.
            QTest::mouseClick(findButton(panel, "Guided tour"), Qt::LeftButton);
            while (!panel.tourCaption().contains(QStringLiteral("Fig. 5")))
                QTest::mouseClick(findButton(panel, "Next"), Qt::LeftButton);
            QCoreApplication::processEvents();
            MatchingView* view = panel.matchingView();
            QCOMPARE(panel.chartTabs()->currentWidget()->isAncestorOf(view), true);
            QVERIFY(view->isVisible());
            QCOMPARE(view->jobCount(), 4);
            checkMatchingReadable(*view, at + "Fig. 5 A-D");
            QVERIFY2(panel.tourCaption().contains(QStringLiteral("total γ = 2.00")),
                     qPrintable(panel.tourCaption()));
            QTest::mouseClick(
                findButton(panel, "Finish") ? findButton(panel, "Finish") : findButton(panel, "Next"),
                Qt::LeftButton);
            panel.stopTour();

            panel.showExample(InterleavePanel::Example::Table2);
            clickChartTab(panel, 1);
            QVERIFY(view->jobCount() >= 8);  // every built-in model with a 16-GPU profile
            checkMatchingReadable(*view, at + "all models");
            // Hovering a node shows its edges' labels; moving away restores the matched ones.
            QTest::mouseMove(view, view->layout().nodes[0].toPoint());
            QCOMPARE(static_cast<int>(view->layout().labels.size()), view->jobCount() - 1);
            checkMatchingReadable(*view, at + "all models, hovering " + view->names()[0], true);
            QTest::mouseMove(view, QPoint(1, 1));
            checkMatchingReadable(*view, at + "all models after hover");

            panel.showExample(InterleavePanel::Example::Fig1FourBottlenecks);
            clickChartTab(panel, 1);
            checkMatchingReadable(*view, at + "Fig. 1 jobs");
        }
        // Fit to the view on resize: a narrower or taller window still shows it all.
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Table2);
        showAt(panel, kPanelAt1366);
        clickChartTab(panel, 1);
        for (QSize size : {QSize(640, 540), QSize(900, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            QCoreApplication::processEvents();
            checkMatchingReadable(*panel.matchingView(),
                                  QStringLiteral("resized to %1x%2").arg(size.width()).arg(size.height()));
        }
    }

    // At 1366 x 768 the Gantt's rows never overlap and its values stay inside it: Fig. 1's four
    // lanes and Table 2's (with the tour caption taking room); every stage column of the table
    // shows, and the load block spanning storage and CPU carries a label.
    void ganttAndTableReadableAt1366() {
        InterleavePanel panel(&profiles());
        showAt(panel, kPanelAt1366);
        panel.showExample(InterleavePanel::Example::Fig1FourBottlenecks);
        paintNow(panel.gantt());
        QCOMPARE(panel.gantt()->resourceCount(), 4);
        checkGanttReadable(*panel.gantt(), "Fig. 1");
        auto* table = panel.findChild<QTableView*>();
        QVERIFY(table);
        auto columnsShow = [&] {
            for (int c = 0; c < table->model()->columnCount(); ++c)
                if (table->columnViewportPosition(c) < 0 ||
                    table->columnViewportPosition(c) + table->columnWidth(c) > table->viewport()->width())
                    return false;
            return true;
        };
        QVERIFY2(columnsShow(), "a stage column of Fig. 1 is cut off");

        QTest::mouseClick(findButton(panel, "Guided tour"), Qt::LeftButton);
        while (panel.tourStep() + 1 < panel.tourLength())
            QTest::mouseClick(findButton(panel, "Next"), Qt::LeftButton);
        QCoreApplication::processEvents();
        QVERIFY(panel.tourCaption().contains(QStringLiteral("Table 2")));
        QCOMPARE(panel.chartTabs()->currentWidget(), panel.gantt());
        paintNow(panel.gantt());
        checkGanttReadable(*panel.gantt(), "Table 2 in the tour");
        QVERIFY2(columnsShow(), "a stage column of Table 2 is cut off");
        // Each load block (over the storage and CPU lanes) wide enough for "J2 load" is labelled.
        const auto& lanes = panel.gantt()->laneRects();
        const QFontMetricsF fm(panel.gantt()->font());
        int spanning = 0;
        for (std::size_t i = 0; i < panel.gantt()->drawnIntervals().size(); ++i) {
            const QRectF box = panel.gantt()->blockRect(static_cast<int>(i));
            if (box.isEmpty() || box.height() < lanes[0].height() * 1.5) continue;
            ++spanning;
            if (box.width() < fm.horizontalAdvance(QStringLiteral("J2 load")) + fm.height() * 0.4) continue;
            const auto& texts = panel.gantt()->textRects();
            QVERIFY2(
                std::any_of(texts.begin(), texts.end(), [&](const QRectF& t) { return box.contains(t); }),
                qPrintable("unlabelled load block " + str(box)));
        }
        QVERIFY(spanning > 0);
        // The load block drawn after the others of the last iteration is explained.
        bool explained = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            if (label->text().contains(QStringLiteral("J2's load+preprocess stage of iteration 3 ends at"))) {
                explained = true;
            }
        QVERIFY(explained);
    }

    // Table 2's tour step says how gamma and the speedup hold together, from the Muri paper.
    void table2StepExplainsGammaAndSpeedup() {
        InterleavePanel panel(&profiles());
        panel.show();
        QTest::mouseClick(findButton(panel, "Guided tour"), Qt::LeftButton);
        while (panel.tourStep() + 1 < panel.tourLength())
            QTest::mouseClick(findButton(panel, "Next"), Qt::LeftButton);
        const QString caption = panel.tourCaption();
        QVERIFY2(caption.contains(QStringLiteral("γ = 0.45")) && caption.contains(QStringLiteral("2.00×")),
                 qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("hold together")), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("Muri, section 4.2, Eq. 4")) &&
                     caption.contains(QStringLiteral("Muri, section 2.2, Table 2")),
                 qPrintable(caption));
        // The numbers in it add up: speedup = resources x gamma x (alone / stages).
        const QLocale locale;
        const QString kg = locale.toString(4 * panel.gamma(), 'f', 2);
        QVERIFY2(caption.contains(QStringLiteral("4 × γ = ") + kg), qPrintable(caption));
        QVERIFY(labelShowing(panel, caption));
    }

    void matchingViewMatchesEngine() {
        const QStringList all =
            QString::fromStdString("vgg16 resnet18 shufflenet_v2_x1_0 bert gpt2 a2c dqn vgg19").split(' ');
        for (int n : {4, 5, 6, 8}) {
            for (bool contention : {false, true}) {
                QStringList names = all.mid(0, n);
                Jobs stages;
                for (const QString& m : names) {
                    std::vector<double> ms;
                    for (double s : profiles().find(m.toStdString())->at(8)->stage_times)
                        ms.push_back(s * 1000);
                    stages.push_back(ms);
                }
                MatchingView view;
                const cl::Contention c = contention ? cl::Contention{} : cl::Contention::none();
                view.setContention(c);
                view.setJobs(names, stages);
                const auto expect = engineMatching(stages, c);
                QCOMPARE(view.matching(), expect);
                int matched = 0;
                for (int v : view.matching()) matched += v >= 0;
                QVERIFY(matched >= 2);
                if (n == 8 && contention) {
                    view.resize(1000, 800);
                    cl::test::shoot(view, shots(), QStringLiteral("interleave_matching8.png"),
                                    InterleaveGantt::jobColor(0), 20, 8);
                }
            }
        }
    }

    // Identical jobs tie in every ordering: the first one (the given order) is kept and the
    // detail line lists the jobs in that order (docs/architecture.md section 4.5).
    void identicalJobsKeepTheirGivenOrder() {
        InterleavePanel panel(&profiles());
        panel.setGroup({"job 1 (a)", "job 2 (b)", "job 3 (c)"},
                       {{0.3, 0.2, 0.1}, {0.3, 0.2, 0.1}, {0.3, 0.2, 0.1}});
        QVERIFY(panel.valid());
        QCOMPARE(panel.timing().ordering.order, (std::vector<int>{0, 1, 2}));
        QStringList labels;
        for (int i = 0; i < 3; ++i) labels << panel.gantt()->jobLabel(i);
        const QString order = QStringLiteral("order ") + labels.join(QStringLiteral(" → "));
        bool shown = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            shown = shown || label->text().contains(order);
        QVERIFY2(shown, qPrintable(order));
        panel.setBestOrdering(false);
        QCOMPARE(panel.timing().ordering.order, (std::vector<int>{0, 1, 2}));
    }

    void screenshots() {
        InterleavePanel panel(&profiles());
        panel.showExample(InterleavePanel::Example::Fig4Plan1);
        save(panel, QStringLiteral("fig4_plan1"));
        panel.showExample(InterleavePanel::Example::Fig4Plan2);
        save(panel, QStringLiteral("fig4_plan2"));
        panel.showExample(InterleavePanel::Example::Fig6);
        panel.setBestOrdering(false);
        save(panel, QStringLiteral("fig6_worst"));
        QVERIFY(panel.setModels({"vgg16", "gpt2", "a2c"}));
        panel.setBestOrdering(true);
        panel.step();
        save(panel, QStringLiteral("models3"));
        // Run groups come in seconds.
        panel.setGroup({"job 17 (bert)", "job 4 (dqn)"}, {{0.0005, 0.163, 0.018}, {0.44, 0.008, 0.0004}});
        QCOMPARE(stageModelOf(panel)->stages()[0][1], 163.0);
        QVERIFY(panel.valid());
        save(panel, QStringLiteral("run_group"));

        QImage image(1800, 900, QImage::Format_ARGB32);
        QPainter p(&image);
        panel.showExample(InterleavePanel::Example::Fig6);
        panel.gantt()->paintExport(p, QRectF(0, 0, 1800, 900),
                                   QStringLiteral("Fig. 6 (a): the best ordering"));
        p.end();
        cl::test::keep(image, QSize(1800, 900), shots(), QStringLiteral("interleave_export.png"),
                       InterleaveGantt::jobColor(0), 20, 8);
    }
};

QTEST_MAIN(TestInterleaveView)
#include "test_interleave_view.moc"
