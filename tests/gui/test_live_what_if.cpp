// The live what-if under the cluster editor's diagram: with a scenario chosen, an
// edit re-simulates its trace on the edited cluster in the background and the strip shows the
// figures and their changes against the scenario's stored run; undo and redo bring figures of
// a cluster seen before back at once, from the cache, without simulating. The demo trace on the
// 64-GPU Muri testbed under srtf keeps each simulation short.
#include <cmath>

#include <QApplication>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "core/io/builtin_data.h"
#include "core/metrics/cluster_cost.h"
#include "core/metrics/gpu_utilization.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/live_what_if.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "named_child.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/live_what_if.h"
#include "views/cluster/what_if_strip.h"
#include "views/common/app_theme.h"
#include "views/common/chart_style.h"
#include "views/common/english_plurals.h"
#include "views/shell/main_window.h"
#include "views/workspace/scenario_browser.h"

using cl::views::ClusterEditor;
using cl::views::LiveWhatIf;
using cl::views::WhatIfStrip;
using State = cl::views::LiveWhatIf::State;

namespace {

constexpr int kTimeoutMs = 240000;  // generous: debug and sanitizer builds on small machines
const QString kScenario = QStringLiteral("demo/srtf");

// A part of a widget, found by its objectName.
// The strip under the editor's diagram.
WhatIfStrip* stripOf(const ClusterEditor& editor) {
    return namedChild<WhatIfStrip>(editor, "whatIfStrip");
}

// A demo workspace whose demo/srtf has a stored run.
struct Workspace {
    QTemporaryDir dir;
    QString path;
    std::int64_t clusterId = 0;
    std::int64_t runId = 0;

    Workspace() : path(dir.filePath(QStringLiteral("w.sqlite"))) {
        cl::ScenarioStore store(path.toStdString());
        cl::populateDemoWorkspace(store);
        clusterId = store.scenario(kScenario.toStdString()).spec.cluster_id;
        runId = cl::runScenario(store, kScenario.toStdString()).run_id;
    }
    cl::ScenarioStore store() const { return cl::ScenarioStore(path.toStdString()); }
};

// What the core computes for the scenario on `cluster`, independently of the editor.
cl::SimResult simulateDirectly(const Workspace& w, const cl::Cluster& cluster) {
    cl::ScenarioStore store = w.store();
    const cl::ScenarioInputs in = cl::resolveScenario(store, store.scenario(kScenario.toStdString()));
    return cl::simulatePolicy(cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
}

// Waits (in a test function) until the what-if has figures for the edited cluster.
#define WAIT_READY(whatIf) QTRY_VERIFY_WITH_TIMEOUT((whatIf)->state() == State::Ready, kTimeoutMs)

// The editor on the scenario's own stored cluster, with the live what-if following the scenario.
// The caller waits for its figures (WAIT_READY).
void openScenarioCluster(ClusterEditor& editor, const Workspace& w) {
    editor.setCluster(w.store().cluster(w.clusterId), w.clusterId);
    editor.setWhatIfScenario(w.path, kScenario);
}

// The figures the what-if shows equal the ones of a simulation result.
void compareFigures(const cl::WhatIfFigures& shown, const cl::SimResult& result) {
    QCOMPARE(shown.avg_jct, result.summary.avg_jct);
    QCOMPARE(shown.p95_jct, result.summary.p95_jct);
    QCOMPARE(shown.avg_queueing, result.summary.avg_queueing_delay);
    QCOMPARE(shown.gpu_utilization, cl::meanGpuUtilization(result.series));
}

// Every figure but the cost is unchanged against the stored run.
void verifyNoChange(const WhatIfStrip& strip) {
    for (int f = 0; f < WhatIfStrip::CostPerMonth; ++f) {
        const auto figure = static_cast<WhatIfStrip::Figure>(f);
        QCOMPARE(strip.deltaText(figure), QStringLiteral("no change"));
        QCOMPARE(strip.deltaVerdict(figure), 0);
    }
}

}  // namespace

class TestLiveWhatIf : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { cl::views::installEnglishPlurals(*QCoreApplication::instance()); }

    void withoutScenarioSaysSo() {
        ClusterEditor editor;
        editor.setCluster(cl::builtinCluster("muri-testbed-64"));
        QCOMPARE(editor.liveWhatIf()->state(), State::NoScenario);
        QVERIFY2(stripOf(editor)->statusText().contains(QStringLiteral("Select a scenario")),
                 qPrintable(stripOf(editor)->statusText()));
        // The figure labels are named by their Figure: "whatIfFigure0" is the average JCT.
        static_assert(WhatIfStrip::AvgJct == 0);
        QVERIFY(!namedChild<QLabel>(*stripOf(editor), "whatIfFigure0")->isVisibleTo(stripOf(editor)));
    }

