// Simulation › Topology Placement, offscreen: the results model under QAbstractItemModelTester,
// a small run of all eight policies on a 16-server fat-tree filling the table, cancel keeping
// nothing, a flat cluster offering nothing to run and a cluster that disagrees with its
// topology reported in words.
#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "named_child.h"
#include "screenshot_checks.h"

#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "core/topology_placement/distributed_models.h"
#include "core/topology_placement/distributed_workload.h"
#include "core/topology_placement/placement_simulator.h"
#include "views/cluster/cluster_editor.h"
#include "views/shell/main_window.h"
#include "views/topology_placement/placement_dialog.h"
#include "views/topology_placement/placement_results_model.h"

using cl::views::PlacementDialog;
using cl::views::PlacementResultsModel;
using cl::views::PlacementRunSettings;

namespace {

cl::Cluster ft4() {
    return cl::makeTopologyCluster("ft4", cl::fatTreeSpec(4), cl::architectureMix("power8"));
}

cl::PlacementRunResult fakeResult(const std::string& policy, double jct, double slowdown, int forwarded) {
    cl::PlacementRunResult r;
    r.policy = policy;
    r.average_jct = jct;
    r.average_slowdown = slowdown;
    r.forwarded_jobs = forwarded;
    r.multi_server_jobs = 2;
    r.tier_utilization = {0.125, 0.5, 0.0};
    return r;
}

QStringList columnTexts(const QAbstractItemModel& model, int column) {
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row) out << model.index(row, column).data().toString();
    return out;
}

// The dialog's (or the main window's) widgets, found by their object names.
QPushButton* runButton(const PlacementDialog& d) {
    return namedChild<QPushButton>(d, "placementRun");
}
QPushButton* cancelButton(const PlacementDialog& d) {
    return namedChild<QPushButton>(d, "placementCancel");
}
PlacementResultsModel* resultsModel(const PlacementDialog& d) {
    return namedChild<PlacementResultsModel>(d, "placementResultsModel");
}
QTableView* resultsView(const PlacementDialog& d) {
    return namedChild<QTableView>(d, "placementResults");
}

}  // namespace

