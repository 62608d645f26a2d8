#pragma once
// The desktop workspace: a scenario browser, properties and the run control in docks around
// the results, the cluster editor and the trace browser. The window owns the open workspace
// (one ScenarioStore on the GUI thread; runs open their own connections on worker threads).
#include <memory>

#include <QHash>
#include <QMainWindow>
#include <QPair>
#include <QString>
#include <QStringList>

#include <vector>

#include "views/charts/run_series.h"
#include "views/common/app_theme.h"
#include "views/common/chart_export.h"

class QAction;
class QPushButton;
class QComboBox;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QModelIndex;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;

namespace cl {
struct SimResult;
struct ProfileSet;
class ScenarioStore;
struct Trace;
}  // namespace cl

namespace cl::views {

class ClusterEditor;
class ComparisonView;
class SeriesCharts;
class TimelinePanel;
class InterleavePanel;
class ProfilesView;
class PlanView;
class PropertiesView;
class ResultsView;
class RunPanel;
class RunPicker;
class ScenarioBrowser;
class ScenarioRunBatch;
class SlurmImportDialog;
class TraceBrowser;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    struct Options {
        bool useSettings = true;  // restore and save layout, theme and recent workspaces
    };

    explicit MainWindow(Options options, QWidget* parent = nullptr);
    MainWindow() : MainWindow(Options{}) {}
    ~MainWindow() override;

    // Whether opening a workspace adds the bundled demo scenarios (and runs those not yet run).
    enum class Demo { No, IfEmpty, Always };
    // Opens (creating if missing) a workspace file. On failure, or when the user keeps unsaved
    // cluster edits, the current workspace stays open and *error says why.
    bool openWorkspace(const QString& path, Demo demo = Demo::No, QString* error = nullptr);
    QString workspacePath() const { return m_path; }
    cl::ScenarioStore* store() const { return m_store.get(); }

    // The size of a window opened without saved geometry on a screen whose available area is
    // `available`: nine tenths of it each way but at least 1340 pixels wide, no smaller than
    // `minimum`, never larger than `available`.
    static QSize firstWindowSize(const QSize& available, const QSize& minimum);

    // Applies the theme and checks it in the View menu (saved with the settings).
    void setTheme(Theme theme);

    // The central views --view can show.
    // results, cluster, trace, timeline, charts, compare, interleave, profiles
    static QStringList viewNames();
    bool showView(const QString& name);

    // Selects the scenario (by name) in the workspace browser, as --select does.
    void selectScenario(const QString& name);
    ScenarioBrowser* scenarioBrowser() const { return m_browser; }
    ClusterEditor* clusterEditor() const { return m_editor; }
    TraceBrowser* traceBrowser() const { return m_traces; }
    ComparisonView* comparisonView() const { return m_compare; }
    TimelinePanel* timelinePanel() const { return m_timeline; }
    SeriesCharts* seriesCharts() const { return m_charts; }
    RunPicker* chartRunPicker() const { return m_chartRuns; }
    QLabel* chartsHiddenRunsLabel() const { return m_chartsHidden; }
    InterleavePanel* interleavePanel() const { return m_interleave; }
    ProfilesView* profilesView() const { return m_profilesView; }
    PlanView* planView() const { return m_planView; }
    ResultsView* resultsView() const { return m_results; }
    RunPanel* runPanel() const { return m_runPanel; }
    PropertiesView* propertiesView() const { return m_properties; }
    QPlainTextEdit* runLog() const { return m_log; }
    bool isRunning() const;
    int failedRuns() const { return m_failedRuns; }

    // Opens the import dialog on a trace file (window-modal, returns at once); the trace is
    // stored when the user accepts it. The dialog is returned for tests.
    QDialog* importTrace(const QString& path = {});
    // File > Import Profiler Trace: the Kineto import dialog on these files (none: the user
    // picks them), storing into a workspace profile set. Window-modal, returned for tests.
    QDialog* importProfilerTrace(const QStringList& paths = {});
    // File > Import from Slurm: the sacct history and/or node inventory dialog (empty paths:
    // the user picks them). The trace and the cluster are stored when the user imports.
    QDialog* importFromSlurm(const QString& sacctPath = {}, const QString& nodesPath = {});
    // Reads a cluster layout (our JSON or a Muri cluster spec CSV), stores it and opens it in
    // the editor. False (nothing stored) with *error naming the file and the problem. A layout
    // whose name a different stored cluster has is named in a ClusterNameDialog first, as in
    // saveCluster; false with an empty *error when the user cancels it.
    bool importLayout(const QString& path, QString* error = nullptr);
    // Stores the edited cluster (a new stored cluster if its content is new). A new cluster
    // whose name a stored one already has is named in a ClusterNameDialog first; false with an
    // empty *error when the user cancels it.
    bool saveCluster(QString* error = nullptr);
    // What File > Export View and File > Comparison Report write, without their dialogs.
    bool exportCurrentView(const QString& path, const ExportOptions& options, QString* error = nullptr);
    bool writeComparisonReport(const QString& path, QString* error = nullptr);
    // The report's list of the compared scenarios: which inputs differ, then each scenario's
    // cluster, trace, policy, conventions, load and the other settings that set it apart.
    QStringList comparisonReportScenarios() const;

public slots:
    // Runs these stored scenarios on worker threads; nothing happens while runs are going.
    void runScenarios(const QStringList& names, bool force = false);
    // What the Run panel asks for: its policies and settings on the selected scenario.
    void runRequested();
    void stopRuns();

signals:
    // The runs started by runScenarios/runRequested have all ended.
    void runsFinished();
    // The timeline now shows this run (read in the background).
    void timelineLoaded(qint64 run);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createWidgets();
    void createActions();
    void createMenus();
    void restoreSettings();
    // The workspace/properties and run docks' widths as a share of the window's.
    void sizeSideDocks(int windowWidth);
    void saveSettings();
    void setRunningUi(bool running);
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    // The Compare view's runs and baseline, per workspace file (QSettings, keyed by its path).
    void restoreCompareSelection();
    void saveCompareSelection();
    void log(const QString& message);
    bool confirmDiscardEdits();

