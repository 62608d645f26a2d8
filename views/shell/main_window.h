#pragma once
// The desktop workspace: a scenario browser, properties and the run control in docks around the
// pages (results, cluster editor, trace browser and the analysis views, one MainWindowPage each).
// The window builds the pages, the docks and the shared menus, switches pages, and owns the open
// workspace (one ScenarioStore on the GUI thread; runs open their own connections on worker
// threads).
#include <memory>

#include <QMainWindow>
#include <QString>
#include <QStringList>

#include "views/common/app_theme.h"
#include "views/common/chart_export.h"

class QAction;
class QActionGroup;
class QDockWidget;
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

class ChartsPage;
class ClusterEditor;
class ClusterPage;
class ComparePage;
class GuideDialog;
class InterleavePage;
class MainWindowPage;
class PlanPage;
class ProfilesPage;
class PropertiesView;
class ReplayPage;
class ResultsPage;
class RunPanel;
class ScenarioBrowser;
class ScenarioRunBatch;
class SlurmImportDialog;
class TimelinePage;
class TracePage;
class ViewTabs;

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
    // results, cluster, trace, timeline, charts, compare, interleave, profiles, plan, replay
    static QStringList viewNames();
    bool showView(const QString& name);

    // Selects the scenario (by name) in the workspace browser, as --select does.
    void selectScenario(const QString& name);
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
    // The pages in tab order (the order of viewNames()).
    struct Pages {
        ResultsPage* results = nullptr;
        ClusterPage* cluster = nullptr;
        TracePage* trace = nullptr;
        TimelinePage* timeline = nullptr;
        ChartsPage* charts = nullptr;
        ComparePage* compare = nullptr;
        InterleavePage* interleave = nullptr;
        ProfilesPage* profiles = nullptr;
        PlanPage* plan = nullptr;
        ReplayPage* replay = nullptr;
        QList<MainWindowPage*> all() const;
    };
    // The window's own actions; the pages own those that act on their view alone.
    struct Actions {
        QAction* newWorkspace = nullptr;
        QAction* open = nullptr;
        QAction* saveCluster = nullptr;
        QAction* importTrace = nullptr;
        QAction* importLayout = nullptr;
        QAction* importProfiler = nullptr;
        QAction* importSlurm = nullptr;
        QAction* generate = nullptr;
        QAction* exportResults = nullptr;
        QAction* exportView = nullptr;
        QAction* quit = nullptr;
        QAction* undo = nullptr;
        QAction* redo = nullptr;
        QAction* run = nullptr;
        QAction* stop = nullptr;
    };

    void createPages();
    void createDocks();
    // Signals between the pages, the docks and the window.
    void connectPages();
    void connectWorkspaceDock();
    void createActions();
    void createFileActions();
    void createMenus();
    void createFileMenu();
    void createViewMenu();
    void createToolBar();
    void restoreSettings();
    // The workspace/properties and run docks' widths as a share of the window's.
    void sizeSideDocks(int windowWidth);
    void saveSettings();
    void setRunningUi(bool running);
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void log(const QString& message);
    bool confirmDiscardEdits();
    // Gives every page this workspace (null: the one being replaced).
    void setPagesWorkspace(cl::ScenarioStore* store, const QString& path);

    // The Cluster page's editor (objectName "clusterEditor").
    ClusterEditor* clusterEditor() const;
    MainWindowPage* currentPage() const;
    void showPage(MainWindowPage* page);
    void onPageChanged(int index);

    void onScenarioSelected(const QString& name);
    void onCurrentItemChanged(const QModelIndex& current);
    // Keys that depend on the shown view: undo/redo and the Scenario menu's.
    void updateViewShortcuts();
    void exportView();
    void openRecent(const QString& path);
    void onClusterActivated(qint64 id);
    void onTraceActivated(qint64 id);
    void onRunActivated(qint64 id);
    void storeNewTrace(const cl::Trace& trace, const QString& what);
    // Stores what the Slurm import dialog gives: trace, cluster and the scenario of both.
    void storeSlurmImport(const SlurmImportDialog& dialog);
    // Connects the batch's reports of each run to the run panel, the log and the views.
    void connectRunBatch(int total);

    void newWorkspace();
    void chooseWorkspace();
    void chooseLayoutToImport();
    void generateTrace();
    void exportResultsCsv();
    void showAbout();
    // Help › Guide or Help › Keyboard Shortcuts (a GuideDialog::Tab).
    void showGuide(int tab);

    Options m_options;
    std::unique_ptr<cl::ScenarioStore> m_store;
    std::shared_ptr<const cl::ProfileSet> m_profiles;
    QString m_shownScenario;           // the scenario the run panel and results show
    bool m_restoringScenario = false;  // selecting the shown scenario again after a cancel
    bool m_closeWhenStopped = false;
    QString m_path;
    std::unique_ptr<ScenarioRunBatch> m_job;
    int m_failedRuns = 0;

    ScenarioBrowser* m_browser = nullptr;
    PropertiesView* m_properties = nullptr;
    RunPanel* m_runPanel = nullptr;
    GuideDialog* m_guide = nullptr;  // made when first asked for
    QPlainTextEdit* m_log = nullptr;
    QTabWidget* m_tabs = nullptr;
    ViewTabs* m_viewTabs = nullptr;  // keeps every view's tab in sight
    Pages m_pages;
    QProgressBar* m_progress = nullptr;
    QList<QDockWidget*> m_docks;
    bool m_rescaleDocks = false;    // the next resize comes from maximizing or restoring
    bool m_sideDocksSized = false;  // by sizeSideDocks or a restored layout

    QMenu* m_recentMenu = nullptr;
    Actions m_actions;
    QActionGroup* m_themeGroup = nullptr;
};

}  // namespace cl::views
