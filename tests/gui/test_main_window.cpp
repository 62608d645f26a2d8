// The desktop workspace, offscreen: the demo workspace opens and runs on worker threads into
// the store; Stop stores nothing partial; imports show their errors and store nothing when
// refused; the edited cluster is stored; menus carry the standard shortcuts without clashes.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

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
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include "screenshot_checks.h"

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/store/demo_workspace.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "views/charts/series_charts.h"
#include "views/cluster/cluster_diagram.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/cluster_name_dialog.h"
#include "views/common/chart_export.h"
#include "views/interleave/interleave_panel.h"
#include "views/interleave/stage_table_model.h"
#include "views/results/results_view.h"
#include "views/results/summary_table_model.h"
#include "views/results/utilization_plot.h"
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
    window.scenarioBrowser()->selectScenario(QStringLiteral("demo/muri-s"));
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

// Types `name` into the cluster name dialog and presses Save.
std::function<void(QWidget*)> nameCluster(const QString& name) {
    return [name](QWidget* modal) {
        auto* dialog = qobject_cast<cl::views::ClusterNameDialog*>(modal);
        QVERIFY2(dialog, modal->metaObject()->className());
        dialog->nameEdit()->clear();
        QTest::keyClicks(dialog->nameEdit(), name);
        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
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
        SummaryTableModel* model = window.resultsView()->model();
        QCOMPARE(window.resultsView()->family(), QStringLiteral("demo"));
        const auto in_demo_family = std::count_if(
            names.begin(), names.end(), [](const std::string& n) { return n.rfind("demo/", 0) == 0; });
        QCOMPARE(model->rowCount(), static_cast<int>(in_demo_family));
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->state(row), SummaryTableModel::RowState::Done);
        QVERIFY(window.resultsView()->plot()->pointCount() > 0);
        QVERIFY(window.runLog()->toPlainText().contains(QStringLiteral("demo/srtf finished")));
        QCOMPARE(window.runPanel()->runState(QStringLiteral("demo/fifo")), RunPanel::RunState::Finished);

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
        QCOMPARE(window.runPanel()->runState(QStringLiteral("demo/fifo")), RunPanel::RunState::Reused);
    }

    void analysisViewsFollowTheResults() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY2(openRanDemo(window, dir, &error), qPrintable(error));

        // The charts overlay the family's runs (at most 8, one colour each: the demo has more),
        // and like the timeline read them only when shown.
        QCOMPARE(window.seriesCharts()->runCount(), 0);
        QVERIFY(window.showView(QStringLiteral("charts")));
        QCOMPARE(window.seriesCharts()->runCount(),
                 std::min(8, static_cast<int>(cl::demoScenarioNames().size())));
        QVERIFY(!window.timelinePanel()->view()->result());
        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
        QVERIFY(window.showView(QStringLiteral("timeline")));
        QVERIFY(loaded.wait(kTimeoutMs));  // read off the GUI thread
        QVERIFY(window.timelinePanel()->view()->result());
        QCOMPARE(window.timelinePanel()->view()->layout().rowCount(), 64);
        const auto shown = window.timelinePanel()->view()->result();

        // A job of muri-s that shared GPUs sends its group to the Interleaving view.
        const cl::views::TimelineLayout& layout = window.timelinePanel()->view()->layout();
        int shared = -1;
        for (int j = 0; j < layout.jobCount() && shared < 0; ++j)
            if (!layout.partnersOf(j).empty()) shared = j;
        QVERIFY(shared >= 0);
        auto* toInterleaving = window.findChild<QPushButton*>(QStringLiteral("toInterleaving"));
        QVERIFY(toInterleaving && !toInterleaving->isEnabled());
        window.timelinePanel()->view()->selectJob(shared);
        QVERIFY(toInterleaving->isEnabled());
        toInterleaving->click();
        const int members = window.interleavePanel()->stageModel()->jobCount();
        QVERIFY(members >= 2 && members <= 4);
        QVERIFY(std::isfinite(window.interleavePanel()->gamma()));
        QVERIFY(window.showView(QStringLiteral("timeline")));

        // Another run of the family below it, on the same time axis.
        QList<QComboBox*> boxes = window.findChildren<QComboBox*>();
        QComboBox* compareWith = nullptr;
        for (QComboBox* box : boxes)
            if (box->itemText(0) == QStringLiteral("nothing")) compareWith = box;
        QVERIFY(compareWith);
        // "nothing" and the other four runs of the Muri demo's trace (the Synergy demo's jobs differ).
        QCOMPARE(compareWith->count(), 5);
        compareWith->setCurrentIndex(1);
        emit compareWith->activated(1);
        QVERIFY(window.timelinePanel()->hasSecondRun());
        QCOMPARE(window.timelinePanel()->view()->result(), shown);
    }

    void everyViewExportsAndTheReportIsWritten() {
        QTemporaryDir dir;
        MainWindow window(MainWindow::Options{false});
        QString error;
        QVERIFY2(openRanDemo(window, dir, &error), qPrintable(error));
        QSignalSpy loaded(&window, &MainWindow::timelineLoaded);
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
        }
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
        window.scenarioBrowser()->selectScenario(QStringLiteral("demo/srtf"));
        QCOMPARE(window.runPanel()->request().base, QStringLiteral("demo/srtf"));
        window.runPanel()->setCheckedPolicies({QStringLiteral("srtf"), QStringLiteral("fifo")});
        window.runPanel()->setLoadFactor(2.0);
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
        QDoubleSpinBox* xi = window.runPanel()->interferenceBox();
        QVERIFY(!xi->isEnabled());
        QVERIFY(!xi->toolTip().isEmpty());
        window.scenarioBrowser()->selectScenario(QStringLiteral("demo/sjf-bsbf"));
        QCOMPARE(window.runPanel()->checkedPolicies(), QStringList{QStringLiteral("sjf-bsbf")});
        QVERIFY(xi->isEnabled());
        QCOMPARE(xi->text(), QStringLiteral("profile"));
        QCOMPARE(window.runPanel()->request().interference, 0.0);
        window.runPanel()->setCheckedPolicies({QStringLiteral("fifo")});
        QVERIFY(!xi->isEnabled());
        window.runPanel()->setCheckedPolicies(
            {QStringLiteral("sjf-ffs"), QStringLiteral("fifo+bsbf"), QStringLiteral("fifo")});
        QVERIFY(xi->isEnabled());
        xi->setValue(xi->minimum());
        xi->stepBy(1);
        QCOMPARE(window.runPanel()->interference(), 1.0);
        window.runPanel()->setInterference(1.2);
        QCOMPARE(window.runPanel()->request().interference, 1.2);
        window.resize(1400, 900);
        window.show();
        cl::test::ScreenshotDir shots;
        QVERIFY(shots.isValid());
        cl::test::shoot(*window.runPanel(), shots, QStringLiteral("sjf_run_panel.png"),
                        window.runPanel()->palette().color(QPalette::WindowText));
        QSignalSpy shared(&window, &MainWindow::runsFinished);
        window.runRequested();
        QVERIFY(shared.wait(kTimeoutMs));
        QCOMPARE(window.failedRuns(), 0);
        QCOMPARE(store.findScenario("demo/sjf-bsbf/sjf-ffs/xi1.2")->spec.parameters.interference, 1.2);
        QCOMPARE(store.findScenario("demo/sjf-bsbf/fifo+bsbf/xi1.2")->spec.parameters.interference, 1.2);
        QCOMPARE(store.findScenario("demo/sjf-bsbf/fifo")->spec.parameters.interference, 0.0);
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
        QCOMPARE(window.runPanel()->runState(QStringLiteral("burst")), RunPanel::RunState::Cancelled);
        QVERIFY(window.store()->runs().empty());

        // Stopped while simulating: cancelled and nothing stored -- or, on a machine fast
        // enough to finish first, exactly one finished run. Never a partial or running one.
        window.runScenarios({QStringLiteral("burst")});
        QVERIFY(window.isRunning());
        QVERIFY(window.scenarioBrowser()->isEditingLocked());
        QTRY_VERIFY_WITH_TIMEOUT(
            window.runPanel()->runState(QStringLiteral("burst")) != RunPanel::RunState::Queued, kTimeoutMs);
        window.stopRuns();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kTimeoutMs);
        QVERIFY(!window.isRunning());
        QVERIFY(!window.scenarioBrowser()->isEditingLocked());
        const auto runs = window.store()->runs();
        if (window.runPanel()->runState(QStringLiteral("burst")) == RunPanel::RunState::Cancelled) {
            QVERIFY(runs.empty());
            QVERIFY(window.runLog()->toPlainText().contains(QStringLiteral("nothing was stored")));
        } else {
            QCOMPARE(window.runPanel()->runState(QStringLiteral("burst")), RunPanel::RunState::Finished);
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
        QCOMPARE(window.clusterEditor()->cluster().totalGpus(), 64);
        QVERIFY(window.traceBrowser()->jobModel()->rowCount() > 0);
        QVERIFY(window.openWorkspace(dir.filePath(QStringLiteral("b.sqlite")), MainWindow::Demo::No, &error));
        QCOMPARE(window.clusterEditor()->cluster().servers.size(), std::size_t(0));
        QCOMPARE(window.traceBrowser()->jobModel()->rowCount(), 0);
        QCOMPARE(window.runPanel()->runCount(), 0);
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
        QCOMPARE(window.clusterEditor()->cluster().totalGpus(), 64);

        const qint64 imported = store.clusters().front().id;
        QCOMPARE(window.clusterEditor()->storedClusterId(), imported);
        QVERIFY2(
            window.clusterEditor()->statusLabel()->text().contains(QStringLiteral("saved (stored cluster")),
            qPrintable(window.clusterEditor()->statusLabel()->text()));

        // Ctrl+S on edits of the stored cluster: a copy, which is named before it is stored.
        cl::Server server = window.clusterEditor()->cluster().servers.front();
        window.clusterEditor()->addServers(server, 2);
        QVERIFY(window.clusterEditor()->isModified());
        QVERIFY(window.windowTitle().contains(QLatin1Char('*')));
        QVERIFY2(window.clusterEditor()->statusLabel()->text().contains(QStringLiteral("unsaved changes")),
                 qPrintable(window.clusterEditor()->statusLabel()->text()));
        QAction* save = actionWithShortcut(window, QKeySequence::Save);
        QVERIFY(save);
        QString suggested, refusal;
        bool okWhenTaken = true;
        ModalScript script({[&](QWidget* modal) {
            auto* dialog = qobject_cast<cl::views::ClusterNameDialog*>(modal);
            QVERIFY2(dialog, modal->metaObject()->className());
            suggested = dialog->name();
            // The taken name is refused with a message, and Save cannot be pressed.
            dialog->nameEdit()->clear();
            QTest::keyClicks(dialog->nameEdit(), QStringLiteral("muri-testbed-64"));
            refusal = dialog->problem();
            okWhenTaken = dialog->okButton()->isEnabled();
            QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);  // refused: the dialog stays
            QVERIFY(dialog->isVisible());
            nameCluster(QStringLiteral("testbed-80"))(modal);
        }});
        save->trigger();
        QVERIFY(script.done());
        QCOMPARE(suggested, QStringLiteral("muri-testbed-64 2"));
        QVERIFY2(refusal.contains(QStringLiteral("already stored")), qPrintable(refusal));
        QVERIFY(!okWhenTaken);
        QVERIFY(!window.clusterEditor()->isModified());
        QCOMPARE(store.clusters().size(), std::size_t(2));
        QStringList storedNames;
        for (const auto& c : store.clusters()) storedNames << QString::fromStdString(c.name);
        storedNames.sort();
        QCOMPARE(storedNames, QStringList({"muri-testbed-64", "testbed-80"}));
        QCOMPARE(window.clusterEditor()->cluster().name, std::string("testbed-80"));
        QVERIFY(window.clusterEditor()->storedClusterId() != imported);
        QVERIFY2(window.clusterEditor()->statusLabel()->text().contains(QStringLiteral("<b>testbed-80</b>")),
                 qPrintable(window.clusterEditor()->statusLabel()->text()));
        QCOMPARE(store.cluster(window.clusterEditor()->storedClusterId()).totalGpus(), 80);

        // Saving again without edits stores nothing and asks nothing.
        ModalScript none;
        save->trigger();
        QCOMPARE(none.seen(), 0);
        QCOMPARE(store.clusters().size(), std::size_t(2));

        // Cancelling the name keeps the edits unsaved and stores nothing.
        window.clusterEditor()->addServers(server, 1);
        {
            ModalScript cancel({[](QWidget* modal) { qobject_cast<QDialog*>(modal)->reject(); }});
            QVERIFY(!window.saveCluster(&error));
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        QVERIFY(window.clusterEditor()->isModified());
        QCOMPARE(store.clusters().size(), std::size_t(2));

        window.clusterEditor()->undoStack()->undo();  // the added server
        window.clusterEditor()->undoStack()->undo();  // the rename
        window.clusterEditor()->undoStack()->undo();  // the two servers
        QCOMPARE(window.clusterEditor()->cluster().totalGpus(), 64);
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
        cl::views::ClusterEditor* editor = window.clusterEditor();
        const auto current = [&] { return window.scenarioBrowser()->currentScenario(); };
        window.selectScenario(QStringLiteral("demo/fifo"));
        QCOMPARE(editor->cluster().name, std::string("muri-testbed-64"));
        const qint64 testbed = editor->storedClusterId();
        QVERIFY(testbed != 0);
        const cl::Server server = editor->cluster().servers.front();

        editor->addServers(server, 1);
        {
            ModalScript script({clickButton(QMessageBox::Cancel)});
            window.selectScenario(QStringLiteral("demo/synergy-tune"));
            QVERIFY(script.done());
            QTRY_COMPARE(current(), QStringLiteral("demo/fifo"));
            QCOMPARE(script.seen(), 1);  // going back asks nothing
        }
        QVERIFY(editor->isModified());
        QCOMPARE(editor->storedClusterId(), testbed);
        QCOMPARE(editor->cluster().totalGpus(), 72);

        {
            ModalScript script({clickButton(QMessageBox::Discard)});
            window.selectScenario(QStringLiteral("demo/synergy-tune"));
            QVERIFY(script.done());
        }
        QCOMPARE(current(), QStringLiteral("demo/synergy-tune"));
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
            window.selectScenario(QStringLiteral("demo/synergy-tune"));
            QVERIFY(script.done());
        }
        QCOMPARE(current(), QStringLiteral("demo/synergy-tune"));
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
            const int whole = window.clusterEditor()->width();
            const int diagram = window.clusterEditor()->diagram()->width();
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
            auto* splitter = window.clusterEditor()->findChild<QSplitter*>(QStringLiteral("clusterSplitter"));
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
            auto* splitter = again.clusterEditor()->findChild<QSplitter*>(QStringLiteral("clusterSplitter"));
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
        QCOMPARE(window.clusterEditor()->cluster().name, window.store()->clusters().front().name);
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
                     dialog->nameEdit()->clear();
                     QTest::keyClicks(dialog->nameEdit(), QStringLiteral("muri-testbed-64"));
                     refusal = dialog->problem();
                     okWhenTaken = dialog->okButton()->isEnabled();
                     QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);  // refused
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
        QCOMPARE(window.clusterEditor()->cluster().name, std::string("testbed-48"));
        QCOMPARE(window.clusterEditor()->cluster().totalGpus(), 48);
        QVERIFY(!window.clusterEditor()->isModified());
        QCOMPARE(store.cluster(window.clusterEditor()->storedClusterId()).name, std::string("testbed-48"));

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
            QTRY_VERIFY2(script.done(), qPrintable(window.runLog()->toPlainText()));
            QCOMPARE(cancelled, QStringLiteral("muri-testbed-64 2"));
            QTest::qWait(100);
            QCOMPARE(script.seen(), 1);
        }
        QCOMPARE(storedNames(), QStringList({"muri-testbed-64", "testbed-48"}));
        QVERIFY(window.runLog()->toPlainText().contains(QStringLiteral("cancelled")));

        // The identical layout again is the stored cluster: no question, nothing new.
        {
            ModalScript none;
            QVERIFY2(window.importLayout(original, &error), qPrintable(error));
            QCOMPARE(none.seen(), 0);
        }
        QCOMPARE(storedNames(), QStringList({"muri-testbed-64", "testbed-48"}));
        QCOMPARE(window.clusterEditor()->cluster().totalGpus(), 64);
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
        for (const char* name : {"File", "Edit", "Simulation", "View", "Help"})
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