    void unreadableScenarioSaysSo() {
        Workspace w;
        ClusterEditor editor;
        editor.setWhatIfScenario(w.path, QStringLiteral("no/such-scenario"));
        QTRY_VERIFY_WITH_TIMEOUT(editor.liveWhatIf()->state() == State::Unavailable, kTimeoutMs);
        const QString status = stripOf(editor)->statusText();
        QVERIFY2(status.contains(QStringLiteral("no/such-scenario")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("cannot be read")), qPrintable(status));
    }

    void emptyTraceSaysSo() {
        Workspace w;
        {
            cl::ScenarioStore store = w.store();
            cl::Trace empty;
            empty.name = "empty";
            cl::ScenarioSpec spec = store.scenario(kScenario.toStdString()).spec;
            spec.name = "empty-trace";
            spec.trace_id = store.putTrace(empty);
            store.createScenario(spec);
        }
        ClusterEditor editor;
        editor.setWhatIfScenario(w.path, QStringLiteral("empty-trace"));
        QTRY_VERIFY_WITH_TIMEOUT(editor.liveWhatIf()->state() == State::Unavailable, kTimeoutMs);
        QVERIFY2(stripOf(editor)->statusText().contains(QStringLiteral("no jobs")),
                 qPrintable(stripOf(editor)->statusText()));
    }

    // The scenario's own cluster needs no simulation: its stored run's figures, every change 0.
    void scenarioClusterShowsTheStoredRun() {
        Workspace w;
        cl::ScenarioStore store = w.store();
        const cl::SimResult run = store.loadRun(w.runId, false);
        ClusterEditor editor;
        openScenarioCluster(editor, w);
        LiveWhatIf* whatIf = editor.liveWhatIf();
        WAIT_READY(whatIf);
        QCOMPARE(whatIf->simulationsStarted(), 0);
        QVERIFY(whatIf->isScenarioCluster());
        QVERIFY(whatIf->stored() && whatIf->current());
        compareFigures(*whatIf->stored(), run);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(whatIf->current()->avg_jct, run.summary.avg_jct);
        WhatIfStrip* strip = stripOf(editor);
        verifyNoChange(*strip);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(strip->statusText().contains(QStringLiteral("own cluster")),
                 qPrintable(strip->statusText()));
    }

    // Removing servers simulates once and raises the average JCT; undo brings the stored
    // figures back at once and redo the edited ones, both from the cache.
    void removingServersThenUndoAndRedo() {
        Workspace w;
        cl::ScenarioStore store = w.store();
        const cl::Cluster testbed = store.cluster(w.clusterId);
        const cl::SimResult run = store.loadRun(w.runId, false);
        ClusterEditor editor;
        openScenarioCluster(editor, w);
        LiveWhatIf* whatIf = editor.liveWhatIf();
        WhatIfStrip* strip = stripOf(editor);
        WAIT_READY(whatIf);

        const int n = static_cast<int>(testbed.servers.size());
        editor.selectServers({n - 3, n - 2, n - 1});
        editor.removeSelected();
        QCOMPARE(whatIf->state(), State::Simulating);
        QVERIFY(strip->statusText().contains(QStringLiteral("Simulating")));
        WAIT_READY(whatIf);
        QCOMPARE(whatIf->simulationsStarted(), 1);

        compareFigures(*whatIf->current(), simulateDirectly(w, editor.cluster()));
        if (QTest::currentTestFailed()) return;
        QVERIFY(whatIf->current()->avg_jct > run.summary.avg_jct);
        QCOMPARE(strip->deltaVerdict(WhatIfStrip::AvgJct), -1);
        QVERIFY2(strip->deltaText(WhatIfStrip::AvgJct).startsWith(QLatin1Char('+')),
                 qPrintable(strip->deltaText(WhatIfStrip::AvgJct)));
        QVERIFY(whatIf->current()->avg_queueing > run.summary.avg_queueing_delay);
        QCOMPARE(strip->deltaVerdict(WhatIfStrip::Queueing), -1);
        const auto edited = *whatIf->current();

        const int hits = whatIf->cacheHits();
        editor.undoStack()->undo();
        QCOMPARE(whatIf->state(), State::Ready);  // at once, no event loop needed
        QCOMPARE(whatIf->cacheHits(), hits + 1);
        QCOMPARE(whatIf->current()->avg_jct, run.summary.avg_jct);
        QCOMPARE(strip->deltaText(WhatIfStrip::AvgJct), QStringLiteral("no change"));

        editor.undoStack()->redo();
        QCOMPARE(whatIf->state(), State::Ready);
        QCOMPARE(whatIf->current()->avg_jct, edited.avg_jct);
        QCOMPARE(strip->deltaVerdict(WhatIfStrip::AvgJct), -1);
        QTest::qWait(whatIf->settleDelay() * 2);
        QCOMPARE(whatIf->simulationsStarted(), 1);
    }

