// Utilization/queue charts (series equal the run's data, overlays, cursor, zoom), the shared
// PNG/SVG/PDF export and the comparison report.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QMenu>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include "report_table_checks.h"
#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "views/charts/run_picker.h"
#include "views/charts/run_series.h"
#include "views/charts/series_charts.h"
#include "views/common/chart_export.h"
#include "views/common/chart_style.h"
#include "views/common/report_writer.h"

using namespace cl::views;

namespace {

std::shared_ptr<const cl::SimResult> demoRun(const std::string& policy) {
    static std::map<std::string, std::shared_ptr<const cl::SimResult>> cache;
    auto& slot = cache[policy];
    if (!slot) {
        cl::SimOptions options;
        options.record_segments = false;
        slot = std::make_shared<const cl::SimResult>(cl::simulatePolicy(
            cl::builtinCluster("muri-testbed-64"), cl::demoTrace(), cl::builtinProfiles(), policy, options));
    }
    return slot;
}

// A pattern with many colours, so "not blank" can be asserted on the exports.
void paintPattern(QPainter& painter, const QRectF& rect) {
    for (int i = 0; i < 32; ++i) {
        const QRectF r(rect.left() + rect.width() * i / 32.0, rect.top(), rect.width() / 32.0 + 1,
                       rect.height());
        painter.fillRect(r, QColor::fromHsv(i * 11, 200, 220));
    }
    painter.setPen(Qt::black);
    painter.drawText(rect, Qt::AlignCenter, QStringLiteral("ClusterLoom export"));
}

int distinctColours(const QImage& image) {
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    return int(colours.size());
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The first /MediaBox [x0 y0 x1 y1] of a PDF, in points.
QSizeF mediaBox(const QByteArray& pdf) {
    static const QRegularExpression re(
        QStringLiteral(R"(/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\])"));
    const auto m = re.match(QString::fromLatin1(pdf));
    if (!m.hasMatch()) return {};
    return {m.captured(3).toDouble() - m.captured(1).toDouble(),
            m.captured(4).toDouble() - m.captured(2).toDouble()};
}

int pdfPageCount(const QByteArray& pdf) {
    static const QRegularExpression re(QStringLiteral(R"(/Type\s*/Page(?![s\w]))"));
    int n = 0;
    for (auto it = re.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next()) ++n;
    return n;
}

// Chart `index` (top to bottom), drawn by the QChartView child "seriesChart<index>".
QChartView* chartViewOf(const SeriesCharts& charts, int index) {
    auto* view = charts.findChild<QChartView*>(QStringLiteral("seriesChart%1").arg(index));
    if (!view) qFatal("the charts have no view seriesChart%d", index);
    return view;
}
QChart* chartOf(const SeriesCharts& charts, int index) {
    return chartViewOf(charts, index)->chart();
}

// The picker's menu entry for a run: ticking it draws the run.
QAction* pickerAction(const RunPicker& picker, const QString& run) {
    for (QAction* action : picker.menu()->actions())
        if (action->isCheckable() && action->data().toString() == run) return action;
    qFatal("the run picker offers no %s", qPrintable(run));
}

}  // namespace

class TestSeriesCharts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("ClusterLoomTests");
        QCoreApplication::setApplicationName("test_series_charts");
        QVERIFY(m_dir.isValid());
    }

    void extractedSeriesEqualTheRun() {
        const auto run = demoRun("fifo");
        QVERIFY(run->series.size() > 10);
        const RunSeries rs = extractRunSeries(*run);
        QCOMPARE(rs.series.size(), size_t(10));
        const NamedSeries* gpu = rs.find("gpu");
        const NamedSeries* queue = rs.find("queue");
        const NamedSeries* running = rs.find("running");
        const NamedSeries* blocking = rs.find("blocking");
        QVERIFY(gpu && queue && running && blocking);
        const NamedSeries* cpu = rs.find("cpu");
        const NamedSeries* storage = rs.find("storage");
        const NamedSeries* compute = rs.find("gpu-compute");
        const NamedSeries* network = rs.find("network");
        QVERIFY(cpu && storage && compute && network);
        const NamedSeries* cpuAllocated = rs.find("cpu-allocated");
        const NamedSeries* memoryAllocated = rs.find("memory-allocated");
        QVERIFY(cpuAllocated && memoryAllocated);
        QCOMPARE(cpu->group, SeriesGroup::Utilization);
        QCOMPARE(cpuAllocated->group, SeriesGroup::Utilization);
        QCOMPARE(memoryAllocated->name, QString("Memory allocated"));
        QCOMPARE(memoryAllocated->unit, QString("%"));
        QCOMPARE(cpuAllocated->t.size(), qsizetype(run->series.size()));
        QCOMPARE(gpu->unit, QString("%"));
        QCOMPARE(gpu->group, SeriesGroup::Utilization);
        for (size_t i = 0; i < run->series.size(); ++i) {
            const cl::TimeSample& s = run->series[i];
            const auto k = qsizetype(i);
            QCOMPARE(gpu->t[k], s.t);
            QCOMPARE(gpu->v[k], s.gpu_utilization * 100.0);
            QCOMPARE(queue->v[k], double(s.queue_length));
            QCOMPARE(running->v[k], double(s.running_jobs));
            QCOMPARE(blocking->v[k], s.blocking_index);
            QCOMPARE(cpu->v[k], s.cpu_utilization * 100.0);
            QCOMPARE(storage->v[k], s.storage_utilization * 100.0);
            QCOMPARE(compute->v[k], s.gpu_compute_utilization * 100.0);
            QCOMPARE(network->v[k], s.network_utilization * 100.0);
            QCOMPARE(cpuAllocated->v[k], s.cpu_allocated * 100.0);
            QCOMPARE(memoryAllocated->v[k], s.memory_allocated * 100.0);
        }
        // Without a Synergy mechanism every running job holds its GPUs' share of CPU and memory.
        QVERIFY(
            std::any_of(cpuAllocated->v.cbegin(), cpuAllocated->v.cend(), [](double v) { return v > 0.0; }));
        QVERIFY(extractRunSeries(cl::SimResult{}).empty());
        // Runs stored before the engine recorded resource use (NaN) show only what they have.
        cl::SimResult old = *run;
        for (auto& s : old.series)
            s.cpu_utilization = s.storage_utilization = s.gpu_compute_utilization = s.network_utilization =
                s.cpu_allocated = s.memory_allocated = std::numeric_limits<double>::quiet_NaN();
        QCOMPARE(extractRunSeries(old).series.size(), size_t(4));
        // A run stored before allocations were recorded (schema 3) still shows the busy resources.
        cl::SimResult v3 = *run;
        for (auto& s : v3.series)
            s.cpu_allocated = s.memory_allocated = std::numeric_limits<double>::quiet_NaN();
        const RunSeries v3Series = extractRunSeries(v3);
        QCOMPARE(v3Series.series.size(), size_t(8));
        QVERIFY(!v3Series.find("cpu-allocated") && !v3Series.find("memory-allocated") &&
                v3Series.find("cpu"));
    }

    // CPU and memory allocated, from a hand-made run with one unknown sample: the two new lines
    // in the utilization chart, in % of the cluster, the unknown sample skipped (not drawn as 0).
    void allocatedCpuAndMemory() {
        auto result = std::make_shared<cl::SimResult>();
        const double cpu[] = {0.0, 0.5, 0.75, std::numeric_limits<double>::quiet_NaN(), 0.25};
        const double memory[] = {0.0, 0.125, 0.5, 1.0, 0.0};
        for (int i = 0; i < 5; ++i) {
            cl::TimeSample s;
            s.t = 900.0 * i;
            s.running_jobs = i % 3;
            s.gpu_utilization = 0.25 * (i % 3);
            s.cpu_allocated = cpu[i];
            s.memory_allocated = memory[i];
            // Busy resources not recorded: those lines stay out.
            s.cpu_utilization = s.storage_utilization = s.gpu_compute_utilization = s.network_utilization =
                std::numeric_limits<double>::quiet_NaN();
            result->series.push_back(s);
        }
        const RunSeries rs = extractRunSeries(*result);
        QCOMPARE(rs.series.size(), size_t(6));  // GPUs, CPU and memory allocated; queue, running, blocking
        const NamedSeries* cpuSeries = rs.find("cpu-allocated");
        QVERIFY(cpuSeries);
        QCOMPARE(cpuSeries->name, QString("CPU allocated"));
        QCOMPARE(cpuSeries->t, (QVector<double>{0.0, 900.0, 1800.0, 3600.0}));
        QCOMPARE(cpuSeries->v, (QVector<double>{0.0, 50.0, 75.0, 25.0}));
        QCOMPARE(rs.find("memory-allocated")->v, (QVector<double>{0.0, 12.5, 50.0, 100.0, 0.0}));

        SeriesCharts charts;
        charts.resize(1400, 800);
        charts.show();
        charts.setRuns({{"tune", result}});
        QCoreApplication::processEvents();
        QCOMPARE(charts.chartGroup(0), SeriesGroup::Utilization);
        QCOMPARE(chartOf(charts, 0)->series().size(), qsizetype(3));
        QLineSeries* cpuLine = charts.series(0, 0, "cpu-allocated");
        QLineSeries* memoryLine = charts.series(0, 0, "memory-allocated");
        QVERIFY(cpuLine && memoryLine);
        QCOMPARE(cpuLine->name(), QString("tune \u00b7 CPU allocated"));
        QCOMPARE(memoryLine->name(), QString("tune \u00b7 Memory allocated"));
        QCOMPARE(cpuLine->pen().color(), charts.runColor(0));
        // Each of the three told apart by its line style; the allocated ones also by their width.
        QSet<QList<qreal>> patterns;
        for (const QString key : {"gpu", "cpu-allocated", "memory-allocated"})
            patterns.insert(charts.series(0, 0, key)->pen().dashPattern());
        QCOMPARE(patterns.size(), 3);
        QVERIFY(cpuLine->pen().widthF() > charts.series(0, 0, "gpu")->pen().widthF());
        // Steps in axis units (hours), the 75 % holding over the unknown sample until 25 %.
        const double h = charts.timeUnitSeconds();
        QCOMPARE(h, 3600.0);
        const QList<QPointF> expected{{0.0, 0.0},  {0.25, 0.0}, {0.25, 50.0}, {0.5, 50.0},
                                      {0.5, 75.0}, {1.0, 75.0}, {1.0, 25.0}};
        QCOMPARE(cpuLine->points(), expected);
        double lowest = 100.0;
        for (const QPointF& p : cpuLine->points())
            if (p.x() > 0.25) lowest = std::min(lowest, p.y());
        QCOMPARE(lowest, 25.0);  // never dropped to 0 at the unknown sample
        QCOMPARE(memoryLine->points().size(), qsizetype(2 * 5 - 1));
        QCOMPARE(memoryLine->points()[6], QPointF(0.75, 100.0));

        // Pictures at 1400x900 (CLUSTERLOOM_KEEP_SCREENSHOTS=1 keeps them): the demo run with every
        // utilization line, and beside it a run whose allocations differ from the proportional
        // share (made up: no Synergy run yet). Each shows its runs' colours.
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        auto skewed = std::make_shared<cl::SimResult>(*demoRun("fifo"));
        for (std::size_t i = 0; i < skewed->series.size(); ++i) {
            cl::TimeSample& sample = skewed->series[i];
            sample.cpu_allocated =
                std::min(1.0, sample.cpu_allocated * (1.2 + 0.3 * std::sin(0.05 * double(i))));
            sample.memory_allocated = std::min(1.0, sample.memory_allocated * 0.8);
        }
        charts.resize(1400, 900);
        charts.setRuns({{"fifo", demoRun("fifo")}});
        charts.setTimeCursor(demoRun("fifo")->series.back().t * 0.35);
        QCoreApplication::processEvents();
        cl::test::shoot(charts, shots, "alloc_charts.png", charts.runColor(0), 20, 8);
        RunSeries a = extractRunSeries(*demoRun("fifo")), b = extractRunSeries(*skewed);
        for (RunSeries* rs : {&a, &b})
            std::erase_if(rs->series, [](const NamedSeries& n) {
                return n.group == SeriesGroup::Utilization && n.key != "cpu-allocated" &&
                       n.key != "memory-allocated";
            });
        charts.setRunSeries({{"fifo", a}, {"fifo, skewed", b}});
        QCoreApplication::processEvents();
        cl::test::shoot(charts, shots, "alloc_charts_two.png", charts.runColor(0), 20, 8);
        {
            const QImage two = charts.grab().toImage();
            QVERIFY(cl::test::pixelsNear(two, charts.runColor(1), 8) >= 20);
        }
    }

    void chartSeriesEqualTheRunsData() {
        SeriesCharts charts;
        charts.resize(1400, 800);
        charts.show();
        const auto run = demoRun("fifo");
        QVERIFY(run->series.size() <= 4 * 600);  // short run: no thinning may happen
        charts.setRuns({{"fifo", run}});
        QCoreApplication::processEvents();
        QCOMPARE(charts.chartCount(), 4);
        const double unit = charts.timeUnitSeconds();
        QVERIFY(unit == 3600.0 || unit == 86400.0);
        for (int c = 0; c < charts.chartCount(); ++c) {
            QLineSeries* line = charts.series(c, 0);
            QVERIFY(line);
            QCOMPARE(line->name(), c == 0 ? QString("fifo \u00b7 GPUs allocated") : QString("fifo"));
            // Every sample exactly, each held (a step) until the next one.
            const QList<QPointF> points = line->points();
            const qsizetype n = qsizetype(run->series.size());
            QCOMPARE(points.size(), 2 * n - 1);
            auto value = [&](const cl::TimeSample& s) {
                switch (charts.chartGroup(c)) {
                    case SeriesGroup::Utilization:
                        return s.gpu_utilization * 100.0;
                    case SeriesGroup::QueueLength:
                        return double(s.queue_length);
                    case SeriesGroup::RunningJobs:
                        return double(s.running_jobs);
                    case SeriesGroup::BlockingIndex:
                        return s.blocking_index;
                }
                return 0.0;
            };
            for (qsizetype i = 0; i < n; ++i) {
                const cl::TimeSample& s = run->series[size_t(i)];
                QCOMPARE(points[2 * i].x(), s.t / unit);
                QCOMPARE(points[2 * i].y(), value(s));
                if (i + 1 < n) {
                    QCOMPARE(points[2 * i + 1].x(), run->series[size_t(i + 1)].t / unit);
                    QCOMPARE(points[2 * i + 1].y(), value(s));
                }
            }
        }
        QVERIFY(!charts.series(0, 1));
        QCOMPARE(chartOf(charts, 0)->axes(Qt::Vertical).size(), 1);
    }

    void longRunIsThinnedKeepingExtremes() {
        auto result = std::make_shared<cl::SimResult>();
        const int n = 300000;
        result->series.resize(n);
        for (int i = 0; i < n; ++i) {
            cl::TimeSample& s = result->series[size_t(i)];
            s.t = i * 10.0;  // ~35 days: the axis switches to days
            s.queue_length = i % 7;
            s.running_jobs = 3;
            s.gpu_utilization = 0.5;
        }
        result->series[123457].queue_length = 999;  // a one-sample spike must survive
        SeriesCharts charts;
        charts.resize(1400, 800);
        charts.show();
        charts.setRuns({{"long", result}});
        QCoreApplication::processEvents();
        QCOMPARE(charts.timeUnitSeconds(), 86400.0);
        const int queueChart = 1;
        QCOMPARE(charts.chartGroup(queueChart), SeriesGroup::QueueLength);
        const QList<QPointF> points = charts.series(queueChart, 0)->points();
        QVERIFY2(points.size() < 40000, qPrintable(QString::number(points.size())));
        QVERIFY(points.size() > 1000);
        double top = 0.0;
        for (const QPointF& p : points) top = std::max(top, p.y());
        QCOMPARE(top, 999.0);
        QCOMPARE(points.front().x(), 0.0);
        QCOMPARE(points.back().x(), (n - 1) * 10.0 / 86400.0);
    }

    void overlayAndOptionalResources() {
        SeriesCharts charts;
        charts.resize(1400, 800);
        charts.show();
        charts.setRuns({{"fifo", demoRun("fifo")}, {"muri-s", demoRun("muri-s")}});
        QCOMPARE(charts.runCount(), 2);
        QVERIFY(charts.runColor(0) != charts.runColor(1));
        for (int c = 0; c < charts.chartCount(); ++c) {
            // Utilization: allocated GPUs, CPU and memory and the four busy resources of each run.
            QCOMPARE(chartOf(charts, c)->series().size(), qsizetype(c == 0 ? 14 : 2));
            QCOMPARE(charts.series(c, 0)->name(),
                     c == 0 ? QString("fifo \u00b7 GPUs allocated") : QString("fifo"));
            QCOMPARE(charts.series(c, 1)->name(),
                     c == 0 ? QString("muri-s \u00b7 GPUs allocated") : QString("muri-s"));
            QCOMPARE(charts.series(c, 0)->pen().color(), charts.runColor(0));
            QCOMPARE(charts.series(c, 1)->pen().color(), charts.runColor(1));
            QCOMPARE(charts.series(c, 1)->points().size(),
                     2 * qsizetype(demoRun("muri-s")->series.size()) - 1);
        }

        // The resource series join the utilization chart, in the run's colour with their own style.
        RunSeries withCpu = extractRunSeries(*demoRun("fifo"));
        charts.setRunSeries({{"fifo", withCpu}});
        QCOMPARE(chartOf(charts, 0)->series().size(), qsizetype(7));
        QLineSeries* cpuLine = charts.series(0, 0, "cpu");
        QVERIFY(cpuLine);
        QCOMPARE(cpuLine->name(), QString("fifo \u00b7 CPU"));
        QCOMPARE(cpuLine->pen().color(), charts.runColor(0));
        QVERIFY(cpuLine->pen().style() != charts.series(0, 0, "gpu")->pen().style());
        QCOMPARE(chartOf(charts, 1)->series().size(), qsizetype(1));

        charts.clear();
        QCOMPARE(charts.runCount(), 0);
        QCOMPARE(chartOf(charts, 0)->series().size(), qsizetype(0));
    }

    void twelveRunsEachHaveTheirOwnReadableColour() {
        SeriesCharts charts;
        charts.resize(1400, 800);
        charts.show();
        RunSeries gpuOnly = extractRunSeries(*demoRun("fifo"));
        std::erase_if(gpuOnly.series, [](const NamedSeries& s) {
            return s.group == SeriesGroup::Utilization && s.key != QLatin1String("gpu");
        });
        QList<ChartRunSeries> runs;
        for (int i = 0; i < 12; ++i) runs.push_back({QStringLiteral("run %1").arg(i), gpuOnly});
        charts.setRunSeries(runs);
        QCOMPARE(charts.runCount(), 12);
        // Against the light theme's white and the dark theme's base (app_theme.cpp).
        const QColor light(Qt::white), dark(0x1f, 0x20, 0x22);
        for (int c = 0; c < charts.chartCount(); ++c) {
            QSet<QRgb> colours;
            for (QAbstractSeries* series : chartOf(charts, c)->series()) {
                const QColor colour = static_cast<QLineSeries*>(series)->pen().color();
                QVERIFY2(!colours.contains(colour.rgb()), qPrintable(colour.name()));
                colours.insert(colour.rgb());
                QVERIFY2(contrastRatio(colour, light) >= 3.0, qPrintable(colour.name()));
                QVERIFY2(contrastRatio(colour, dark) >= 3.0, qPrintable(colour.name()));
            }
            QCOMPARE(colours.size(), 12);
        }
        // The palette itself never repeats, however many series.
        QSet<QRgb> palette;
        for (int i = 0; i < 64; ++i) {
            QVERIFY2(contrastRatio(seriesColor(i), light) >= 3.0, qPrintable(seriesColor(i).name()));
            QVERIFY2(contrastRatio(seriesColor(i), dark) >= 3.0, qPrintable(seriesColor(i).name()));
            palette.insert(seriesColor(i).rgb());
        }
        QCOMPARE(palette.size(), 64);

        // A run given its colour keeps it whatever is drawn beside it.
        charts.setRunSeries({{QStringLiteral("run 9"), gpuOnly, 9}});
        QCOMPARE(charts.series(1, 0)->pen().color(), seriesColor(9));
    }

    void runPickerKeepsChoicesAndShowsFirstRuns() {
        RunPicker picker;
        QSignalSpy changed(&picker, &RunPicker::shownRunsChanged);
        QStringList names;
        for (int i = 0; i < 5; ++i) names << QStringLiteral("run %1").arg(i);
        picker.setRuns(names, 8);
        QCOMPARE(picker.shownRuns(), names);
        QCOMPARE(picker.text(), QStringLiteral("Runs: 5 of 5"));
        pickerAction(picker, QStringLiteral("run 2"))->trigger();  // the user hides one
        QCOMPARE(changed.count(), 1);
        QVERIFY(!picker.isShown(QStringLiteral("run 2")));
        // More runs arrive (listed first): what was shown stays, new ones fill up to 8.
        QStringList more;
        for (int i = 5; i < 12; ++i) more << QStringLiteral("run %1").arg(i);
        picker.setRuns(more + names, 8);
        QCOMPARE(changed.count(), 1);  // not the user's doing
        for (const QString& name : names) QCOMPARE(picker.isShown(name), name != QLatin1String("run 2"));
        QCOMPARE(picker.shownRuns().size(), 8);
        QCOMPARE(picker.hiddenCount(), 4);
        QCOMPARE(picker.text(), QStringLiteral("Runs: 8 of 12"));
        picker.showAll();
        QCOMPARE(picker.hiddenCount(), 0);
        QCOMPARE(changed.count(), 2);
    }

    void valueAxesNeitherRepeatNorElideLabels() {
        // Short panels, a queue that never passes one job, then one in the thousands.
        SeriesCharts charts;
        charts.resize(1100, 430);
        charts.show();
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        auto series = [](const QString& key, SeriesGroup group, QVector<double> v) {
            NamedSeries s;
            s.key = key;
            s.name = key;
            s.group = group;
            for (int i = 0; i < v.size(); ++i) s.t << i * 1800.0;
            s.v = std::move(v);
            return s;
        };
        for (double peak : {1.0, 4321.0}) {
            RunSeries run;
            run.series.push_back(series("gpu", SeriesGroup::Utilization, {0, 50, 100, 20}));
            run.series.push_back(series("queue", SeriesGroup::QueueLength, {0, peak, peak / 2, 0}));
            run.series.push_back(series("running", SeriesGroup::RunningJobs, {0, 0, 0, 0}));
            run.series.push_back(series("blocking", SeriesGroup::BlockingIndex, {0, 0.02, 0.01, 0}));
            charts.setRunSeries({{QStringLiteral("q"), run}});
            QTest::qWait(50);  // the plots are aligned on the next event loop turn
            for (int c = 0; c < charts.chartCount(); ++c) {
                auto* y = qobject_cast<QValueAxis*>(chartOf(charts, c)->axes(Qt::Vertical).first());
                QVERIFY(y);
                QStringList labels;
                for (double v = y->min(); v <= y->max() + y->tickInterval() / 2; v += y->tickInterval())
                    labels << QString::asprintf(y->labelFormat().toLatin1().constData(), v);
                QStringList unique = labels;
                unique.removeDuplicates();
                QVERIFY2(unique == labels, qPrintable(labels.join(QStringLiteral(" / "))));
                QVERIFY2(labels.size() >= 2, qPrintable(labels.join(QStringLiteral(" / "))));
                if (charts.chartGroup(c) == SeriesGroup::QueueLength) QVERIFY(y->max() >= peak);
                for (QGraphicsItem* item : chartOf(charts, c)->scene()->items())
                    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
                        QVERIFY2(!text->toPlainText().contains(QChar(0x2026)),
                                 qPrintable(text->toPlainText()));
            }
        }
    }

    void plotsFollowAResizedWindow() {
        SeriesCharts charts;
        charts.resize(800, 600);
        charts.show();
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        charts.setRuns({{"fifo", demoRun("fifo")}});
        QTest::qWait(50);
        charts.resize(1400, 900);  // e.g. the window maximized
        QTest::qWait(50);
        for (int c = 0; c < charts.chartCount(); ++c) {
            const QRectF plot = chartOf(charts, c)->plotArea();
            QCOMPARE(chartOf(charts, c)->size().width(), 1400.0);
            QVERIFY2(plot.right() > 1400 * 0.9, qPrintable(QString::number(plot.right())));
            QCOMPARE(plot.left(), chartOf(charts, 0)->plotArea().left());  // still aligned
        }
    }

    // A press where no chart item lies (Qt Charts 6.4 would dereference a null item) does
    // nothing; on a 1366x768 window the four charts keep 200 px each and scroll.
    void pressBesideTheChartAndShortWindows() {
        SeriesCharts charts;
        charts.resize(800, 500);
        charts.show();
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        charts.setRuns({{"fifo", demoRun("fifo")}});
        QTest::qWait(50);
        for (int c = 0; c < charts.chartCount(); ++c)
            QVERIFY(chartViewOf(charts, c)->height() >= SeriesCharts::kMinChartHeight);
        // Scrolling, each chart has its own time labels; with room, only the bottom one.
        const auto timeLabels = [&](int c) {
            return qobject_cast<QValueAxis*>(chartOf(charts, c)->axes(Qt::Horizontal).first())
                ->labelsVisible();
        };
        QVERIFY(charts.chartsScroll());
        for (int c = 0; c < charts.chartCount(); ++c) QVERIFY(timeLabels(c));
        charts.resize(800, 1100);
        QTRY_VERIFY(!charts.chartsScroll());
        QVERIFY(!timeLabels(0));
        QVERIFY(timeLabels(charts.chartCount() - 1));
        charts.resize(800, 500);
        QTRY_VERIFY(charts.chartsScroll());
        QChartView* view = chartViewOf(charts, 0);
        // No item under the pointer, as where the chart did not cover the viewport between two
        // layouts (the random-input test's crash).
        const QList<QGraphicsItem*> items = view->scene()->items();
        for (QGraphicsItem* item : items) item->setVisible(false);
        const QPoint empty(view->viewport()->width() / 2, view->viewport()->height() / 2);
        QVERIFY(!view->itemAt(empty));
        QTest::mousePress(view->viewport(), Qt::RightButton, {}, empty);
        QTest::mouseRelease(view->viewport(), Qt::RightButton, {}, empty);
        QVERIFY(view->isVisible());
        for (QGraphicsItem* item : items) item->setVisible(true);
    }

    void exportLeavesOutTheCursor() {
        SeriesCharts charts;
        charts.resize(1200, 800);
        charts.show();
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        charts.setRuns({{"fifo", demoRun("fifo")}});
        QTest::qWait(50);
        auto exported = [&](int chart) {
            QImage image(QSize(1000, 700), QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            if (chart < 0)
                charts.paint(painter, QRectF(0, 0, 1000, 700));
            else
                charts.paintChart(chart, painter, QRectF(0, 0, 1000, 700));
            return image;
        };
        const double t = 0.5 * (charts.visibleStart() + charts.visibleEnd());
        charts.setTimeCursor(t);
        QVERIFY(charts.cursorLine(0)->isVisible());
        const QImage all = exported(-1), one = exported(1);
        QVERIFY(charts.cursorLine(0)->isVisible());  // still shown on screen afterwards
        charts.setTimeCursor(std::numeric_limits<double>::quiet_NaN());
        QCOMPARE(all, exported(-1));
        QCOMPARE(one, exported(1));
    }

    void cursorZoomAndHover() {
        SeriesCharts charts;
        charts.resize(1400, 1000);  // every chart at its full height, none scrolled out of view
        charts.show();
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        const auto run = demoRun("fifo");
        charts.setRuns({{"fifo", run}, {"muri-s", demoRun("muri-s")}});
        QCoreApplication::processEvents();
        const double t = run->series.back().t * 0.4;
        charts.setTimeCursor(t);
        QCOMPARE(charts.timeCursor(), t);
        for (int c = 0; c < charts.chartCount(); ++c) {
            QGraphicsLineItem* line = charts.cursorLine(c);
            QVERIFY(line->isVisible());
            const QRectF plot = chartOf(charts, c)->plotArea();
            auto* x = qobject_cast<QValueAxis*>(chartOf(charts, c)->axes(Qt::Horizontal).first());
            const double expected = plot.left() + (t / charts.timeUnitSeconds() - x->min()) /
                                                      (x->max() - x->min()) * plot.width();
            QVERIFY2(std::abs(line->line().x1() - expected) < 1e-6,
                     qPrintable(QString::number(line->line().x1())));
            QCOMPARE(line->line().x1(), line->line().x2());
            QCOMPARE(line->line().y1(), plot.top());
            QCOMPARE(line->line().y2(), plot.bottom());
        }
        charts.setTimeCursor(std::nan(""));
        for (int c = 0; c < charts.chartCount(); ++c) QVERIFY(!charts.cursorLine(c)->isVisible());

        // Hovering a chart moves the cursor everywhere and tells the timeline. (The pointer first
        // goes where no plot is: an earlier test may have left it on the point hovered below.)
        QTest::mouseMove(&charts, QPoint(1, 1));
        QSignalSpy cursorSpy(&charts, &SeriesCharts::timeCursorChanged);
        // (The second chart: the offscreen test screen is 600 px tall.)
        auto* view = charts.findChild<QChartView*>(QStringLiteral("seriesChart1"));
        QVERIFY(view);
        const QRectF plot = chartOf(charts, 1)->plotArea();
        const QPoint pos = view->mapFromScene(chartOf(charts, 1)->mapToScene(plot.center()));
        QTest::mouseMove(view->viewport(), pos);
        QCOMPARE(cursorSpy.count(), 1);
        const double hovered = cursorSpy.at(0).at(0).toDouble();
        QVERIFY(std::abs(hovered - 0.5 * (charts.visibleStart() + charts.visibleEnd())) <
                (charts.visibleEnd() - charts.visibleStart()) / plot.width() * 2);
        QCOMPARE(charts.timeCursor(), hovered);
        for (int c = 0; c < charts.chartCount(); ++c) QVERIFY(charts.cursorLine(c)->isVisible());

        // The wheel zooms time on every chart at once; Home resets.
        const double t0 = charts.visibleStart(), t1 = charts.visibleEnd();
        QSignalSpy rangeSpy(&charts, &SeriesCharts::visibleRangeChanged);
        QWheelEvent wheel(QPointF(pos), view->viewport()->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, 240),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(view->viewport(), &wheel);
        QCOMPARE(rangeSpy.count(), 1);
        QVERIFY(charts.visibleEnd() - charts.visibleStart() < 0.7 * (t1 - t0));
        QVERIFY(charts.visibleStart() < hovered && hovered < charts.visibleEnd());
        for (int c = 0; c < charts.chartCount(); ++c) {
            auto* x = qobject_cast<QValueAxis*>(chartOf(charts, c)->axes(Qt::Horizontal).first());
            QCOMPARE(x->min(), charts.visibleStart() / charts.timeUnitSeconds());
            QCOMPARE(x->max(), charts.visibleEnd() / charts.timeUnitSeconds());
        }
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Home);
        QCOMPARE(charts.visibleStart(), t0);
        QCOMPARE(charts.visibleEnd(), t1);
    }

    void formatFromSuffix() {
        QCOMPARE(exportFormatForPath("a/b.PNG"), std::optional(ExportFormat::Png));
        QCOMPARE(exportFormatForPath("b.svg"), std::optional(ExportFormat::Svg));
        QCOMPARE(exportFormatForPath("b.pdf"), std::optional(ExportFormat::Pdf));
        QString error;
        QVERIFY(!exportFormatForPath("chart.jpeg", &error));
        QVERIFY2(error.contains("chart.jpeg") && error.contains(".png"), qPrintable(error));
    }

    void exportPng() {
        const QString path = m_dir.filePath("pattern.png");
        QString error;
        QVERIFY2(exportPainting(path, {QSize(1050, 750), 300.0, "Pattern"}, paintPattern, &error),
                 qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1050, 750));
        QCOMPARE(image.dotsPerMeterX(), qRound(300.0 / 0.0254));
        QCOMPARE(image.dotsPerMeterY(), qRound(300.0 / 0.0254));
        QVERIFY(distinctColours(image) > 30);
    }

    void exportSvg() {
        const QString path = m_dir.filePath("pattern.svg");
        QString error;
        QVERIFY2(exportPainting(path, {QSize(800, 500), 96.0, "Pattern"}, paintPattern, &error),
                 qPrintable(error));
        QSvgRenderer svg(path);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.defaultSize(), QSize(800, 500));
        QCOMPARE(svg.viewBox(), QRect(0, 0, 800, 500));
        QVERIFY(readAll(path).contains("<title>Pattern</title>"));
        QImage raster(800, 500, QImage::Format_ARGB32);
        raster.fill(Qt::white);
        QPainter p(&raster);
        svg.render(&p);
        p.end();
        QVERIFY(distinctColours(raster) > 30);
    }

    void exportPdf() {
        const QString path = m_dir.filePath("pattern.pdf");
        QString error;
        QVERIFY2(exportPainting(path, {QSize(1600, 1000), 150.0, "Pattern"}, paintPattern, &error),
                 qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY(bytes.startsWith("%PDF"));
        QCOMPARE(pdfPageCount(bytes), 1);
        const QSizeF box = mediaBox(bytes);  // points: 1600 px / 150 dpi * 72
        QVERIFY2(std::abs(box.width() - 768.0) < 1.0 && std::abs(box.height() - 480.0) < 1.0,
                 qPrintable(QString("%1 x %2").arg(box.width()).arg(box.height())));
    }

    void exportWidgetInEveryFormat() {
        SeriesCharts charts;
        charts.resize(900, 600);
        charts.show();
        charts.setRuns({{"fifo", demoRun("fifo")}, {"muri-s", demoRun("muri-s")}});
        charts.setTimeCursor(demoRun("fifo")->series.back().t * 0.3);
        QCoreApplication::processEvents();
        const QSize before = charts.size();
        QString error;
        const QString png = m_dir.filePath("charts.png");
        QVERIFY2(exportWidget(png, &charts, {QSize(1600, 1000), 150.0, "fifo vs muri-s"}, &error),
                 qPrintable(error));
        QCOMPARE(charts.size(), before);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        QCOMPARE(image.dotsPerMeterX(), qRound(150.0 / 0.0254));
        QVERIFY(distinctColours(image) > 20);
        const QString svg = m_dir.filePath("charts.svg");
        QVERIFY2(exportWidget(svg, &charts, {QSize(1200, 800), 96.0, {}}, &error), qPrintable(error));
        QVERIFY(QSvgRenderer(svg).isValid());
        QCOMPARE(QSvgRenderer(svg).defaultSize(), QSize(1200, 800));
        const QString pdf = m_dir.filePath("charts.pdf");
        QVERIFY2(exportPainting(
                     pdf, {QSize(1050, 750), 300.0, "Queue"},
                     [&](QPainter& p, const QRectF& r) { charts.paintChart(1, p, r); }, &error),
                 qPrintable(error));
        const QByteArray bytes = readAll(pdf);
        QVERIFY(bytes.startsWith("%PDF"));
        const QSizeF box = mediaBox(bytes);  // 3.5 x 2.5 in
        QVERIFY(std::abs(box.width() - 252.0) < 1.0 && std::abs(box.height() - 180.0) < 1.0);
        QVERIFY(bytes.size() > 3000);
    }

    void failedExportLeavesFilesAlone() {
        // A directory that cannot exist: its parent is a regular file.
        const QString blocker = m_dir.filePath("blocker");
        {
            QFile f(blocker);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("x");
        }
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path = blocker + "/chart." + QLatin1String(suffix);
            QString error;
            QVERIFY(!exportPainting(path, {QSize(100, 100), 96.0, {}}, paintPattern, &error));
            QVERIFY2(error.contains(path), qPrintable(error));
            QVERIFY(!QFile::exists(path));
        }
        // An existing good file survives a failing export to the same name.
        const QString good = m_dir.filePath("good.png");
        QString error;
        QVERIFY(exportPainting(good, {QSize(64, 48), 96.0, {}}, paintPattern, &error));
        const QByteArray original = readAll(good);
        QVERIFY(!exportPainting(good, {QSize(0, 48), 96.0, {}}, paintPattern, &error));
        QVERIFY2(error.contains("good.png"), qPrintable(error));
        QVERIFY(!exportPainting(good, {QSize(64, 48), 0.0, {}}, paintPattern, &error));
        QCOMPARE(readAll(good), original);
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden).filter("good").size(),
                 qsizetype(1));
    }

    void reportTableFitsEveryValueAndHeader() {
        // Nine columns as wide as the Compare view's, with long run names.
        QStandardItemModel table(0, 9);
        table.setHorizontalHeaderLabels({"Run", "Avg JCT", "Avg JCT vs base", "p99 JCT", "p99 JCT vs base",
                                         "Makespan", "Makespan vs base", "Avg queueing",
                                         "Avg queueing vs base"});
        for (const char* name : {"demo-synergy/proportional \u00b7 fifo+proportional",
                                 "demo/muri-s (what if) (2) \u00b7 muri-s", "fifo"}) {
            QList<QStandardItem*> row{new QStandardItem(QString::fromUtf8(name))};
            for (const char* value : {"19.53 min", "4.0112\u00d7", "1 d 23.5 h", "0.0067\u00d7", "123.45 h",
                                      "10.25\u00d7", "59.99 min", "\u2014"})
                row << new QStandardItem(QString::fromUtf8(value));
            table.appendRow(row);
        }
        QTemporaryDir dir;
        QPdfWriter device(dir.filePath("measure.pdf"));
        device.setResolution(96);
        const double width = reportContentWidth();
        const ReportTableLayout shape = layoutReportTable(table, width, &device);
        QCOMPARE(shape.columnWidths.size(), 9);
        QCOMPARE(shape.rowHeights.size(), 3);
        const QString problem = cl::test::reportTableProblem(table, shape, width, &device);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(!shape.namesBreakAnywhere);
        QVERIFY(shape.pointSize >= 7.0);
    }

    void reportIsMultiPagePdf() {
        QStandardItemModel table(0, 4);
        table.setHorizontalHeaderLabels({"Policy", "Average JCT", "p95 JCT", "Makespan"});
        for (const char* policy : {"fifo", "muri-s"}) {
            const auto run = demoRun(policy);
            table.appendRow(
                {new QStandardItem(policy),
                 new QStandardItem(QString::number(run->summary.avg_jct / 3600, 'f', 2) + " h"),
                 new QStandardItem(QString::number(run->summary.p95_jct / 3600, 'f', 2) + " h"),
                 new QStandardItem(QString::number(run->summary.makespan / 3600, 'f', 2) + " h")});
        }
        SeriesCharts charts;
        charts.resize(1000, 700);
        charts.setRuns({{"fifo", demoRun("fifo")}, {"muri-s", demoRun("muri-s")}});
        QList<PaintFunction> paintings;
        QStringList titles;
        for (int c = 0; c < charts.chartCount(); ++c) {
            paintings << [&charts, c](QPainter& p, const QRectF& r) { charts.paintChart(c, p, r); };
            titles << groupTitle(charts.chartGroup(c));
        }
        const QString path = m_dir.filePath("report.pdf");
        QString error;
        QVERIFY2(writeReport(path, "Demo comparison",
                             {"fifo on muri-testbed-64, demo trace", "muri-s on muri-testbed-64, demo trace"},
                             &table, paintings, titles, &error),
                 qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY2(pdfPageCount(bytes) >= 2, qPrintable(QString::number(pdfPageCount(bytes))));
        const QSizeF a4 = mediaBox(bytes);
        QVERIFY(std::abs(a4.width() - 595.0) < 2.0 && std::abs(a4.height() - 842.0) < 2.0);
        if (qEnvironmentVariableIsSet("CHARTS_SAVE_REPORT"))
            QFile::copy(path, qEnvironmentVariable("CHARTS_SAVE_REPORT"));

        QVERIFY(!writeReport(m_dir.filePath("blocker/report.pdf"), "x", {}, &table, {}, {}, &error));
        QVERIFY2(error.contains("blocker"), qPrintable(error));
    }

    // Pictures of the charts and of their exports, each checked for the runs' colours (the
    // dialog for its text); CLUSTERLOOM_KEEP_SCREENSHOTS=1 keeps them for a look.
    void screenshots() {
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        SeriesCharts charts;
        charts.resize(1400, 800);
        charts.show();
        charts.setRuns({{"fifo", demoRun("fifo")}, {"muri-s", demoRun("muri-s")}});
        charts.setTimeCursor(demoRun("fifo")->series.back().t * 0.35);
        QCoreApplication::processEvents();
        cl::test::shoot(charts, shots, "charts_overlay.png", charts.runColor(0), 20, 8);
        QVERIFY(cl::test::pixelsNear(charts.grab().toImage(), charts.runColor(1), 8) >= 20);
        QString error;
        QVERIFY2(exportWidget(shots.path("charts_export.png"), &charts,
                              {QSize(1600, 1000), 150.0, "fifo vs muri-s, demo trace"}, &error),
                 qPrintable(error));
        const QImage exported(shots.path("charts_export.png"));
        cl::test::expectDrawn(exported, QSize(1600, 1000), charts.runColor(0), 20, 8);
        QVERIFY2(exportPainting(
                     shots.path("charts_queue_column.png"), {QSize(1050, 750), 300.0, "Queue length"},
                     [&](QPainter& p, const QRectF& r) { charts.paintChart(1, p, r); }, &error),
                 qPrintable(error));
        cl::test::expectDrawn(QImage(shots.path("charts_queue_column.png")), QSize(1050, 750),
                              charts.runColor(0), 20, 8);
        charts.zoomTime(0.3, demoRun("fifo")->series.back().t * 0.35);
        QCoreApplication::processEvents();
        cl::test::shoot(charts, shots, "charts_zoomed.png", charts.runColor(0), 20, 8);
        ExportDialog dialog;
        dialog.setPath(shots.path("charts.pdf"));
        dialog.show();
        QCoreApplication::processEvents();
        cl::test::shoot(dialog, shots, "charts_dialog.png", dialog.palette().color(QPalette::WindowText));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSeriesCharts)
#include "test_series_charts.moc"
