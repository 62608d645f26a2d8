// The desktop workspace, offscreen: the demo workspace opens and runs on worker threads into
// the store; Stop stores nothing partial; imports show their errors and store nothing when
// refused; the edited cluster is stored; menus carry the standard shortcuts without clashes.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPdfWriter>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QUrl>
#include <QWindowStateChangeEvent>
#include <QtCharts/QAbstractSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

#include "named_child.h"
#include "report_table_checks.h"
#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "views/charts/run_picker.h"
#include "views/charts/series_charts.h"
#include "views/cluster/cluster_diagram.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/cluster_name_dialog.h"
#include "views/common/chart_export.h"
#include "views/common/report_writer.h"
#include "views/interleave/interleave_panel.h"
#include "views/interleave/stage_table_model.h"
#include "views/results/comparison_view.h"
#include "views/results/results_view.h"
#include "views/results/summary_table_model.h"
#include "views/results/utilization_plot.h"
#include "views/shell/guide_dialog.h"
#include "views/shell/main_window.h"
#include "views/shell/run_panel.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"
#include "views/trace/job_table_model.h"
#include "views/trace/trace_browser.h"
#include "views/trace/trace_import_dialog.h"
#include "views/workspace/scenario_browser.h"

using cl::views::MainWindow;
using cl::views::RunPanel;
using cl::views::SummaryTableModel;

namespace {

constexpr int kTimeoutMs = 240000;  // generous: debug and sanitizer builds on small machines

int finishedRuns(cl::ScenarioStore& store) {
    const auto runs = store.runs();
    return static_cast<int>(std::count_if(
        runs.begin(), runs.end(), [](const cl::RunInfo& r) { return r.status == cl::RunStatus::Finished; }));
}

// The window's widgets, found by their objectName as a user's script would find them.
cl::views::ResultsView* resultsView(const QWidget& window) {
    return namedChild<cl::views::ResultsView>(window, "resultsView");
}

QPlainTextEdit* runLog(const QWidget& window) {
    return namedChild<QPlainTextEdit>(window, "runLog");
}

RunPanel* runPanel(const QWidget& window) {
    return namedChild<RunPanel>(window, "runPanel");
}

cl::views::SeriesCharts* seriesCharts(const QWidget& window) {
    return namedChild<cl::views::SeriesCharts>(window, "seriesCharts");
}

cl::views::RunPicker* chartRunPicker(const QWidget& window) {
    return namedChild<cl::views::RunPicker>(window, "chartRunPicker");
}

QLabel* chartsHiddenRunsLabel(const QWidget& window) {
    return namedChild<QLabel>(window, "chartsHiddenRuns");
}

cl::views::TimelinePanel* timelinePanel(const QWidget& window) {
    return namedChild<cl::views::TimelinePanel>(window, "timelinePanel");
}

cl::views::InterleavePanel* interleavePanel(const QWidget& window) {
    return namedChild<cl::views::InterleavePanel>(window, "interleavePanel");
}

cl::views::ScenarioBrowser* scenarioBrowser(const QWidget& window) {
    return namedChild<cl::views::ScenarioBrowser>(window, "scenarioBrowser");
}

cl::views::ClusterEditor* clusterEditor(const QWidget& window) {
    return namedChild<cl::views::ClusterEditor>(window, "clusterEditor");
}

// The line above the cluster diagram: the cluster's name and whether its edits are saved.
QLabel* clusterStatus(const QWidget& window) {
    return namedChild<QLabel>(*clusterEditor(window), "clusterStatus");
}

// The results view's table and its model.
QTableView* resultsTable(const QWidget& window) {
    return namedChild<QTableView>(*resultsView(window), "resultsTable");
}

SummaryTableModel* resultsModel(const QWidget& window) {
    return namedChild<SummaryTableModel>(*resultsView(window), "resultsModel");
}

// Chart `index` of the Charts view, top to bottom.
QChart* seriesChart(const QWidget& window, int index) {
    const QByteArray name = QByteArray("seriesChart") + QByteArray::number(index);
    return namedChild<QChartView>(*seriesCharts(window), name.constData())->chart();
}

// The run picker's menu entry for a run: ticking it draws the run.
QAction* runPickerAction(const cl::views::RunPicker& picker, const QString& run) {
    for (QAction* action : picker.menu()->actions())
        if (action->isCheckable() && action->data().toString() == run) return action;
    qFatal("the run picker offers no %s", qPrintable(run));
}

cl::views::StageTableModel* interleaveStageModel(const QWidget& window) {
    return namedChild<cl::views::StageTableModel>(*interleavePanel(window), "interleaveStageModel");
}

cl::views::TraceBrowser* traceBrowser(const QWidget& window) {
    return namedChild<cl::views::TraceBrowser>(window, "traceBrowser");
}

// The jobs the trace browser lists (the Slurm import dialog has a "jobModel" of its own).
cl::views::JobTableModel* traceJobModel(const QWidget& window) {
    return namedChild<cl::views::JobTableModel>(*traceBrowser(window), "jobModel");
}

cl::views::ComparisonView* comparisonView(const QWidget& window) {
    return namedChild<cl::views::ComparisonView>(window, "comparisonView");
}

QDoubleSpinBox* interferenceBox(const QWidget& window) {
    return namedChild<QDoubleSpinBox>(window, "interferenceRatio");
}

// A shown window on a new demo workspace whose runs have all finished, demo/muri-s selected.
bool openRanDemo(MainWindow& window, const QTemporaryDir& dir, QString* error) {
    window.resize(1400, 900);
    window.show();
    QSignalSpy done(&window, &MainWindow::runsFinished);
    if (!window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::Always, error))
        return false;
    if (!done.wait(kTimeoutMs)) {
        *error = QStringLiteral("the demo runs did not finish");
        return false;
    }
    scenarioBrowser(window)->selectScenario(QStringLiteral("demo/muri-s"));
    return true;
}

// Answers the modal dialogs the window opens, in order: each handler gets the next modal
// dialog shown (a QMessageBox, the cluster name dialog, ...). Counts every dialog it saw; a
// dialog beyond the handlers is rejected and counted, so a test can tell it was not expected.
class ModalScript : public QObject {
public:
    explicit ModalScript(QList<std::function<void(QWidget*)>> handlers = {})
        : m_handlers(std::move(handlers)) {
        m_timer.setInterval(10);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            QWidget* modal = QApplication::activeModalWidget();
            if (!modal || !modal->isVisible() || modal == m_last) return;
            m_last = modal;
            ++m_seen;
            if (m_handlers.isEmpty()) {
                if (auto* dialog = qobject_cast<QDialog*>(modal)) dialog->reject();
                return;
            }
            m_handlers.takeFirst()(modal);
        });
        m_timer.start();
    }
    int seen() const { return m_seen; }
    bool done() const { return m_handlers.isEmpty(); }

private:
    QList<std::function<void(QWidget*)>> m_handlers;
    QTimer m_timer;
    QPointer<QWidget> m_last;
    int m_seen = 0;
};

std::function<void(QWidget*)> clickButton(QMessageBox::StandardButton which) {
    return [which](QWidget* modal) {
        auto* box = qobject_cast<QMessageBox*>(modal);
        QVERIFY2(box, modal->metaObject()->className());
        QTest::mouseClick(box->button(which), Qt::LeftButton);
    };
}

// The cluster name dialog's name field and Save button.
QLineEdit* nameField(const QWidget& dialog) {
    return namedChild<QLineEdit>(dialog, "clusterName");
}

QPushButton* nameOk(const QWidget& dialog) {
    return namedChild<QPushButton>(dialog, "clusterNameOk");
}

// Types `name` into the cluster name dialog and presses Save.
std::function<void(QWidget*)> nameCluster(const QString& name) {
    return [name](QWidget* modal) {
        auto* dialog = qobject_cast<cl::views::ClusterNameDialog*>(modal);
        QVERIFY2(dialog, modal->metaObject()->className());
        nameField(*dialog)->clear();
        QTest::keyClicks(nameField(*dialog), name);
        QTest::mouseClick(nameOk(*dialog), Qt::LeftButton);
    };
}

