#pragma once
// Simulation › Topology Placement: the multi-agent placement paper's placement policies on the
// cluster's network (core/topology_placement/placement_simulator.h) for a generated workload,
// without the CLI. Runs go on a worker thread one policy after another; Cancel stops them and
// keeps nothing. The dialog only collects settings and shows what simulatePlacement returns.
#include <atomic>
#include <memory>
#include <vector>

#include <QDialog>
#include <QFutureWatcher>
#include <QString>

#include "core/model/cluster.h"
#include "core/topology_placement/placement_simulator.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace cl::views {

class PlacementResultsModel;

// What a run needs besides the cluster; defaults as clusterloom-cli placement.
struct PlacementRunSettings {
    cl::ArrivalPattern pattern = cl::ArrivalPattern::Uniform;
    double jobs_per_interval = 15.0;  // per pod
    int intervals = 40;
    int max_jobs = 10000;  // 0 = no cap
    int seed = 1;
    std::vector<cl::PlacementPolicyKind> kinds{
        cl::PlacementPolicyKind::Tetris, cl::PlacementPolicyKind::LoadBalancing,
        cl::PlacementPolicyKind::LeastInterference, cl::PlacementPolicyKind::LeastAllocated};
    enum class Levels { Server, Device, Both } levels = Levels::Both;

    // The policies in run order: every kind at server level, then at device level.
    std::vector<cl::PlacementPolicy> policies() const;
};

// What the worker hands back: the results, or why there are none.
struct PlacementRunOutcome {
    std::vector<cl::PlacementRunResult> results;
    std::size_t jobs = 0;  // in the generated workload
    QString error;
    bool cancelled = false;
};

class PlacementDialog : public QDialog {
    Q_OBJECT

public:
    // Keeps a copy of `cluster`: later edits in the editor do not change a run.
    explicit PlacementDialog(const cl::Cluster& cluster, QWidget* parent = nullptr);
    ~PlacementDialog() override;

    PlacementRunSettings settings() const;
    void setSettings(const PlacementRunSettings& settings);

    // False for a cluster without a network topology (nothing to run).
    bool canRun() const { return m_hasTopology; }
    // From Run until the result (or cancellation, or error) is shown.
    bool isRunning() const;
    // Tests find the Run and Cancel buttons, the results model and its table by the object names
    // "placementRun", "placementCancel", "placementResultsModel" and "placementResults".
    // The line under the progress bar: what was run, "cancelled" or the error in words.
    QString statusText() const;
    // Writes the results as CSV; false with *error naming the file.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

public slots:
    void run();
    void cancel();

signals:
    // A run ended: finished, cancelled or failed (see statusText()).
    void runFinished();

protected:
    void reject() override;

private:
    // The constructor's sections, in the order their widgets are created.
    QLabel* createAboutLabel();
    QGroupBox* createWorkloadBox();
    QGroupBox* createPolicyBox();
    QHBoxLayout* createRunRow();
    void setUpResultsTable();
    QDialogButtonBox* createButtonBox();
    void connectSignals();

    void onFinished();
    void setRunningUi(bool running);
    void updateRunEnabled();
    void chooseCsv();
    void copyCsv();
    void stopAndWait();

    cl::Cluster m_cluster;
    bool m_hasTopology = false;
    QComboBox* m_pattern = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QSpinBox* m_intervals = nullptr;
    QSpinBox* m_maxJobs = nullptr;
    QSpinBox* m_seed = nullptr;
    std::vector<std::pair<cl::PlacementPolicyKind, QCheckBox*>> m_kinds;
    QComboBox* m_level = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_export = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    PlacementResultsModel* m_model = nullptr;
    QSortFilterProxyModel* m_sorted = nullptr;
    QTableView* m_table = nullptr;
    QFutureWatcher<PlacementRunOutcome> m_watcher;
    bool m_running = false;  // from run() until its result is shown
    // Shared with the worker so it outlives a dialog closed mid-run.
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

}  // namespace cl::views
