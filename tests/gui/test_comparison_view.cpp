// The comparison view: what its charts and table show equals the stored runs' data,
// exactly, for three demo runs (fifo, srtf, muri-s) of one workspace; the JCT-vs-load chart
// for Synergy runs of two traces at different arrival rates.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <memory>

#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/metrics/comparison.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/plan_runner.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/synergy_workload.h"
#include "views/results/comparison_model.h"
#include "views/results/comparison_view.h"
#include "views/results/run_breakdown.h"

using namespace cl;
using namespace cl::views;
using Metric = ComparisonModel::Metric;

namespace {

constexpr Metric kMetrics[] = {Metric::AvgJct, Metric::P99Jct, Metric::Makespan, Metric::AvgQueueing,
                               Metric::P95Queueing};

// What the model's ratio is (ComparisonModel::relative): values under a millisecond count as
// zero, and nothing is a multiple of a zero baseline (a run whose p95 queueing is 0).
double expectedRatio(double value, double base) {
    const auto zeroed = [](double s) { return std::abs(s) < ComparisonModel::kNearZeroSeconds ? 0.0 : s; };
    return zeroed(base) > 0 ? zeroed(value) / zeroed(base) : NAN;
}

double summaryValue(const Summary& s, Metric m) {
    switch (m) {
        case Metric::AvgJct:
            return s.avg_jct;
        case Metric::P99Jct:
            return s.p99_jct;
        case Metric::Makespan:
            return s.makespan;
        case Metric::AvgQueueing:
            return s.avg_queueing_delay;
        case Metric::P95Queueing:
            return s.p95_queueing_delay;
    }
    return NAN;
}

JobRecord job(const std::string& model, int gpus, double jct, bool completed = true) {
    JobRecord j;
    j.model = model;
    j.gpus = gpus;
    j.completed = completed;
    if (completed) j.jct = jct;
    return j;
}

bool nearlyEqual(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);  // both "n/a"
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

// Pixels that differ from the background: something was drawn.
int inkedPixels(const QImage& image) {
    int inked = 0;
    const QRgb background = image.pixel(0, 0);
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) inked += image.pixel(x, y) != background;
    return inked;
}

// The colour the chart draws its first series in (bars' fill, else the line's pen).
// A chart of the view, found by its objectName ("comparisonPlot" and the Chart's number).
QCustomPlot* plotOf(const ComparisonView& view, ComparisonView::Chart chart) {
    const QString name = QStringLiteral("comparisonPlot%1").arg(static_cast<int>(chart));
    auto* plot = view.findChild<QCustomPlot*>(name);
    if (!plot) qFatal("no chart named %s", qPrintable(name));
    return plot;
}

QColor firstSeriesColour(QCustomPlot* plot) {
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (p->brush().style() != Qt::NoBrush && p->brush().color().alpha() == 255) return p->brush().color();
        if (p->pen().style() == Qt::SolidLine) return p->pen().color();
    }
    return {};
}

}  // namespace

