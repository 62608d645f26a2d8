// Why this grouping (docs/architecture.md 5.1): in the timeline of a Muri run, a click on a bar
// where the job shares its GPU works out the explanation on a worker (the scenario simulated
// again with the grouping log), then the panel above the rows and the bar's tooltip name the
// group mates, the group's gamma and speed-up, the matching's total weight and the alternatives.
#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include "named_child.h"

#include "core/io/builtin_data.h"
#include "core/model/sim_result.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "views/shell/main_window.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

using cl::views::MainWindow;
using cl::views::TimelinePanel;
using cl::views::TimelineView;

namespace {

constexpr int kTimeoutMs = 240000;  // generous: debug and sanitizer builds on small machines

// A busy queue on two servers under muri-s and fifo: Muri must interleave.
void writeMuriWorkspace(const QString& path) {
    cl::ScenarioStore store(path.toStdString());
    const cl::ProfileSet profiles = cl::builtinProfiles();
    cl::GeneratorConfig g;
    g.jobs = 60;
    g.seed = 7;
    g.jobs_per_hour = 240;
    g.max_gpus = 4;
    cl::ScenarioSpec base;
    base.cluster_id = store.putCluster(cl::builtinCluster("muri-testbed-64"));
    base.parameters.server_count = 2;
    base.trace_id = store.putTrace(cl::generate(g, &profiles));
    base.profiles_id = store.putProfiles(profiles);
    std::vector<cl::ScenarioSpec> specs;
    for (const char* policy : {"muri-s", "fifo"}) {
        cl::ScenarioSpec spec = base;
        spec.name = std::string("m/") + policy;
        spec.policy = policy;
        specs.push_back(spec);
    }
    cl::SweepOptions options;
    options.threads = 1;
    const cl::SweepReport report = cl::runSweep(store, specs, options);
    if (report.failed != 0 || report.cancelled != 0) qFatal("the runs did not finish");
}

// A moment and a pixel where job `job` visibly shares a GPU: the middle of its first overlap
// with a partner, zoomed in so that the overlap fills the view, the row scrolled into sight.
struct SharedBar {
    int job = -1;
    double t = 0;
    QPoint pos;
    std::vector<int> partners;
};

SharedBar findSharedBar(TimelineView& v) {
    SharedBar bar;
    const cl::SimResult& r = *v.result();
    const cl::views::TimelineLayout& l = v.layout();
    for (std::size_t s = 0; s < r.segments.size() && bar.job < 0; ++s) {
        const cl::GpuSegment& seg = r.segments[s];
        for (const cl::GpuSegment& o : r.segments) {
            if (o.gpu != seg.gpu || o.job == seg.job) continue;
            const double a = std::max(seg.t0, o.t0), b = std::min(seg.t1, o.t1);
            if (b - a < 60) continue;
            bar.job = seg.job;
            bar.t = 0.5 * (a + b);
            bar.partners = l.partnersAt(static_cast<int>(s), bar.t);
            v.setVisibleRange(a + 0.25 * (b - a), b - 0.25 * (b - a));
            const int row = l.rowOfGpu(seg.gpu);
            v.verticalScrollBar()->setValue(row * v.rowHeight());
            const QRect plot = v.plotRect();
            const int x = static_cast<int>(std::floor(v.xOfTime(bar.t)));
            for (double y = 0.05; y < 1.0; y += 0.05) {
                const QPoint p(
                    x, plot.top() + static_cast<int>((row - v.firstVisibleRow() + y) * v.rowHeight()));
                if (v.jobAt(p) == bar.job) {
                    bar.pos = p;
                    break;
                }
            }
            break;
        }
    }
    return bar;
}

}  // namespace

