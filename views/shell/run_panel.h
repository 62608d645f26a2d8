#pragma once
// Run control for the selected scenario: which policies to run, at which load and cluster
// size, and one progress bar per run while they execute. The panel only collects the request
// and shows progress; the main window creates the scenarios and drives a ScenarioRunBatch.
#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace cl {
struct ScenarioInfo;
}

namespace cl::views {

class RunPanel : public QWidget {
    Q_OBJECT

public:
    struct Request {
        QString base;
        QStringList policies;
        double load_factor = 1.0;
        int server_count = 0;
        // SJF-BSBF's interference ratio for the checked policies that share GPUs: 0 = the
        // profile's; equal to the scenario's own unless changed.
        double interference = 0.0;
        bool force = false;
    };
    enum class RunState { Queued, Running, Finished, Reused, Failed, Cancelled };

    explicit RunPanel(QWidget* parent = nullptr);

    // The scenario runs start from; null disables the panel.
    void setScenario(const cl::ScenarioInfo* scenario);
    Request request() const;
    QStringList checkedPolicies() const;
    void setCheckedPolicies(const QStringList& policies);
    void setLoadFactor(double factor);
    void setServerCount(int servers);
    // 0 = the profile's ratios, else 1..3 in steps of 0.05.
    void setInterference(double xi);
    double interference() const;
    void setRunning(bool running);

    void clearRuns();
    void addRun(const QString& scenario);
    void setRunProgress(const QString& scenario, double fraction);
    void setRunState(const QString& scenario, RunState state, const QString& detail = {});
    RunState runState(const QString& scenario) const;
    int runCount() const;

signals:
    void runRequested();
    void stopRequested();

private:
    QListWidget* createPolicyList();
    // Load, cluster size, interference ratio and whether to run again.
    QFormLayout* createSettingsForm();
    QHBoxLayout* createButtons();
    // One row per run of the last request, with its progress bar.
    QTreeWidget* createRunList();
    void markRunnablePolicies(const cl::ScenarioInfo& scenario);
    void updateRunEnabled();

    QLabel* m_scenarioLabel = nullptr;
    QListWidget* m_policies = nullptr;
    QDoubleSpinBox* m_load = nullptr;
    QSpinBox* m_servers = nullptr;
    QDoubleSpinBox* m_xi = nullptr;
    QCheckBox* m_force = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QTreeWidget* m_runs = nullptr;
    QString m_base;
    double m_baseLoad = 1.0;
    bool m_running = false;
    struct Row {
        QTreeWidgetItem* item = nullptr;
        QProgressBar* bar = nullptr;
        RunState state = RunState::Queued;
    };
    QHash<QString, Row> m_rows;
};

}  // namespace cl::views