    // An edit that changes no capacity (renaming a server) is simulated and changes nothing;
    // a price does not reach the simulator, so it needs no simulation and changes the cost.
    void noCapacityChangeAndPrices() {
        Workspace w;
        ClusterEditor editor;
        openScenarioCluster(editor, w);
        LiveWhatIf* whatIf = editor.liveWhatIf();
        WhatIfStrip* strip = stripOf(editor);
        WAIT_READY(whatIf);

        QVERIFY(editor.document()->renameServer(0, QStringLiteral("renamed-node")));
        WAIT_READY(whatIf);
        QCOMPARE(whatIf->simulationsStarted(), 1);
        verifyNoChange(*strip);
        if (QTest::currentTestFailed()) return;

        cl::Cluster priced = editor.cluster();
        for (cl::Server& s : priced.servers) {
            s.price.basis = cl::PriceBasis::Hourly;
            s.price.per_hour = 10.0;
        }
        QVERIFY(editor.document()->replaceCluster(priced, QStringLiteral("price")));
        QCOMPARE(whatIf->state(), State::Ready);
        QCOMPARE(whatIf->simulationsStarted(), 1);
        const double perMonth = cl::clusterCost(priced).per_month;
        QCOMPARE(whatIf->currentCost().per_month, perMonth);
        QCOMPARE(strip->valueText(WhatIfStrip::CostPerMonth),
                 QStringLiteral("$") + QLocale().toString(std::round(perMonth), 'f', 0));
        // The stored testbed has no prices, so there is no change to show.
        QCOMPARE(strip->deltaText(WhatIfStrip::CostPerMonth), QStringLiteral("\u2013"));

        // Some servers without a price: the sum is a lower bound, and the figure says how many.
        cl::Cluster partly = priced;
        for (std::size_t i = 1; i < partly.servers.size(); ++i) partly.servers[i].price = {};
        QVERIFY(editor.document()->replaceCluster(partly, QStringLiteral("price")));
        const int unpriced = static_cast<int>(partly.servers.size()) - 1;
        QCOMPARE(whatIf->currentCost().unpriced_servers, unpriced);
        QVERIFY2(strip->valueText(WhatIfStrip::CostPerMonth).startsWith(QStringLiteral("at least $")),
                 qPrintable(strip->valueText(WhatIfStrip::CostPerMonth)));
        const QString cell = namedChild<QLabel>(*strip, "whatIfFigure4")->text();
        QVERIFY2(cell.contains(
                     QStringLiteral("%1 of %2 servers unpriced").arg(unpriced).arg(partly.servers.size())),
                 qPrintable(cell));
    }

    // A scenario without a stored run has nothing to compare with: the strip offers to run it,
    // and once the main window has run it the changes show.
    void withoutStoredRunOffersToRunIt() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sqlite"));
        std::int64_t clusterId = 0;
        {
            cl::ScenarioStore store(path.toStdString());
            cl::populateDemoWorkspace(store);
            clusterId = store.scenario(kScenario.toStdString()).spec.cluster_id;
        }
        cl::views::MainWindow window(cl::views::MainWindow::Options{false});
        QString error;
        QVERIFY2(window.openWorkspace(path, cl::views::MainWindow::Demo::No, &error), qPrintable(error));
        ClusterEditor& editor = *namedChild<ClusterEditor>(window, "clusterEditor");
        editor.setCluster(window.store()->cluster(clusterId), clusterId);
        namedChild<cl::views::ScenarioBrowser>(window, "scenarioBrowser")->selectScenario(kScenario);
        QCOMPARE(editor.liveWhatIf()->scenario(), kScenario);
        LiveWhatIf* whatIf = editor.liveWhatIf();
        WAIT_READY(whatIf);
        QVERIFY(!whatIf->stored());
        WhatIfStrip* strip = stripOf(editor);
        auto* run = namedChild<QPushButton>(*strip, "whatIfRunScenario");
        QVERIFY(run->isVisibleTo(strip));
        QVERIFY(run->text().contains(kScenario));
        QVERIFY(strip->statusText().contains(QStringLiteral("no stored run")));
        QTest::mouseClick(run, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(whatIf->stored().has_value(), kTimeoutMs);
        WAIT_READY(whatIf);
        QVERIFY(!run->isVisibleTo(strip));
        verifyNoChange(*strip);
    }

