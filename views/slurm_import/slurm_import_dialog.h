#pragma once
// File > Import from Slurm: a planner's own cluster in (docs/architecture.md sections 8.5, 8.7
// and 8.8), the same steps as `clusterloom-cli import slurm`. The user picks the accounting
// history (sacct --parsable2 or --json output) and/or the node inventory (scontrol show node
// --oneliner, sinfo --Node --json, scontrol show node --json), optionally with the partitions
// (scontrol show partition --oneliner) laid over the nodes' layout; all are read on worker
// threads. Before anything is stored the dialog shows the jobs, what was left out by reason and
// the refused rows (file:line: field: message), the rules that match jobs to profiles with how
// many jobs each rule matched (recounted as the rules are edited), the cluster the nodes make,
// and with both history and nodes the jobs that can never run on that cluster (section 2.10; a
// partition the cluster lacks blocks the import). The dialog stores nothing: on Import the
// caller takes trace(), cluster() and profiles() and stores them.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QDialog>
#include <QString>

#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_partitions.h"
#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "views/slurm_import/slurm_import_work.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QHBoxLayout;
class QKeyEvent;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;
class QTreeWidget;
class QVBoxLayout;

namespace cl {
class ScenarioStore;
}

namespace cl::views {

class ProfileRulesModel;
class SlurmJobTableModel;

class SlurmImportDialog : public QDialog {
    Q_OBJECT

public:
    enum class FileKind { History, Nodes, Partitions, SlurmConfig };
    // How the dialog asks for a file; tests replace the native file dialog by their own.
    using FileChooser = std::function<QString(QWidget* parent, FileKind kind)>;
    // The tabs, in order (a caller may add its own after them: addPreviewTab).
    enum Tab { JobsTab = 0, LeftOutTab, RulesTab, ClusterTab };
    // How long the rules must stay unchanged before the jobs are matched again.
    static constexpr int kRulesPauseMs = 150;
    // How long a typed path must stay unchanged before its file is read.
    static constexpr int kTypingPauseMs = 400;

    // The store lists the profile sets (may be null); `builtin` is offered too when given. Both
    // must outlive the dialog.
    SlurmImportDialog(cl::ScenarioStore* store, const cl::ProfileSet* builtin, QWidget* parent = nullptr);
    ~SlurmImportDialog() override;

    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }
    // Each starts reading the file (empty: no such input).
    void setHistoryPath(const QString& path);
    void setNodesPath(const QString& path);
    // The partition file, laid over the nodes' layout (without nodes it blocks the import).
    void setPartitionsPath(const QString& path);
    // A saved `scontrol show config` (read at once: it is small): the settings the created
    // scenario's `slurm` policy follows (ScenarioParameters::slurm_parameters).
    void setSlurmConfigPath(const QString& path);
    QString slurmConfigPath() const;
    QString slurmConfigError() const { return m_configError; }
    // Those of its settings that differ from Slurm's defaults, KEY=VALUE; empty without a file.
    std::vector<std::string> slurmParameters() const {
        return m_slurmParameters.value_or(std::vector<std::string>{});
    }
    QString historyPath() const;
    QString nodesPath() const;
    QString partitionsPath() const;
    // Options of the history (each reads it again).
    void setTimezone(const QString& offset);
    void setKeepUnstarted(bool keep);
    void setKeepRunning(bool keep);
    // Leave down, drained and failing nodes out of the cluster.
    void setExcludeUnavailable(bool exclude);
    void setImportName(const QString& name);
    QString importName() const;

    // The profile set the rules refer to: a stored set's id, or 0 for the built-in set.
    bool setProfileSet(std::int64_t id);
    std::int64_t profileSetId() const;
    std::shared_ptr<const cl::ProfileSet> profiles() const { return m_profiles; }
    // Reads a rule file (the format of core/workload/profile_rules.h); false with *error.
    bool loadRules(const QString& path, QString* error = nullptr);
    bool saveRules(const QString& path, QString* error = nullptr) const;
    // Jobs that got the default profile in the last preview (none: not counted yet).
    std::optional<std::size_t> defaultMatches() const;

    // Some file is being read or the jobs are being matched.
    bool isBusy() const;
    // What the last reads gave (empty when there is no such input or it could not be read).
    const std::optional<cl::SacctImport>& history() const { return m_history; }
    const std::optional<cl::SlurmNodeInventory>& nodes() const { return m_nodes; }
    const std::optional<cl::SlurmLayout>& layout() const { return m_layout; }
    QString historyError() const { return m_historyError; }
    QString nodesError() const { return m_nodesError; }
    // The partition file could not be read or laid over the layout (file, line and field).
    QString partitionsError() const;
    // With history and nodes: which jobs never fit the cluster (none: not checked yet).
    const std::optional<FitCheck>& fitCheck() const { return m_fit; }
    // A job asks for a partition the cluster does not have (names the job and the partition).
    QString fitError() const;
    QString rulesError() const { return m_rulesError; }

    // What Import gives: the jobs with their profiles (null without a history), the cluster
    // (none without nodes), and whether the user wants a scenario of both.
    std::shared_ptr<const cl::Trace> trace() const;
    std::optional<cl::Cluster> cluster() const;
    bool createScenario() const;
    bool canImport() const;
    // Why Import is disabled (empty when it is not).
    QString importBlocker() const;

    // A tab of the caller's after the dialog's own (the shell adds the trace histograms).
    void addPreviewTab(QWidget* widget, const QString& title);