class TestComparisonView : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<ScenarioStore> store_;
    qint64 fifo_ = 0, srtf_ = 0, muri_ = 0;
    std::map<qint64, SimResult> results_;

    ComparisonModel::Run runOf(qint64 id, const QString& label) { return {id, label, results_.at(id)}; }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        store_ = std::make_unique<ScenarioStore>(dir_.filePath(QStringLiteral("ws.sqlite")).toStdString());
        populateDemoWorkspace(*store_);
        fifo_ = runScenario(*store_, "demo/fifo").run_id;
        srtf_ = runScenario(*store_, "demo/srtf").run_id;
        muri_ = runScenario(*store_, "demo/muri-s").run_id;
        for (qint64 id : {fifo_, srtf_, muri_}) {
            results_[id] = store_->loadRun(id, false);
            QVERIFY(results_[id].summary.completed > 0);
        }
    }

    void breakdownOfHandMadeJobs() {
        const std::vector<JobRecord> jobs = {job("a", 1, 30.0), job("b", 16, 10.0), job("a", 8, 20.0),
                                             job("b", 9, 0.0, false), job("a", 2, 40.0)};
        const JctCdf cdf = jctCdf(jobs);
        QCOMPARE(cdf.x, (std::vector<double>{10.0, 20.0, 30.0, 40.0}));
        QCOMPARE(cdf.y, (std::vector<double>{0.25, 0.5, 0.75, 1.0}));
        QVERIFY(jctCdf({}).x.empty());

        QCOMPARE(kDefaultLargeJobThreshold, 8);
        const SizeSplit s = splitBySize(jobs);
        QCOMPARE(s.small_jobs, 3);
        QCOMPARE(s.large_jobs, 2);
        QCOMPARE(s.small_completed, 3);
        QCOMPARE(s.large_completed, 1);
        QCOMPARE(s.small_avg_jct, 30.0);
        QCOMPARE(s.large_avg_jct, 10.0);
        const SizeSplit all_small = splitBySize(jobs, 16);
        QCOMPARE(all_small.large_jobs, 0);
        QVERIFY(std::isnan(all_small.large_avg_jct));
        QCOMPARE(splitBySize(jobs, 1).small_jobs, 1);

        QCOMPARE(relativeTo(5.0, 10.0), 0.5);
        QVERIFY(std::isnan(relativeTo(5.0, 0.0)));
    }

    void defaultSplitAgreesWithCore() {
        for (const auto& [id, result] : results_) {
            const Comparison c = compareGroups({{"run", {0}, {result}}});
            const SizeSplit s = splitBySize(result.jobs);
            QCOMPARE(s.small_avg_jct, c.rows[0].avg_jct_small.mean);
            if (c.rows[0].avg_jct_large.n > 0) QCOMPARE(s.large_avg_jct, c.rows[0].avg_jct_large.mean);
        }
    }

    void modelShowsSummariesAndRatios() {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.baseline(), -1);
        model.setRuns({runOf(fifo_, "fifo"), runOf(srtf_, "srtf"), runOf(muri_, "muri-s")});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(ComparisonModel::ColumnCount));
        QCOMPARE(model.baseline(), 0);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("fifo (baseline)"));
        QVERIFY(model.index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(model.headerData(ComparisonModel::P99JctRelativeColumn, Qt::Horizontal).toString(),
                 QStringLiteral("p99 JCT vs base"));

        const qint64 ids[] = {fifo_, srtf_, muri_};
        for (int r = 0; r < 3; ++r)
            for (Metric m : kMetrics) {
                const double v = summaryValue(results_.at(ids[r]).summary, m);
                const double base = summaryValue(results_.at(fifo_).summary, m);
                QCOMPARE(model.value(r, m), v);
                QVERIFY(nearlyEqual(model.relative(r, m), expectedRatio(v, base)));
                const int column = 1 + 2 * int(m);
                QCOMPARE(model.index(r, column).data(ComparisonModel::RawValueRole).toDouble(), v);
                QCOMPARE(model.index(r, column + 1).data().toString(),
                         ComparisonModel::ratioText(expectedRatio(v, base)));
            }
        QCOMPARE(model.index(0, ComparisonModel::AvgJctRelativeColumn).data().toString(),
                 ComparisonModel::ratioText(1.0));
        QCOMPARE(ComparisonModel::ratioText(0.0019),
                 QLocale().toString(0.0019, 'g', 2) + QStringLiteral("\u00d7"));
        QCOMPARE(ComparisonModel::ratioText(NAN), QStringLiteral("n/a"));
        QCOMPARE(ComparisonModel::ratioText(0.625),
                 QLocale().toString(0.625, 'f', 2) + QStringLiteral("\u00d7"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy baseline(&model, &ComparisonModel::baselineChanged);
        model.setBaseline(2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(baseline.count(), 1);
        QCOMPARE(model.comparison().baseline, std::string("muri-s"));
        for (int r = 0; r < 3; ++r)
            for (Metric m : kMetrics)
                QVERIFY(nearlyEqual(model.relative(r, m),
                                    expectedRatio(summaryValue(results_.at(ids[r]).summary, m),
                                                  summaryValue(results_.at(muri_).summary, m))));
        QCOMPARE(model.relative(2, Metric::Makespan), 1.0);
        model.setBaseline(7);  // ignored
        QCOMPARE(model.baseline(), 2);

        // A new selection keeps the baseline run where it is still there.
        model.setRuns({runOf(muri_, "muri-s"), runOf(srtf_, "srtf")});
        QCOMPARE(model.baseline(), 0);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.baseline(), -1);
    }

    // The cost columns (docs/architecture.md 7.8): the run's cluster for its makespan and per
    // month, naming unpriced servers; an en dash for a cluster with no priced server.
    void costColumns() {
        SimResult run;
        run.summary.jobs = run.summary.completed = 10;
        run.summary.avg_jct = 600.0;
        run.summary.makespan = 7200.0;
        ComparisonModel::Run priced{1, QStringLiteral("priced"), run};
        cl::ClusterCost cost;
        cost.per_hour = 25.0;
        cost.per_month = 25.0 * cl::kHoursPerMonth;
        cost.unpriced_servers = 1;
        priced.cost = cost;
        priced.cluster_servers = 3;
        ComparisonModel::Run unpriced{2, QStringLiteral("unpriced"), run};
        cl::ClusterCost none;
        none.unpriced_servers = 3;
        unpriced.cost = none;
        unpriced.cluster_servers = 3;
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({priced, unpriced});
        const auto shown = [&](int row, int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(shown(0, ComparisonModel::CostColumn),
                 QStringLiteral("$%1 (1 unpriced)").arg(QLocale().toString(50.0, 'f', 2)));  // 2 h at $25
        QCOMPARE(shown(0, ComparisonModel::CostPerMonthColumn),
                 QStringLiteral("$%1 (1 unpriced)").arg(QLocale().toString(18250.0, 'f', 0)));
        QCOMPARE(model.index(0, ComparisonModel::CostColumn).data(ComparisonModel::RawValueRole).toDouble(),
                 50.0);
        QCOMPARE(shown(1, ComparisonModel::CostColumn), QStringLiteral("\u2013"));
        QCOMPARE(shown(1, ComparisonModel::CostPerMonthColumn), QStringLiteral("\u2013"));
        QCOMPARE(model.headerData(ComparisonModel::CostColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Cost"));
        QCOMPARE(model.headerData(ComparisonModel::P95QueueingColumn, Qt::Horizontal).toString(),
                 QStringLiteral("p95 queueing"));
    }

    void zeroQueueingHasNoMultiple() {
        // A run that never queues (up to rounding) next to one that does.
        SimResult calm, busy;
        for (SimResult* r : {&calm, &busy}) {
            r->summary.jobs = r->summary.completed = 10;
            r->summary.avg_jct = 600.0;
            r->summary.p99_jct = 1200.0;
            r->summary.makespan = 3600.0;
        }
        calm.summary.avg_queueing_delay = 1e-4;
        busy.summary.avg_queueing_delay = 50.0;
        ComparisonModel model;
        model.setRuns({{1, QStringLiteral("calm"), calm}, {2, QStringLiteral("busy"), busy}});
        const auto shown = [&](int row) {
            return model.index(row, ComparisonModel::AvgQueueingRelativeColumn).data().toString();
        };
        // The baseline does not queue: no multiple of it means anything.
        QVERIFY(std::isnan(model.relative(1, Metric::AvgQueueing)));
        QCOMPARE(shown(1), QStringLiteral("n/a"));
        QCOMPARE(shown(0), QStringLiteral("n/a"));
        QCOMPARE(model.relative(1, Metric::AvgJct), 1.0);
        // The baseline queues: the calm run is 0x of it, not "2e-06x".
        model.setBaseline(1);
        QCOMPARE(model.relative(0, Metric::AvgQueueing), 0.0);
        QCOMPARE(shown(0), ComparisonModel::ratioText(0.0));
        QVERIFY2(!shown(0).contains(QLatin1Char('e')), qPrintable(shown(0)));
        QCOMPARE(shown(1), ComparisonModel::ratioText(1.0));
        // A hundredth of a second against the baseline's 50 s is no "e-notation" either.
        calm.summary.avg_queueing_delay = 0.01;
        model.setRuns({{1, QStringLiteral("calm"), calm}, {2, QStringLiteral("busy"), busy}});
        model.setBaseline(1);
        QCOMPARE(shown(0),
                 QStringLiteral("<") + QLocale().toString(0.001, 'f', 3) + QStringLiteral("\u00d7"));
        QCOMPARE(ComparisonModel::ratioText(6.1e-6), ComparisonModel::ratioText(0.0002));
        QCOMPARE(ComparisonModel::ratioText(0.0019),
                 QLocale().toString(0.0019, 'g', 2) + QStringLiteral("\u00d7"));
    }

    void storeSelectsLatestRunPerScenario() {
        ComparisonView view;
        QSignalSpy runs(&view, &ComparisonView::runsChanged);
        view.setStore(store_.get());
        QCOMPARE(view.runs(), (QList<qint64>{fifo_, srtf_, muri_}));
        QCOMPARE(runs.count(), 1);
        QCOMPARE(view.baselineRun(), fifo_);
        QVERIFY(view.message().isEmpty());
        view.setRuns({muri_, 987654, fifo_});
        QCOMPARE(view.runs(), (QList<qint64>{muri_, fifo_}));
        QVERIFY2(view.message().contains(QStringLiteral("run 987654")), qPrintable(view.message()));
        view.setStore(nullptr);
        QCOMPARE(view.model()->rowCount(), 0);
    }

    // A capacity plan's points are neither compared by default nor listed to tick, unless a
    // restored selection (the Plan view opening points) holds them (docs/architecture.md 7.9).
    void planPointsAreListedOnlyWhenCompared() {
        QTemporaryDir dir;
        ScenarioStore store(dir.filePath(QStringLiteral("plan.sqlite")).toStdString());
        populateDemoWorkspace(store);
        const qint64 fifo = runScenario(store, "demo/fifo").run_id;
        const qint64 srtf = runScenario(store, "demo/srtf").run_id;
        store.renameScenario("demo/srtf", "plan/demo/srtf/n8/x1/s1");
        store.setSetting(kPlanCandidateClustersKey, "{\"plan\":[]}");
        ComparisonView view;
        view.setStore(&store);
        auto* list = view.findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(view.runs(), QList<qint64>{fifo});
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->data(Qt::UserRole).toLongLong(), fifo);

        view.restoreSelection({fifo, srtf}, fifo);
        QCOMPARE(view.runs(), (QList<qint64>{fifo, srtf}));
        QCOMPARE(list->count(), 2);
        view.setStore(nullptr);
    }

    void defaultsFollowTheSelectedScenario() {
        // The demo family holds runs of two traces and clusters: the Muri demo's and SJF-BSBF's.
        QTemporaryDir dir;
        ScenarioStore store(dir.filePath(QStringLiteral("family.sqlite")).toStdString());
        populateDemoWorkspace(store);
        const qint64 sjf = runScenario(store, "demo-sjf/sjf-ffs").run_id;
        const qint64 fifo = runScenario(store, "demo/fifo").run_id;
        const qint64 muri = runScenario(store, "demo/muri-s").run_id;
        QVERIFY(store.scenario("demo-sjf/sjf-ffs").spec.trace_id !=
                store.scenario("demo/muri-s").spec.trace_id);

        ComparisonView view;
        QSignalSpy edited(&view, &ComparisonView::selectionEdited);
        view.setStore(&store);
        view.setFocusScenario(QStringLiteral("demo/muri-s"));
        // The scenario's own run is the baseline; the other trace's run is not divided by it.
        QCOMPARE(view.runs(), (QList<qint64>{muri, fifo}));
        QCOMPARE(view.baselineRun(), muri);
        QVERIFY(view.traceWarning().isEmpty());
        QVERIFY(!view.isUserSelection());
        view.setFocusScenario(QStringLiteral("demo-sjf/sjf-ffs"));
        QCOMPARE(view.runs(), (QList<qint64>{sjf}));
        view.setFocusScenario(QStringLiteral("demo/fifo"));
        QCOMPARE(view.runs(), (QList<qint64>{fifo, muri}));
        QCOMPARE(view.baselineRun(), fifo);

        // Ticking the other trace's run warns, visibly, and naming both traces.
        auto* list = view.findChild<QListWidget*>();
        QVERIFY(list);
        QListWidgetItem* sjfItem = nullptr;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toLongLong() == sjf) sjfItem = list->item(i);
        QVERIFY(sjfItem);
        sjfItem->setCheckState(Qt::Checked);
        QCOMPARE(edited.count(), 1);
        QVERIFY(view.isUserSelection());
        QCOMPARE(view.runs(), (QList<qint64>{fifo, muri, sjf}));
        const QString warning = view.traceWarning();
        QVERIFY2(warning.contains(QStringLiteral("different traces")), qPrintable(warning));
        for (const char* scenario : {"demo/fifo", "demo-sjf/sjf-ffs"})
            for (const StoredItem& trace : store.traces())
                if (trace.id == store.scenario(scenario).spec.trace_id)
                    QVERIFY2(warning.contains(QString::fromStdString(trace.name)), qPrintable(warning));
        auto* shown = view.findChild<QLabel*>(QStringLiteral("traceWarning"));
        QVERIFY(shown && !shown->isHidden() && shown->text() == warning);
        sjfItem = nullptr;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toLongLong() == sjf) sjfItem = list->item(i);
        sjfItem->setCheckState(Qt::Unchecked);
        QVERIFY(view.traceWarning().isEmpty());

        // A what-if of the baseline run after the user's choice is ticked when it has finished.
        store.duplicateScenario("demo/fifo", "demo/fifo (what if)",
                                [](ScenarioSpec& spec) { spec.parameters.load_factor = 1.5; });
        const qint64 whatIf = runScenario(store, "demo/fifo (what if)").run_id;
        view.refreshRuns();
        QCOMPARE(view.runs(), (QList<qint64>{fifo, muri, whatIf}));
        QCOMPARE(view.baselineRun(), fifo);
        // A scenario run again shows its newest run, still the baseline.
        const qint64 fifoAgain = runScenario(store, "demo/fifo", /*force=*/true).run_id;
        QVERIFY(fifoAgain != fifo);
        view.refreshRuns();
        QCOMPARE(view.runs(), (QList<qint64>{fifoAgain, muri, whatIf}));
        QCOMPARE(view.baselineRun(), fifoAgain);

        // A what-if selected in the workspace is compared with the scenario it was made from:
        // the workspace's "X (what if)" copies and the Run panel's "X/x<load>/<policy>" variants.
        store.duplicateScenario("demo/muri-s", "demo/muri-s/x2/muri-s",
                                [](ScenarioSpec& spec) { spec.parameters.load_factor = 2.0; });
        const qint64 variant = runScenario(store, "demo/muri-s/x2/muri-s").run_id;
        ComparisonView fresh;
        fresh.setStore(&store);
        fresh.setFocusScenario(QStringLiteral("demo/fifo (what if)"));
        QCOMPARE(fresh.baselineRun(), fifoAgain);
        QCOMPARE(fresh.runs(), (QList<qint64>{fifoAgain, whatIf, muri, variant}));
        fresh.setFocusScenario(QStringLiteral("demo/muri-s/x2/muri-s"));
        QCOMPARE(fresh.baselineRun(), muri);
        QCOMPARE(fresh.runs(), (QList<qint64>{muri, variant, fifoAgain, whatIf}));
        QVERIFY(fresh.traceWarning().isEmpty());
    }

    void chartsEqualTheRunsData() {
        ComparisonView view;
        view.setStore(store_.get());
        view.setRuns({fifo_, srtf_, muri_});
        const qint64 ids[] = {fifo_, srtf_, muri_};
        QSignalSpy baselineSpy(&view, &ComparisonView::baselineRunChanged);

        // Normalized bars: run summary / baseline summary, the baseline's bar exactly 1.
        for (qint64 base : {fifo_, srtf_}) {
            view.setBaselineRun(base);
            QCOMPARE(view.baselineRun(), base);
            for (int r = 0; r < 3; ++r)
                for (Metric m : kMetrics) {
                    const double expected = summaryValue(results_.at(ids[r]).summary, m) /
                                            summaryValue(results_.at(base).summary, m);
                    QVERIFY2(nearlyEqual(view.normalizedBar(r, m), expected),
                             qPrintable(QStringLiteral("row %1 metric %2").arg(r).arg(int(m))));
                    if (ids[r] == base) QCOMPARE(view.normalizedBar(r, m), 1.0);
                }
        }
        QCOMPARE(baselineSpy.count(), 1);  // fifo was already the baseline
        // A metric whose baseline is 0 has no ratio: its group says so under the axis.
        for (qint64 base : {fifo_, srtf_, muri_}) {
            view.setBaselineRun(base);
            auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("comparisonPlot0"));
            auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY(ticker);
            int k = 0;
            for (Metric m : kMetrics) {
                const bool zero = !(summaryValue(results_.at(base).summary, m) > 0.0);
                QCOMPARE(ticker->ticks().value(k++).contains(QStringLiteral("no ratio")), zero);
            }
        }
        view.setBaselineRun(srtf_);

        // CDF: one point per completed job, x the sorted JCTs, y from 1/n to 1.
        for (int r = 0; r < 3; ++r) {
            std::vector<double> jcts;
            for (const JobRecord& j : results_.at(ids[r]).jobs)
                if (j.completed) jcts.push_back(j.jct);
            std::sort(jcts.begin(), jcts.end());
            const QVector<QPointF> points = view.cdfPoints(r);
            QCOMPARE(points.size(), qsizetype(jcts.size()));
            QCOMPARE(int(jcts.size()), results_.at(ids[r]).summary.completed);
            for (std::size_t i = 0; i < jcts.size(); ++i) {
                QCOMPARE(points[qsizetype(i)].x(), jcts[i]);
                QCOMPARE(points[qsizetype(i)].y(), double(i + 1) / double(jcts.size()));
            }
            QCOMPARE(points.back().y(), 1.0);
        }

        // Per model: a brute-force mean over the completed jobs of each model.
        QStringList models;
        for (int r = 0; r < 3; ++r) {
            std::map<std::string, std::pair<double, int>> sums;
            for (const JobRecord& j : results_.at(ids[r]).jobs)
                if (j.completed) {
                    sums[j.model].first += j.jct;
                    sums[j.model].second += 1;
                }
            for (const auto& [name, sum] : sums) {
                const QString model = QString::fromStdString(name);
                if (!models.contains(model)) models << model;
                QVERIFY(nearlyEqual(view.modelBar(r, model), sum.first / sum.second));
            }
        }
        models.sort();
        QCOMPARE(view.plottedModels(), models);
        QVERIFY(models.size() > 1);

        // Large vs small: counts and means by brute force, at the default and another threshold.
        QCOMPARE(view.largeJobThreshold(), kDefaultLargeJobThreshold);
        for (int threshold : {kDefaultLargeJobThreshold, 2}) {
            view.setLargeJobThreshold(threshold);
            for (int r = 0; r < 3; ++r) {
                int small = 0, large = 0, small_done = 0, large_done = 0;
                double small_sum = 0, large_sum = 0;
                for (const JobRecord& j : results_.at(ids[r]).jobs) {
                    const bool is_large = j.gpus > threshold;
                    (is_large ? large : small) += 1;
                    if (!j.completed) continue;
                    (is_large ? large_done : small_done) += 1;
                    (is_large ? large_sum : small_sum) += j.jct;
                }
                const SizeSplit s = view.sizeSplit(r);
                QCOMPARE(s.threshold, threshold);
                QCOMPARE(s.small_jobs, small);
                QCOMPARE(s.large_jobs, large);
                QCOMPARE(s.small_completed, small_done);
                QCOMPARE(s.large_completed, large_done);
                QCOMPARE(small + large, int(results_.at(ids[r]).jobs.size()));
                QVERIFY(nearlyEqual(view.sizeBar(r, false), small_sum / small_done));
                if (large_done > 0) QVERIFY(nearlyEqual(view.sizeBar(r, true), large_sum / large_done));
            }
        }
    }

    void exportDrawsEveryChartAtAnySize() {
        ComparisonView view;
        view.resize(1400, 800);
        view.setStore(store_.get());
        view.setRuns({fifo_, srtf_, muri_});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const char* names[] = {"normalized", "cdf", "model", "size", "load"};
        static_assert(std::size(names) == ComparisonView::ChartCount);
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        for (int c = 0; c < ComparisonView::ChartCount; ++c) {
            view.setCurrentChart(ComparisonView::Chart(c));
            QCOMPARE(view.currentChart(), ComparisonView::Chart(c));
            QCoreApplication::processEvents();
            const QColor series = firstSeriesColour(plotOf(view, ComparisonView::Chart(c)));
            QVERIFY2(series.isValid(), names[c]);
            cl::test::shoot(view, shots, QStringLiteral("compare_%1.png").arg(names[c]), series, 20, 8);
            for (QSize size : {QSize(1200, 700), QSize(500, 350)}) {
                QImage image(size, QImage::Format_ARGB32);
                image.fill(Qt::white);
                QPainter painter(&image);
                view.paintExport(painter, QRectF(QPointF(0, 0), QSizeF(size)),
                                 QStringLiteral("Demo comparison"));
                painter.end();
                QVERIFY2(inkedPixels(image) > 200, names[c]);
                cl::test::keep(image, size, shots,
                               QStringLiteral("compare_export_%1_%2.png").arg(names[c]).arg(size.width()),
                               series, 10, 8);
            }
            // The on-screen title comes back after an export.
            QVERIFY(plotOf(view, ComparisonView::Chart(c))->plotLayout()->elementCount() > 0);
        }
        view.setLogTimeAxis(false);
        QVERIFY(!view.logTimeAxis());
        QCOMPARE(plotOf(view, ComparisonView::CdfChart)->xAxis->scaleType(), QCPAxis::stLinear);
    }

    void offeredLoadOfHandMadeJobs() {
        auto at = [](double submit) {
            JobRecord j;
            j.submit = submit;
            return j;
        };
        QVERIFY(std::isnan(offeredLoadPerHour({})));
        QVERIFY(std::isnan(offeredLoadPerHour({at(5.0)})));
        QVERIFY(std::isnan(offeredLoadPerHour({at(5.0), at(5.0), at(5.0)})));
        // 4 gaps over 2 hours, whatever the order of the records.
        QCOMPARE(offeredLoadPerHour({at(3600.0), at(0.0), at(7200.0), at(100.0), at(200.0)}), 2.0);
    }

    void loadChartPlotsAvgJctAgainstOfferedLoad() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ScenarioStore store(dir.filePath(QStringLiteral("load.sqlite")).toStdString());
        ScenarioSpec base;
        base.cluster_id = store.putCluster(builtinCluster("synergy-128"));
        base.profiles_id = store.putProfiles(builtinProfiles("synergy"));
        base.parameters.server_count = 2;
        const char* policies[] = {"fifo+proportional", "fifo+tune"};
        std::vector<qint64> ids;
        std::map<qint64, std::string> policyOf;
        Trace burst;
        for (double rate : {3.0, 12.0}) {
            SynergyWorkload w;
            w.jobs = 24;
            w.jobs_per_hour = rate;
            w.seed = 7;
            const Trace trace = generate(synergyGeneratorConfig(w));
            if (burst.jobs.empty()) burst = trace;
            base.trace_id = store.putTrace(trace);
            for (const char* policy : policies) {
                ScenarioSpec spec = base;
                spec.name = "load/" + std::to_string(int(rate)) + "/" + policy;
                spec.policy = policy;
                store.createScenario(spec);
                ids.push_back(runScenario(store, spec.name).run_id);
                policyOf[ids.back()] = policy;
            }
        }
        // Every job at once: no arrival rate, so no place on the chart.
        burst.name = "burst";
        for (Job& j : burst.jobs) j.submit_time = 0.0;
        ScenarioSpec spec = base;
        spec.name = "burst";
        spec.trace_id = store.putTrace(burst);
        spec.policy = policies[0];
        store.createScenario(spec);
        const qint64 burstRun = runScenario(store, "burst").run_id;

        ComparisonView view;
        view.setStore(&store);
        QList<qint64> all(ids.begin(), ids.end());
        all << burstRun;
        view.setRuns(all);
        QCOMPARE(view.runs(), all);

        QCOMPARE(view.loadPolicies(), (QStringList{policies[0], policies[1]}));
        QCOMPARE(plotOf(view, ComparisonView::LoadChart)->graphCount(), 2);
        std::map<std::string, std::vector<QPointF>> expected;
        for (qint64 id : ids) {
            const SimResult r = store.loadRun(id, false);
            QCOMPARE(r.policy, policyOf.at(id));
            QCOMPARE(r.summary.avg_jct, store.runInfo(id).summary.avg_jct);
            double lo = r.jobs.front().submit, hi = lo;
            for (const JobRecord& j : r.jobs) {
                lo = std::min(lo, j.submit);
                hi = std::max(hi, j.submit);
            }
            QVERIFY(hi > lo);
            expected[r.policy].emplace_back(double(r.jobs.size() - 1) / (hi - lo) * 3600.0,
                                            r.summary.avg_jct / 3600.0);
        }
        for (const char* policy : policies) {
            auto& want = expected.at(policy);
            std::sort(want.begin(), want.end(), [](QPointF a, QPointF b) { return a.x() < b.x(); });
            const QVector<QPointF> got = view.loadPoints(QString::fromLatin1(policy));
            QCOMPARE(got.size(), qsizetype(2));
            QVERIFY(got[0].x() < got[1].x());  // the two traces' rates differ
            for (int i = 0; i < 2; ++i) {
                QVERIFY2(nearlyEqual(got[i].x(), want[std::size_t(i)].x()), policy);
                QCOMPARE(got[i].y(), want[std::size_t(i)].y());
                QVERIFY(got[i].y() > 0.0);
            }
        }
        // Both policies ran on the same two traces: the same two loads.
        QCOMPARE(view.loadPoints(policies[0])[0].x(), view.loadPoints(policies[1])[0].x());
        QVERIFY2(view.loadNote().contains(QStringLiteral("burst")), qPrintable(view.loadNote()));
        QVERIFY(view.loadNote().contains(QStringLiteral("arrive at once")));
        const QCustomPlot* plot = plotOf(view, ComparisonView::LoadChart);
        QCOMPARE(plot->xAxis->label(), QStringLiteral("Offered load (jobs per hour)"));
        QCOMPARE(plot->yAxis->label(), QStringLiteral("Average JCT (hours)"));
        for (const QPointF& p : view.loadPoints(policies[1])) {
            QVERIFY(plot->xAxis->range().contains(p.x()));
            QVERIFY(plot->yAxis->range().contains(p.y()));
        }

        // Without the burst run nothing is left out.
        view.setRuns(QList<qint64>(ids.begin(), ids.end()));
        QVERIFY(view.loadNote().isEmpty());

        // The same policy on a cluster of another size is a line of its own, named by cluster.
        ScenarioSpec bigger = store.scenario("load/3/fifo+proportional").spec;
        bigger.name = "load/3/fifo+proportional on 4 servers";
        bigger.parameters.server_count = 4;
        store.createScenario(bigger);
        const qint64 biggerRun = runScenario(store, bigger.name).run_id;
        QList<qint64> withBigger(ids.begin(), ids.end());
        withBigger << biggerRun;
        view.setRuns(withBigger);
        const QString two = QStringLiteral("fifo+proportional on synergy-128, 2 servers");
        const QString four = QStringLiteral("fifo+proportional on synergy-128, 4 servers");
        QCOMPARE(view.loadPolicies(),
                 (QStringList{two, QStringLiteral("fifo+tune on synergy-128, 2 servers"), four}));
        QCOMPARE(view.loadPoints(two).size(), qsizetype(2));
        QCOMPARE(view.loadPoints(four).size(), qsizetype(1));
        QCOMPARE(view.loadPoints(four)[0].y(), store.runInfo(biggerRun).summary.avg_jct / 3600.0);

        view.resize(1400, 900);
        view.setRuns(all);
        view.setCurrentChart(ComparisonView::LoadChart);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        const QColor series = firstSeriesColour(plotOf(view, ComparisonView::LoadChart));
        QVERIFY(series.isValid());
        cl::test::shoot(view, shots, QStringLiteral("loadchart.png"), series, 20, 8);
        QImage image(QSize(900, 600), QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        view.paintExport(painter, QRectF(0, 0, 900, 600), QStringLiteral("JCT vs load"));
        painter.end();
        QVERIFY(inkedPixels(image) > 200);
        cl::test::keep(image, QSize(900, 600), shots, QStringLiteral("loadchart_export.png"), series, 10, 8);
    }
};

QTEST_MAIN(TestComparisonView)
#include "test_comparison_view.moc"