    // Edits in quick succession: the settle delay gathers them, and whatever was started
    // before the last edit is cancelled or ignored; the figures are the last cluster's.
    void newerEditWins() {
        Workspace w;
        cl::ScenarioStore store = w.store();
        const cl::Cluster testbed = store.cluster(w.clusterId);
        ClusterEditor editor;
        openScenarioCluster(editor, w);
        LiveWhatIf* whatIf = editor.liveWhatIf();
        WAIT_READY(whatIf);
        whatIf->setSettleDelay(0);
        const int n = static_cast<int>(testbed.servers.size());
        editor.selectServers({n - 1});
        editor.removeSelected();
        QTest::qWait(1);  // the first simulation starts
        editor.selectServers({0});
        editor.removeSelected();
        WAIT_READY(whatIf);
        QTest::qWait(50);
        QCOMPARE(whatIf->state(), State::Ready);
        const cl::SimResult direct = simulateDirectly(w, editor.cluster());
        QCOMPARE(whatIf->current()->avg_jct, direct.summary.avg_jct);
        QVERIFY(whatIf->simulationsStarted() >= 1 && whatIf->simulationsStarted() <= 2);
    }

    void clustersThatCannotRunSaySo() {
        Workspace w;
        cl::ScenarioStore store = w.store();
        cl::Cluster one = store.cluster(w.clusterId);
        one.servers.resize(1);  // 8 GPUs; the demo trace has 16-GPU jobs
        ClusterEditor editor;
        openScenarioCluster(editor, w);
        LiveWhatIf* whatIf = editor.liveWhatIf();
        WAIT_READY(whatIf);
        QVERIFY(editor.document()->replaceCluster(one, QStringLiteral("one server")));
        WAIT_READY(whatIf);
        QVERIFY(!whatIf->current()->problem.empty());
        QVERIFY2(stripOf(editor)->statusText().contains(QStringLiteral("cannot run the trace")),
                 qPrintable(stripOf(editor)->statusText()));
        QCOMPARE(stripOf(editor)->valueText(WhatIfStrip::AvgJct), QStringLiteral("\u2013"));

        cl::Cluster none = one;
        none.servers.clear();
        QVERIFY(editor.document()->replaceCluster(none, QStringLiteral("no server")));
        QCOMPARE(whatIf->state(), State::Invalid);
        QVERIFY2(stripOf(editor)->statusText().contains(QStringLiteral("cannot be simulated")),
                 qPrintable(stripOf(editor)->statusText()));
    }

    void colorsReadOnBothThemes() {
        for (const auto theme : {cl::views::Theme::Light, cl::views::Theme::Dark}) {
            cl::views::applyTheme(theme);
            const QPalette palette = QApplication::palette();
            const QColor window = palette.color(QPalette::Window);
            QVERIFY(cl::views::contrastRatio(WhatIfStrip::betterColor(palette), window) >= 4.5);
            QVERIFY(cl::views::contrastRatio(WhatIfStrip::worseColor(palette), window) >= 4.5);
            QVERIFY(WhatIfStrip::betterColor(palette) != WhatIfStrip::worseColor(palette));
        }
        cl::views::applyTheme(cl::views::Theme::System);
    }

    // The window gives the editor the scenario selected in the workspace browser.
    void mainWindowFollowsTheSelection() {
        QTemporaryDir dir;
        cl::views::MainWindow window(cl::views::MainWindow::Options{false});
        window.resize(1400, 900);
        QSignalSpy done(&window, &cl::views::MainWindow::runsFinished);
        QString error;
        QVERIFY2(window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")),
                                      cl::views::MainWindow::Demo::Always, &error),
                 qPrintable(error));
        QVERIFY(done.wait(kTimeoutMs));
        namedChild<cl::views::ScenarioBrowser>(window, "scenarioBrowser")->selectScenario(kScenario);
        LiveWhatIf* whatIf = namedChild<ClusterEditor>(window, "clusterEditor")->liveWhatIf();
        QCOMPARE(whatIf->scenario(), kScenario);
        WAIT_READY(whatIf);
        QVERIFY(whatIf->stored());
        QVERIFY(whatIf->isScenarioCluster());
    }
};

QTEST_MAIN(TestLiveWhatIf)
#include "test_live_what_if.moc"