    void accept() override;

signals:
    // A read or a matching has finished and the preview shows it.
    void previewUpdated();
    // The jobs as they would be imported (null: none), for previews added by the caller.
    void previewTraceChanged(std::shared_ptr<const cl::Trace> trace, const cl::ProfileSet* profiles);

private:
    // The sections of the dialog, top to bottom; each makes its widgets.
    QHBoxLayout* makeHistoryRow();
    QHBoxLayout* makeHistoryOptions();
    QHBoxLayout* makeNodesRow();
    void keyPressEvent(QKeyEvent* event) override;
    QHBoxLayout* makePartitionsRow();
    QHBoxLayout* makeConfigRow();
    void readConfigFile();
    QString configSummary() const;
    QWidget* makeFitRow();
    QFormLayout* makeInputForm();
    QTabWidget* makeTabs();
    QWidget* makeLeftOutPage(QWidget* tabs);
    QWidget* makeRulesPage(QWidget* tabs);
    QHBoxLayout* makeProfileSetRow(QWidget* page);
    QTableView* makeRulesTable(QWidget* page);
    QVBoxLayout* makeRuleButtons(QWidget* page);
    QHBoxLayout* makeDefaultProfileRow(QWidget* page);
    QWidget* makeClusterPage(QWidget* tabs);
    QHBoxLayout* makeBottomRow();
    void connectInputs();
    void connectRules();
    void readWhenTypingPauses(QLineEdit* field, void (SlurmImportDialog::*read)());
    // A rule below the selected one, its pattern open for typing.
    void addRule();
    // Moves the selected rule by rows (negative: earlier).
    void moveRule(int by);

    void chooseFile(FileKind kind);
    void readHistoryFile();
    void readNodesFile();
    void readPartitionsFile();
    // Which jobs never fit the layout, on a worker, once history and layout are both there;
    // refresh: keep what was found shown (not busy) until the new check ends.
    void checkFit(bool refresh = false);
    // The import's name changed: the cluster's name follows.
    void renameImport();
    void loadProfileSet();
    void scheduleMatching();
    void matchJobs();
    void makeLayout();
    void showHistory();
    void showLeftOut();
    void showCluster();
    void showSummary();
    QString partitionsSummary() const;
    void showFit();
    void updateRuleCounts();
    void updateButtons();
    void updateBusy();

    cl::ScenarioStore* m_store;
    const cl::ProfileSet* m_builtin;
    FileChooser m_chooser;
    std::shared_ptr<const cl::ProfileSet> m_profiles;

    std::optional<cl::SacctImport> m_history;
    std::shared_ptr<const cl::Trace> m_historyTrace;  // without models
    std::map<std::string, int> m_leftOut;             // by the reader and by the trace, reason -> jobs
    QString m_historyError;
    std::optional<cl::SlurmNodeInventory> m_nodes;
    QString m_nodesError;
    std::optional<cl::SlurmLayout> m_layout;
    QString m_layoutError;
    std::optional<cl::SlurmPartitionList> m_partitions;
    std::optional<cl::SlurmPartitionsApplied> m_partitionsApplied;
    QString m_partitionsError;       // reading the file
    QString m_partitionsApplyError;  // laying it over the layout
    std::optional<FitCheck> m_fit;
    std::optional<RuledTrace> m_ruled;
    QString m_rulesError;
    bool m_nameTyped = false;
    int m_historyGeneration = 0, m_nodesGeneration = 0, m_matchGeneration = 0;
    int m_partitionsGeneration = 0, m_fitGeneration = 0;
    int m_running = 0;  // workers whose result is still wanted

    QLineEdit* m_historyPath = nullptr;
    QPushButton* m_historyBrowse = nullptr;
    QLineEdit* m_timezone = nullptr;
    QCheckBox* m_keepUnstarted = nullptr;
    QCheckBox* m_keepRunning = nullptr;
    QLineEdit* m_nodesPath = nullptr;
    QPushButton* m_nodesBrowse = nullptr;
    QCheckBox* m_exclude = nullptr;
    QLineEdit* m_partitionsPath = nullptr;
    QPushButton* m_partitionsBrowse = nullptr;
    QLineEdit* m_configPath = nullptr;
    QPushButton* m_configBrowse = nullptr;
    std::optional<std::vector<std::string>> m_slurmParameters;  // read from m_configPath
    QString m_configError;
    QLineEdit* m_name = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_summary = nullptr;
    QWidget* m_fitRow = nullptr;
    QLabel* m_fitIcon = nullptr;
    QLabel* m_fitText = nullptr;
    QTabWidget* m_tabs = nullptr;
    SlurmJobTableModel* m_jobs = nullptr;
    QTableView* m_jobTable = nullptr;
    QTableWidget* m_dropped = nullptr;
    QListWidget* m_refused = nullptr;
    QComboBox* m_sets = nullptr;
    ProfileRulesModel* m_rules = nullptr;
    QTableView* m_rulesTable = nullptr;
    QPushButton* m_addRule = nullptr;
    QPushButton* m_removeRule = nullptr;
    QPushButton* m_ruleUp = nullptr;
    QPushButton* m_ruleDown = nullptr;
    QPushButton* m_loadRules = nullptr;
    QPushButton* m_saveRules = nullptr;
    QComboBox* m_default = nullptr;
    QLabel* m_defaultCount = nullptr;
    QLabel* m_rulesStatus = nullptr;
    QTimer* m_rulesPause = nullptr;
    std::vector<QTimer*> m_typingPauses;  // one per path field
    QLabel* m_clusterSummary = nullptr;
    QTreeWidget* m_clusterTree = nullptr;
    QListWidget* m_clusterWarnings = nullptr;
    QCheckBox* m_scenario = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_import = nullptr;
};

}  // namespace cl::views
