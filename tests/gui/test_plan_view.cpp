// The Plan view driven as a planner does: server types and policies ticked, a target row edited,
// Run pressed; the ranked table, the frontier and the cliff are filled from the plan; the
// chosen row is the cheapest plan; Open as scenario names a stored scenario; the PDF report is
// written; a bad target is refused with the reason and runs nothing. Then the view's usability
// on a made-up plan: the wheel scrolls the inputs panel instead of changing unfocused inputs,
// point tooltips, the cost and server-count axes, chart heights at 1366x768, the PDF's fit on
// A4 and the queue over time. Ticked server types without a price ask for prices first: run with
// the prices entered (in the request handed to the runner, the layout unchanged), ranked by GPU
// count, or cancelled. Offscreen.
#include <cmath>
#include <functional>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPdfWriter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSpontaneKeyEvent>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <nlohmann/json.hpp>

#include "core/io/builtin_data.h"
#include "core/runs/plan_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "named_child.h"
#include "views/common/cost_text.h"
#include "views/common/report_writer.h"
#include "views/plan/plan_cliff_plot.h"
#include "views/plan/plan_frontier_plot.h"
#include "views/plan/plan_price_dialog.h"
#include "views/plan/plan_queue_plot.h"
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

// A wheel turn (one notch down) over the middle of `widget`, delivered as the window system
// delivers it: spontaneous, so that QApplication passes an ignored one on to the parents.
void turnWheel(QWidget* widget) {
    const QPointF local = QRectF(widget->rect()).center();
    QWheelEvent wheel(local, widget->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&wheel);
    // notify() keeps the event spontaneous (sendEvent would clear it), as QTest's key events do.
    qApp->notify(widget, &wheel);
}

// A plan made up for the view: one candidate per (server type, policy) of `types` x {srtf,
// fifo}, each with an answer; evaluations at `costs` (server counts 1, 2, ... in turn, every
// metric of planTargetMetrics() falling with the count), the first one overloaded; the chosen
// plan is candidate 0, whose evaluation has `queueSamples` queue samples over `queueDays`.
struct FakePlan {
    std::shared_ptr<cl::PlanRequest> request = std::make_shared<cl::PlanRequest>();
    std::shared_ptr<cl::PlanReport> report = std::make_shared<cl::PlanReport>();
};

FakePlan fakePlan(const std::vector<double>& costs, int types = 1, int queueSamples = 0,
                  double queueDays = 5) {
    FakePlan f;
    cl::PlanRequest& r = *f.request;
    r.base = cl::builtinCluster("sjf-bsbf-16");
    const cl::ServerType base = cl::baseServerType(r.base);
    for (int t = 0; t < types; ++t) {
        cl::ServerType type = base;
        type.id = "type-" + std::to_string(t);
        r.server_types.push_back(type);
    }
    r.policies = {"srtf", "fifo"};
    r.targets = {cl::parsePlanTarget("p95_jct<=8h"), cl::parsePlanTarget("avg_queueing<=30m")};
    r.seeds = {1, 2};
    cl::PlanReport& p = *f.report;
    p.policies = r.policies;
    for (std::size_t i = 0; i < costs.size(); ++i) {
        cl::PlanEvaluation e;
        e.server_type = 0;
        e.policy = r.policies[i % 2];
        e.servers = static_cast<int>(i) + 1;
        e.cost_per_month = costs[i];
        e.feasible = i >= 2;
        e.load.assessed = true;
        e.load.offered_load = 1.5 / e.servers;
        e.load.backlog_gpu_hours = i == 0 ? 42.5 : 0.0;
        e.load.overloaded = i == 0;
        for (const std::string& m : cl::planTargetMetrics())
            e.metrics[m] = cl::Estimate{3600.0 * (12.0 - static_cast<double>(i)), 600.0, 2};
        p.evaluations.push_back(e);
        p.frontier.push_back(i);
    }
    for (int t = 0; t < types; ++t)
        for (const std::string& policy : r.policies) {
            cl::CandidateResult c;
            c.server_type = t;
            c.policy = policy;
            const std::size_t e = std::min(costs.size() - 1, std::size_t(policy == "srtf" ? 2 : 3));
            c.servers = p.evaluations[e].servers;
            c.evaluation = e;
            p.candidates.push_back(c);
        }
    p.chosen = 0;
    p.plans["srtf"] = 0;
    for (int q = 0; q < queueSamples; ++q)
        p.evaluations[2].queue.push_back(
            {queueDays * 86400.0 * q / std::max(1, queueSamples - 1), q % 7, q % 7 + 3});
    p.simulations = static_cast<int>(costs.size()) * 2;
    return f;
}