class TestTimelineGrouping : public QObject {
    Q_OBJECT

private slots:
    void clickingASharedBarExplainsItsGroup() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sqlite"));
        writeMuriWorkspace(path);
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));

        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
        window.selectScenario(QStringLiteral("m/muri-s"));
        QVERIFY(window.showView(QStringLiteral("timeline")));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeoutMs));
        auto* panel = namedChild<TimelinePanel>(window, "timelinePanel");
        auto* explain = namedChild<QPushButton>(window, "explainGroupings");
        auto* why = namedChild<QLabel>(window, "groupingExplanation");
        TimelineView* v = panel->view();
        QVERIFY(explain->isVisible() && explain->isEnabled());
        QVERIFY(!why->isVisible());

        const SharedBar bar = findSharedBar(*v);
        QVERIFY2(bar.job >= 0, "muri-s shares GPUs in this scenario");
        QVERIFY2(!bar.pos.isNull(), "the shared bar is under some pixel");
        QVERIFY(!bar.partners.empty());
        const auto idOf = [&](int job) {
            return QString::fromStdString(v->result()->jobs[static_cast<std::size_t>(job)].id);
        };

        // Before: hovering says how to get the explanation.
        QTest::mouseMove(v->viewport(), bar.pos);
        QVERIFY2(v->toolTipAt(bar.pos).contains(QStringLiteral("Explain groupings")),
                 qPrintable(v->toolTipAt(bar.pos)));

        // A click on the shared bar selects the job and works the explanation out.
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, bar.pos);
        QCOMPARE(v->selectedJob(), bar.job);
        QTRY_VERIFY_WITH_TIMEOUT(v->hasGroupings(), kTimeoutMs);
        QVERIFY(!explain->isEnabled());  // explained: nothing more to ask
        QTRY_VERIFY(why->isVisible());
        const QString text = why->text();
        qInfo().noquote() << text;
        QVERIFY2(text.contains(QStringLiteral("Why this group")), qPrintable(text));
        for (int p : bar.partners) QVERIFY2(text.contains(idOf(p)), qPrintable(idOf(p) + " in " + text));
        QVERIFY2(text.contains(QStringLiteral("\u03b3 (interleaving efficiency) 0.")) ||
                     text.contains(QStringLiteral("\u03b3 (interleaving efficiency) 1.")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("speed-up")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("total weight")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("why this one won")), qPrintable(text));

        // Hovering the same bar: its tooltip carries the same explanation.
        QTest::mouseMove(v->viewport(), bar.pos);
        QHelpEvent help(QEvent::ToolTip, bar.pos, v->viewport()->mapToGlobal(bar.pos));
        QApplication::sendEvent(v->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString tip = QToolTip::text();
        QVERIFY2(tip.contains(QStringLiteral("Why this group")), qPrintable(tip));
        for (int p : bar.partners) QVERIFY2(tip.contains(idOf(p)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("\u03b3")), qPrintable(tip));
        QToolTip::hideText();

        // A click on empty space clears the selection and its explanation.
        v->selectJob(-1);
        QVERIFY(!why->isVisible());

        // A run that does not group (fifo) offers nothing to explain.
        loaded.clear();
        window.selectScenario(QStringLiteral("m/fifo"));
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kTimeoutMs);
        QVERIFY(!explain->isVisible());
    }

    // A stored run whose jobs started at other times than this engine starts them (a run of an
    // older engine): the page says its groupings cannot be explained rather than explain others.
    void aRunOfAnOlderEngineIsNotExplained() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sqlite"));
        writeMuriWorkspace(path);
        {
            cl::ScenarioStore store(path.toStdString());
            const cl::ScenarioInfo muri = store.scenario("m/muri-s");
            cl::SimResult older = store.loadRun(store.runs(muri.id).front().id, true);
            older.jobs.back().first_start += 1.0;
            store.saveRun(store.beginRun(muri.id, cl::engineVersion()), older);
        }
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
        window.selectScenario(QStringLiteral("m/muri-s"));
        QVERIFY(window.showView(QStringLiteral("timeline")));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeoutMs));
        auto* explain = namedChild<QPushButton>(window, "explainGroupings");
        TimelineView* v = namedChild<TimelinePanel>(window, "timelinePanel")->view();
        QVERIFY(explain->isEnabled());
        QTest::mouseClick(explain, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            QString(explain->text()).remove(QLatin1Char('&')).contains(QStringLiteral("Explain")) &&
                !explain->isEnabled(),
            kTimeoutMs);
        QVERIFY(!v->hasGroupings());
        const SharedBar bar = findSharedBar(*v);
        QVERIFY(bar.job >= 0 && !bar.pos.isNull());
        const QString tip = v->toolTipAt(bar.pos);
        QVERIFY2(tip.contains(QStringLiteral("older engine")), qPrintable(tip));
        QVERIFY(!tip.contains(QStringLiteral("Why this group")));
    }
};

QTEST_MAIN(TestTimelineGrouping)
#include "test_timeline_grouping.moc"
