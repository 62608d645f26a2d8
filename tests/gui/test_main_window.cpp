// The main window on the demo scenario, offscreen: it constructs, runs the four policies off
// the GUI thread, fills the summary table and the utilization plot; runs can be cancelled.
#include <algorithm>
#include <memory>

#include <qcustomplot.h>
#include <QAction>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "core/io/trace_writers.h"
#include "views/main_window.h"
#include "views/run_job.h"
#include "views/scenario.h"
#include "views/summary_table_model.h"
#include "views/utilization_plot.h"

using cl::views::MainWindow;
using cl::views::Scenario;
using cl::views::SummaryTableModel;

namespace {

constexpr int kTimeoutMs = 180000;  // generous: debug and sanitizer builds on small machines

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        try {
            m_demo = Scenario::demo();
        } catch (const std::exception& error) {
            QFAIL(qPrintable(QStringLiteral("demo scenario: ") + QString::fromStdString(error.what())));
        }
        QVERIFY(m_demo.isValid());
        QCOMPARE(m_demo.policies, (QStringList{"fifo", "srtf", "srsf", "tiresias"}));
        QVERIFY(!m_demo.trace->jobs.empty());
    }

    void showsDemoSummaryAfterRuns() {
        MainWindow window(m_demo);
        QSignalSpy finished(&window, &MainWindow::runsFinished);
        window.show();
        QCOMPARE(window.windowTitle(), QStringLiteral("ClusterLoom"));

        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(!window.isRunning());
        QCOMPARE(window.failedRuns(), 0);

        SummaryTableModel* model = window.summaryModel();
        QCOMPARE(model->rowCount(), 4);
        QCOMPARE(window.summaryView()->model(), model);
        for (int row = 0; row < model->rowCount(); ++row) {
            QCOMPARE(model->state(row), SummaryTableModel::RowState::Done);
            const auto summary = model->summary(row);
            QVERIFY(summary.has_value());
            QCOMPARE(summary->jobs, static_cast<int>(m_demo.trace->jobs.size()));
            QVERIFY(summary->avg_jct > 0.0);
            const QString avg = model->data(model->index(row, SummaryTableModel::AvgJctColumn)).toString();
            QVERIFY2(avg.endsWith(" s") || avg.endsWith(" min") || avg.endsWith(" h") || avg.endsWith(" d"),
                     qPrintable(avg));
            QVERIFY(window.result(model->policies().at(row)) != nullptr);
        }
        // The plot shows the first policy's utilization.
        QVERIFY(window.utilizationPlot()->pointCount() > 0);
        QCOMPARE(window.utilizationPlot()->plot()->graph(0)->name(), QStringLiteral("fifo"));

        const QPixmap shot = window.grab();
        QVERIFY(!shot.isNull());
        QVERIFY(shot.width() > 300 && shot.height() > 200);
    }

    void hasMenusAndShortcuts() {
        MainWindow window(m_demo);
        QSignalSpy finished(&window, &MainWindow::runsFinished);
        QStringList menus;
        for (QAction* action : window.menuBar()->actions()) menus << action->text().remove('&');
        QVERIFY(menus.contains("File"));
        QVERIFY(menus.contains("Help"));
        bool quit = false;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Q)) quit = true;
        QVERIFY(quit);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    }

    void cancelStopsRuns() {
        MainWindow window(m_demo);
        QSignalSpy finished(&window, &MainWindow::runsFinished);
        window.startRuns();  // start now, then cancel before the worker gets far
        window.cancelRuns();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, kTimeoutMs);
        QVERIFY(!window.isRunning());
        // Every row either finished before the cancel arrived or is marked cancelled.
        SummaryTableModel* model = window.summaryModel();
        for (int row = 0; row < model->rowCount(); ++row) {
            const auto state = model->state(row);
            QVERIFY(state == SummaryTableModel::RowState::Done ||
                    state == SummaryTableModel::RowState::Cancelled);
        }
    }

    void opensAnotherTraceAndReruns() {
        MainWindow window(m_demo);
        QSignalSpy finished(&window, &MainWindow::runsFinished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        cl::Trace small = *m_demo.trace;
        small.name = "first-five";
        small.jobs.resize(std::min<size_t>(5, small.jobs.size()));
        const QString path = dir.filePath("first-five.json");
        cl::writeTraceJson(small, path.toStdString());

        QString error;
        QVERIFY2(window.openTrace(path, &error), qPrintable(error));
        QCOMPARE(window.scenario().trace->jobs.size(), small.jobs.size());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
        const auto summary = window.summaryModel()->summary(0);
        QVERIFY(summary.has_value());
        QCOMPARE(summary->jobs, static_cast<int>(small.jobs.size()));

        // A file that cannot be read keeps the current trace and says why, without a dialog.
        QVERIFY(!window.openTrace(dir.filePath("missing.csv"), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(window.scenario().trace->name, std::string("first-five"));
    }

    void runJobReportsUnknownPolicy() {
        cl::views::RunInputs inputs{m_demo.cluster, m_demo.trace, m_demo.profiles, {}};
        cl::views::RunJob job(inputs, {"no-such-policy"});
        QSignalSpy failed(&job, &cl::views::RunJob::policyFailed);
        QSignalSpy finished(&job, &cl::views::RunJob::finished);
        job.start();
        QVERIFY(job.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no-such-policy"));
        QVERIFY(!failed.at(0).at(1).toString().isEmpty());
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(!job.isRunning());
    }

    void runJobDeliversResultsOnGuiThread() {
        cl::views::RunInputs inputs{m_demo.cluster, m_demo.trace, m_demo.profiles, {}};
        cl::views::RunJob job(inputs, {"fifo"});
        QThread* receivedOn = nullptr;
        cl::views::SimResultPtr received;
        connect(&job, &cl::views::RunJob::policyFinished, this,
                [&](const QString&, cl::views::SimResultPtr result) {
                    receivedOn = QThread::currentThread();
                    received = std::move(result);
                });
        QSignalSpy finished(&job, &cl::views::RunJob::finished);
        job.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(received != nullptr);
        QCOMPARE(receivedOn, QThread::currentThread());
        QCOMPARE(received->jobs.size(), m_demo.trace->jobs.size());
    }

    void deletingRunningJobIsSafe() {
        cl::views::RunInputs inputs{m_demo.cluster, m_demo.trace, m_demo.profiles, {}};
        auto job = std::make_unique<cl::views::RunJob>(inputs, m_demo.policies);
        job->start();
        job.reset();       // cancels and waits for the worker
        QTest::qWait(50);  // queued deliveries to the deleted job must be dropped
    }

private:
    Scenario m_demo;
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