QAction* actionWithShortcut(QWidget& window, const QKeySequence& key) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->shortcuts().contains(key) && action->shortcutContext() == Qt::WindowShortcut)
            return action;
    return nullptr;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("ClusterLoomTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
    }

    void opensDemoWorkspaceAndRunsIt() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("demo.sqlite"));
        MainWindow window(MainWindow::Options{false});
        window.resize(1400, 900);
        window.show();
        QSignalSpy done(&window, &MainWindow::runsFinished);
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::Always, &error), qPrintable(error));
        QVERIFY(window.isRunning());
        QVERIFY(done.wait(kTimeoutMs));
        QCOMPARE(window.failedRuns(), 0);
        const auto names = cl::demoScenarioNames();
        QCOMPARE(finishedRuns(*window.store()), static_cast<int>(names.size()));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("demo.sqlite")));

        // The results view shows the demo family, every row done, and plots the selected run.
        SummaryTableModel* model = resultsModel(window);
        QCOMPARE(resultsView(window)->family(), QStringLiteral("demo"));
        const auto in_demo_family = std::count_if(
            names.begin(), names.end(), [](const std::string& n) { return n.rfind("demo/", 0) == 0; });
        QCOMPARE(model->rowCount(), static_cast<int>(in_demo_family));
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->state(row), SummaryTableModel::RowState::Done);
        QVERIFY(resultsView(window)->plot()->pointCount() > 0);
        QVERIFY(runLog(window)->toPlainText().contains(QStringLiteral("demo/srtf finished")));
        QCOMPARE(runPanel(window)->runState(QStringLiteral("demo/fifo")), RunPanel::RunState::Finished);

        for (const QString& view : MainWindow::viewNames()) {
            QVERIFY(window.showView(view));
            const QImage shot = window.grab().toImage();
            QVERIFY(shot.width() >= 1000 && shot.height() >= 600);
            // Drawn, not blank, with text in the palette's text colour (menus, docks, labels).
            cl::test::expectDrawn(shot, window.size() * window.devicePixelRatio(),
                                  window.palette().color(QPalette::WindowText));
        }
        QVERIFY(!window.showView(QStringLiteral("no-such-view")));

        // Opening the same workspace again with the demo reuses the stored runs.
        QSignalSpy again(&window, &MainWindow::runsFinished);
        QVERIFY(window.openWorkspace(path, MainWindow::Demo::Always, &error));
        QVERIFY(again.wait(kTimeoutMs));
        QCOMPARE(static_cast<int>(window.store()->runs().size()), static_cast<int>(names.size()));
        QCOMPARE(runPanel(window)->runState(QStringLiteral("demo/fifo")), RunPanel::RunState::Reused);
    }

    void analysisViewsFollowTheResults() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY2(openRanDemo(window, dir, &error), qPrintable(error));

        // The charts overlay the family's first 8 runs, and like the timeline read them only
        // when shown. A family with more (the demo's, with what-if copies of FIFO): the window
        // says so, and the picker brings them.
        QCOMPARE(seriesCharts(window)->runCount(), 0);
        QStringList copies;
        for (int k = 1; k <= 4; ++k) {
            cl::ScenarioSpec copy = window.store()->scenario("demo/fifo").spec;
            copy.name = "demo/fifo/copy" + std::to_string(k);
            copy.parameters.load_factor = 1.0 + 0.25 * k;  // a run of its own, not the stored one reused
            window.store()->createScenario(copy);
            copies << QString::fromStdString(copy.name);
        }
        QSignalSpy copiesRun(&window, &MainWindow::runsFinished);
        window.runScenarios(copies);
        QVERIFY(copiesRun.wait(kTimeoutMs));
        scenarioBrowser(window)->refresh();
        scenarioBrowser(window)->selectScenario(QStringLiteral("demo/muri-s"));
        QVERIFY(window.showView(QStringLiteral("charts")));
        const auto names = cl::demoScenarioNames();
        const int family =
            static_cast<int>(std::count_if(names.begin(), names.end(),
                                           [](const std::string& n) { return n.rfind("demo/", 0) == 0; })) +
            static_cast<int>(copies.size());
        QVERIFY(family > 8);
        QCOMPARE(seriesCharts(window)->runCount(), 8);
        cl::views::RunPicker* picker = chartRunPicker(window);
        QCOMPARE(picker->runs().size(), family);
        QCOMPARE(picker->text(), QStringLiteral("Runs: 8 of %1").arg(family));
        QLabel* hidden = chartsHiddenRunsLabel(window);
        QVERIFY(hidden->isVisible());
        QCOMPARE(hidden->text(), QStringLiteral("%1 runs of the family not drawn").arg(family - 8));
        const QString last = picker->runs().last();
        QVERIFY2(hidden->toolTip().contains(last), qPrintable(hidden->toolTip()));
        // The legend names the runs without the family's prefix.
        auto legendName = [](const QString& scenario) { return scenario.section(QLatin1Char('/'), 1); };
        auto drawn = [&] {
            QStringList titles;
            for (QAbstractSeries* series : seriesChart(window, 1)->series()) titles << series->name();
            return titles;
        };
        QVERIFY(!drawn().contains(legendName(last)));
        runPickerAction(*picker, last)->trigger();  // what ticking it in the menu does
        QVERIFY(drawn().contains(legendName(last)));
        QCOMPARE(seriesCharts(window)->runCount(), 9);
        const QString first = picker->runs().first();
        runPickerAction(*picker, first)->trigger();
        QVERIFY(!drawn().contains(legendName(first)));
        QCOMPARE(seriesCharts(window)->runCount(), 8);
        picker->showAll();
        QCOMPARE(seriesCharts(window)->runCount(), family);
        QVERIFY(!hidden->isVisible());
        QCOMPARE(drawn().size(), family);
        QVERIFY(!timelinePanel(window)->view()->result());
        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
        QVERIFY(window.showView(QStringLiteral("timeline")));
        QVERIFY(loaded.wait(kTimeoutMs));  // read off the GUI thread
        QVERIFY(timelinePanel(window)->view()->result());
        QCOMPARE(timelinePanel(window)->view()->layout().rowCount(), 64);
        const auto shown = timelinePanel(window)->view()->result();

        // A job of muri-s that shared GPUs sends its group to the Interleaving view.
        const cl::views::TimelineLayout& layout = timelinePanel(window)->view()->layout();
        int shared = -1;
        for (int j = 0; j < layout.jobCount() && shared < 0; ++j)
            if (!layout.partnersOf(j).empty()) shared = j;
        QVERIFY(shared >= 0);
        auto* toInterleaving = window.findChild<QPushButton*>(QStringLiteral("toInterleaving"));
        QVERIFY(toInterleaving && !toInterleaving->isEnabled());
        timelinePanel(window)->view()->selectJob(shared);
        QVERIFY(toInterleaving->isEnabled());
        toInterleaving->click();
        const int members = interleaveStageModel(window)->jobCount();
        QVERIFY(members >= 2 && members <= 4);
        QVERIFY(std::isfinite(interleavePanel(window)->gamma()));
        QVERIFY(window.showView(QStringLiteral("timeline")));

        // Another run of the family below it, on the same time axis.
        auto* compareWith = namedChild<QComboBox>(window, "timelineSecondRun");
        QCOMPARE(compareWith->itemText(0), QStringLiteral("nothing"));
        // "nothing" and the other four runs of the Muri demo's trace (the Synergy demo's jobs differ).
        QCOMPARE(compareWith->count(), 5);
        compareWith->setCurrentIndex(1);
        emit compareWith->activated(1);
        QVERIFY(timelinePanel(window)->hasSecondRun());
        QCOMPARE(timelinePanel(window)->view()->result(), shown);
    }

    void everyViewExportsAndTheReportIsWritten() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY2(openRanDemo(window, dir, &error), qPrintable(error));
        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
        // No view paints into a zero-size device while exporting (the random-input test found
        // the Trace view's export printing "QPainter::begin: Paint device returned engine == 0").
        static QStringList paintWarnings;
        paintWarnings.clear();
        static QtMessageHandler previous = nullptr;
        previous = qInstallMessageHandler(
            [](QtMsgType type, const QMessageLogContext& context, const QString& text) {
                if (text.contains(QLatin1String("QPainter")) || text.contains(QLatin1String("paint device")))
                    paintWarnings << text;
                if (previous) previous(type, context, text);
            });
        for (const QString& view : MainWindow::viewNames()) {
            QVERIFY(window.showView(view));
            if (view == QLatin1String("timeline")) QVERIFY(loaded.wait(kTimeoutMs));
            QCoreApplication::processEvents();
            for (const char* suffix : {"png", "svg", "pdf"}) {
                const QString path = dir.filePath(view + QLatin1Char('.') + QLatin1String(suffix));
                cl::views::ExportOptions options{QSize(1200, 700), 150.0, view};
                QVERIFY2(window.exportCurrentView(path, options, &error), qPrintable(view + ": " + error));
                QVERIFY(QFileInfo(path).size() > 1000);
            }
            const QImage png(dir.filePath(view + QStringLiteral(".png")));
            QCOMPARE(png.size(), QSize(1200, 700));
            QSet<QRgb> colours;
            for (int y = 0; y < png.height(); y += 7)
                for (int x = 0; x < png.width(); x += 7) colours.insert(png.pixel(x, y));
            QVERIFY2(colours.size() > 16, qPrintable(view + QStringLiteral(" export looks blank")));
            QVERIFY2(paintWarnings.isEmpty(),
                     qPrintable(view + QStringLiteral(": ") + paintWarnings.join(QLatin1Char('|'))));
        }
        qInstallMessageHandler(previous);
        const QString report = dir.filePath(QStringLiteral("report.pdf"));
        QVERIFY2(window.writeComparisonReport(report, &error), qPrintable(error));
        QFile file(report);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.count("/Type /Page") >= 3);  // at least two pages, plus the /Pages node
    }

    void runPanelRunsWhatIfVariants() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        {
            cl::ScenarioStore store(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
            cl::populateDemoWorkspace(store);
        }
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::No, &error));
        scenarioBrowser(window)->selectScenario(QStringLiteral("demo/srtf"));
        QCOMPARE(runPanel(window)->request().base, QStringLiteral("demo/srtf"));
        runPanel(window)->setCheckedPolicies({QStringLiteral("srtf"), QStringLiteral("fifo")});
        runPanel(window)->setLoadFactor(2.0);
        QSignalSpy done(&window, &MainWindow::runsFinished);
        window.runRequested();
        QVERIFY(done.wait(kTimeoutMs));
        QCOMPARE(window.failedRuns(), 0);
        auto& store = *window.store();
        QVERIFY(store.findScenario("demo/srtf/x2/srtf").has_value());
        QVERIFY(store.findScenario("demo/srtf/x2/fifo").has_value());
        QCOMPARE(store.findScenario("demo/srtf/x2/fifo")->spec.parameters.load_factor, 2.0);
        QCOMPARE(finishedRuns(store), 2);

        // The interference ratio applies to the GPU-sharing policies only: its box is enabled
        // while one is checked, shows "profile" for the scenario's 0, and a changed ratio makes
        // xi variants of the sharing policies alone.
        QDoubleSpinBox* xi = interferenceBox(window);
        QVERIFY(!xi->isEnabled());
        QVERIFY(!xi->toolTip().isEmpty());
        scenarioBrowser(window)->selectScenario(QStringLiteral("demo-sjf/sjf-bsbf"));
        QCOMPARE(runPanel(window)->checkedPolicies(), QStringList{QStringLiteral("sjf-bsbf")});
        QVERIFY(xi->isEnabled());
        QCOMPARE(xi->text(), QStringLiteral("profile"));
        QCOMPARE(runPanel(window)->request().interference, 0.0);
        runPanel(window)->setCheckedPolicies({QStringLiteral("fifo")});
        QVERIFY(!xi->isEnabled());
        runPanel(window)->setCheckedPolicies(
            {QStringLiteral("sjf-ffs"), QStringLiteral("fifo+bsbf"), QStringLiteral("fifo")});
        QVERIFY(xi->isEnabled());
        xi->setValue(xi->minimum());
        xi->stepBy(1);
        QCOMPARE(runPanel(window)->interference(), 1.0);
        runPanel(window)->setInterference(1.2);
        QCOMPARE(runPanel(window)->request().interference, 1.2);
        window.resize(1400, 900);
        window.show();
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        cl::test::shoot(*runPanel(window), shots, QStringLiteral("sjf_run_panel.png"),
                        runPanel(window)->palette().color(QPalette::WindowText));
        QSignalSpy shared(&window, &MainWindow::runsFinished);
        window.runRequested();
        QVERIFY(shared.wait(kTimeoutMs));
        QCOMPARE(window.failedRuns(), 0);
        QCOMPARE(store.findScenario("demo-sjf/sjf-bsbf/sjf-ffs/xi1.2")->spec.parameters.interference, 1.2);
        QCOMPARE(store.findScenario("demo-sjf/sjf-bsbf/fifo+bsbf/xi1.2")->spec.parameters.interference, 1.2);
        QCOMPARE(store.findScenario("demo-sjf/sjf-bsbf/fifo")->spec.parameters.interference, 0.0);
        QCOMPARE(finishedRuns(store), 5);
    }

    void stopStoresNothingPartial() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.sqlite"));
        {
            // Long enough to be stopped mid-way: many jobs arriving at once, Muri grouping.
            cl::ScenarioStore store(path.toStdString());
            cl::GeneratorConfig config;
            config.jobs = 6000;
            config.arrival = cl::ArrivalProcess::AllAtZero;
            config.name = "burst";
            const cl::ProfileSet profiles = cl::builtinProfiles();
            cl::ScenarioSpec spec;
            spec.name = "burst";
            spec.cluster_id = store.putCluster(cl::builtinCluster("muri-testbed-64"));
            spec.trace_id = store.putTrace(cl::generate(config, &profiles));
            spec.profiles_id = store.putProfiles(profiles);
            spec.policy = "muri-l";
            store.createScenario(spec);
        }
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY(window.openWorkspace(path, MainWindow::Demo::No, &error));
        QSignalSpy done(&window, &MainWindow::runsFinished);

        // Stopped before any worker got to it: nothing stored, the job still ends.
        window.runScenarios({QStringLiteral("burst")});
        window.stopRuns();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
        QCOMPARE(runPanel(window)->runState(QStringLiteral("burst")), RunPanel::RunState::Cancelled);
        QVERIFY(window.store()->runs().empty());

        // Stopped while simulating: cancelled and nothing stored -- or, on a machine fast
        // enough to finish first, exactly one finished run. Never a partial or running one.
        window.runScenarios({QStringLiteral("burst")});
        QVERIFY(window.isRunning());
        QVERIFY(scenarioBrowser(window)->isEditingLocked());
        QTRY_VERIFY_WITH_TIMEOUT(
            runPanel(window)->runState(QStringLiteral("burst")) != RunPanel::RunState::Queued, kTimeoutMs);
        window.stopRuns();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kTimeoutMs);
        QVERIFY(!window.isRunning());
        QVERIFY(!scenarioBrowser(window)->isEditingLocked());
        const auto runs = window.store()->runs();
        if (runPanel(window)->runState(QStringLiteral("burst")) == RunPanel::RunState::Cancelled) {
            QVERIFY(runs.empty());
            QVERIFY(runLog(window)->toPlainText().contains(QStringLiteral("nothing was stored")));
        } else {
            QCOMPARE(runPanel(window)->runState(QStringLiteral("burst")), RunPanel::RunState::Finished);
            QCOMPARE(runs.size(), std::size_t(1));
            QCOMPARE(runs.front().status, cl::RunStatus::Finished);
        }
    }

    void switchingWorkspacesLeavesNothingBehind() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QSignalSpy done(&window, &MainWindow::runsFinished);
        QVERIFY(
            window.openWorkspace(dir.filePath(QStringLiteral("a.sqlite")), MainWindow::Demo::Always, &error));
        QVERIFY(done.wait(kTimeoutMs));
        QCOMPARE(clusterEditor(window)->cluster().totalGpus(), 64);
        QVERIFY(traceJobModel(window)->rowCount() > 0);
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("b.sqlite")), MainWindow::Demo::No, &error));
        QCOMPARE(clusterEditor(window)->cluster().servers.size(), std::size_t(0));
        QCOMPARE(traceJobModel(window)->rowCount(), 0);
        QCOMPARE(runPanel(window)->runCount(), 0);
        QVERIFY(window.store()->scenarios().empty());
        // An empty workspace asked to start with the demo gets it; a non-empty one does not.
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("b.sqlite")), MainWindow::Demo::IfEmpty,
                                     &error));
        QVERIFY(done.wait(kTimeoutMs));
        const auto count = window.store()->scenarios().size();
        QVERIFY(count > 0);
        window.store()->deleteScenario("demo/fifo");
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("b.sqlite")), MainWindow::Demo::IfEmpty,
                                     &error));
        QCOMPARE(window.store()->scenarios().size(), count - 1);
    }

    void importShowsErrorsAndStoresOnlyAccepted() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::No, &error));
        auto& store = *window.store();
        QCOMPARE(store.traces().size(), std::size_t(0));

        const QString broken = dir.filePath(QStringLiteral("broken.csv"));
        writeFile(broken,
                  "job_id,submit_time,gpus,model,duration\n1,0,2,resnet18,100\n2,5,many,resnet18,100\n");
        auto* dialog = qobject_cast<cl::views::TraceImportDialog*>(window.importTrace(broken));
        QVERIFY(dialog);
        QVERIFY(!dialog->canImport());
        QVERIFY(!dialog->errors().isEmpty());
        QVERIFY2(dialog->errors().join(' ').contains(QStringLiteral("broken.csv")),
                 qPrintable(dialog->errors().join(' ')));
        dialog->reject();
        QCOMPARE(store.traces().size(), std::size_t(0));

        const QString good = dir.filePath(QStringLiteral("good.csv"));
        writeFile(good, "job_id,submit_time,gpus,model,duration\n1,0,2,resnet18,100\n2,5,4,resnet18,100\n");
        dialog = qobject_cast<cl::views::TraceImportDialog*>(window.importTrace(good));
        QVERIFY(dialog);
        QVERIFY2(dialog->canImport(), qPrintable(dialog->errors().join(' ')));
        dialog->accept();
        QCOMPARE(store.traces().size(), std::size_t(1));
        QCOMPARE(store.trace(store.traces().front().id).jobs.size(), std::size_t(2));
    }

    void layoutImportAndClusterSave() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::No, &error));
        auto& store = *window.store();

        const QString bad = dir.filePath(QStringLiteral("bad-layout.json"));
        writeFile(
            bad,
            R"({"format":"clusterloom-cluster","version":1,"name":"x","servers":[{"name":"a","gpus":-2}]})");
        QVERIFY(!window.importLayout(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("bad-layout.json")), qPrintable(error));
        QCOMPARE(store.clusters().size(), std::size_t(0));

        const QString good =
            QString::fromStdString(cl::dataDir()) + QStringLiteral("/clusters/muri-testbed-64.json");
        QVERIFY2(window.importLayout(good, &error), qPrintable(error));
        QCOMPARE(store.clusters().size(), std::size_t(1));
        QCOMPARE(clusterEditor(window)->cluster().totalGpus(), 64);

        const qint64 imported = store.clusters().front().id;
        QCOMPARE(clusterEditor(window)->storedClusterId(), imported);
        QVERIFY2(clusterStatus(window)->text().contains(QStringLiteral("saved (stored cluster")),
                 qPrintable(clusterStatus(window)->text()));

        // Ctrl+S on edits of the stored cluster: a copy, which is named before it is stored.
        cl::Server server = clusterEditor(window)->cluster().servers.front();
        clusterEditor(window)->addServers(server, 2);
        QVERIFY(clusterEditor(window)->isModified());
        QVERIFY(window.windowTitle().contains(QLatin1Char('*')));
        QVERIFY2(clusterStatus(window)->text().contains(QStringLiteral("unsaved changes")),
                 qPrintable(clusterStatus(window)->text()));
        QAction* save = actionWithShortcut(window, QKeySequence::Save);
        QVERIFY(save);
        QString suggested, refusal;
        bool okWhenTaken = true;
        ModalScript script({[&](QWidget* modal) {
            auto* dialog = qobject_cast<cl::views::ClusterNameDialog*>(modal);
            QVERIFY2(dialog, modal->metaObject()->className());
            suggested = dialog->name();
            // The taken name is refused with a message, and Save cannot be pressed.
            nameField(*dialog)->clear();
            QTest::keyClicks(nameField(*dialog), QStringLiteral("muri-testbed-64"));
            refusal = dialog->problem();
            okWhenTaken = nameOk(*dialog)->isEnabled();
            QTest::keyClick(nameField(*dialog), Qt::Key_Return);  // refused: the dialog stays
            QVERIFY(dialog->isVisible());
            nameCluster(QStringLiteral("testbed-80"))(modal);
        }});
        save->trigger();
        QVERIFY(script.done());
        QCOMPARE(suggested, QStringLiteral("muri-testbed-64 2"));
        QVERIFY2(refusal.contains(QStringLiteral("already stored")), qPrintable(refusal));
        QVERIFY(!okWhenTaken);
        QVERIFY(!clusterEditor(window)->isModified());
        QCOMPARE(store.clusters().size(), std::size_t(2));
        QStringList storedNames;
        for (const auto& c : store.clusters()) storedNames << QString::fromStdString(c.name);
        storedNames.sort();
        QCOMPARE(storedNames, QStringList({"muri-testbed-64", "testbed-80"}));
        QCOMPARE(clusterEditor(window)->cluster().name, std::string("testbed-80"));
        QVERIFY(clusterEditor(window)->storedClusterId() != imported);
        QVERIFY2(clusterStatus(window)->text().contains(QStringLiteral("<b>testbed-80</b>")),
                 qPrintable(clusterStatus(window)->text()));
        QCOMPARE(store.cluster(clusterEditor(window)->storedClusterId()).totalGpus(), 80);

        // Saving again without edits stores nothing and asks nothing.
        ModalScript none;
        save->trigger();
        QCOMPARE(none.seen(), 0);
        QCOMPARE(store.clusters().size(), std::size_t(2));

        // Cancelling the name keeps the edits unsaved and stores nothing.
        clusterEditor(window)->addServers(server, 1);
        {
            ModalScript cancel({[](QWidget* modal) { qobject_cast<QDialog*>(modal)->reject(); }});
            QVERIFY(!window.saveCluster(&error));
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        QVERIFY(clusterEditor(window)->isModified());
        QCOMPARE(store.clusters().size(), std::size_t(2));

        clusterEditor(window)->undoStack()->undo();  // the added server
        clusterEditor(window)->undoStack()->undo();  // the rename
        clusterEditor(window)->undoStack()->undo();  // the two servers
        QCOMPARE(clusterEditor(window)->cluster().totalGpus(), 64);
    }

    // Selecting a scenario of another cluster while the editor holds unsaved edits asks what
    // to do with them: Cancel stays on the scenario they belong to, Discard shows the new
    // scenario's cluster, Save stores them (naming the copy) first. Edits of the selected
    // scenario's own cluster stay without a question.
    void scenarioSwitchAsksAboutUnsavedEdits() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sqlite"));
        {
            cl::ScenarioStore store(path.toStdString());
            cl::populateDemoWorkspace(store);
        }
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QString error;
        QVERIFY(window.openWorkspace(path, MainWindow::Demo::No, &error));
        cl::views::ClusterEditor* editor = clusterEditor(window);
        const auto current = [&] { return scenarioBrowser(window)->currentScenario(); };
        window.selectScenario(QStringLiteral("demo/fifo"));
        QCOMPARE(editor->cluster().name, std::string("muri-testbed-64"));
        const qint64 testbed = editor->storedClusterId();
        QVERIFY(testbed != 0);
        const cl::Server server = editor->cluster().servers.front();

        editor->addServers(server, 1);
        {
            ModalScript script({clickButton(QMessageBox::Cancel)});
            window.selectScenario(QStringLiteral("demo-synergy/tune"));
            QVERIFY(script.done());
            QTRY_COMPARE(current(), QStringLiteral("demo/fifo"));
            QCOMPARE(script.seen(), 1);  // going back asks nothing
        }
        QVERIFY(editor->isModified());
        QCOMPARE(editor->storedClusterId(), testbed);
        QCOMPARE(editor->cluster().totalGpus(), 72);

        {
            ModalScript script({clickButton(QMessageBox::Discard)});
            window.selectScenario(QStringLiteral("demo-synergy/tune"));
            QVERIFY(script.done());
        }
        QCOMPARE(current(), QStringLiteral("demo-synergy/tune"));
        QCOMPARE(editor->cluster().name, std::string("synergy-128"));
        QVERIFY(!editor->isModified());
        QCOMPARE(window.store()->clusters().size(), std::size_t(4));

        {
            ModalScript none;
            window.selectScenario(QStringLiteral("demo/fifo"));  // no edits: no question
            QCOMPARE(none.seen(), 0);
        }
        QCOMPARE(editor->storedClusterId(), testbed);
        editor->addServers(server, 1);
        {
            ModalScript script({clickButton(QMessageBox::Save), nameCluster(QStringLiteral("testbed-72"))});
            window.selectScenario(QStringLiteral("demo-synergy/tune"));
            QVERIFY(script.done());
        }
        QCOMPARE(current(), QStringLiteral("demo-synergy/tune"));
        QCOMPARE(editor->cluster().name, std::string("synergy-128"));
        QVERIFY(!editor->isModified());
        bool stored = false;
        for (const auto& c : window.store()->clusters())
            if (c.name == "testbed-72") stored = window.store()->cluster(c.id).totalGpus() == 72;
        QVERIFY(stored);

        // Edits of the cluster the next scenario uses too are its own: no question.
        window.selectScenario(QStringLiteral("demo/fifo"));
        editor->addServers(server, 1);
        {
            ModalScript none;
            window.selectScenario(QStringLiteral("demo/srtf"));
            QCOMPARE(none.seen(), 0);
        }
        QCOMPARE(current(), QStringLiteral("demo/srtf"));
        QVERIFY(editor->isModified());
        QCOMPARE(editor->cluster().totalGpus(), 72);
        editor->undoStack()->undo();
    }

    // The diagram, the planner's main tool, gets the room in the Cluster view by default, and
    // the user's split is remembered across restarts.
    void clusterDiagramGetsTheRoomAndTheSplitIsRemembered() {
        {
            MainWindow window(MainWindow::Options{false});
            window.resize(1366, 768);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.showView(QStringLiteral("cluster")));
            QCoreApplication::processEvents();
            const int whole = clusterEditor(window)->width();
            const int diagram = clusterEditor(window)->diagram()->width();
            QVERIFY2(diagram * 3 >= whole, qPrintable(QStringLiteral("%1 of %2 px").arg(diagram).arg(whole)));
        }
        QSettings().clear();
        QList<int> chosen;
        {
            MainWindow window;  // with settings
            window.resize(1366, 768);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.showView(QStringLiteral("cluster")));
            QCoreApplication::processEvents();
            auto* splitter = clusterEditor(window)->findChild<QSplitter*>(QStringLiteral("clusterSplitter"));
            QVERIFY(splitter);
            // The user drags the handle between the diagram and the properties 60 px to the left.
            const QList<int> before = splitter->sizes();
            QSplitterHandle* handle = splitter->handle(2);
            const QPoint grip = handle->rect().center();
            QTest::mousePress(handle, Qt::LeftButton, {}, grip);
            QMouseEvent move(QEvent::MouseMove, grip - QPoint(60, 0),
                             handle->mapToGlobal(grip - QPoint(60, 0)), Qt::NoButton, Qt::LeftButton,
                             Qt::NoModifier);
            QApplication::sendEvent(handle, &move);
            QTest::mouseRelease(handle, Qt::LeftButton, {}, grip - QPoint(60, 0));
            chosen = splitter->sizes();
            QVERIFY(chosen.size() == 3);
            QVERIFY2(
                std::abs(chosen[1] - (before[1] - 60)) <= 2 && std::abs(chosen[2] - (before[2] + 60)) <= 2,
                qPrintable(QStringLiteral("%1 -> %2 px").arg(before[1]).arg(chosen[1])));
            window.close();
        }
        {
            MainWindow again;
            again.resize(1366, 768);
            again.show();
            QVERIFY(QTest::qWaitForWindowExposed(&again));
            QVERIFY(again.showView(QStringLiteral("cluster")));
            QCoreApplication::processEvents();
            auto* splitter = clusterEditor(again)->findChild<QSplitter*>(QStringLiteral("clusterSplitter"));
            QVERIFY(splitter);
            const QList<int> restored = splitter->sizes();
            QCOMPARE(restored.size(), chosen.size());
            for (int i = 0; i < chosen.size(); ++i)
                QVERIFY2(
                    std::abs(restored[i] - chosen[i]) <= 2,
                    qPrintable(
                        QStringLiteral("pane %1: %2 px, was %3 px").arg(i).arg(restored[i]).arg(chosen[i])));
        }
        QSettings().clear();
    }

    void damagedWorkspaceIsRefusedAndTheCurrentOneStays() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        const QString good = dir.filePath(QStringLiteral("good.sqlite"));
        QVERIFY(window.openWorkspace(good, MainWindow::Demo::No, &error));
        const QString damaged = dir.filePath(QStringLiteral("damaged.sqlite"));
        writeFile(damaged, QByteArray("this is not a database, just text\n").repeated(200));
        QVERIFY(!window.openWorkspace(damaged, MainWindow::Demo::Always, &error));
        QVERIFY2(error.contains(QStringLiteral("damaged.sqlite")), qPrintable(error));
        QCOMPARE(window.workspacePath(), QFileInfo(good).absoluteFilePath());
        QVERIFY(window.store() != nullptr);
        QFile file(damaged);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith("this is not a database"));  // untouched
    }

    void droppedLayoutIsImported() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::No, &error));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(cl::dataDir()) +
                                          QStringLiteral("/clusters/sjf-bsbf-16.json"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QTRY_COMPARE(window.store()->clusters().size(), std::size_t(1));
        QCOMPARE(clusterEditor(window)->cluster().name, window.store()->clusters().front().name);
    }

    // File > Import Cluster Layout, and a layout dropped on the window, behave like Save: a
    // layout carrying a stored cluster's name with other servers is named first (taken names
    // refused), Cancel stores nothing, and the identical layout is the stored one again.
    void importedLayoutWithATakenNameIsNamedFirst() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QString error;
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("w.sqlite")), MainWindow::Demo::No, &error));
        auto& store = *window.store();
        const auto storedNames = [&] {
            QStringList names;
            for (const auto& c : store.clusters()) names << QString::fromStdString(c.name);
            names.sort();
            return names;
        };
        const QString original =
            QString::fromStdString(cl::dataDir()) + QStringLiteral("/clusters/muri-testbed-64.json");
        QVERIFY2(window.importLayout(original, &error), qPrintable(error));
        // The same name with two servers fewer: another cluster.
        cl::Cluster smaller = cl::readCluster(original.toStdString());
        smaller.servers.resize(smaller.servers.size() - 2);
        const QString other = dir.filePath(QStringLiteral("testbed-smaller.json"));
        cl::writeLayoutJson(smaller, other.toStdString());

        QAction* import = actionWithShortcut(window, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
        QVERIFY(import);
        QString suggested, refusal, title;
        bool okWhenTaken = true;
        {
            ModalScript script(
                {[&](QWidget* modal) {
                     auto* files = qobject_cast<QFileDialog*>(modal);
                     QVERIFY2(files, modal->metaObject()->className());
                     files->selectFile(other);
                     static_cast<QDialog*>(files)->accept();  // QFileDialog::accept, protected there
                 },
                 [&](QWidget* modal) {
                     auto* dialog = qobject_cast<cl::views::ClusterNameDialog*>(modal);
                     QVERIFY2(dialog, modal->metaObject()->className());
                     suggested = dialog->name();
                     title = dialog->windowTitle();
                     nameField(*dialog)->clear();
                     QTest::keyClicks(nameField(*dialog), QStringLiteral("muri-testbed-64"));
                     refusal = dialog->problem();
                     okWhenTaken = nameOk(*dialog)->isEnabled();
                     QTest::keyClick(nameField(*dialog), Qt::Key_Return);  // refused
                     QVERIFY(dialog->isVisible());
                     nameCluster(QStringLiteral("testbed-48"))(modal);
                 }});
            import->trigger();
            QTRY_VERIFY(script.done());
            QCOMPARE(script.seen(), 2);  // no warning after the import
        }
        QCOMPARE(suggested, QStringLiteral("muri-testbed-64 2"));
        QCOMPARE(title, QStringLiteral("Import cluster as"));
        QVERIFY2(refusal.contains(QStringLiteral("already stored")), qPrintable(refusal));
        QVERIFY(!okWhenTaken);
        QCOMPARE(storedNames(), QStringList({"muri-testbed-64", "testbed-48"}));
        QCOMPARE(clusterEditor(window)->cluster().name, std::string("testbed-48"));
        QCOMPARE(clusterEditor(window)->cluster().totalGpus(), 48);
        QVERIFY(!clusterEditor(window)->isModified());
        QCOMPARE(store.cluster(clusterEditor(window)->storedClusterId()).name, std::string("testbed-48"));

        // Dropped on the window: the same question; Cancel stores nothing and warns of nothing.
        const auto drop = [&](const QString& path) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            // A drop reaches the window only after its drag entered it.
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&window, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent event(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&window, &event);
        };
        {
            QString cancelled;
            ModalScript script({[&](QWidget* modal) {
                auto* dialog = qobject_cast<cl::views::ClusterNameDialog*>(modal);
                QVERIFY2(dialog, modal->metaObject()->className());
                cancelled = dialog->name();
                dialog->reject();
            }});
            drop(other);
            QTRY_VERIFY2(script.done(), qPrintable(runLog(window)->toPlainText()));
            QCOMPARE(cancelled, QStringLiteral("muri-testbed-64 2"));
            QTest::qWait(100);
            QCOMPARE(script.seen(), 1);
        }
        QCOMPARE(storedNames(), QStringList({"muri-testbed-64", "testbed-48"}));
        QVERIFY(runLog(window)->toPlainText().contains(QStringLiteral("cancelled")));

        // The identical layout again is the stored cluster: no question, nothing new.
        {
            ModalScript none;
            QVERIFY2(window.importLayout(original, &error), qPrintable(error));
            QCOMPARE(none.seen(), 0);
        }
        QCOMPARE(storedNames(), QStringList({"muri-testbed-64", "testbed-48"}));
        QCOMPARE(clusterEditor(window)->cluster().totalGpus(), 64);
    }

    void layoutIsRememberedAcrossSessions() {
        QSettings().clear();
        {
            MainWindow window;  // with settings
            window.show();
            for (QDockWidget* dock : window.findChildren<QDockWidget*>())
                if (dock->objectName() == QLatin1String("logDock")) dock->hide();
            window.setTheme(cl::views::Theme::Dark);
            window.close();
        }
        MainWindow again;
        again.show();
        for (QDockWidget* dock : again.findChildren<QDockWidget*>())
            QCOMPARE(dock->isVisible(), dock->objectName() != QLatin1String("logDock"));
        QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("dark"));
        again.setTheme(cl::views::Theme::System);
        QSettings().clear();
    }

    void scenarioMenuActsFromAnyView() {
        // A demo workspace that is not run: the scenario actions need no results.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("menu.sqlite"));
        {
            cl::ScenarioStore store(path.toStdString());
            cl::populateDemoWorkspace(store);
        }
        MainWindow window(MainWindow::Options{false});
        window.resize(1400, 900);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        QVERIFY(!window.isRunning());
        cl::views::ScenarioBrowser* browser = scenarioBrowser(window);
        browser->selectScenario(QStringLiteral("demo/muri-s"));

        // Every scenario action is in the Scenario menu.
        QMenu* menu = nullptr;
        for (QAction* action : window.menuBar()->actions())
            if (action->text().remove(QLatin1Char('&')) == QLatin1String("Scenario")) menu = action->menu();
        QVERIFY(menu);
        for (QAction* action : {browser->newAction(), browser->duplicateAction(), browser->renameAction(),
                                browser->deleteAction()}) {
            QVERIFY2(menu->actions().contains(action), qPrintable(action->text()));
            QCOMPARE(action->shortcutContext(), Qt::WindowShortcut);
        }

        // The keys work while the central view has the focus, not only the workspace tree.
        QVERIFY(window.showView(QStringLiteral("results")));
        QTableView* table = resultsTable(window);
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        browser->setSpecEditor([](cl::ScenarioSpec& spec, bool duplicate) {
            spec.name = duplicate ? "copied by key" : "created by key";
            return true;
        });
        QTest::keyClick(table, Qt::Key_D, Qt::ControlModifier);
        QVERIFY(window.store()->findScenario("copied by key"));
        QCOMPARE(browser->currentScenario(), QStringLiteral("copied by key"));

        table->setFocus();
        QTest::keyClick(table, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(window.store()->findScenario("created by key"));

        // F2 opens the in-place editor in the tree, even with its dock closed.
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (dock->objectName() == QLatin1String("workspaceDock")) dock->hide();
        browser->selectScenario(QStringLiteral("created by key"));
        table->setFocus();
        QTest::keyClick(table, Qt::Key_F2);
        QVERIFY(browser->isVisible());
        auto* editor = browser->view()->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->setText(QStringLiteral("renamed by key"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY(window.store()->findScenario("renamed by key"));
        QVERIFY(!window.store()->findScenario("created by key"));

        QString asked;
        browser->setConfirmHandler([&](const QString& question) {
            asked = question;
            return true;
        });
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Delete);
        QVERIFY2(asked.contains(QStringLiteral("renamed by key")), qPrintable(asked));
        QVERIFY(!window.store()->findScenario("renamed by key"));

        // In the cluster editor Ctrl+D and Delete keep acting on servers.
        QVERIFY(window.showView(QStringLiteral("cluster")));
        QCOMPARE(browser->duplicateAction()->shortcutContext(), Qt::WidgetWithChildrenShortcut);
        browser->selectScenario(QStringLiteral("demo/muri-s"));
        const std::size_t scenarios = window.store()->scenarios().size();
        clusterEditor(window)->diagram()->setFocus();
        QTest::keyClick(clusterEditor(window)->diagram(), Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(window.store()->scenarios().size(), scenarios);
        QVERIFY(window.showView(QStringLiteral("charts")));
        QCOMPARE(browser->duplicateAction()->shortcutContext(), Qt::WindowShortcut);
    }

    void compareSelectionIsRememberedPerWorkspace() {
        QSettings().clear();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("compare.sqlite"));
        const QString other = dir.filePath(QStringLiteral("other.sqlite"));
        qint64 fifo = 0, srtf = 0, muri = 0;
        for (const QString& file : {path, other}) {
            cl::ScenarioStore store(file.toStdString());
            cl::populateDemoWorkspace(store);
            fifo = cl::runScenario(store, "demo/fifo").run_id;
            srtf = cl::runScenario(store, "demo/srtf").run_id;
            muri = cl::runScenario(store, "demo/muri-s").run_id;
        }
        {
            MainWindow window;  // with settings
            QString error;
            QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
            window.selectScenario(QStringLiteral("demo/muri-s"));
            cl::views::ComparisonView* compare = comparisonView(window);
            QCOMPARE(compare->runs(), (QList<qint64>{muri, fifo, srtf}));
            QCOMPARE(compare->baselineRun(), muri);
            // The user unticks srtf and makes fifo the baseline.
            auto* list = compare->findChild<QListWidget*>();
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->data(Qt::UserRole).toLongLong() == srtf)
                    list->item(i)->setCheckState(Qt::Unchecked);
            compare->setBaselineRun(fifo);
            QCOMPARE(compare->runs(), (QList<qint64>{muri, fifo}));
            window.close();
        }
        // Remembered in the workspace file itself, not in the user's settings.
        QVERIFY(!cl::ScenarioStore(path.toStdString()).setting("compare/selection").empty());
        QVERIFY(cl::ScenarioStore(other.toStdString()).setting("compare/selection").empty());
        {
            MainWindow again;
            QString error;
            QVERIFY2(again.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
            QCOMPARE(comparisonView(again)->runs(), (QList<qint64>{muri, fifo}));
            QCOMPARE(comparisonView(again)->baselineRun(), fifo);
            QVERIFY(comparisonView(again)->isUserSelection());
            // Another workspace file keeps its own default.
            QVERIFY2(again.openWorkspace(other, MainWindow::Demo::No, &error), qPrintable(error));
            QVERIFY(!comparisonView(again)->isUserSelection());
            again.selectScenario(QStringLiteral("demo/muri-s"));
            QVERIFY(!comparisonView(again)->isUserSelection());
            QCOMPARE(comparisonView(again)->runs().size(), 3);
            again.close();
        }
        QSettings().clear();
    }

    void comparisonReportNamesEveryInputAndFitsItsTable() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.sqlite"));
        QList<qint64> runs;
        {
            cl::ScenarioStore store(path.toStdString());
            cl::populateDemoWorkspace(store);
            // A what-if that only changed the cluster, and a run of another trace and cluster.
            const auto fatTree = store.scenario("demo/fat-tree-fifo").spec.cluster_id;
            store.duplicateScenario("demo/fifo", "demo/fifo on the fat-tree",
                                    [&](cl::ScenarioSpec& spec) { spec.cluster_id = fatTree; });
            for (const char* name :
                 {"demo/fifo", "demo/fifo on the fat-tree", "demo/muri-s", "demo-sjf/sjf-ffs"})
                runs << cl::runScenario(store, name).run_id;
        }
        MainWindow window(MainWindow::Options{false});
        window.resize(1400, 900);
        window.show();
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        comparisonView(window)->setRuns(runs);
        QCOMPARE(comparisonView(window)->runs(), runs);

        const QStringList lines = window.comparisonReportScenarios();
        QCOMPARE(lines.size(), runs.size() + 1);
        QVERIFY2(lines.first().contains(QStringLiteral("cluster")) &&
                     lines.first().contains(QStringLiteral("trace")) &&
                     lines.first().contains(QStringLiteral("policy")),
                 qPrintable(lines.first()));
        cl::ScenarioStore* store = window.store();
        for (int i = 0; i < runs.size(); ++i) {
            const cl::RunInfo info = store->runInfo(runs[i]);
            const cl::ScenarioSpec spec = store->scenario(info.scenario_name).spec;
            const QString line = lines[i + 1];
            QVERIFY2(line.startsWith(QString::fromStdString(info.scenario_name)), qPrintable(line));
            QVERIFY2(line.contains(QStringLiteral("cluster ") +
                                   QString::fromStdString(store->cluster(spec.cluster_id).name)),
                     qPrintable(line));
            QVERIFY2(line.contains(QStringLiteral("trace ") +
                                   QString::fromStdString(store->trace(spec.trace_id).name)),
                     qPrintable(line));
            QVERIFY2(line.contains(QStringLiteral("policy ") + QString::fromStdString(spec.policy)),
                     qPrintable(line));
        }
        // The what-if on the fat-tree reads differently from its baseline.
        QVERIFY(lines[1].section(QLatin1Char(':'), 1) != lines[2].section(QLatin1Char(':'), 1));

        // The summary table as the report lays it out: every value on one line, whole.
        const QAbstractItemModel* table = comparisonView(window)->reportTable();
        QPdfWriter device(dir.filePath(QStringLiteral("measure.pdf")));
        device.setResolution(96);
        const cl::views::ReportTableLayout shape =
            cl::views::layoutReportTable(*table, cl::views::reportContentWidth(), &device);
        const QString problem =
            cl::test::reportTableProblem(*table, shape, cl::views::reportContentWidth(), &device);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(!shape.namesBreakAnywhere);
        const QString report = dir.filePath(QStringLiteral("report.pdf"));
        QVERIFY2(window.writeComparisonReport(report, &error), qPrintable(error));
        if (qEnvironmentVariableIsSet("MAIN_WINDOW_SAVE_REPORT"))
            QFile::copy(report, qEnvironmentVariable("MAIN_WINDOW_SAVE_REPORT"));
    }

    void sideDocksKeepTheirShareWhenMaximized() {
        MainWindow window(MainWindow::Options{false});
        window.resize(1340, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QDockWidget *workspace = nullptr, *run = nullptr;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            if (dock->objectName() == QLatin1String("workspaceDock")) workspace = dock;
            if (dock->objectName() == QLatin1String("runDock")) run = dock;
        }
        QVERIFY(workspace && run);
        QTRY_VERIFY2(workspace->width() > 0.15 * window.width(),
                     qPrintable(QStringLiteral("%1 of %2").arg(workspace->width()).arg(window.width())));
        const double workspaceShare = double(workspace->width()) / window.width();
        const double runShare = double(run->width()) / window.width();
        // What a window manager does on maximize: a state change, then the new size (the
        // offscreen screen is too small to maximize into).
        QWindowStateChangeEvent maximized(Qt::WindowNoState);
        QCoreApplication::sendEvent(&window, &maximized);
        window.resize(1900, 1000);
        QTRY_COMPARE(window.width(), 1900);
        QTRY_VERIFY2(std::abs(double(workspace->width()) / window.width() - workspaceShare) < 0.02,
                     qPrintable(QStringLiteral("%1 of %2").arg(workspace->width()).arg(window.width())));
        QVERIFY(std::abs(double(run->width()) / window.width() - runShare) < 0.02);
        // A resize of the user's own (no state change) leaves the docks alone.
        const int kept = workspace->width();
        window.resize(1700, 1000);
        QTRY_COMPARE(window.width(), 1700);
        QCOMPARE(workspace->width(), kept);
    }

    // On a 1366 x 768 screen every view's tab is in sight, labels whole (the icons give way);
    // the tab bar never scrolls; Alt+N and a click reach each one; a wide window has the icons.
    void everyViewTabFitsALaptopScreen() {
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto* tabs = namedChild<QTabWidget>(window, "pages");
        QTabBar* bar = tabs->tabBar();
        QCOMPARE(bar->count(), static_cast<int>(MainWindow::viewNames().size()));
        QTRY_VERIFY(bar->width() > 0);
        for (int i = 0; i < bar->count(); ++i) {
            const QRect rect = bar->tabRect(i);
            QVERIFY2(bar->rect().contains(rect), qPrintable(QStringLiteral("%1 at %2..%3 of %4")
                                                                .arg(bar->tabText(i))
                                                                .arg(rect.left())
                                                                .arg(rect.right())
                                                                .arg(bar->width())));
            QVERIFY2(rect.width() > bar->fontMetrics().horizontalAdvance(bar->tabText(i)),
                     qPrintable(bar->tabText(i) + " is cut"));
            QVERIFY(bar->tabToolTip(i).contains(QStringLiteral("(Alt+%1)").arg((i + 1) % 10)));
        }
        for (QToolButton* scroll : bar->findChildren<QToolButton*>()) QVERIFY(!scroll->isVisible());
        QVERIFY(bar->tabToolTip(9).contains(QStringLiteral("Replay")));

        // The keys, and a click on the last tab.
        QTest::keyClick(&window, Qt::Key_0, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), 9);
        QTest::keyClick(&window, Qt::Key_1, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), 0);
        QTest::keyClick(&window, Qt::Key_7, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), 6);
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(9).center());
        QCOMPARE(tabs->currentIndex(), 9);

        // A full-HD window shows the icons again, every tab still in the bar.
        window.resize(1920, 1080);
        QTRY_COMPARE(window.width(), 1920);
        QTRY_VERIFY(!bar->tabIcon(0).isNull());
        for (int i = 0; i < bar->count(); ++i) QVERIFY(bar->rect().contains(bar->tabRect(i)));
    }

    // One rule for every view at 1366x768, with the docks as they come: each chart at least
    // 200 px tall, each table room for five rows (or all of its rows when it has fewer).
    void everyViewKeepsChartsAndTablesReadableAt1366() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY2(openRanDemo(window, dir, &error), qPrintable(error));
        window.resize(1366, 768);
        QTRY_COMPARE(window.size(), QSize(1366, 768));
        auto* tabs = namedChild<QTabWidget>(window, "pages");
        QStringList problems;
        for (const QString& view : MainWindow::viewNames()) {
            QVERIFY(window.showView(view));
            if (view == QLatin1String("timeline")) {
                QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
                if (!timelinePanel(window)->view()->result()) QVERIFY(loaded.wait(kTimeoutMs));
            }
            QTest::qWait(50);
            QWidget* page = tabs->currentWidget();
            for (QWidget* w : page->findChildren<QWidget*>()) {
                if (!w->isVisible()) continue;
                const QString type = QString::fromLatin1(w->metaObject()->className());
                const bool chart = qobject_cast<QChartView*>(w) || w->inherits("QCustomPlot") ||
                                   type.endsWith(QLatin1String("Chart")) ||
                                   type.endsWith(QLatin1String("Gantt"));
                if (chart && w->height() < 200)
                    problems << QStringLiteral("%1: %2 %3 is %4 px tall")
                                    .arg(view, type, w->objectName())
                                    .arg(w->height());
                auto* table = qobject_cast<QAbstractItemView*>(w);
                if (!table || !(qobject_cast<QTableView*>(w) || qobject_cast<QTreeView*>(w)) ||
                    !table->model())
                    continue;
                const int rows = std::min(5, table->model()->rowCount());
                const int rowHeight =
                    qobject_cast<QTableView*>(w)
                        ? static_cast<QTableView*>(w)->verticalHeader()->defaultSectionSize()
                        : table->fontMetrics().height() + 4;
                if (rows > 0 && table->viewport()->height() < rows * rowHeight - 2)
                    problems << QStringLiteral("%1: %2 %3 shows %4 px for %5 rows of %6 px")
                                    .arg(view, type, w->objectName())
                                    .arg(table->viewport()->height())
                                    .arg(rows)
                                    .arg(rowHeight);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void neverRunScenarioSaysSoOnce() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("unrun.sqlite"));
        {
            cl::ScenarioStore store(path.toStdString());
            cl::populateDemoWorkspace(store);
        }
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        window.selectScenario(QStringLiteral("demo/muri-s"));
        const QAbstractItemModel* table = resultsTable(window)->model();
        QVERIFY(table->rowCount() > 0);
        for (int r = 0; r < table->rowCount(); ++r) {
            QCOMPARE(table->index(r, SummaryTableModel::AvgJctColumn).data().toString(),
                     QStringLiteral("not run"));
            for (int c = SummaryTableModel::MedianJctColumn; c < SummaryTableModel::ColumnCount; ++c)
                QCOMPARE(table->index(r, c).data().toString(), QStringLiteral("\u2013"));
        }
    }

    // A row picked in Results selects its scenario in the whole window (the Run dock and the
    // Properties follow), and a scenario that is running says so instead of "not run".
    void resultsRowSelectsTheScenarioAndShowsRunning() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("unrun.sqlite"));
        {
            cl::ScenarioStore store(path.toStdString());
            cl::populateDemoWorkspace(store);
        }
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openWorkspace(path, MainWindow::Demo::No, &error), qPrintable(error));
        window.selectScenario(QStringLiteral("demo/fifo"));
        QTableView* table = resultsTable(window);
        SummaryTableModel* model = resultsModel(window);
        const int srtf = static_cast<int>(model->policies().indexOf(QStringLiteral("demo/srtf")));
        QVERIFY(srtf >= 0);
        table->scrollTo(table->model()->index(srtf, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(table->model()->index(srtf, 0)).center());
        QCOMPARE(scenarioBrowser(window)->currentScenario(), QStringLiteral("demo/srtf"));
        QCOMPARE(runPanel(window)->request().base, QStringLiteral("demo/srtf"));
        QVERIFY(namedChild<QTextBrowser>(window, "propertiesView")
                    ->toPlainText()
                    .contains(QStringLiteral("demo/srtf")));
        QCOMPARE(table->currentIndex().row(), srtf);

        // Running it (F5 runs the selected scenario's checked policies): "running", then its figures.
        // (The run may end within a few events: what the row said is recorded as it changes.)
        QStringList said;
        connect(model, &QAbstractItemModel::dataChanged, this,
                [&] { said << model->index(srtf, SummaryTableModel::AvgJctColumn).data().toString(); });
        QSignalSpy done(&window, &MainWindow::runsFinished);
        window.runScenarios({QStringLiteral("demo/srtf")});
        QVERIFY(window.isRunning());
        QVERIFY(done.wait(kTimeoutMs));
        QVERIFY2(!said.isEmpty() && said.first().startsWith(QStringLiteral("running")),
                 qPrintable(said.join(QLatin1Char('|'))));
        QVERIFY(!said.contains(QStringLiteral("not run")));
        QCOMPARE(model->state(srtf), SummaryTableModel::RowState::Done);
    }

    // Help: F1 opens the guide (offline, with its screenshots), the shortcut list is read from
    // the menus, and every view says what it is under What's This.
    void helpHasAGuideShortcutsAndWhatsThis() {
        MainWindow window(MainWindow::Options{false});
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::keyClick(&window, Qt::Key_F1);
        auto* guide = window.findChild<cl::views::GuideDialog*>(QStringLiteral("guideDialog"));
        QVERIFY(guide);
        QVERIFY(guide->isVisible());
        const QString text = guide->guide()->toPlainText();
        for (const char* part :
             {"For a capacity planner", "For a teacher", "For a report author", "Keyboard shortcuts"})
            QVERIFY2(text.contains(QLatin1String(part)), part);
        const QVariant image = guide->guide()->loadResource(QTextDocument::ImageResource,
                                                            QUrl(QStringLiteral("results-1366.png")));
        QVERIFY(!image.isNull());
        QVERIFY(!QImage::fromData(image.toByteArray()).isNull() || !image.value<QImage>().isNull());
        // Shown narrower than the 1366-pixel screenshot, so it fits the dialog.
        QVERIFY(guide->guide()->document()->size().width() < 1366);

        // The shortcut list: read from the menus, so it holds what the menus hold.
        namedChild<QAction>(window, "helpShortcuts")->trigger();
        QTableWidget* keys = guide->shortcuts();
        QCOMPARE(guide->findChild<QTabWidget*>(QStringLiteral("guideTabs"))->currentIndex(),
                 int(cl::views::GuideDialog::ShortcutsTab));
        QHash<QString, QString> byCommand;
        for (int r = 0; r < keys->rowCount(); ++r)
            byCommand.insert(keys->item(r, 0)->text(), keys->item(r, 1)->text());
        QCOMPARE(byCommand.value(QStringLiteral("Help \u203a Guide")),
                 QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText));
        QVERIFY2(byCommand.value(QStringLiteral("Simulation \u203a Run")).contains(QStringLiteral("F5")),
                 qPrintable(QStringList(byCommand.keys()).join(QLatin1Char('|'))));
        QCOMPARE(byCommand.value(QStringLiteral("View \u203a Results")), QStringLiteral("Alt+1"));
        guide->close();

        // What's This on every view.
        QVERIFY(namedChild<QAction>(window, "helpWhatsThis"));
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pages"));
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), int(MainWindow::viewNames().size()));
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY2(tabs->widget(i)->whatsThis().size() > 80, qPrintable(tabs->tabText(i)));
    }

    void firstWindowFillsMostOfTheScreen() {
        // A full-HD and a small laptop screen (less a task bar), and the offscreen test screen.
        QCOMPARE(MainWindow::firstWindowSize(QSize(1920, 1040), QSize(900, 500)), QSize(1728, 936));
        QCOMPARE(MainWindow::firstWindowSize(QSize(1366, 728), QSize(900, 500)), QSize(1340, 655));
        QCOMPARE(MainWindow::firstWindowSize(QSize(800, 600), QSize(900, 500)), QSize(800, 540));
        MainWindow window(MainWindow::Options{false});
        const QRect available = window.screen()->availableGeometry();
        QCOMPARE(window.size(), MainWindow::firstWindowSize(available.size(), window.minimumSizeHint()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(available.contains(window.frameGeometry().center()), "centred on its screen");
    }

    void menusCarryStandardShortcutsWithoutClashes() {
        MainWindow window(MainWindow::Options{false});
        // Undo acts on the cluster, so its keys only work where the cluster is shown.
        QVERIFY(window.findChildren<QAction*>().size() > 0);
        for (QAction* action : window.findChildren<QAction*>())
            if (action->shortcutContext() == Qt::WindowShortcut)
                QVERIFY2(!action->shortcuts().contains(QKeySequence(QKeySequence::Undo)),
                         qPrintable(action->text()));
        QVERIFY(window.showView(QStringLiteral("cluster")));
        QStringList menus;
        for (QAction* action : window.menuBar()->actions()) menus << action->text().remove(QLatin1Char('&'));
        for (const char* name : {"File", "Edit", "Scenario", "Simulation", "View", "Help"})
            QVERIFY2(menus.contains(QLatin1String(name)), name);
        QStringList shortcuts;
        for (QAction* action : window.findChildren<QAction*>()) {
            if (!action->isVisible()) continue;
            for (const QKeySequence& key : action->shortcuts())
                if (action->shortcutContext() == Qt::WindowShortcut ||
                    action->shortcutContext() == Qt::ApplicationShortcut)
                    shortcuts << key.toString();
        }
        for (const QKeySequence& key : {QKeySequence(QKeySequence::New), QKeySequence(QKeySequence::Open),
                                        QKeySequence(QKeySequence::Save), QKeySequence(QKeySequence::Undo),
                                        QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_E)})
            QVERIFY2(shortcuts.contains(key.toString()), qPrintable(key.toString()));
        // Mnemonics that act window-wide: the menu bar's and those of the labels in the docks.
        window.show();
        QStringList mnemonics;
        for (QAction* action : window.menuBar()->actions())
            mnemonics << QKeySequence::mnemonic(action->text()).toString();
        for (QLabel* label : window.findChildren<QLabel*>())
            if (label->buddy() && label->isVisibleTo(&window) && !window.centralWidget()->isAncestorOf(label))
                mnemonics << QKeySequence::mnemonic(label->text()).toString();
        mnemonics.removeAll(QString());
        QStringList uniqueMnemonics = mnemonics;
        uniqueMnemonics.removeDuplicates();
        QVERIFY2(uniqueMnemonics.size() == mnemonics.size(),
                 qPrintable(mnemonics.join(QStringLiteral(", "))));

        QStringList unique = shortcuts;
        unique.removeDuplicates();
        if (unique.size() != shortcuts.size()) {
            for (const QString& s : unique) shortcuts.removeOne(s);
            QFAIL(qPrintable(QStringLiteral("window-wide shortcuts used twice: ") +
                             shortcuts.join(QStringLiteral(", "))));
        }
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
