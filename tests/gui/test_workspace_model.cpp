// The scenario browser: the workspace tree model against a real store, the browser's
// actions through its hooks, and the scenario dialog's validation.
#include <memory>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/runs/plan_runner.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/common/format.h"
#include "views/workspace/scenario_browser.h"
#include "views/workspace/scenario_dialog.h"
#include "views/workspace/workspace_model.h"

using namespace cl;
using namespace cl::views;

namespace {

const QString kMessage = QStringLiteral("out of GPU memory on server 3");

QString display(const QModelIndex& index, int column = 0) {
    return index.siblingAtColumn(column).data(Qt::DisplayRole).toString();
}

QStringList childNames(const QAbstractItemModel& model, const QModelIndex& parent) {
    QStringList names;
    for (int r = 0; r < model.rowCount(parent); ++r) names << display(model.index(r, 0, parent));
    return names;
}

}  // namespace

class TestWorkspaceModel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString template_;
    int files_ = 0;
    std::unique_ptr<ScenarioStore> store_;
    RunInfo finished_;  // the baseline's run

    QStringList scenarioNames(const WorkspaceModel& model) {
        return childNames(model, model.groupIndex(WorkspaceModel::ScenariosGroup));
    }

    // A capacity plan as runPlan leaves it (docs/architecture.md 7.9): a candidate cluster
    // recorded under the prefix "plan" and two points named plan/..., one with a failed run.
    std::int64_t addPlan() {
        Cluster candidate = builtinCluster("muri-testbed-64");
        candidate.name = "plan-v100x8-n4";
        candidate.servers.resize(2);
        const std::int64_t id = store_->putCluster(candidate);
        store_->setSetting(kPlanCandidateClustersKey, "{\"plan\":[" + std::to_string(id) + "]}");
        ScenarioSpec spec = store_->scenario("baseline").spec;
        spec.cluster_id = id;
        for (const char* name : {"plan/v100x8/fifo/n4/x1/s1", "plan/v100x8/fifo/n4/x2/s1"}) {
            spec.name = name;
            store_->createScenario(spec);
        }
        const std::int64_t point = store_->scenario("plan/v100x8/fifo/n4/x1/s1").id;
        store_->failRun(store_->beginRun(point, engineVersion()), RunStatus::Failed, "test");
        return id;
    }