    void onScenarioSelected(const QString& name);
    void onCurrentItemChanged(const QModelIndex& current);
    // Keys that depend on the shown view: undo/redo and the Scenario menu's.
    void updateViewShortcuts();
    // The timeline loads a run's segments only while it is shown (a big run has millions).
    void updateTimeline();
    void updateCharts();
    void updateSecondTimelineChoices();
    void updateSecondTimelineRun();
    // The interleaving group of the job picked in the timeline, shown in the Interleaving view.
    std::vector<int> interleavingGroupOf(int job) const;
    void sendGroupToInterleaving();
    // Series of the family's runs, read only while the Charts tab is shown.
    bool m_chartsDirty = true;
    void exportView();
    void exportReport();
    PaintFunction currentViewPainting() const;
    void openRecent(const QString& path);
    void onClusterActivated(qint64 id);
    void onTraceActivated(qint64 id);
    void onRunActivated(qint64 id);
    void showTrace(std::shared_ptr<const cl::Trace> trace);
    void storeNewTrace(const cl::Trace& trace, const QString& what);
    // Stores what the Slurm import dialog gives: trace, cluster and the scenario of both.
    void storeSlurmImport(const SlurmImportDialog& dialog);

    void newWorkspace();
    void chooseWorkspace();
    void chooseTraceToImport();
    void chooseLayoutToImport();
    void generateTrace();
    void transformTrace();
    void exportClusterJson();
    void exportResultsCsv();
    void showAbout();
    // Simulation › Topology Placement on the cluster in the editor (non-modal, one per call).
    void openPlacementDialog();

    Options m_options;
    std::unique_ptr<cl::ScenarioStore> m_store;
    std::shared_ptr<const cl::ProfileSet> m_profiles;
    std::shared_ptr<const cl::Trace> m_shownTrace;
    qint64 m_shownTraceId = 0;         // stored id of the trace in the trace browser (0: none or unsaved)
    QString m_shownScenario;           // the scenario the run panel and results show
    bool m_restoringScenario = false;  // selecting the shown scenario again after a cancel
    bool m_closeWhenStopped = false;
    QString m_path;
    std::unique_ptr<ScenarioRunBatch> m_job;
    int m_failedRuns = 0;

    ScenarioBrowser* m_browser = nullptr;
    PropertiesView* m_properties = nullptr;
    RunPanel* m_runPanel = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QTabWidget* m_tabs = nullptr;
    ResultsView* m_results = nullptr;
    ClusterEditor* m_editor = nullptr;
    TraceBrowser* m_traces = nullptr;
    ComparisonView* m_compare = nullptr;
    TimelinePanel* m_timeline = nullptr;
    QComboBox* m_timelineSecond = nullptr;
    std::shared_ptr<const cl::SimResult> m_timelineResult;
    QString m_timelineCluster;  // which GPUs the timeline's run used (cluster id / server count)
    SeriesCharts* m_charts = nullptr;
    QComboBox* m_chartResource = nullptr;
    RunPicker* m_chartRuns = nullptr;
    QLabel* m_chartsHidden = nullptr;         // says how many of the family's runs the charts leave out
    QPair<QString, qint64> m_timelineWanted;  // the Results' selected scenario and run
    qint64 m_timelineShown = 0;
    qint64 m_timelineLoading = 0;  // run being read for the timeline (0: none)
    int m_timelineGeneration = 0;  // loads of older generations are dropped
    std::shared_ptr<const cl::ProfileSet> m_timelineProfiles;
    QHash<qint64, RunSeries> m_seriesCache;  // run id -> its series, for the runs the charts show
    QPushButton* m_toInterleaving = nullptr;
    InterleavePanel* m_interleave = nullptr;
    ProfilesView* m_profilesView = nullptr;
    PlanView* m_planView = nullptr;
    QProgressBar* m_progress = nullptr;
    QList<QDockWidget*> m_docks;
    bool m_rescaleDocks = false;    // the next resize comes from maximizing or restoring
    bool m_sideDocksSized = false;  // by sizeSideDocks or a restored layout

    QMenu* m_recentMenu = nullptr;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_importTraceAction = nullptr;
    QAction* m_importLayoutAction = nullptr;
    QAction* m_importProfilerAction = nullptr;
    QAction* m_importSlurmAction = nullptr;
    QAction* m_generateAction = nullptr;
    QAction* m_transformAction = nullptr;
    QAction* m_exportClusterAction = nullptr;
    QAction* m_exportResultsAction = nullptr;
    QAction* m_exportViewAction = nullptr;
    QAction* m_reportAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_placementAction = nullptr;
    QActionGroup* m_themeGroup = nullptr;
};

}  // namespace cl::views
