// A run stored without its GPU timeline (a capacity plan's point, docs/architecture.md 7.9
// "Storage"): the Timeline page says so in place of the empty rows, for the run shown and for the
// run below it, and its "Simulate Again with Timeline" button stores a new run of that scenario
// with its segments, which the page then shows in place of the old one.
#include <algorithm>
#include <string>

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "named_child.h"

#include "core/io/builtin_data.h"
#include "core/model/sim_result.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "views/shell/main_window.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

using cl::views::MainWindow;
using cl::views::TimelinePanel;

namespace {

constexpr int kTimeoutMs = 240000;  // generous: debug and sanitizer builds on small machines

bool hasNotStoredNote(const cl::SimResult& r) {
    return std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& note) {
        return note.rfind(cl::kTimelineNotStoredNote, 0) == 0;
    });
}

// A workspace whose family "p" has two scenarios on the same trace and cluster, each with one
// finished run stored the way a plan stores its points: figures without segments.
void writePlanLikeWorkspace(const QString& path) {
    cl::ScenarioStore store(path.toStdString());
    const cl::ProfileSet profiles = cl::builtinProfiles("muri");
    cl::GeneratorConfig g;
    g.jobs = 40;
    g.seed = 5;
    g.jobs_per_hour = 20;
    g.gpu_weights = cl::parseGpuWeights("1:0.5,2:0.3,4:0.2");
    cl::ScenarioSpec base;
    base.cluster_id = store.putCluster(cl::builtinCluster("sjf-bsbf-16"));
    base.trace_id = store.putTrace(cl::generate(g, &profiles));
    base.profiles_id = store.putProfiles(profiles);
    std::vector<cl::ScenarioSpec> specs;
    for (const char* policy : {"fifo", "srtf"}) {
        cl::ScenarioSpec spec = base;
        spec.name = std::string("p/") + policy;
        spec.policy = policy;
        specs.push_back(spec);
    }
    cl::SweepOptions options;
    options.threads = 1;
    options.record_segments = false;
    const cl::SweepReport report = cl::runSweep(store, specs, options);
    if (report.failed != 0 || report.cancelled != 0) qFatal("the plan-like runs did not finish");
}

}  // namespace

class TestTimelineWithoutSegments : public QObject {
    Q_OBJECT

private slots:
    // The panel alone: the notice replaces the rows and its button asks for run 0 or 1.
    void panelShowsTheNoticeAndAsks() {
        cl::Cluster cluster = cl::builtinCluster("sjf-bsbf-16");
        auto withTimeline = std::make_shared<cl::SimResult>();
        auto without = std::make_shared<cl::SimResult>();
        without->notes.push_back(std::string(cl::kTimelineNotStoredNote) + ": simulate it again");
        QVERIFY(TimelinePanel::timelineNotStored(*without));
        QVERIFY(!TimelinePanel::timelineNotStored(*withTimeline));

        TimelinePanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* notice = namedChild<QLabel>(panel, "timelineNotStored");
        auto* button = namedChild<QPushButton>(panel, "simulateWithTimeline");
        auto* secondNotice = namedChild<QLabel>(panel, "secondTimelineNotStored");
        auto* secondButton = namedChild<QPushButton>(panel, "secondSimulateWithTimeline");
        QSignalSpy asked(&panel, &TimelinePanel::simulateWithTimelineRequested);

        panel.setRun(cluster, without, nullptr, QStringLiteral("p/fifo \u00b7 run 1"));
        QVERIFY(notice->isVisible() && button->isVisible() && button->isEnabled());
        QVERIFY(notice->text().contains(QStringLiteral("plan point")));
        QVERIFY(notice->text().contains(QStringLiteral("figures are complete")));
        QVERIFY(!button->toolTip().isEmpty());
        QVERIFY(!panel.view()->isVisible());
        QVERIFY(!secondNotice->isVisible());
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.takeFirst().at(0).toInt(), 0);
        // A point that stopped as soon as its outcome was known does not claim complete figures.
        auto stopped = std::make_shared<cl::SimResult>(*without);
        stopped->notes.push_back(std::string(cl::kStoppedOverloadedNote) + ": the backlog ...");
        panel.setRun(cluster, stopped, nullptr, QStringLiteral("p/fifo \u00b7 run 4"));
        QVERIFY(notice->text().contains(QStringLiteral("It stopped early, overloaded: the backlog ...")));
        QCOMPARE(notice->text().count(QStringLiteral("stopped early")), 1);
        QVERIFY(notice->text().contains(QStringLiteral("only the jobs finished by then")));
        QVERIFY(!notice->text().contains(QStringLiteral("figures are complete")));

        // Below a run with its timeline: that one draws, the second says it has none.
        panel.setRun(cluster, withTimeline, nullptr, QStringLiteral("p/fifo \u00b7 run 3"));
        QVERIFY(!notice->isVisible() && panel.view()->isVisible());
        panel.setSecondRun(without, QStringLiteral("p/srtf \u00b7 run 2"));
        QVERIFY(secondNotice->isVisible() && secondButton->isVisible());
        QTest::mouseClick(secondButton, Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.takeFirst().at(0).toInt(), 1);
        panel.setSecondRun(nullptr, QString());
        QVERIFY(!secondNotice->isVisibleTo(&panel));