class TestPlacementDialog : public QObject {
    Q_OBJECT

private slots:
    void modelUnderTester() {
        PlacementResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setResults({fakeResult("tetris", 5400.0, 1.25, 3), fakeResult("lb@device", 1800.0, 1.5, 0)},
                         {10, 20, 40}, 1800.0);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 9);
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers, (QStringList{"policy", "avg JCT (h)", "avg JCT (intervals)", "slowdown",
                                       "forwarded", "multi-server", "tier0 10G", "tier1 20G", "tier2 40G"}));
        QCOMPARE(model.index(0, PlacementResultsModel::JctHours).data().toString(), QStringLiteral("1.50"));
        QCOMPARE(model.index(0, PlacementResultsModel::JctIntervals).data().toString(),
                 QStringLiteral("3.00"));
        QCOMPARE(model.index(1, PlacementResultsModel::Slowdown).data().toString(), QStringLiteral("1.500"));
        QCOMPARE(model.index(0, PlacementResultsModel::FirstTier).data().toString(),
                 QStringLiteral("12.50%"));
        QCOMPARE(
            model.index(0, PlacementResultsModel::JctHours).data(PlacementResultsModel::kSortRole).toDouble(),
            1.5);
        QCOMPARE(
            model.toCsv(),
            QStringLiteral("policy,avg JCT (h),avg JCT (intervals),slowdown,forwarded,multi-server,tier0 10G,"
                           "tier1 20G,tier2 40G\n"
                           "tetris,1.5,3,1.25,3,2,12.5,50,0\n"
                           "lb@device,0.5,1,1.5,0,2,12.5,50,0\n"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void smallRunFillsEightRows() {
        PlacementDialog dialog(ft4());
        QVERIFY(dialog.canRun());
        PlacementRunSettings s;
        s.jobs_per_interval = 1;
        s.intervals = 2;
        dialog.setSettings(s);
        QCOMPARE(dialog.settings().policies().size(), std::size_t(8));
        dialog.show();
        QSignalSpy finished(&dialog, &PlacementDialog::runFinished);
        QVERIFY(runButton(dialog)->isEnabled());
        QTest::mouseClick(runButton(dialog), Qt::LeftButton);
        QVERIFY(dialog.isRunning());
        QVERIFY(!runButton(dialog)->isEnabled());
        QVERIFY(cancelButton(dialog)->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(resultsModel(dialog)->rowCount(), 8);
        // The same workload and tetris run as the CLI's, straight from the core.
        const cl::Cluster cluster = ft4();
        const cl::NetworkTopology topology = cl::NetworkTopology::build(cluster.topology);
        std::vector<double> steps;
        for (const auto& m : cl::distributedModelTypes()) steps.push_back(m.step_seconds);
        cl::DistributedWorkloadSpec w;
        w.jobs_per_interval = 1;
        w.intervals = 2;
        w.max_jobs = 10000;
        w.pods = topology.podCount();
        const auto jobs = cl::generateDistributedWorkload(w, steps);
        QVERIFY(!jobs.empty());  // uniform over 0..2 per pod and interval, seed 1
        QCOMPARE(dialog.statusText(), QStringLiteral("8 policies on %1 jobs.").arg(jobs.size()));
        cl::PlacementSimOptions opt;
        opt.policy = cl::PlacementPolicy{};
        const cl::PlacementRunResult tetris =
            cl::simulatePlacement(cluster, topology, jobs, cl::distributedModelTypes(), opt);
        QCOMPARE(resultsModel(dialog)->results().front().average_jct, tetris.average_jct);
        QCOMPARE(resultsModel(dialog)->results().front().tier_utilization, tetris.tier_utilization);
        QCOMPARE(columnTexts(*resultsView(dialog)->model(), PlacementResultsModel::Policy),
                 (QStringList{"tetris", "lb", "lif", "k8s", "tetris@device", "lb@device", "lif@device",
                              "k8s@device"}));
        QCOMPARE(resultsModel(dialog)->columnCount(), 9);
        QCOMPARE(resultsModel(dialog)->headerData(6, Qt::Horizontal).toString(), QStringLiteral("tier0 10G"));
        QVERIFY(runButton(dialog)->isEnabled());
        QVERIFY(!cancelButton(dialog)->isEnabled());

        // Sorting by slowdown orders the view by the exact values, not the text.
        resultsView(dialog)->sortByColumn(PlacementResultsModel::Slowdown, Qt::DescendingOrder);
        const QAbstractItemModel* view = resultsView(dialog)->model();
        for (int row = 1; row < view->rowCount(); ++row)
            QVERIFY(view->index(row - 1, PlacementResultsModel::Slowdown)
                        .data(PlacementResultsModel::kSortRole)
                        .toDouble() >= view->index(row, PlacementResultsModel::Slowdown)
                                           .data(PlacementResultsModel::kSortRole)
                                           .toDouble());

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("placement.csv"));
        QString error;
        QVERIFY2(dialog.exportCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString csv = QString::fromUtf8(file.readAll());
        QCOMPARE(csv, resultsModel(dialog)->toCsv());
        QCOMPARE(csv.count(QLatin1Char('\n')), 9);
        QVERIFY(!dialog.exportCsv(dir.filePath(QStringLiteral("missing/dir/x.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("cannot write the results")), qPrintable(error));

        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        cl::test::shoot(dialog, shots, QStringLiteral("placement.png"),
                        dialog.palette().color(QPalette::WindowText));
    }

    void cancelKeepsNothing() {
        PlacementDialog dialog(ft4());
        dialog.setSettings(PlacementRunSettings{});  // the CLI's defaults: 2,400 jobs, far from instant
        QSignalSpy finished(&dialog, &PlacementDialog::runFinished);
        dialog.run();
        QVERIFY(dialog.isRunning());
        QTest::mouseClick(cancelButton(dialog), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(resultsModel(dialog)->rowCount(), 0);
        QCOMPARE(dialog.statusText(), QStringLiteral("Cancelled; nothing kept."));
        QVERIFY(runButton(dialog)->isEnabled());
    }

    void closingMidRunStopsTheWorker() {
        auto* dialog = new PlacementDialog(ft4());
        dialog->run();
        QVERIFY(dialog->isRunning());
        delete dialog;  // waits for the cancelled worker; no crash, no hang
    }

    void flatClusterOffersNothing() {
        cl::Cluster flat = ft4();
        flat.name = "flat16";
        flat.topology = cl::TopologySpec{};
        PlacementDialog dialog(flat);
        QVERIFY(!dialog.canRun());
        QVERIFY(!runButton(dialog)->isEnabled());
        auto* about = dialog.findChild<QLabel*>(QStringLiteral("placementAbout"));
        QVERIFY(about);
        QVERIFY2(about->text().contains(QStringLiteral("has no network topology")),
                 qPrintable(about->text()));
        QVERIFY(about->text().contains(QStringLiteral("New from topology")));
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        dialog.show();
        cl::test::shoot(dialog, shots, QStringLiteral("placement-flat.png"),
                        about->palette().color(QPalette::WindowText));
        dialog.run();  // ignored
        QVERIFY(!dialog.isRunning());
        QCOMPARE(resultsModel(dialog)->rowCount(), 0);
    }

    void simulationMenuOpensItOnTheEditedCluster() {
        cl::views::MainWindow window(cl::views::MainWindow::Options{false});
        namedChild<cl::views::ClusterEditor>(window, "clusterEditor")->setCluster(ft4());
        QAction* open = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)) open = a;
        QVERIFY(open);
        QCOMPARE(open->text(), QStringLiteral("Topology &Placement\u2026"));
        open->trigger();
        auto* dialog = window.findChild<PlacementDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->isModal());
        QVERIFY(dialog->canRun());
        QCOMPARE(dialog->windowTitle(), QStringLiteral("Topology Placement \u2014 ft4"));
    }

    void clusterDisagreeingWithItsTopologyIsReported() {
        cl::Cluster broken = ft4();
        broken.servers.pop_back();
        PlacementDialog dialog(broken);
        PlacementRunSettings s;
        s.jobs_per_interval = 1;
        s.intervals = 1;
        dialog.setSettings(s);
        QSignalSpy finished(&dialog, &PlacementDialog::runFinished);
        dialog.run();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(resultsModel(dialog)->rowCount(), 0);
        QCOMPARE(dialog.statusText(),
                 QStringLiteral("The run failed: cluster 'ft4' has 15 servers but its topology has 16"));
    }
};

QTEST_MAIN(TestPlacementDialog)
#include "test_placement_dialog.moc"
