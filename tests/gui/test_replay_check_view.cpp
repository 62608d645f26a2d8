// The Replay view (docs/architecture.md 7.10) on a hand-made case: four jobs on one 4-GPU
// server with recorded starts (the case of tests/core/test_backfill.cpp). Only scenarios whose
// trace recorded starts and that have a finished run are offered; picking one with the keyboard
// shows its verdict, figures, wait distributions, start scatter and worst jobs; an empty
// workspace says how to get a scenario to check; the page opens on a given scenario. Offscreen.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include "core/runs/plan_runner.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "named_child.h"
#include "views/common/app_theme.h"
#include "views/common/chart_export.h"
#include "views/replay/replay_charts.h"
#include "views/replay/replay_check_view.h"
#include "views/replay/replay_jobs_model.h"
#include "views/shell/replay_page.h"

using namespace cl::views;

namespace {

// A job as a Slurm import gives it: a measured run time and a time limit, so it runs exactly
// that long.
cl::Job job(const std::string& id, double submit, int gpus, double duration, double recorded) {
    cl::Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.duration = duration;
    j.time_limit = duration;
    j.recorded_start = recorded;
    return j;
}

// A holds 2 of 4 GPUs for 100 s; B wants all 4 at t=1; C (2 GPUs, 50 s) fits beside A; D (2 GPUs,
// 200 s) fits at 52. Recorded as a backfilling scheduler ran it: A 0, B 100, C 2, D 150. FIFO
// with skipping starts D at 52 and B only at 252: B 152 s late, D 98 s early.
cl::Trace fourJobs(bool recorded) {
    cl::Trace t;
    t.name = recorded ? "four" : "four-unrecorded";
    t.jobs = {job("A", 0, 2, 100, 0), job("B", 1, 4, 50, 100), job("C", 2, 2, 50, 2),
              job("D", 3, 2, 200, 150)};
    if (!recorded)
        for (cl::Job& j : t.jobs) j.recorded_start = -1;
    return t;
}

cl::Cluster oneServer() {
    cl::Cluster c;
    c.name = "one";
    cl::Server s;
    s.name = "n1";
    s.gpu_type = "A100";
    s.gpus = 4;
    c.servers = {s};
    return c;
}

QComboBox* scenariosOf(const ReplayCheckView& view) {
    return namedChild<QComboBox>(view, "replayScenarios");
}

QString verdictOf(const ReplayCheckView& view) {
    return namedChild<QLabel>(view, "replayVerdict")->text();
}

QString cell(const QAbstractItemModel* model, int row, int column) {
    return model->data(model->index(row, column)).toString();
}

// Picks the scenario in the combo box the way a keyboard user does: focus, then Up or Down.
void pickWithKeys(QComboBox* combo, const QString& name) {
    const int target = combo->findText(name);
    QVERIFY2(target >= 0, qPrintable(name + " is not offered"));
    combo->setFocus();
    for (int guard = 0; combo->currentIndex() != target && guard < 20; ++guard)
        QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(combo->currentIndex(), target);
}

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name) return plot->graph(i);
    return nullptr;
}

}  // namespace