private slots:
    // One workspace built once: a cluster, the demo trace, the built-in profiles, two
    // scenarios, a finished run of one and a failed run of the other. Each test gets a copy.
    void initTestCase() {
        QVERIFY(dir_.isValid());
        template_ = dir_.filePath(QStringLiteral("template.sqlite"));
        ScenarioStore store(template_.toStdString());
        ScenarioSpec base;
        base.name = "baseline";
        base.cluster_id = store.putCluster(builtinCluster("muri-testbed-64"));
        base.trace_id = store.putTrace(demoTrace());
        base.profiles_id = store.putProfiles(builtinProfiles());
        base.policy = "srtf";
        store.createScenario(base);
        ScenarioSpec muri = base;
        muri.name = "muri what-if";
        muri.policy = "muri-s";
        muri.parameters.load_factor = 1.5;
        const std::int64_t muri_id = store.createScenario(muri);

        finished_ = runScenario(store, "baseline").info;
        QCOMPARE(finished_.status, RunStatus::Finished);
        QVERIFY(finished_.summary.avg_jct > 0);
        store.failRun(store.beginRun(muri_id, engineVersion()), RunStatus::Failed, kMessage.toStdString());
    }

    void init() {
        store_.reset();
        const QString path = dir_.filePath(QStringLiteral("ws%1.sqlite").arg(++files_));
        QVERIFY(QFile::copy(template_, path));
        store_ = std::make_unique<ScenarioStore>(path.toStdString());
    }

    void cleanup() { store_.reset(); }

    void treeShowsTheWorkspace() {
        WorkspaceModel model(store_.get());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(childNames(model, {}), (QStringList{"Clusters", "Traces", "Scenarios"}));
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.headerData(WorkspaceModel::AvgJctColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Avg JCT"));

        const QModelIndex clusters = model.groupIndex(WorkspaceModel::ClustersGroup);
        QCOMPARE(childNames(model, clusters), QStringList{"muri-testbed-64"});
        const int servers = int(builtinCluster("muri-testbed-64").servers.size());
        QCOMPARE(display(model.index(0, 0, clusters), 1), QStringLiteral("%1 servers").arg(servers));
        QCOMPARE(model.index(0, 0, clusters).data(WorkspaceModel::KindRole).toInt(),
                 int(WorkspaceModel::Kind::Cluster));

        const QModelIndex traces = model.groupIndex(WorkspaceModel::TracesGroup);
        QCOMPARE(childNames(model, traces), QStringList{"demo"});
        QCOMPARE(display(model.index(0, 0, traces), 1), QStringLiteral("400 jobs"));

        QCOMPARE(scenarioNames(model), (QStringList{"baseline", "muri what-if"}));
        const QModelIndex baseline = model.indexForScenario("baseline");
        QCOMPARE(baseline.data(WorkspaceModel::KindRole).toInt(), int(WorkspaceModel::Kind::Scenario));
        QCOMPARE(baseline.data(WorkspaceModel::IdRole).toLongLong(), qint64(finished_.scenario_id));
        QCOMPARE(display(baseline, 1),
                 QStringLiteral("srtf \u00b7 muri-testbed-64 \u00b7 demo \u00b7 load \u00d71"));
        QCOMPARE(display(model.indexForScenario("muri what-if"), 1),
                 QStringLiteral("muri-s \u00b7 muri-testbed-64 \u00b7 demo \u00b7 load \u00d71.5"));
        // A scenario shows its latest finished run's metrics.
        QCOMPARE(display(baseline, 2), formatDuration(finished_.summary.avg_jct));
        QCOMPARE(display(baseline, 3), formatDuration(finished_.summary.makespan));

        QCOMPARE(model.rowCount(baseline), 1);
        const QModelIndex run = model.index(0, 0, baseline);
        QCOMPARE(model.indexForRun(finished_.id), run);
        QCOMPARE(display(run), QStringLiteral("Run %1 \u00b7 srtf").arg(finished_.id));
        QCOMPARE(run.data(WorkspaceModel::RunStatusRole).toString(), QStringLiteral("finished"));
        QVERIFY(display(run, 1).startsWith(QStringLiteral("finished in ")));
        QCOMPARE(display(run, 2), formatDuration(finished_.summary.avg_jct));
        QCOMPARE(display(run, 3), formatDuration(finished_.summary.makespan));
        QCOMPARE(run.siblingAtColumn(2).data(WorkspaceModel::RawValueRole).toDouble(),
                 finished_.summary.avg_jct);
        QVERIFY(!run.siblingAtColumn(1).data(Qt::DecorationRole).value<QIcon>().isNull());

        const QModelIndex muri = model.indexForScenario("muri what-if");
        QCOMPARE(model.rowCount(muri), 1);
        const QModelIndex failed = model.index(0, 0, muri);
        QCOMPARE(failed.data(WorkspaceModel::RunStatusRole).toString(), QStringLiteral("failed"));
        QCOMPARE(display(failed, 1), QStringLiteral("failed"));
        QCOMPARE(display(failed, 2), QStringLiteral("\u2013"));
        QCOMPARE(failed.siblingAtColumn(1).data(Qt::ToolTipRole).toString(), kMessage);
        QCOMPARE(failed.data(WorkspaceModel::NameRole).toString(), QStringLiteral("muri what-if"));
        QCOMPARE(display(muri, 2), QStringLiteral("\u2013"));  // no finished run

        QVERIFY(model.flags(baseline) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(run) & Qt::ItemIsEditable));
        QVERIFY(!(model.flags(baseline.siblingAtColumn(1)) & Qt::ItemIsEditable));
    }

    // refresh() applies changes row by row: persistent indexes follow their rows, no reset.
    void refreshFollowsStoreChanges() {
        WorkspaceModel model(store_.get());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        const QPersistentModelIndex muri = model.indexForScenario("muri what-if");
        const QPersistentModelIndex failed_run = model.index(0, 0, muri);

        ScenarioSpec spec = store_->scenario("baseline").spec;
        spec.name = "alpha";
        store_->createScenario(spec);
        model.refresh();
        QCOMPARE(scenarioNames(model), (QStringList{"alpha", "baseline", "muri what-if"}));
        QCOMPARE(display(muri), QStringLiteral("muri what-if"));
        QCOMPARE(muri.row(), 2);
        QCOMPARE(display(model.groupIndex(WorkspaceModel::ScenariosGroup), 1), QStringLiteral("3 scenarios"));

        store_->duplicateScenario("baseline", "baseline x2",
                                  [](ScenarioSpec& s) { s.parameters.load_factor = 2; });
        model.refresh();
        QCOMPARE(scenarioNames(model), (QStringList{"alpha", "baseline", "baseline x2", "muri what-if"}));
        QCOMPARE(display(model.indexForScenario("baseline x2"), 1),
                 QStringLiteral("srtf \u00b7 muri-testbed-64 \u00b7 demo \u00b7 load \u00d72"));

        const QPersistentModelIndex alpha = model.indexForScenario("alpha");
        store_->renameScenario("alpha", "zeta");
        model.refresh();
        QCOMPARE(scenarioNames(model), (QStringList{"baseline", "baseline x2", "muri what-if", "zeta"}));
        QCOMPARE(display(alpha), QStringLiteral("zeta"));  // moved with its row
        QCOMPARE(alpha.row(), 3);

        // A new run is listed first, under its scenario.
        const std::int64_t running = store_->beginRun(muri.data(WorkspaceModel::IdRole).toLongLong(), "test");
        model.refresh();
        QCOMPARE(model.rowCount(muri), 2);
        QCOMPARE(model.index(0, 0, muri), model.indexForRun(running));
        QCOMPARE(model.index(0, 0, muri).data(WorkspaceModel::RunStatusRole).toString(),
                 QStringLiteral("running"));
        QCOMPARE(failed_run.row(), 1);
        store_->failRun(running, RunStatus::Cancelled, "stopped by the user");
        model.refresh();
        QCOMPARE(display(model.indexForRun(running), 1), QStringLiteral("cancelled"));

        store_->deleteScenario("baseline");
        model.refresh();
        QCOMPARE(scenarioNames(model), (QStringList{"baseline x2", "muri what-if", "zeta"}));
        QVERIFY(!model.indexForRun(finished_.id).isValid());
        QCOMPARE(display(muri), QStringLiteral("muri what-if"));
        QCOMPARE(resets.count(), 0);

        // Replacing the store is a reset; a null store leaves three empty groups.
        model.setStore(nullptr);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowCount(model.groupIndex(WorkspaceModel::ScenariosGroup)), 0);
        model.setStore(store_.get());
        QCOMPARE(scenarioNames(model), (QStringList{"baseline x2", "muri what-if", "zeta"}));
    }

    void renameThroughSetData() {
        WorkspaceModel model(store_.get());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy errors(&model, &WorkspaceModel::errorOccurred);
        QSignalSpy renamed(&model, &WorkspaceModel::scenarioRenamed);

        const QPersistentModelIndex baseline = model.indexForScenario("baseline");
        QCOMPARE(baseline.data(Qt::EditRole).toString(), QStringLiteral("baseline"));
        QVERIFY(model.setData(baseline, QStringLiteral("  zz baseline  ")));
        QVERIFY(store_->findScenario("zz baseline"));
        QVERIFY(!store_->findScenario("baseline"));
        QCOMPARE(scenarioNames(model), (QStringList{"muri what-if", "zz baseline"}));
        QCOMPARE(display(baseline), QStringLiteral("zz baseline"));
        QCOMPARE(renamed.count(), 1);
        QCOMPARE(renamed.at(0).at(1).toString(), QStringLiteral("zz baseline"));
        // Its runs know their scenario's new name.
        QCOMPARE(model.indexForRun(finished_.id).data(WorkspaceModel::NameRole).toString(),
                 QStringLiteral("zz baseline"));

        // A taken name is refused by the store: the name stays, the error is reported.
        QVERIFY(!model.setData(baseline, QStringLiteral("muri what-if")));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.at(0).at(0).toString().contains(QStringLiteral("already exists")),
                 qPrintable(errors.at(0).at(0).toString()));
        QCOMPARE(display(baseline), QStringLiteral("zz baseline"));
        QVERIFY(store_->findScenario("zz baseline"));

        QVERIFY(!model.setData(baseline, QStringLiteral("   ")));
        QCOMPARE(errors.count(), 2);
        QVERIFY(!model.setData(model.indexForRun(finished_.id), QStringLiteral("run")));  // not editable
        QCOMPARE(renamed.count(), 1);
    }

    void browserActions() {
        ScenarioBrowser browser(store_.get());
        QAbstractItemModelTester tester(browser.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList errors;
        browser.setErrorHandler([&](const QString& m) { errors << m; });
        QSignalSpy changed(&browser, &ScenarioBrowser::scenariosChanged);
        QSignalSpy current(&browser, &ScenarioBrowser::currentScenarioChanged);

        // Nothing current: only "new" applies.
        QVERIFY(browser.newAction()->isEnabled());
        QVERIFY(!browser.duplicateAction()->isEnabled());
        QVERIFY(!browser.deleteAction()->isEnabled());

        // New: the editor gets a unique default name and the stored inputs.
        bool asked_duplicate = true;
        ScenarioSpec offered;
        browser.setSpecEditor([&](ScenarioSpec& spec, bool duplicate) {
            asked_duplicate = duplicate;
            offered = spec;
            spec.name = "from the browser";
            spec.policy = "fifo";
            return true;
        });
        browser.newScenario();
        QVERIFY(errors.isEmpty());
        QVERIFY(!asked_duplicate);
        QCOMPARE(offered.name, std::string("New scenario"));
        QVERIFY(offered.cluster_id > 0 && offered.trace_id > 0 && offered.profiles_id > 0);
        QCOMPARE(store_->scenario("from the browser").spec.policy, std::string("fifo"));
        QCOMPARE(browser.currentScenario(), QStringLiteral("from the browser"));
        QCOMPARE(current.last().at(0).toString(), QStringLiteral("from the browser"));
        QCOMPARE(changed.count(), 1);
        QVERIFY(browser.deleteAction()->isEnabled());

        // Cancelled editor: nothing happens.
        browser.setSpecEditor([](ScenarioSpec&, bool) { return false; });
        browser.newScenario();
        QCOMPARE(store_->scenarios().size(), std::size_t(3));
        QCOMPARE(changed.count(), 1);

        // Duplicate as what-if: pre-filled from the source, the change applied.
        browser.selectScenario("baseline");
        QCOMPARE(browser.currentScenario(), QStringLiteral("baseline"));
        browser.setSpecEditor([&](ScenarioSpec& spec, bool duplicate) {
            asked_duplicate = duplicate;
            offered = spec;
            spec.parameters.load_factor = 2;
            return true;
        });
        browser.duplicateCurrent();
        QVERIFY(asked_duplicate);
        QCOMPARE(offered.name, std::string("baseline (what if)"));
        QCOMPARE(offered.policy, std::string("srtf"));
        const ScenarioInfo copy = store_->scenario("baseline (what if)");
        const ScenarioInfo base = store_->scenario("baseline");
        QCOMPARE(copy.spec.parameters.load_factor, 2.0);
        QCOMPARE(copy.spec.trace_id, base.spec.trace_id);
        QCOMPARE(copy.runs, 0);
        QCOMPARE(browser.currentScenario(), QStringLiteral("baseline (what if)"));
        QCOMPARE(changed.count(), 2);

        // A second copy gets a name not taken yet; duplicating from a run copies its scenario.
        browser.view()->setCurrentIndex(browser.model()->indexForRun(finished_.id));
        QCOMPARE(browser.currentScenario(), QStringLiteral("baseline"));
        QVERIFY(browser.duplicateAction()->isEnabled());
        QVERIFY(!browser.deleteAction()->isEnabled());
        QVERIFY(!browser.renameAction()->isEnabled());
        QString second;
        browser.setSpecEditor([&](ScenarioSpec& spec, bool) {
            second = QString::fromStdString(spec.name);
            return true;
        });
        browser.duplicateCurrent();
        QCOMPARE(second, QStringLiteral("baseline (what if) (2)"));
        QVERIFY(store_->findScenario("baseline (what if) (2)"));

        // Delete declined: the question names the scenario and its runs; nothing changes.
        browser.selectScenario("baseline");
        QString question;
        browser.setConfirmHandler([&](const QString& q) {
            question = q;
            return false;
        });
        const int before = changed.count();
        browser.deleteCurrent();
        QVERIFY2(question.contains(QStringLiteral("\u201cbaseline\u201d")), qPrintable(question));
        QVERIFY2(question.contains(QStringLiteral("its 1 run?")), qPrintable(question));
        QVERIFY(store_->findScenario("baseline"));
        QVERIFY(browser.model()->indexForRun(finished_.id).isValid());
        QCOMPARE(changed.count(), before);

        // Delete confirmed: the scenario and its runs are gone from the store and the tree.
        browser.setConfirmHandler([](const QString&) { return true; });
        browser.deleteCurrent();
        QVERIFY(!store_->findScenario("baseline"));
        for (const RunInfo& r : store_->runs()) QVERIFY(r.id != finished_.id);
        QVERIFY(!browser.model()->indexForScenario("baseline").isValid());
        QVERIFY(!browser.model()->indexForRun(finished_.id).isValid());
        QCOMPARE(changed.count(), before + 1);
        QVERIFY(browser.currentScenario() != QStringLiteral("baseline"));
        QCOMPARE(current.last().at(0).toString(), browser.currentScenario());

        // A scenario without runs: the question says so.
        browser.selectScenario("from the browser");
        browser.setConfirmHandler([&](const QString& q) {
            question = q;
            return false;
        });
        browser.deleteCurrent();
        QVERIFY2(question.contains(QStringLiteral("no runs")), qPrintable(question));

        // Groups: no scenario, nothing but "new".
        browser.view()->setCurrentIndex(browser.model()->groupIndex(WorkspaceModel::TracesGroup));
        QCOMPARE(browser.currentScenario(), QString());
        QCOMPARE(current.last().at(0).toString(), QString());
        QVERIFY(!browser.duplicateAction()->isEnabled());
        QVERIFY(errors.isEmpty());
    }

    void browserActivatesRunsAndRenamesInPlace() {
        ScenarioBrowser browser(store_.get());
        QStringList errors;
        browser.setErrorHandler([&](const QString& m) { errors << m; });
        browser.resize(900, 500);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        browser.view()->expandAll();

        QSignalSpy runs(&browser, &ScenarioBrowser::runActivated);
        const QModelIndex run = browser.model()->indexForRun(finished_.id);
        emit browser.view()->activated(run);  // what a double-click or Enter does
        QCOMPARE(runs.count(), 1);
        QCOMPARE(runs.at(0).at(0).toLongLong(), qint64(finished_.id));
        QSignalSpy clusters(&browser, &ScenarioBrowser::clusterActivated);
        const QModelIndex cluster =
            browser.model()->index(0, 0, browser.model()->groupIndex(WorkspaceModel::ClustersGroup));
        emit browser.view()->activated(cluster);
        QCOMPARE(clusters.count(), 1);
        QCOMPARE(clusters.at(0).at(0).toLongLong(), cluster.data(WorkspaceModel::IdRole).toLongLong());

        QSignalSpy changed(&browser, &ScenarioBrowser::scenariosChanged);
        browser.selectScenario("baseline");
        browser.renameCurrent();
        auto* editor = browser.view()->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->setText(QStringLiteral("renamed in place"));
        QTest::keyClick(editor, Qt::Key_Return);  // the delegate commits on the next event loop turn
        QTRY_VERIFY(store_->findScenario("renamed in place"));
        QCOMPARE(browser.currentScenario(), QStringLiteral("renamed in place"));
        QCOMPARE(changed.count(), 1);

        // A refused in-place rename goes to the error handler.
        browser.renameCurrent();
        editor = browser.view()->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->setText(QStringLiteral("muri what-if"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(errors.size(), 1);
        QVERIFY2(errors.at(0).contains(QStringLiteral("already exists")), qPrintable(errors.at(0)));
        QVERIFY(store_->findScenario("renamed in place"));
    }

    void clickOnSelectedRowDoesNotRename() {
        ScenarioBrowser browser(store_.get());
        browser.resize(900, 500);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        browser.selectScenario("baseline");
        const QModelIndex name =
            browser.model()->indexForScenario("baseline").siblingAtColumn(WorkspaceModel::NameColumn);
        const QPoint centre = browser.view()->visualRect(name).center();
        // A click on the row that is already selected: nothing to edit, even after the delay
        // in which Qt would have opened an editor for "selected clicked".
        QTest::mouseClick(browser.view()->viewport(), Qt::LeftButton, {}, centre);
        QTest::qWait(QApplication::doubleClickInterval() + 200);
        QVERIFY(!browser.view()->viewport()->findChild<QLineEdit*>());
        // A double-click renames, as F2 and the menu do.
        QTest::mouseDClick(browser.view()->viewport(), Qt::LeftButton, {}, centre);
        QTRY_VERIFY(browser.view()->viewport()->findChild<QLineEdit*>());
        QTest::keyClick(browser.view()->viewport()->findChild<QLineEdit*>(), Qt::Key_Escape);
        QVERIFY(store_->findScenario("baseline"));
    }

    void planPointsAndCandidatesHaveFoldersOfTheirOwn() {
        const std::int64_t candidate = addPlan();
        WorkspaceModel model(store_.get());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        const QModelIndex clusters = model.groupIndex(WorkspaceModel::ClustersGroup);
        QCOMPARE(childNames(model, clusters), (QStringList{"muri-testbed-64", "Plan candidates"}));
        const QModelIndex candidates = model.index(1, 0, clusters);
        QCOMPARE(candidates.data(WorkspaceModel::KindRole).toInt(), int(WorkspaceModel::Kind::Group));
        QCOMPARE(childNames(model, candidates), QStringList{"plan-v100x8-n4"});
        QCOMPARE(model.index(0, 0, candidates).data(WorkspaceModel::IdRole).toLongLong(), candidate);

        QCOMPARE(scenarioNames(model), (QStringList{"baseline", "muri what-if", "plan (plan, 2 points)"}));
        const QModelIndex folder = model.indexForPlan(QStringLiteral("plan"));
        QVERIFY(folder.isValid());
        QCOMPARE(folder.data(WorkspaceModel::PlanPrefixRole).toString(), QStringLiteral("plan"));
        QVERIFY(
            !model.groupIndex(WorkspaceModel::ScenariosGroup).data(WorkspaceModel::PlanPrefixRole).isValid());
        QCOMPARE(display(folder, 1), QStringLiteral("capacity plan \u00b7 1 candidate cluster"));
        QVERIFY(folder.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Remove plan")));
        QCOMPARE(childNames(model, folder), (QStringList{"v100x8/fifo/n4/x1/s1", "v100x8/fifo/n4/x2/s1"}));
        const QModelIndex point = model.indexForScenario(QStringLiteral("plan/v100x8/fifo/n4/x1/s1"));
        QCOMPARE(point.parent(), folder);
        QCOMPARE(model.scenarioName(point), QStringLiteral("plan/v100x8/fifo/n4/x1/s1"));
        QCOMPARE(model.runCount(QStringLiteral("plan/v100x8/fifo/n4/x1/s1")), 1);
        QCOMPARE(model.indexForRun(model.index(0, 0, point).data(WorkspaceModel::IdRole).toLongLong()),
                 model.index(0, 0, point));

        // A workspace without plans keeps its flat tree.
        store_->setSetting(kPlanCandidateClustersKey, "");
        model.refresh();
        QCOMPARE(childNames(model, clusters), (QStringList{"muri-testbed-64", "plan-v100x8-n4"}));
        QCOMPARE(scenarioNames(model), (QStringList{"baseline", "muri what-if", "plan/v100x8/fifo/n4/x1/s1",
                                                    "plan/v100x8/fifo/n4/x2/s1"}));
    }

    void dialogOffersNoPlanCandidateButTheScenariosOwn() {
        const std::int64_t candidate = addPlan();
        ScenarioSpec spec = store_->scenario("baseline").spec;
        spec.name = "baseline (what if)";
        {
            ScenarioDialog dialog(*store_, spec, ScenarioDialog::Mode::Duplicate, "baseline");
            auto* clusters = dialog.findChild<QComboBox*>("cluster");
            QVERIFY(clusters);
            QCOMPARE(clusters->count(), 1);
            QVERIFY(clusters->itemText(0).startsWith(QStringLiteral("muri-testbed-64")));
            QCOMPARE(clusters->findData(qint64(candidate)), -1);
        }
        spec = store_->scenario("plan/v100x8/fifo/n4/x1/s1").spec;
        spec.name = "plan/v100x8/fifo/n4/x1/s1 (what if)";
        ScenarioDialog dialog(*store_, spec, ScenarioDialog::Mode::Duplicate, "plan/v100x8/fifo/n4/x1/s1");
        auto* clusters = dialog.findChild<QComboBox*>("cluster");
        QCOMPARE(clusters->count(), 2);
        QCOMPARE(clusters->currentData().toLongLong(), candidate);
    }

    void removePlanFromItsFolder() {
        addPlan();
        ScenarioBrowser browser(store_.get());
        QStringList errors;
        browser.setErrorHandler([&](const QString& message) { errors << message; });
        QString asked;
        bool answer = false;
        browser.setConfirmHandler([&](const QString& question) {
            asked = question;
            return answer;
        });
        browser.selectScenario(QStringLiteral("baseline"));
        QVERIFY(!browser.removePlanAction()->isEnabled());
        const QModelIndex folder = browser.model()->indexForPlan(QStringLiteral("plan"));
        browser.view()->setCurrentIndex(folder);
        QVERIFY(browser.removePlanAction()->isEnabled());
        QVERIFY(!browser.deleteAction()->isEnabled());

        QSignalSpy changed(&browser, &ScenarioBrowser::scenariosChanged);
        browser.removePlanAction()->trigger();  // answered No: nothing goes
        for (const char* part :
             {"\u201cplan\u201d", "2 points", "its 1 run", "1 candidate cluster", "cannot be undone"})
            QVERIFY2(asked.contains(QString::fromUtf8(part)), qPrintable(asked));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(store_->scenarios().size(), std::size_t(4));

        answer = true;
        browser.removePlanAction()->trigger();
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(store_->scenarios().size(), std::size_t(2));
        QCOMPARE(store_->clusters().size(), std::size_t(1));
        QVERIFY(!browser.model()->indexForPlan(QStringLiteral("plan")).isValid());
        QCOMPARE(scenarioNames(*browser.model()), (QStringList{"baseline", "muri what-if"}));
        QCOMPARE(childNames(*browser.model(), browser.model()->groupIndex(WorkspaceModel::ClustersGroup)),
                 QStringList{"muri-testbed-64"});
        QVERIFY(!browser.removePlanAction()->isEnabled());
    }

    void dialogValidates() {
        ScenarioSpec spec = store_->scenario("baseline").spec;
        spec.name = ScenarioDialog::uniqueName(*store_, "baseline (what if)").toStdString();
        ScenarioDialog dialog(*store_, spec, ScenarioDialog::Mode::Duplicate, "baseline");
        QVERIFY(dialog.windowTitle().contains(QStringLiteral("baseline")));
        QVERIFY2(dialog.isValid(), qPrintable(dialog.problem()));
        auto* name = dialog.findChild<QLineEdit*>("name");
        auto* policy = dialog.findChild<QComboBox*>("policy");
        auto* load = dialog.findChild<QDoubleSpinBox*>("loadFactor");
        auto* problem = dialog.findChild<QLabel*>("problem");
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(name && policy && load && problem && ok);
        QCOMPARE(name->text(), QStringLiteral("baseline (what if)"));
        QVERIFY(ok->isEnabled());

        name->setText(QString());
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problem().contains(QStringLiteral("needs a name")), qPrintable(dialog.problem()));
        QCOMPARE(problem->text(), dialog.problem());

        name->setText(QStringLiteral("muri what-if"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problem().contains(QStringLiteral("already exists")), qPrintable(dialog.problem()));

        name->setText(QStringLiteral("heavier"));
        QVERIFY(ok->isEnabled());
        policy->setEditText(QStringLiteral("nonsense"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problem().startsWith(QStringLiteral("Policy: unknown")),
                 qPrintable(dialog.problem()));
        QVERIFY(dialog.problem().contains(QStringLiteral("'nonsense'")));

        policy->setEditText(QStringLiteral("muri-l"));
        QVERIFY2(ok->isEnabled(), qPrintable(dialog.problem()));
        load->setValue(2.5);
        const ScenarioSpec edited = dialog.spec();
        QCOMPARE(edited.name, std::string("heavier"));
        QCOMPARE(edited.policy, std::string("muri-l"));
        QCOMPARE(edited.parameters.load_factor, 2.5);
        QCOMPARE(edited.cluster_id, spec.cluster_id);
        QCOMPARE(edited.trace_id, spec.trace_id);
        QCOMPARE(edited.profiles_id, spec.profiles_id);
        QCOMPARE(edited.seed, spec.seed);
        // What the store would accept.
        ScenarioSpec accepted = edited;
        QVERIFY(store_->createScenario(accepted) > 0);
    }

    // Pictures of the scenario browser and dialog, checked for what they must show: the
    // selected scenario's row in the highlight colour, and text (CLUSTERLOOM_KEEP_SCREENSHOTS=1
    // keeps them for a look).
    void screenshots() {
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        ScenarioSpec spec = store_->scenario("muri what-if").spec;
        spec.name = "muri what-if, twice the load";
        spec.parameters.load_factor = 3;
        spec.parameters.server_count = 12;
        spec.notes = "Does Muri keep up when submissions come three times as fast on 12 servers?";
        store_->createScenario(spec);
        runScenario(*store_, "baseline", true);
        store_->beginRun(store_->scenario("muri what-if, twice the load").id, "test");

        ScenarioBrowser browser(store_.get());
        browser.resize(1100, 560);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        browser.view()->expandAll();
        browser.selectScenario("baseline");
        cl::test::shoot(browser, shots, QStringLiteral("browser_tree.png"),
                        browser.view()->palette().color(QPalette::Active, QPalette::Highlight), 200);

        spec.name = "muri what-if (what if)";
        ScenarioDialog dialog(*store_, spec, ScenarioDialog::Mode::Duplicate, "muri what-if");
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        cl::test::shoot(dialog, shots, QStringLiteral("browser_dialog.png"),
                        dialog.palette().color(QPalette::Text));
        dialog.findChild<QComboBox*>("policy")->setEditText(QStringLiteral("srtf+bogus"));
        dialog.adjustSize();
        cl::test::shoot(dialog, shots, QStringLiteral("browser_dialog_invalid.png"),
                        dialog.palette().color(QPalette::Text));
    }
};

QTEST_MAIN(TestWorkspaceModel)
#include "test_workspace_model.moc"