// Answers the price dialog from inside its event loop once it shows (runPlan waits in it), then
// closes it if the answer did not, so that a failed check never leaves the suite waiting.
// `shown` tells afterwards whether it showed; a plan that asks nothing leaves it false.
class PriceDialogAnswer {
public:
    explicit PriceDialogAnswer(std::function<void(PlanPriceDialog&)> answer) : m_answer(std::move(answer)) {
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            auto* dialog = qobject_cast<PlanPriceDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            m_timer.stop();
            m_shown = true;
            m_answer(*dialog);
            if (dialog->isVisible()) dialog->reject();
        });
        m_timer.start();
    }
    bool shown() const { return m_shown; }

private:
    std::function<void(PlanPriceDialog&)> m_answer;
    QTimer m_timer;
    bool m_shown = false;
};

int pdfPages(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return -1;
    return static_cast<int>(
        QString::fromLatin1(file.readAll()).count(QRegularExpression("/Type\\s*/Page\\b")));
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
        QVERIFY(name.endsWith("/s1") || name.endsWith("/s1-day"));
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

    // The server types show their price basis; an unpriced base is named so and not ticked.
    void theServerTypesShowTheirPriceBasis() {
        PlanView view;
        view.setStore(m_store.get());
        auto* types = namedChild<QListWidget>(view, "planServerTypes");
        QListWidgetItem *base = nullptr, *v100 = nullptr, *dgx = nullptr;
        for (int i = 0; i < types->count(); ++i) {
            const QString id = types->item(i)->data(Qt::UserRole).toString();
            if (id == "base") base = types->item(i);
            if (id == "v100x8") v100 = types->item(i);
            if (id == "dgx-a100") dgx = types->item(i);
        }
        QVERIFY(base && v100 && dgx);
        QVERIFY2(v100->text().endsWith(", cloud"), qPrintable(v100->text()));
        QVERIFY2(dgx->text().endsWith(", owned"), qPrintable(dgx->text()));
        // sjf-bsbf-16 has no prices.
        QVERIFY2(base->text().contains("without a price"), qPrintable(base->text()));
        QCOMPARE(base->checkState(), Qt::Unchecked);
        QVERIFY(base->toolTip().contains("ranks by GPU count"));
    }

    // A plan's candidate clusters are no base for another plan: the picker leaves them out.
    void theBasePickerLeavesOutPlanCandidates() {
        cl::Cluster candidate = cl::builtinCluster("sjf-bsbf-16");
        candidate.name = "sjf-bsbf-16 as 2 x t4x4";
        candidate.servers.resize(2);
        const std::int64_t id = m_store->putCluster(candidate);
        PlanView view;
        view.setStore(m_store.get());
        auto* clusters = namedChild<QComboBox>(view, "planCluster");
        const int before = clusters->count();
        QVERIFY(clusters->findText("sjf-bsbf-16 as 2 x t4x4 (2 servers)") >= 0);
        // Recorded as a plan's candidate (besides what earlier plans of this workspace recorded).
        const std::string setting = m_store->setting(cl::kPlanCandidateClustersKey);
        nlohmann::json plans = setting.empty() ? nlohmann::json::object() : nlohmann::json::parse(setting);
        plans["other-plan"] = {id};
        m_store->setSetting(cl::kPlanCandidateClustersKey, plans.dump());
        view.refresh();
        QCOMPARE(clusters->count(), before - 1);
        QCOMPARE(clusters->findText("sjf-bsbf-16 as 2 x t4x4 (2 servers)"), -1);
        QVERIFY(clusters->findText("sjf-bsbf-16 (4 servers)") >= 0);
    }

    // The base's own servers have no price: Run asks for one first; Enter runs with it, and the
    // plan request carries it (the stored layout stays unpriced).
    void anUnpricedTypeAsksForAPriceFirst() {
        PlanView view;
        view.setStore(m_store.get());
        preparePricePlan(view, "priced");
        PriceDialogAnswer answer([](PlanPriceDialog& dialog) {
            auto* run = namedChild<QPushButton>(dialog, "planPriceRun");
            auto* price = namedChild<QDoubleSpinBox>(dialog, "planPrice_0");
            QVERIFY(dialog.findChild<QDoubleSpinBox*>("planPrice_1") == nullptr);  // one kind
            QVERIFY(!price->toolTip().isEmpty());
            QVERIFY(!namedChild<QComboBox>(dialog, "planPriceBasis_0")->toolTip().isEmpty());
            // Not every field filled: Enter does nothing, and the dialog says why.
            QVERIFY(!run->isEnabled());
            QVERIFY(namedChild<QLabel>(dialog, "planPriceProblem")->text().contains("1 of 1 missing"));
            QTest::keyClick(price, Qt::Key_Return);
            QVERIFY(dialog.isVisible());
            // Nothing else priced: a cloud rental per server-hour by default. The column and the
            // empty field say the unit.
            QCOMPARE(namedChild<QComboBox>(dialog, "planPriceBasis_0")->currentIndex(), 0);
            QVERIFY(namedChild<QLabel>(dialog, "planPriceHeader_2")->text().contains("USD/hour"));
            QCOMPARE(price->text(), QStringLiteral("enter USD per hour"));
            namedChild<QComboBox>(dialog, "planPriceBasis_0")->setCurrentIndex(1);
            QCOMPARE(price->text(), QStringLiteral("enter the purchase price, USD"));
            namedChild<QComboBox>(dialog, "planPriceBasis_0")->setCurrentIndex(0);
            QVERIFY(!namedChild<QDoubleSpinBox>(dialog, "planPriceYears_0")->isEnabled());
            price->selectAll();
            QTest::keyClicks(price, "2.5");
            QVERIFY(run->isEnabled());
            QVERIFY(namedChild<QLabel>(dialog, "planPriceMonthly_0")->text().contains("825"));
            QTest::keyClick(price, Qt::Key_Return);
            QVERIFY(!dialog.isVisible());
            QCOMPARE(dialog.choice(), PlanPriceDialog::Choice::WithPrices);
        });
        QSignalSpy finished(&view, &PlanView::planFinished);
        QVERIFY(view.runPlan());
        QVERIFY(answer.shown());
        const auto request = view.request();
        QVERIFY(request);
        QCOMPARE(request->server_types.size(), std::size_t(1));
        const cl::ServerPrice& price = request->server_types[0].server.price;
        QCOMPARE(price.basis, cl::PriceBasis::Hourly);
        QCOMPARE(price.per_hour, 2.5);
        QVERIFY(statusOf(view)->text().contains("prices entered"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY(!view.report()->ranked_by_gpus);
        QVERIFY2(view.report()->error.empty(), view.report()->error.c_str());
        // The workspace's layout keeps no price: the dialog's prices are for the plan only.
        const auto base = namedChild<QComboBox>(view, "planCluster")->currentData().toLongLong();
        QVERIFY(!m_store->cluster(base).servers.front().price.stated());
    }

    // "Run ranked by GPU count" runs as before, without prices; "Don't ask again" stops the
    // question for the rest of the session.
    void theRankedByGpuCountPathRunsUnpriced() {
        PlanView view;
        view.setStore(m_store.get());
        preparePricePlan(view, "unpriced");
        PriceDialogAnswer answer([](PlanPriceDialog& dialog) {
            // By the keyboard: Space on the check box.
            QTest::keyClick(namedChild<QCheckBox>(dialog, "planPriceDontAsk"), Qt::Key_Space);
            QVERIFY(dialog.dontAskAgain());
            QTest::mouseClick(namedChild<QPushButton>(dialog, "planPriceByGpus"), Qt::LeftButton);
        });
        QSignalSpy finished(&view, &PlanView::planFinished);
        QVERIFY(view.runPlan());
        QVERIFY(answer.shown());
        QVERIFY(!view.request()->server_types[0].server.price.stated());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY(view.report()->ranked_by_gpus);
        PriceDialogAnswer again([](PlanPriceDialog&) {});
        QVERIFY2(view.runPlan(), qPrintable(statusOf(view)->text()));
        QVERIFY(!again.shown());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
        QVERIFY(view.report()->ranked_by_gpus);
    }

    // Cancel (Escape) runs nothing and says so.
    void cancellingThePriceDialogRunsNothing() {
        PlanView view;
        view.setStore(m_store.get());
        preparePricePlan(view, "cancelled");
        const std::size_t scenarios = m_store->scenarios().size();
        PriceDialogAnswer answer([](PlanPriceDialog& dialog) {
            QTest::keyClick(namedChild<QDoubleSpinBox>(dialog, "planPrice_0"), Qt::Key_Escape);
            QVERIFY(!dialog.isVisible());
            QCOMPARE(dialog.choice(), PlanPriceDialog::Choice::Cancelled);
        });
        QVERIFY(!view.runPlan());
        QVERIFY(answer.shown());
        QVERIFY(!view.isRunning());
        QVERIFY(!view.request());
        QVERIFY2(statusOf(view)->text().startsWith("Not run"), qPrintable(statusOf(view)->text()));
        QCOMPARE(m_store->scenarios().size(), scenarios);
    }

    // Beside a type priced as an owned server the dialog offers that basis, refuses prices on two
    // bases, and with a budget offers no run without prices.
    void thePriceDialogKeepsOneBasis() {
        PlanView view;
        view.setStore(m_store.get());
        preparePricePlan(view, "bases");
        tick(namedChild<QListWidget>(view, "planServerTypes"), {"base", "dgx-a100"});
        namedChild<QDoubleSpinBox>(view, "planBudget")->setValue(100000);
        PriceDialogAnswer answer([](PlanPriceDialog& dialog) {
            auto* basis = namedChild<QComboBox>(dialog, "planPriceBasis_0");
            auto* price = namedChild<QDoubleSpinBox>(dialog, "planPrice_0");
            QCOMPARE(basis->currentIndex(), 1);  // owned, amortized
            QVERIFY(namedChild<QDoubleSpinBox>(dialog, "planPriceYears_0")->isEnabled());
            QVERIFY(!namedChild<QPushButton>(dialog, "planPriceByGpus")->isEnabled());
            price->setValue(50000);
            QVERIFY(namedChild<QPushButton>(dialog, "planPriceRun")->isEnabled());
            basis->setCurrentIndex(0);
            price->setValue(3);
            auto* problem = namedChild<QLabel>(dialog, "planPriceProblem");
            QVERIFY2(problem->text().contains("two bases"), qPrintable(problem->text()));
            QVERIFY(!namedChild<QPushButton>(dialog, "planPriceRun")->isEnabled());
            QTest::mouseClick(namedChild<QPushButton>(dialog, "planPriceCancel"), Qt::LeftButton);
        });
        QVERIFY(!view.runPlan());
        QVERIFY(answer.shown());
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

    // The wheel over an input that does not have focus scrolls the inputs panel; it changes the
    // input only once the input has focus (clicked or tabbed to).
    void theWheelScrollsThePanelNotUnfocusedInputs() {
        PlanView view;
        view.resize(1366, 420);  // short: the inputs panel scrolls
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        auto* scroll = namedChild<QScrollArea>(view, "planInputsScroll");
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        auto* table = namedChild<QTableWidget>(*targetsOf(view), "planTargets");
        auto* metric = qobject_cast<QComboBox*>(table->cellWidget(0, 1));
        QVERIFY(metric);
        auto* prefix = namedChild<QLineEdit>(view, "planPrefix");
        prefix->setFocus();
        QTRY_VERIFY(prefix->hasFocus());
        const QString before = metric->currentText();
        const int scrolled = scroll->verticalScrollBar()->value();
        turnWheel(metric);
        QCOMPARE(metric->currentText(), before);
        QCOMPARE(targetsOf(view)->texts().first(), QString("p95_jct<=8h"));
        QVERIFY(scroll->verticalScrollBar()->value() > scrolled);
        // The same for the comparison, the value field and the panel's combo and spin boxes.
        auto* comparison = qobject_cast<QComboBox*>(table->cellWidget(0, 2));
        turnWheel(comparison);
        QCOMPARE(comparison->currentText(), QString("<="));
        for (const char* name : {"planSeeds"}) {
            auto* spin = namedChild<QSpinBox>(view, name);
            const int value = spin->value();
            turnWheel(spin);
            QCOMPARE(spin->value(), value);
        }
        for (const char* name : {"planLoad", "planBudget"}) {
            auto* spin = namedChild<QDoubleSpinBox>(view, name);
            const double value = spin->value();
            turnWheel(spin);
            QCOMPARE(spin->value(), value);
        }
        QVERIFY(namedChild<QComboBox>(view, "planTrace")->focusPolicy() == Qt::StrongFocus);
        QVERIFY(metric->focusPolicy() == Qt::StrongFocus);
        // Focused, the input takes the wheel as usual.
        metric->setFocus();
        QTRY_VERIFY(metric->hasFocus());
        turnWheel(metric);
        QVERIFY(metric->currentText() != before);
    }

    // A frontier point's tooltip names the cluster and gives its cost, every metric and the
    // overload figures.
    void aFrontierPointTellsItsFigures() {
        PlanView view;
        const FakePlan f = fakePlan({1000, 1500, 2500, 3000});
        view.showPlan(f.request, f.report, "fake");
        const QString tip = view.frontierPlot()->pointToolTip(0);
        QVERIFY2(tip.contains(QString("1 \u00d7 type-0 with srtf")), qPrintable(tip));
        QVERIFY(tip.contains(formatUsd(1000)));
        for (const std::string& m : cl::planTargetMetrics())
            QVERIFY2(tip.contains(QString::fromStdString(m) + ": "), qPrintable(tip));
        QVERIFY(tip.contains("\u00b1"));  // the 95% interval, as the table gives it
        QVERIFY(tip.contains("GPU-hours") && tip.contains("Overloaded"));
        const QString other = view.frontierPlot()->pointToolTip(3);
        QVERIFY2(other.contains(QString("4 \u00d7 type-0 with fifo")), qPrintable(other));
        QVERIFY(other.contains(formatUsd(3000)) && !other.contains("Overloaded"));
        QVERIFY(view.frontierPlot()->pointToolTip(99).isEmpty());
    }

    // The cost axis: linear for costs within a decade, logarithmic over a decade or more, the
    // GPU count when nothing is priced; its ticks sit on the points.
    void theCostAxisFitsTheCosts() {
        PlanView view;
        view.resize(1366, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        PlanFrontierPlot* plot = view.frontierPlot();
        const std::vector<double> narrow = {1000, 1500, 2500, 6000};
        FakePlan f = fakePlan(narrow);
        view.showPlan(f.request, f.report, "fake");
        plot->replot();
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLinear);
        QVERIFY(!plot->axisCountsGpus());
        QVERIFY(plot->xAxis->tickVector().size() >= 2);
        for (double tick : plot->xAxis->tickVector())
            QVERIFY2(std::find(narrow.begin(), narrow.end(), tick) != narrow.end(),
                     qPrintable(QString::number(tick)));
        // Hovering a point shows its figures (not the chart's general tooltip).
        const QPoint point(static_cast<int>(plot->xAxis->coordToPixel(1000)),
                           static_cast<int>(plot->yAxis->coordToPixel(12.0)));  // 12 h
        QCOMPARE(plot->evaluationAt(point), 0);
        QHelpEvent help(QEvent::ToolTip, point, plot->mapToGlobal(point));
        QApplication::sendEvent(plot, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QString("1 \u00d7 type-0 with srtf")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
        f = fakePlan({1000, 1500, 2500, 10000});
        view.showPlan(f.request, f.report, "fake");
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(plot->xAxis->label().contains("logarithmic"));
        f = fakePlan({0, 0, 0, 0});
        view.showPlan(f.request, f.report, "fake");
        plot->replot();
        QVERIFY(plot->axisCountsGpus());
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLinear);
        QVERIFY2(plot->xAxis->label().startsWith("GPUs"), qPrintable(plot->xAxis->label()));
        const int perServer = f.request->server_types[0].server.gpus;
        for (double tick : plot->xAxis->tickVector()) QVERIFY(std::fmod(tick, perServer) == 0.0);
    }

    // The cliff's server-count axis has whole numbers only, whatever the chart's width.
    void theCliffCountsWholeServers() {
        PlanView view;
        const FakePlan f = fakePlan({100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200});
        view.showPlan(f.request, f.report, "fake");
        PlanCliffPlot* cliff = view.cliffPlot();
        QVERIFY(cliff->pointCount() >= 3);
        for (int width : {220, 300, 450, 700, 1200}) {
            cliff->resize(width, 300);
            cliff->replot();
            const QVector<double> ticks = cliff->xAxis->tickVector();
            QVERIFY(ticks.size() >= 2);
            for (double tick : ticks)
                QVERIFY2(tick == std::round(tick),
                         qPrintable(QString("%1 at width %2").arg(tick).arg(width)));
        }
    }

    // On a 1366x768 screen (the view gets about 1366x700) every chart keeps at least 200 pixels
    // of height, before and after a plan.
    void theChartsKeepTheirHeightOnASmallScreen() {
        PlanView view;
        view.resize(1366, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* tabs = namedChild<QTabWidget>(view, "planCharts");
        const FakePlan f = fakePlan({1000, 1500, 2500, 3000}, 4, 50);
        for (bool planned : {false, true}) {
            if (planned) view.showPlan(f.request, f.report, "fake");
            for (QWidget* plot :
                 std::initializer_list<QWidget*>{view.frontierPlot(), view.cliffPlot(), view.queuePlot()}) {
                tabs->setCurrentWidget(plot);
                QTRY_VERIFY(plot->isVisible());
                QVERIFY2(plot->height() >= 200,
                         qPrintable(QString("%1: %2 px").arg(plot->objectName()).arg(plot->height())));
            }
        }
    }

    // The plan as an A4 PDF: the table (without its notes, which follow it) fits the page
    // width and continues on further pages; the charts follow.
    void theReportFitsA4() {
        PlanView view;
        view.resize(1366, 700);
        view.show();
        const FakePlan small = fakePlan({1000, 1500, 2500, 3000}, 1, 40);
        view.showPlan(small.request, small.report, "fake");
        PlanReportTable table(modelOf(view));
        QCOMPARE(table.columnCount(), modelOf(view)->columnCount() - 1);
        QVERIFY(table.notesHtml().contains("cheapest plan"));
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter device(&buffer);
        device.setResolution(96);
        const ReportTableLayout shape = layoutReportTable(table, reportContentWidth(), &device);
        double width = 0;
        for (double w : shape.columnWidths) width += w;
        QVERIFY2(width <= reportContentWidth() + 0.5,
                 qPrintable(QString("%1 > %2").arg(width).arg(reportContentWidth())));
        QString error;
        const QString pdf = m_dir.path() + "/small.pdf";
        QVERIFY2(view.exportReport(pdf, &error), qPrintable(error));
        const int smallPages = pdfPages(pdf);
        QVERIFY2(smallPages >= 2 && smallPages <= 4, qPrintable(QString::number(smallPages)));
        // 30 server types x 2 policies: the table runs over a page.
        const FakePlan large = fakePlan({1000, 1500, 2500, 3000}, 30, 40);
        view.showPlan(large.request, large.report, "fake");
        QCOMPARE(modelOf(view)->rowCount(), 60);
        const QString longPdf = m_dir.path() + "/large.pdf";
        QVERIFY2(view.exportReport(longPdf, &error), qPrintable(error));
        QFile::remove("/tmp/pw/large.pdf");
        QFile::copy(longPdf, "/tmp/pw/large.pdf");
        QFile::remove("/tmp/pw/small.pdf");
        QVERIFY2(pdfPages(longPdf) > smallPages, qPrintable(QString::number(pdfPages(longPdf))));
    }

    // The queue over time of the cheapest plan, or of the selected row when it has an answer;
    // an empty chart says why.
    void theQueueOverTimeFollowsTheSelection() {
        PlanView view;
        const FakePlan f = fakePlan({1000, 1500, 2500, 3000}, 1, 37, 5);
        view.showPlan(f.request, f.report, "fake");
        PlanQueuePlot* queue = view.queuePlot();
        QCOMPARE(queue->evaluation(), 2);  // the chosen plan's answer
        QCOMPARE(queue->pointCount(), 37);
        QCOMPARE(queue->graphCount(), 2);
        QVERIFY(queue->hint().isEmpty());
        QVERIFY2(queue->xAxis->label().contains("days"), qPrintable(queue->xAxis->label()));
        // The fifo row's answer has no queue recorded: the chart says so.
        auto* table = namedChild<QTableView>(view, "planTable");
        int fifoRow = -1;
        for (int r = 0; r < modelOf(view)->rowCount(); ++r)
            if (f.report->candidates[static_cast<std::size_t>(modelOf(view)->candidateAt(r))].policy ==
                "fifo")
                fifoRow = r;
        QVERIFY(fifoRow >= 0);
        table->selectRow(fifoRow);
        QCOMPARE(queue->evaluation(), 3);
        QCOMPARE(queue->pointCount(), 0);
        QVERIFY(queue->hint().startsWith("No queue recorded"));
        // A run shorter than two days is drawn in hours.
        const FakePlan shortRun = fakePlan({1000, 1500, 2500, 3000}, 1, 12, 1);
        view.showPlan(shortRun.request, shortRun.report, "fake");
        QCOMPARE(queue->pointCount(), 12);
        QVERIFY(queue->xAxis->label().contains("hours"));
        // Before any plan: a hint.
        PlanView empty;
        QVERIFY(empty.queuePlot()->hint().startsWith("Run a plan"));
    }

private:
    // A small plan over the base's own (unpriced) servers with one policy and seed.
    static void preparePricePlan(PlanView& view, const QString& prefix) {
        auto* cluster = namedChild<QComboBox>(view, "planCluster");
        cluster->setCurrentIndex(cluster->findText("sjf-bsbf-16 (4 servers)"));
        QVERIFY(cluster->currentIndex() >= 0);
        tick(namedChild<QListWidget>(view, "planServerTypes"), {"base"});
        tick(namedChild<QListWidget>(view, "planPolicies"), {"fifo"});
        targetsOf(view)->setTargets({"avg_queueing<=2h"});
        namedChild<QSpinBox>(view, "planSeeds")->setValue(1);
        namedChild<QLineEdit>(view, "planPrefix")->setText(prefix);
    }

    QTemporaryDir m_dir;
    std::unique_ptr<cl::ScenarioStore> m_store;
};

QTEST_MAIN(TestPlanView)
#include "test_plan_view.moc"
