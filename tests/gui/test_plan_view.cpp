// The Plan view driven as a planner does: server types and policies ticked, a target row edited,
// Run pressed; the ranked table, the frontier and the cliff are filled from the plan; the
// chosen row is the cheapest plan; Open as scenario names a stored scenario; the PDF report is
// written; a bad target is refused with the reason and runs nothing. Offscreen.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/io/builtin_data.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "named_child.h"
#include "views/plan/plan_cliff_plot.h"
#include "views/plan/plan_frontier_plot.h"
#include "views/plan/plan_table_model.h"
#include "views/plan/plan_targets_editor.h"
#include "views/plan/plan_view.h"

using namespace cl::views;

namespace {

// A part of a widget, found by its objectName.
PlanTargetsEditor* targetsOf(const PlanView& view) {
    return namedChild<PlanTargetsEditor>(view, "planTargetsEditor");
}

PlanTableModel* modelOf(const PlanView& view) {
    return namedChild<PlanTableModel>(view, "planModel");
}

QLabel* statusOf(const PlanView& view) {
    return namedChild<QLabel>(view, "planStatus");
}

// The value cell of a target row: a line edit in the targets table.
QLineEdit* targetValue(const PlanView& view, int row) {
    return qobject_cast<QLineEdit*>(
        namedChild<QTableWidget>(*targetsOf(view), "planTargets")->cellWidget(row, 3));
}

void tick(QListWidget* list, const QStringList& ids) {
    for (int i = 0; i < list->count(); ++i)
        list->item(i)->setCheckState(
            ids.contains(list->item(i)->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
}

}  // namespace

class TestPlanView : public QObject {
    Q_OBJECT

private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<cl::ScenarioStore>((m_dir.path() + "/w.sqlite").toStdString());
        const cl::ProfileSet profiles = cl::builtinProfiles("muri");
        cl::GeneratorConfig g;
        g.jobs = 50;
        g.seed = 3;
        g.jobs_per_hour = 12;
        g.gpu_weights = cl::parseGpuWeights("1:0.5,2:0.2,4:0.2,8:0.1");
        m_store->putTrace(cl::generate(g, &profiles));
        m_store->putCluster(cl::builtinCluster("sjf-bsbf-16"));
        m_store->putProfiles(profiles);
    }
    void cleanup() { m_store.reset(); }

    void runsAPlanAndShowsIt() {
        PlanView view;
        view.resize(1200, 800);
        view.show();
        view.setStore(m_store.get());
        QAbstractItemModelTester tester(modelOf(view),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(namedChild<QComboBox>(view, "planTrace")->count(), 1);
        // Before a plan the charts are empty: no axes, a hint in the middle of the whole chart.
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (cl::views::PlanPlot* plot : {static_cast<cl::views::PlanPlot*>(view.frontierPlot()),
                                          static_cast<cl::views::PlanPlot*>(view.cliffPlot())}) {
            QVERIFY2(plot->hint().startsWith("Run a plan to see the"), qPrintable(plot->hint()));
            QVERIFY(!plot->xAxis->visible() && !plot->yAxis->visible());
            qobject_cast<QStackedWidget*>(plot->parentWidget())->setCurrentWidget(plot);
            QTRY_VERIFY(plot->isVisible() && plot->width() > 300);
            plot->replot();
            QCOMPARE(plot->axisRect()->outerRect().width(), plot->viewport().width());
            QCOMPARE(plot->viewport().width(), plot->width());
        }
        qobject_cast<QStackedWidget*>(view.frontierPlot()->parentWidget())
            ->setCurrentWidget(view.frontierPlot());
        tick(namedChild<QListWidget>(view, "planServerTypes"), {"v100x8", "t4x4"});
        tick(namedChild<QListWidget>(view, "planPolicies"), {"fifo", "srtf"});
        targetsOf(view)->setTargets({"avg_queueing<=1h"});
        // Edit the value cell as a user types: 1h -> 2h.
        QLineEdit* value = targetValue(view, 0);
        QVERIFY(value);
        value->selectAll();
        QTest::keyClicks(value, "2h");
        QCOMPARE(targetsOf(view)->texts(), QStringList{"avg_queueing<=2h"});
        namedChild<QSpinBox>(view, "planSeeds")->setValue(2);
        namedChild<QLineEdit>(view, "planPrefix")->setText("gui-plan");
        QSignalSpy finished(&view, &PlanView::planFinished);
        QSignalSpy added(&view, &PlanView::scenariosAdded);
        QTest::mouseClick(namedChild<QPushButton>(view, "planRun"), Qt::LeftButton);
        QVERIFY(view.isRunning());
        QVERIFY(namedChild<QPushButton>(view, "planCancel")->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(added.count(), 1);
        QVERIFY(!view.isRunning());

        const auto report = view.report();
        QVERIFY(report);
        QVERIFY(report->error.empty());
        QCOMPARE(modelOf(view)->rowCount(), 4);  // 2 types x 2 policies
        QVERIFY(report->chosen);
        // The chosen plan is the first row, in bold, and the table's current row.
        QCOMPARE(modelOf(view)->chosenRow(), 0);
        QCOMPARE(modelOf(view)->candidateAt(0), static_cast<int>(*report->chosen));
        QVERIFY(modelOf(view)->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(namedChild<QTableView>(view, "planTable")->currentIndex().row(), 0);
        // Ranked by cost among the plans.
        double previous = -1;
        for (int r = 0; r < modelOf(view)->rowCount(); ++r) {
            const cl::CandidateResult& c =
                report->candidates[static_cast<std::size_t>(modelOf(view)->candidateAt(r))];
            if (!c.servers || !c.within_budget) continue;
            const double cost = modelOf(view)
                                    ->index(r, PlanTableModel::CostPerMonth)
                                    .data(PlanTableModel::SortRole)
                                    .toDouble();
            QVERIFY(cost >= previous);
            previous = cost;
        }
        QVERIFY(view.frontierPlot()->graphCount() > 0);
        QVERIFY(view.frontierPlot()->hint().isEmpty() && view.frontierPlot()->xAxis->visible());
        QVERIFY(view.cliffPlot()->pointCount() >= 3);
        QVERIFY(statusOf(view)->text().contains("gui-plan/"));

        // Open as scenario names a stored scenario of the chosen plan.
        QSignalSpy open(&view, &PlanView::openScenarioRequested);
        QVERIFY(namedChild<QPushButton>(view, "planOpen")->isEnabled());
        QTest::mouseClick(namedChild<QPushButton>(view, "planOpen"), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        const QString name = open.first().first().toString();
        QVERIFY(name.startsWith("gui-plan/"));
        QVERIFY(name.endsWith("/s1"));
        QVERIFY(m_store->findScenario(name.toStdString()).has_value());

        // The plan as a PDF report.
        QString error;
        const QString pdf = m_dir.path() + "/plan.pdf";
        QVERIFY2(view.exportReport(pdf, &error), qPrintable(error));
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.read(5) == "%PDF-");

        // The inputs of the last plan come back with the workspace.
        PlanView again;
        again.setStore(m_store.get());
        QCOMPARE(namedChild<QLineEdit>(again, "planPrefix")->text(), QString("gui-plan"));
        QCOMPARE(namedChild<QSpinBox>(again, "planSeeds")->value(), 2);
        QCOMPARE(targetsOf(again)->texts(), QStringList{"avg_queueing<=2h"});

        // A rerun reuses every stored run and gives the same plan.
        QTest::mouseClick(namedChild<QPushButton>(view, "planRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
        QCOMPARE(view.report()->chosen, report->chosen);
        QCOMPARE(view.report()->simulations, report->simulations);
    }

    void aBadTargetIsRefusedWithTheReason() {
        PlanView view;
        view.setStore(m_store.get());
        targetsOf(view)->setTargets({"p95_jct<=8h"});
        QLineEdit* value = targetValue(view, 0);
        value->setText("8 hours");
        QVERIFY(!value->toolTip().isEmpty());
        QVERIFY(!view.runPlan());
        QVERIFY(!view.isRunning());
        QVERIFY2(statusOf(view)->text().contains("Target 1"), qPrintable(statusOf(view)->text()));
        // No policy ticked: refused too.
        value->setText("8h");
        tick(namedChild<QListWidget>(view, "planPolicies"), {});
        QVERIFY(!view.runPlan());
        QVERIFY(statusOf(view)->text().contains("policy"));
    }

    void targetRowsAddAndRemove() {
        PlanTargetsEditor editor;
        QCOMPARE(editor.texts(), (QStringList{"p95_jct<=8h", "avg_queueing<=30m"}));
        QTableWidget* table = namedChild<QTableWidget>(editor, "planTargets");
        QTest::mouseClick(namedChild<QPushButton>(editor, "planTargetAdd"), Qt::LeftButton);
        QCOMPARE(table->rowCount(), 3);
        auto* jobs = qobject_cast<QComboBox*>(table->cellWidget(2, 0));
        jobs->setCurrentIndex(1);  // large
        QCOMPARE(editor.texts().last(), QString("large:p95_jct<=8h"));
        table->setCurrentCell(0, 0);
        QTest::mouseClick(namedChild<QPushButton>(editor, "planTargetRemove"), Qt::LeftButton);
        QCOMPARE(editor.texts(), (QStringList{"avg_queueing<=30m", "large:p95_jct<=8h"}));
        QString error;
        const auto targets = editor.targets(&error);
        QCOMPARE(targets.size(), std::size_t(2));
        QCOMPARE(targets[1].jobs, cl::TargetJobs::Large);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<cl::ScenarioStore> m_store;
};

QTEST_MAIN(TestPlanView)
#include "test_plan_view.moc"
