#pragma once
// The main window: the current scenario (cluster, trace), a summary table with one row per
// policy and the GPU utilization of the first policy's run. Runs go through RunJob.
#include <map>
#include <memory>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>

#include "views/run_job.h"
#include "views/scenario.h"

class QAction;
class QLabel;
class QProgressBar;
class QTableView;

namespace cl::views {

class SummaryTableModel;
class UtilizationPlot;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // Starts the runs of the scenario's policies as soon as the event loop runs.
    explicit MainWindow(Scenario scenario, QWidget* parent = nullptr);
    ~MainWindow() override;

    const Scenario& scenario() const { return m_scenario; }
    SummaryTableModel* summaryModel() const { return m_model; }
    UtilizationPlot* utilizationPlot() const { return m_plot; }
    QTableView* summaryView() const { return m_table; }
    bool isRunning() const;
    // Result of a finished run of this policy, or null.
    SimResultPtr result(const QString& policy) const;
    int failedRuns() const { return m_failed; }

public slots:
    void startRuns();
    void cancelRuns();
    // Replaces the scenario's trace with the file's (format detected) and reruns. Returns
    // false, keeping the current trace, if the file cannot be read; *error then says why.
    bool openTrace(const QString& path, QString* error = nullptr);

signals:
    // All runs of the current scenario ended (finished, failed or cancelled).
    void runsFinished();

private slots:
    void chooseTrace();
    void showAbout();

private:
    void createActions();
    void createCentralWidget();
    void updateScenarioLabels();
    void fitSummaryHeight();
    void setRunningUi(bool running);

    void onPolicyStarted(const QString& policy);
    void onProgress(const QString& policy, double fraction_done, double overall_done);
    void onPolicyFinished(const QString& policy, SimResultPtr result);
    void onPolicyFailed(const QString& policy, const QString& message);
    void onFinished(bool cancelled);

    Scenario m_scenario;
    std::unique_ptr<RunJob> m_job;
    std::map<QString, SimResultPtr> m_results;
    int m_failed = 0;
    QElapsedTimer m_clock;

    SummaryTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    UtilizationPlot* m_plot = nullptr;
    QLabel* m_clusterLabel = nullptr;
    QLabel* m_traceLabel = nullptr;
    QLabel* m_policiesLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
};

}  // namespace cl::views