class TestReplayCheckView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<cl::ScenarioStore>(m_dir.filePath("w.sqlite").toStdString());
        const std::int64_t cluster = m_store->putCluster(oneServer());
        const std::int64_t profiles = m_store->putProfiles(cl::ProfileSet{});
        const std::int64_t recorded = m_store->putTrace(fourJobs(true));
        const std::int64_t unrecorded = m_store->putTrace(fourJobs(false));
        const auto scenario = [&](const std::string& name, std::int64_t trace, const std::string& policy,
                                  bool run) {
            cl::ScenarioSpec spec;
            spec.name = name;
            spec.cluster_id = cluster;
            spec.trace_id = trace;
            spec.profiles_id = profiles;
            spec.policy = policy;
            m_store->createScenario(spec);
            if (run) cl::runScenario(*m_store, name);
        };
        scenario("replay/conservative", recorded, "fifo+conservative", true);
        scenario("replay/fifo", recorded, "fifo", true);
        scenario("replay/not-run", recorded, "fifo", false);
        scenario("unrecorded/fifo", unrecorded, "fifo", true);
    }

    void offersOnlyCheckableScenarios() {
        ReplayCheckView view;
        view.setStore(m_store.get());
        QComboBox* combo = scenariosOf(view);
        QStringList offered;
        for (int i = 0; i < combo->count(); ++i) offered << combo->itemText(i);
        offered.sort();
        QCOMPARE(offered, QStringList({"replay/conservative", "replay/fifo"}));
        QVERIFY(combo->isEnabled());
        QCOMPARE(namedChild<QStackedWidget>(view, "replayStack")->currentIndex(), 1);
    }

    // A capacity plan's points are not offered (docs/architecture.md 7.9), unless asked for.
    void offersNoPlanPointButTheOneAskedFor() {
        cl::ScenarioStore store(m_dir.filePath("plan.sqlite").toStdString());
        cl::ScenarioSpec spec;
        spec.cluster_id = store.putCluster(oneServer());
        spec.trace_id = store.putTrace(fourJobs(true));
        spec.profiles_id = store.putProfiles(cl::ProfileSet{});
        // Two policies: a second scenario of the same content would reuse the first one's run.
        for (const std::string name : {"mine/fifo", "plan/a100x4/fifo/n1/x1/s1"}) {
            spec.name = name;
            spec.policy = name == "mine/fifo" ? "fifo+conservative" : "fifo";
            store.createScenario(spec);
            cl::runScenario(store, name);
        }
        store.setSetting(cl::kPlanCandidateClustersKey, "{\"plan\":[]}");
        ReplayCheckView view;
        view.setStore(&store);
        QComboBox* combo = scenariosOf(view);
        QCOMPARE(combo->count(), 1);
        QCOMPARE(combo->itemText(0), QStringLiteral("mine/fifo"));

        QVERIFY(view.showScenario(store.scenario("plan/a100x4/fifo/n1/x1/s1").id));
        QCOMPARE(combo->currentText(), QStringLiteral("plan/a100x4/fifo/n1/x1/s1"));
        view.refresh();  // the chosen point stays offered
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->currentText(), QStringLiteral("plan/a100x4/fifo/n1/x1/s1"));
        view.setStore(nullptr);
    }

    void showsTheCheckOfThePickedScenario() {
        ReplayCheckView view;
        view.resize(1100, 760);
        view.setStore(m_store.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* model = namedChild<ReplayJobsModel>(view, "replayJobsModel");
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        pickWithKeys(scenariosOf(view), "replay/fifo");
        // Median |difference| 49 s, p90 136 s, mean wait 75 s against 61.5 s: within five times
        // the bounds of "close" but not within them.
        QVERIFY2(verdictOf(view).startsWith("rough: median |start difference| 49.0 s"),
                 qPrintable(verdictOf(view)));
        QVERIFY2(verdictOf(view).contains("Kendall tau 0.667"), qPrintable(verdictOf(view)));
        QVERIFY(namedChild<QLabel>(view, "replayNotes")->text().startsWith("4 jobs compared"));

        auto* figures = namedChild<QTableWidget>(view, "replayFigures");
        QCOMPARE(figures->columnCount(), 1);  // no partitions: all jobs alone
        QCOMPARE(figures->item(0, 0)->text(), QStringLiteral("4"));
        QCOMPARE(figures->item(3, 0)->text(), QStringLiteral("2.5 min"));  // max: B, 152 s
        QCOMPARE(figures->item(4, 0)->text(), QStringLiteral("61.5 s"));   // mean recorded wait
        QCOMPARE(figures->item(5, 0)->text(), QStringLiteral("75 s"));     // mean simulated wait
        QCOMPARE(figures->item(8, 0)->text(), QStringLiteral("0.667"));
        QVERIFY(!figures->verticalHeaderItem(8)->toolTip().isEmpty());
        QVERIFY(!figures->item(1, 0)->toolTip().isEmpty());

        // The worst job first: B, 152 s late; then D, 98 s early.
        QTableView* table = namedChild<QTableView>(view, "replayJobsTable");
        const QAbstractItemModel* shown = table->model();
        QCOMPARE(shown->rowCount(), 4);
        QCOMPARE(cell(shown, 0, ReplayJobsModel::JobColumn), QStringLiteral("B"));
        QCOMPARE(cell(shown, 0, ReplayJobsModel::GpusColumn), QStringLiteral("4"));
        QCOMPARE(cell(shown, 0, ReplayJobsModel::RecordedColumn), QStringLiteral("00:01:40"));
        QCOMPARE(cell(shown, 0, ReplayJobsModel::SimulatedColumn), QStringLiteral("00:04:12"));
        QCOMPARE(cell(shown, 0, ReplayJobsModel::DifferenceColumn), QStringLiteral("+2.5 min"));
        QCOMPARE(cell(shown, 1, ReplayJobsModel::JobColumn), QStringLiteral("D"));
        QCOMPARE(cell(shown, 1, ReplayJobsModel::DifferenceColumn), QStringLiteral("\u221298 s"));
        // A click on the Job header sorts by id.
        QHeaderView* header = table->horizontalHeader();
        const int x = header->sectionViewportPosition(ReplayJobsModel::JobColumn) +
                      header->sectionSize(ReplayJobsModel::JobColumn) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), static_cast<int>(ReplayJobsModel::JobColumn));
        const QString first = cell(shown, 0, ReplayJobsModel::JobColumn);
        QVERIFY2(first == "A" || first == "D", qPrintable(first));
        QCOMPARE(cell(shown, 3, ReplayJobsModel::JobColumn),
                 first == "A" ? QStringLiteral("D") : QStringLiteral("A"));

        // Two distributions of four waits each, with the point at 0 share before the first wait.
        auto* cdf = namedChild<ReplayWaitCdf>(view, "replayWaitCdf");
        QCPGraph* recorded = graphNamed(cdf, "Recorded");
        QCPGraph* simulated = graphNamed(cdf, "Simulated");
        QVERIFY(recorded && simulated);
        QCOMPARE(recorded->dataCount(), 5);
        QCOMPARE(simulated->dataCount(), 5);
        QCOMPARE(recorded->data()->at(0)->value, 0.0);
        QCOMPARE(recorded->data()->at(4)->value, 1.0);
        // The longest waits: 147 s recorded (D), 251 s simulated (B), in minutes.
        QCOMPARE(recorded->data()->at(4)->key, 147.0 / 60.0);
        QCOMPARE(simulated->data()->at(4)->key, 251.0 / 60.0);
        QVERIFY(cdf->xAxis->label().contains("min"));
        QVERIFY(cdf->legend->visible());

        auto* scatter = namedChild<ReplayStartScatter>(view, "replayStartScatter");
        QCPGraph* dots = graphNamed(scatter, "Jobs");
        QVERIFY(dots);
        QCOMPARE(dots->dataCount(), 4);
        QVERIFY(graphNamed(scatter, "simulated = recorded"));
        // Pointing at B's dot (recorded 100 s, simulated 252 s, in minutes) names it.
        const QPoint atB(qRound(scatter->xAxis->coordToPixel(100.0 / 60.0)),
                         qRound(scatter->yAxis->coordToPixel(252.0 / 60.0)));
        QHelpEvent help(QEvent::ToolTip, atB, scatter->mapToGlobal(atB));
        QApplication::sendEvent(scatter, &help);
        QTRY_VERIFY2(QToolTip::text().startsWith("Job B (4 GPUs)"), qPrintable(QToolTip::text()));
        QVERIFY(QToolTip::text().contains("+2.5 min"));
        QVERIFY(cdf->height() >= 200);
        QVERIFY(scatter->height() >= 200);

        // The other scenario: the conservative backfill starts every job when it was recorded.
        pickWithKeys(scenariosOf(view), "replay/conservative");
        QVERIFY2(verdictOf(view).startsWith("close: median |start difference| 0.0 s"),
                 qPrintable(verdictOf(view)));
        QCOMPARE(cell(table->model(), 0, ReplayJobsModel::DifferenceColumn), QStringLiteral("0 s"));
        QCOMPARE(namedChild<QTableWidget>(view, "replayFigures")->item(8, 0)->text(),
                 QStringLiteral("1.000"));
    }

    void chartsKeepTheirHeightOnALaptopScreen() {
        // About what the page gets of a 1366 x 768 window with the docks around it.
        ReplayCheckView view;
        view.resize(760, 520);
        view.setStore(m_store.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(namedChild<ReplayWaitCdf>(view, "replayWaitCdf")->height() >= 200);
        QVERIFY(namedChild<ReplayStartScatter>(view, "replayStartScatter")->height() >= 200);
    }

    void everyJobColumnIsReachableInANarrowPane() {
        // Narrower than a 1366 x 768 window gives the page: the jobs table cannot show all its
        // columns at once, so it scrolls sideways to each of them.
        ReplayCheckView view;
        view.resize(520, 520);
        view.setStore(m_store.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        pickWithKeys(scenariosOf(view), "replay/fifo");
        QTableView* table = namedChild<QTableView>(view, "replayJobsTable");
        QHeaderView* header = table->horizontalHeader();
        QScrollBar* bar = table->horizontalScrollBar();
        QTRY_VERIFY2(
            header->length() > table->viewport()->width(),
            qPrintable(QStringLiteral("%1 of %2").arg(header->length()).arg(table->viewport()->width())));
        QVERIFY(bar->isVisible());
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), 0);
        // Every column as wide as its header's text: none is cut to fit.
        for (int c = 0; c < ReplayJobsModel::ColumnCount; ++c)
            QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(
                                                   table->model()->headerData(c, Qt::Horizontal).toString()),
                     qPrintable(QString::number(c)));

        // A click on the first job, then End: the last column becomes current and the table
        // scrolls to show it whole; Home goes back.
        const int last = ReplayJobsModel::ColumnCount - 1;
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(table->model()->index(0, 0)).center());
        QCOMPARE(table->currentIndex().column(), 0);
        QTest::keyClick(table, Qt::Key_End);
        QCOMPARE(table->currentIndex().column(), last);
        QVERIFY(bar->value() > 0);
        QVERIFY2(table->viewport()->rect().contains(table->visualRect(table->currentIndex())),
                 "the last column is in view");
        QTest::keyClick(table, Qt::Key_Home);
        QCOMPARE(bar->value(), 0);
        // The scroll bar at its end shows the last column whole, its right edge at the view's.
        bar->setValue(bar->maximum());
        const int right = header->sectionViewportPosition(last) + header->sectionSize(last);
        QVERIFY(header->sectionViewportPosition(last) >= 0);
        QVERIFY2(right <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(right).arg(table->viewport()->width())));
    }

    void anEmptyWorkspaceSaysHowToGetACheck() {
        QTemporaryDir dir;
        cl::ScenarioStore store(dir.filePath("empty.sqlite").toStdString());
        ReplayCheckView view;
        view.setStore(&store);
        QCOMPARE(scenariosOf(view)->count(), 0);
        QVERIFY(!scenariosOf(view)->isEnabled());
        auto* stack = namedChild<QStackedWidget>(view, "replayStack");
        auto* empty = namedChild<QLabel>(view, "replayEmpty");
        QCOMPARE(stack->currentWidget(), empty);
        QVERIFY2(empty->text().contains("Import from Slurm"), qPrintable(empty->text()));
        QVERIFY(empty->text().contains("policy slurm"));
        QVERIFY(!view.check());
        // What File > Export View writes of the page: the hint, drawn.
        QString error;
        const QString png = dir.filePath("empty.png");
        QVERIFY2(exportPainting(
                     png, {QSize(1200, 700), 96.0, "replay"},
                     [&view](QPainter& p, const QRectF& r) { view.paintExport(p, r); }, &error),
                 qPrintable(error));
        QVERIFY(QImage(png).size() == QSize(1200, 700));
        view.setStore(nullptr);
        QVERIFY(empty->text().contains("Open a workspace"));
    }

    void thePageOpensOnAScenario() {
        QTabWidget tabs;
        ReplayPage page(&tabs, nullptr);
        tabs.addTab(page.widget(), page.title());
        page.setWorkspace(m_store.get(), QString());
        QSignalSpy shown(&page, &MainWindowPage::showRequested);
        const std::int64_t fifo = m_store->scenario("replay/fifo").id;
        page.showReplayCheck(fifo);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(page.view()->currentScenario(), fifo);
        QVERIFY(verdictOf(*page.view()).startsWith("rough"));
        QVERIFY(!page.view()->showScenario(m_store->scenario("unrecorded/fifo").id));
        QVERIFY(page.exportPainting());

        // The scenario selected in the workspace is shown when the page is next shown.
        const std::int64_t conservative = m_store->scenario("replay/conservative").id;
        page.followScenario(conservative);
        QCOMPARE(page.view()->currentScenario(), fifo);
        page.setCurrent(true);
        QCOMPARE(page.view()->currentScenario(), conservative);
        QVERIFY(verdictOf(*page.view()).startsWith("close"));
        // One that cannot be checked leaves the choice as it was.
        page.followScenario(m_store->scenario("unrecorded/fifo").id);
        QCOMPARE(page.view()->currentScenario(), conservative);
    }

    void bothThemesDraw() {
        for (Theme theme : {Theme::Light, Theme::Dark}) {
            applyTheme(theme);
            ReplayCheckView view;
            view.resize(1000, 700);
            view.setStore(m_store.get());
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            auto* cdf = namedChild<ReplayWaitCdf>(view, "replayWaitCdf");
            // The chart takes the theme's page colour.
            QCOMPARE(cdf->grab().toImage().pixelColor(2, 2), view.palette().color(QPalette::Base));
        }
        applyTheme(Theme::Light);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<cl::ScenarioStore> m_store;
};

QTEST_MAIN(TestReplayCheckView)
#include "test_replay_check_view.moc"