        // The export says so too, in the page's colours (nothing hard-coded), and the second box
        // goes with its run.
        panel.setRun(cluster, without, nullptr, QStringLiteral("p/fifo \u00b7 run 1"));
        QImage image(900, 500, QImage::Format_ARGB32);
        QPainter painter(&image);
        panel.paintExport(painter, QRectF(0, 0, 900, 500), QStringLiteral("Timeline"));
        painter.end();
        const QColor page = panel.palette().color(QPalette::Base);
        int inked = 0;
        for (int y = 250; y < 500; ++y)
            for (int x = 0; x < 900; ++x) inked += image.pixelColor(x, y) != page;
        QVERIFY2(inked > 200, "the notice is drawn where the rows would be");
    }

    // The whole window: the page shows the notice for the Results' selected run, the button runs
    // the scenario again (forced), and the new run, with its segments, replaces the old one.
    void simulatingAgainShowsTheNewRun() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sqlite"));
        writePlanLikeWorkspace(path);
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        cl::ScenarioStore* store = window.store();
        const auto runsOf = [store](const char* name) { return store->runs(store->scenario(name).id); };
        QCOMPARE(runsOf("p/fifo").size(), std::size_t(1));
        const qint64 oldRun = runsOf("p/fifo").front().id;
        QVERIFY(hasNotStoredNote(store->loadRun(oldRun, true)));
        QVERIFY(store->loadRun(oldRun, true).segments.empty());

        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
        window.selectScenario(QStringLiteral("p/fifo"));
        QVERIFY(window.showView(QStringLiteral("timeline")));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeoutMs));
        QCOMPARE(loaded.last().at(0).toLongLong(), oldRun);
        auto* panel = namedChild<TimelinePanel>(window, "timelinePanel");
        auto* notice = namedChild<QLabel>(window, "timelineNotStored");
        auto* button = namedChild<QPushButton>(window, "simulateWithTimeline");
        QVERIFY(notice->isVisible());
        QVERIFY(button->isVisible() && button->isEnabled());
        QVERIFY(!panel->view()->isVisible());

        // The other point below it says the same.
        auto* compareWith = namedChild<QComboBox>(window, "timelineSecondRun");
        QCOMPARE(compareWith->count(), 2);  // nothing, p/srtf
        compareWith->setCurrentIndex(1);
        emit compareWith->activated(1);
        QVERIFY(panel->hasSecondRun());
        auto* secondNotice = namedChild<QLabel>(window, "secondTimelineNotStored");
        auto* secondButton = namedChild<QPushButton>(window, "secondSimulateWithTimeline");
        QVERIFY(secondNotice->isVisible() && secondButton->isVisible());

        // Simulated again: a new run of p/fifo with its segments, shown in place of the old one.
        QSignalSpy done(&window, &MainWindow::runsFinished);
        loaded.clear();
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(window.isRunning());
        QVERIFY(done.wait(kTimeoutMs));
        QCOMPARE(window.failedRuns(), 0);
        const auto fifoRuns = runsOf("p/fifo");
        QCOMPARE(fifoRuns.size(), std::size_t(2));
        const qint64 newRun = std::max(fifoRuns[0].id, fifoRuns[1].id);
        QVERIFY(!store->loadRun(newRun, true).segments.empty());
        QVERIFY(!hasNotStoredNote(store->loadRun(newRun, true)));
        QCOMPARE(store->runInfo(newRun).summary.avg_jct, store->runInfo(oldRun).summary.avg_jct);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kTimeoutMs);
        QCOMPARE(loaded.last().at(0).toLongLong(), newRun);
        QVERIFY(!notice->isVisible());
        QVERIFY(panel->view()->isVisible());
        QVERIFY(panel->view()->result() && !panel->view()->result()->segments.empty());
        QVERIFY(panel->view()->layout().rowCount() > 0);
        QVERIFY(!runsOf("p/srtf").empty());

        // The second run's button: its new run replaces it below.
        QTRY_VERIFY(secondNotice->isVisible());
        QTest::mouseClick(secondButton, Qt::LeftButton);
        QVERIFY(done.wait(kTimeoutMs));
        const auto srtfRuns = runsOf("p/srtf");
        QCOMPARE(srtfRuns.size(), std::size_t(2));
        const qint64 newSecond = std::max(srtfRuns[0].id, srtfRuns[1].id);
        QTRY_COMPARE(compareWith->currentData().toLongLong(), newSecond);
        auto* second = namedChild<cl::views::TimelineView>(window, "secondTimelineView");
        QVERIFY(second->isVisible() && !secondNotice->isVisible());
        QVERIFY(second->result() && !second->result()->segments.empty());
        QCOMPARE(panel->view()->result()->segments.size(), store->loadRun(newRun, true).segments.size());
    }
};

QTEST_MAIN(TestTimelineWithoutSegments)
#include "test_timeline_without_segments.moc"
