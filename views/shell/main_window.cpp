#include "views/shell/main_window.h"

#include <algorithm>
#include <exception>
#include <utility>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QIcon>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QWhatsThis>

#include "core/io/builtin_data.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/scenario_runner.h"
#include "core/runs/what_if_variants.h"
#include "core/store/scenario_store.h"
#include "views/charts/series_charts.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/live_what_if.h"
#include "views/common/app_theme.h"
#include "views/common/english_plurals.h"
#include "views/common/format.h"
#include "views/interleave/interleave_panel.h"
#include "views/plan/plan_view.h"
#include "views/profiles/profiles_view.h"
#include "views/results/comparison_view.h"
#include "views/results/results_view.h"
#include "views/shell/charts_page.h"
#include "views/shell/cluster_page.h"
#include "views/shell/compare_page.h"
#include "views/shell/guide_dialog.h"
#include "views/shell/interleave_page.h"
#include "views/shell/plan_page.h"
#include "views/shell/profiles_page.h"
#include "views/shell/properties_view.h"
#include "views/shell/replay_page.h"
#include "views/shell/resources_init.h"
#include "views/shell/results_page.h"
#include "views/shell/run_panel.h"
#include "views/shell/scenario_run_batch.h"
#include "views/shell/timeline_page.h"
#include "views/shell/trace_page.h"
#include "views/shell/view_help.h"
#include "views/shell/view_tabs.h"
#include "views/timeline/timeline_panel.h"
#include "views/trace/trace_browser.h"
#include "views/workspace/scenario_browser.h"
#include "views/workspace/workspace_model.h"

namespace cl::views {

namespace {

constexpr int kMaxRecent = 8;

QIcon actionIcon(const char* name) {
    return MainWindowPage::resourceIcon(name);
}

// An action of the window's menus, its triggered signal connected to `slot`.
template <typename Slot>
QAction* makeConnectedAction(MainWindow* window, const char* icon, const QString& text,
                             const QKeySequence& key, const QString& tip, Slot slot) {
    QAction* action = MainWindowPage::makeAction(window, icon, text, key, tip);
    QObject::connect(action, &QAction::triggered, window, slot);
    return action;
}

}  // namespace

QList<MainWindowPage*> MainWindow::Pages::all() const {
    return {results, cluster, trace, timeline, charts, compare, interleave, profiles, plan, replay};
}

QSize MainWindow::firstWindowSize(const QSize& available, const QSize& minimum) {
    // Below 1340 pixels the views' minimum width leaves the side docks too narrow for their
    // names; a laptop's 1366-pixel screen is then used almost whole.
    constexpr int kComfortableWidth = 1340;
    return (available * 0.9).expandedTo(minimum).expandedTo(QSize(kComfortableWidth, 0)).boundedTo(available);
}

MainWindow::MainWindow(Options options, QWidget* parent) : QMainWindow(parent), m_options(options) {
    initResources();
    installEnglishPlurals(*QCoreApplication::instance());
    setWindowIcon(QIcon(QStringLiteral(":/icons/clusterloom.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_profiles = std::make_shared<const cl::ProfileSet>(cl::builtinProfiles());

    createPages();
    createDocks();
    connectPages();
    connectWorkspaceDock();
    createActions();
    createMenus();

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(fontMetrics().averageCharWidth() * 24);
    m_progress->setToolTip(tr("Progress of all runs"));
    m_progress->hide();
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->showMessage(tr("Ready"));

    // The first window takes most of the screen it opens on, centred (the user's own size and
    // place come back from the settings afterwards). Sized from the font it was 1170 x 700 on
    // a 1920 x 1080 screen, with the docks squeezing the views.
    if (const QScreen* screen = this->screen()) {
        const QRect available = screen->availableGeometry();
        resize(firstWindowSize(available.size(), minimumSizeHint()));
        move(available.center() - QPoint(width() / 2, height() / 2));
    }
    if (m_options.useSettings) restoreSettings();
    setRunningUi(false);
    updateTitle();
}

MainWindow::~MainWindow() {
    m_job.reset();  // cancels and waits before the widgets it reports to go away
    // The child widgets outlive this object's members (QWidget deletes them afterwards) and may
    // still signal while they go, e.g. the editor's undo stack reports it is no longer clean;
    // nothing may reach this window's slots, or its pages', then.
    for (QObject* child : findChildren<QObject*>()) disconnect(child, nullptr, this, nullptr);
    qDeleteAll(m_pages.all());
}

ClusterEditor* MainWindow::clusterEditor() const {
    return m_pages.cluster->editor();
}

void MainWindow::createPages() {
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_tabs->setDocumentMode(true);
    m_viewTabs = new ViewTabs(m_tabs);
    m_pages.results = new ResultsPage(m_tabs, this);
    m_pages.cluster = new ClusterPage(m_tabs, this);
    m_pages.trace = new TracePage(m_profiles.get(), m_tabs, this);
    m_pages.timeline = new TimelinePage(m_pages.results->view(), m_profiles.get(), m_tabs, this);
    m_pages.charts = new ChartsPage(m_pages.results->view(), m_tabs, this);
    m_pages.compare = new ComparePage(m_tabs, this);
    m_pages.interleave = new InterleavePage(m_profiles.get(), m_tabs, this);
    m_pages.profiles = new ProfilesPage(m_tabs, this);
    m_pages.plan = new PlanPage(m_tabs, this);
    m_pages.replay = new ReplayPage(m_tabs, this);
    const QList<MainWindowPage*> pages = m_pages.all();
    for (int i = 0; i < pages.size(); ++i) {
        MainWindowPage* page = pages[i];
        page->widget()->setWhatsThis(whatsThisForView(page->name()));
        // The view's name leads its tooltip: a narrow window elides the tab's label.
        m_viewTabs->addTab(page->widget(), page->icon(), page->title(),
                           QStringLiteral("<b>%1</b> (Alt+%2)<br>%3")
                               .arg(page->title().remove(QLatin1Char('&')).toHtmlEscaped())
                               .arg((i + 1) % 10)
                               .arg(page->toolTip().toHtmlEscaped()));
        connect(page, &MainWindowPage::statusMessage, this, [this](const QString& text, int timeout) {
            if (text.isEmpty())
                statusBar()->clearMessage();
            else
                statusBar()->showMessage(text, timeout);
        });
        connect(page, &MainWindowPage::logMessage, this, &MainWindow::log);
        connect(page, &MainWindowPage::showRequested, this, [this, page] { showPage(page); });
    }
    m_pages.results->setCurrent(true);
    setCentralWidget(m_tabs);
}

void MainWindow::createDocks() {
    auto addDock = [this](QWidget* widget, const QString& title, const char* icon, const QString& objectName,
                          Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(objectName);
        dock->setWidget(widget);
        dock->toggleViewAction()->setIcon(actionIcon(icon));
        addDockWidget(area, dock);
        m_docks << dock;
        return dock;
    };
    m_browser = new ScenarioBrowser(nullptr, this);
    m_browser->setObjectName(QStringLiteral("scenarioBrowser"));
    addDock(m_browser, tr("Workspace"), "scenario", QStringLiteral("workspaceDock"), Qt::LeftDockWidgetArea);
    m_properties = new PropertiesView(this);
    m_properties->setObjectName(QStringLiteral("propertiesView"));
    QDockWidget* properties = addDock(m_properties, tr("Properties"), "properties",
                                      QStringLiteral("propertiesDock"), Qt::LeftDockWidgetArea);
    m_runPanel = new RunPanel(this);
    m_runPanel->setObjectName(QStringLiteral("runPanel"));
    addDock(m_runPanel, tr("Run"), "run", QStringLiteral("runDock"), Qt::RightDockWidgetArea);
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("runLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    m_log->setToolTip(tr("What happened in this session: runs, imports, saves and errors"));
    QDockWidget* logDock =
        addDock(m_log, tr("Run log"), "run-log", QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    splitDockWidget(m_docks.first(), properties, Qt::Vertical);
    resizeDocks({m_docks.first(), properties}, {3, 2}, Qt::Vertical);
    resizeDocks({logDock}, {fontMetrics().height() * 6}, Qt::Vertical);
}

void MainWindow::connectPages() {
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onPageChanged);
    ResultsView* results = m_pages.results->view();
    TimelinePage* timeline = m_pages.timeline;
    connect(results, &ResultsView::familyRefreshed, timeline, &TimelinePage::updateSecondRunChoices);
    connect(results, &ResultsView::runSelected, timeline,
            [timeline](qint64 run, const QString& scenario) { timeline->showRun(scenario, run); });
    connect(results, &ResultsView::familyRefreshed, m_pages.charts, &ChartsPage::refresh);
    // A row picked in Results selects its scenario everywhere (Run dock, Properties, editor).
    connect(results, &ResultsView::scenarioPicked, this, [this](const QString& scenario) {
        if (m_browser && scenario != m_shownScenario) m_browser->selectScenario(scenario);
    });
    connect(timeline, &TimelinePage::runLoaded, this, &MainWindow::timelineLoaded);
    connect(timeline, &TimelinePage::interleavingRequested, this,
            [this](const QStringList& names, const std::vector<std::vector<double>>& stages,
                   const std::vector<double>& solo) {
                m_pages.interleave->panel()->setGroup(names, stages, solo);
                showPage(m_pages.interleave);
            });
    // A run stored without its timeline (a plan point), simulated again with it: forced, since
    // the stored run has the same inputs and would otherwise be reused.
    connect(timeline, &TimelinePage::simulateWithTimelineRequested, this, [this](const QString& scenario) {
        if (isRunning()) {
            statusBar()->showMessage(
                tr("Wait for the runs in progress to end, then simulate %1 again").arg(scenario), 8000);
            return;
        }
        runScenarios({scenario}, /*force=*/true);
    });
    // One time cursor for the timeline and the charts.
    connect(timeline->panel(), &TimelinePanel::timeCursorChanged, m_pages.charts->charts(),
            &SeriesCharts::setTimeCursor);
    connect(m_pages.charts->charts(), &SeriesCharts::timeCursorChanged, timeline->panel(),
            &TimelinePanel::setTimeCursor);
    connect(m_pages.cluster->editor(), &ClusterEditor::modifiedChanged, this, [this] { updateTitle(); });
    // The what-if compares with a stored run: the strip offers to make one.
    connect(m_pages.cluster->editor(), &ClusterEditor::runScenarioRequested, this,
            [this](const QString& scenario) {
                if (isRunning()) {
                    statusBar()->showMessage(
                        tr("Wait for the runs in progress to end, then run %1").arg(scenario), 8000);
                    return;
                }
                runScenarios({scenario});
            });
    connect(m_pages.trace, &TracePage::traceMade, this, &MainWindow::storeNewTrace);
    connect(this, &MainWindow::runsFinished, m_pages.replay, &ReplayPage::runsEnded);
    connect(m_pages.profiles->view(), &ProfilesView::importRequested, this,
            [this] { importProfilerTrace(); });
    PlanView* plan = m_pages.plan->view();
    connect(plan, &PlanView::scenariosAdded, this, [this] { m_browser->refresh(); });
    connect(plan, &PlanView::openScenarioRequested, this, [this](const QString& name) {
        m_browser->refresh();
        m_browser->selectScenario(name);
        showPage(m_pages.results);
    });
}

void MainWindow::connectWorkspaceDock() {
    connect(m_browser, &ScenarioBrowser::currentScenarioChanged, this, &MainWindow::onScenarioSelected);
    connect(m_browser, &ScenarioBrowser::revealRequested, this, [this] {
        m_docks.first()->show();
        m_docks.first()->raise();
    });
    connect(m_browser->view()->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentItemChanged(current); });
    // A deleted scenario's run ids can be given to new runs: forget what was read for them.
    connect(m_browser, &ScenarioBrowser::scenariosChanged, this, [this] {
        m_pages.charts->forgetRuns();
        m_pages.timeline->forgetRuns();
        m_pages.compare->view()->refreshRuns();
    });
    connect(m_browser, &ScenarioBrowser::clusterActivated, this, &MainWindow::onClusterActivated);
    connect(m_browser, &ScenarioBrowser::traceActivated, this, &MainWindow::onTraceActivated);
    connect(m_browser, &ScenarioBrowser::runActivated, this, &MainWindow::onRunActivated);
    connect(m_runPanel, &RunPanel::runRequested, this, &MainWindow::runRequested);
    connect(m_runPanel, &RunPanel::stopRequested, this, &MainWindow::stopRuns);
}

MainWindowPage* MainWindow::currentPage() const {
    const QList<MainWindowPage*> pages = m_pages.all();
    const int index = m_tabs->currentIndex();
    return index >= 0 && index < pages.size() ? pages[index] : nullptr;
}

void MainWindow::showPage(MainWindowPage* page) {
    m_tabs->setCurrentWidget(page->widget());
}

void MainWindow::onPageChanged(int index) {
    const QList<MainWindowPage*> pages = m_pages.all();
    for (int i = 0; i < pages.size(); ++i)
        if (i != index) pages[i]->setCurrent(false);
    updateViewShortcuts();
    if (index >= 0 && index < pages.size()) pages[index]->setCurrent(true);
}

void MainWindow::createActions() {
    createFileActions();
    // The Edit menu's undo/redo act on the editor from anywhere in the window; the editor's own
    // focus-scoped shortcuts would make the keys ambiguous.
    ClusterEditor* editor = m_pages.cluster->editor();
    for (QAction* own : {editor->undoAction(), editor->redoAction()}) own->setShortcuts({});
    m_actions.undo = editor->undoStack()->createUndoAction(this, tr("&Undo"));
    m_actions.undo->setIcon(actionIcon("undo"));
    m_actions.undo->setShortcut(QKeySequence::Undo);
    m_actions.redo = editor->undoStack()->createRedoAction(this, tr("&Redo"));
    m_actions.redo->setIcon(actionIcon("redo"));
    m_actions.redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    updateViewShortcuts();

    auto make = [this](const char* icon, const QString& text, const QKeySequence& key, const QString& tip,
                       auto slot) { return makeConnectedAction(this, icon, text, key, tip, slot); };
    m_actions.run = make("run", tr("&Run"), QKeySequence(Qt::Key_F5),
                         tr("Run the policies checked in the Run panel on the selected scenario"),
                         &MainWindow::runRequested);
    m_actions.stop =
        make("stop", tr("&Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
             tr("Stop every running simulation; nothing partial is stored"), &MainWindow::stopRuns);
}

void MainWindow::createFileActions() {
    auto make = [this](const char* icon, const QString& text, const QKeySequence& key, const QString& tip,
                       auto slot) { return makeConnectedAction(this, icon, text, key, tip, slot); };
    m_actions.newWorkspace = make("new-workspace", tr("&New Workspace\u2026"), QKeySequence::New,
                                  tr("Create an empty workspace file"), &MainWindow::newWorkspace);
    m_actions.open = make("open-workspace", tr("&Open Workspace\u2026"), QKeySequence::Open,
                          tr("Open a workspace file (.sqlite)"), &MainWindow::chooseWorkspace);
    m_actions.saveCluster = make("save", tr("&Save Cluster"), QKeySequence::Save,
                                 tr("Store the edited cluster in the workspace"), [this] {
                                     QString error;
                                     if (!saveCluster(&error) && !error.isEmpty())
                                         QMessageBox::warning(this, tr("Save cluster"), error);
                                 });
    m_actions.importTrace =
        make("import-trace", tr("&Import Trace\u2026"), QKeySequence(Qt::CTRL | Qt::Key_I),
             tr("Preview a job trace file and store it in the workspace"), [this] { importTrace(); });
    m_actions.importLayout = make(
        "import-layout", tr("Import Cluster &Layout\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I),
        tr("Read a cluster layout (JSON or Muri cluster spec CSV) into the workspace"),
        &MainWindow::chooseLayoutToImport);
    m_actions.importProfiler =
        make("import-trace", tr("Import &Profiler Trace\u2026"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_K),
             tr("Make a model profile from PyTorch profiler (Kineto) traces and store it in a profile set"),
             [this] { importProfilerTrace(); });
    m_actions.importSlurm = make(
        "import-layout", tr("Import from S&lurm\u2026"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S),
        tr("Read a Slurm job history (sacct) and node inventory (scontrol/sinfo) into a trace and a cluster"),
        [this] { importFromSlurm(); });
    m_actions.generate =
        make("generate-trace", tr("&Generate Trace\u2026"), QKeySequence(Qt::CTRL | Qt::Key_G),
             tr("Generate a synthetic trace and store it"), &MainWindow::generateTrace);
    m_actions.exportResults =
        make("export", tr("&Export Results as CSV\u2026"), QKeySequence(Qt::CTRL | Qt::Key_E),
             tr("Write the results table of the shown scenarios as CSV"), &MainWindow::exportResultsCsv);
    m_actions.exportView = make(
        "export-chart", tr("Export &View\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
        tr("Save the current view as PNG, SVG or PDF at a chosen size and DPI"), &MainWindow::exportView);
    m_actions.quit = make("stop", tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), tr("Quit ClusterLoom"),
                          &QWidget::close);
    m_actions.quit->setIcon(QIcon::fromTheme(QStringLiteral("application-exit")));
    m_actions.quit->setMenuRole(QAction::QuitRole);
}

void MainWindow::createMenus() {
    createFileMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_actions.undo);
    edit->addAction(m_actions.redo);

    // The workspace dock's actions, so that they can be found and their keys work from any view.
    QMenu* scenario = menuBar()->addMenu(tr("S&cenario"));
    scenario->addAction(m_browser->newAction());
    scenario->addAction(m_browser->duplicateAction());
    scenario->addSeparator();
    scenario->addAction(m_browser->renameAction());
    scenario->addAction(m_browser->deleteAction());

    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    simulation->addAction(m_actions.run);
    simulation->addAction(m_actions.stop);
    simulation->addSeparator();
    simulation->addAction(m_pages.cluster->placementAction());

    createViewMenu();

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(QIcon::fromTheme(QStringLiteral("help-contents")), tr("&Guide"));
    guide->setObjectName(QStringLiteral("helpGuide"));
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setToolTip(tr("The walk-throughs for planners, teachers and report authors, offline"));
    connect(guide, &QAction::triggered, this, [this] { showGuide(GuideDialog::GuideTab); });
    QAction* keys = help->addAction(tr("&Keyboard Shortcuts"));
    keys->setObjectName(QStringLiteral("helpShortcuts"));
    connect(keys, &QAction::triggered, this, [this] { showGuide(GuideDialog::ShortcutsTab); });
    QAction* whatsThis = QWhatsThis::createAction(this);
    whatsThis->setObjectName(QStringLiteral("helpWhatsThis"));
    help->addAction(whatsThis);
    help->addSeparator();
    auto* about = help->addAction(QIcon(QStringLiteral(":/icons/clusterloom.svg")), tr("&About ClusterLoom"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    auto* aboutQt = help->addAction(tr("About &Qt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);

    createToolBar();
}

void MainWindow::createFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_actions.newWorkspace);
    file->addAction(m_actions.open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(m_actions.saveCluster);
    file->addSeparator();
    file->addAction(m_actions.importTrace);
    file->addAction(m_actions.importLayout);
    file->addAction(m_actions.importSlurm);
    file->addAction(m_actions.importProfiler);
    file->addAction(m_actions.generate);
    file->addAction(m_pages.trace->transformAction());
    file->addSeparator();
    file->addAction(m_actions.exportResults);
    file->addAction(m_actions.exportView);
    file->addAction(m_pages.compare->reportAction());
    file->addAction(m_pages.cluster->exportJsonAction());
    file->addSeparator();
    file->addAction(m_actions.quit);
    updateRecentMenu();
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QList<MainWindowPage*> pages = m_pages.all();
    for (int i = 0; i < pages.size(); ++i) {
        auto* show = new QAction(pages[i]->icon(), pages[i]->title(), this);
        // Alt+1 .. Alt+9, then Alt+0 for the tenth page, as the number row runs.
        show->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(i < 9 ? Qt::Key_1 + i : Qt::Key_0)));
        connect(show, &QAction::triggered, this, [this, i] { m_tabs->setCurrentIndex(i); });
        view->addAction(show);
    }
    view->addSeparator();
    for (QDockWidget* dock : m_docks) view->addAction(dock->toggleViewAction());
    view->addSeparator();
    QMenu* theme = view->addMenu(actionIcon("theme"), tr("&Theme"));
    m_themeGroup = new QActionGroup(this);
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
        const QString label = t == Theme::System  ? tr("&System")
                              : t == Theme::Light ? tr("&Light")
                                                  : tr("&Dark");
        QAction* action = theme->addAction(label);
        action->setCheckable(true);
        action->setData(themeName(t));
        m_themeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [t] { applyTheme(t); });
    }
    m_themeGroup->actions().first()->setChecked(true);
}

void MainWindow::createToolBar() {
    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_actions.newWorkspace);
    toolbar->addAction(m_actions.open);
    toolbar->addAction(m_actions.saveCluster);
    toolbar->addSeparator();
    toolbar->addAction(m_actions.undo);
    toolbar->addAction(m_actions.redo);
    toolbar->addSeparator();
    toolbar->addAction(m_actions.importTrace);
    toolbar->addAction(m_actions.generate);
    toolbar->addSeparator();
    toolbar->addAction(m_actions.run);
    toolbar->addAction(m_actions.stop);
    toolbar->addSeparator();
    toolbar->addAction(m_actions.exportResults);
    // Long labels only where they help: open/save/undo/redo are known by their icons.
    for (QAction* a :
         {m_actions.newWorkspace, m_actions.open, m_actions.undo, m_actions.redo, m_actions.exportResults})
        if (auto* button = qobject_cast<QToolButton*>(toolbar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
}

void MainWindow::updateViewShortcuts() {
    // Undo and redo change the cluster; their keys act only where the cluster is visible, so
    // Ctrl+Z in the results or the browser never changes something out of sight.
    MainWindowPage* page = currentPage();
    const bool editing = page == m_pages.cluster;
    m_actions.undo->setShortcut(editing ? QKeySequence(QKeySequence::Undo) : QKeySequence());
    m_actions.redo->setShortcuts(editing ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
                                                               QKeySequence(Qt::CTRL | Qt::Key_Y)}
                                         : QList<QKeySequence>{});
    // The scenario keys (Ctrl+D, Delete, F2) act window-wide, except where the shown view has
    // the same keys for its own items (duplicate or remove a server, edit a stage time): there
    // they act only in the workspace tree, as two window-wide matches would cancel each other.
    const bool ownKeys = page && page->hasOwnItemKeys();
    m_browser->setShortcutContext(ownKeys ? Qt::WidgetWithChildrenShortcut : Qt::WindowShortcut);
}

QStringList MainWindow::viewNames() {
    return {QStringLiteral("results"),    QStringLiteral("cluster"),  QStringLiteral("trace"),
            QStringLiteral("timeline"),   QStringLiteral("charts"),   QStringLiteral("compare"),
            QStringLiteral("interleave"), QStringLiteral("profiles"), QStringLiteral("plan"),
            QStringLiteral("replay")};
}

bool MainWindow::showView(const QString& name) {
    for (MainWindowPage* page : m_pages.all())
        if (page->name() == name) {
            showPage(page);
            return true;
        }
    return false;
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
        !geometry.isEmpty())
        restoreGeometry(geometry);
    if (const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
        !state.isEmpty())
        m_sideDocksSized = restoreState(state);
    for (MainWindowPage* page : m_pages.all()) page->restoreSettings(settings);
    const Theme theme = themeFromName(settings.value(QStringLiteral("theme")).toString());
    if (theme != Theme::System) setTheme(theme);
}

void MainWindow::setTheme(Theme theme) {
    for (QAction* action : m_themeGroup->actions())
        if (action->data().toString() == themeName(theme)) action->setChecked(true);
    applyTheme(theme);
}

void MainWindow::saveSettings() {
    if (!m_options.useSettings) return;
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    for (MainWindowPage* page : m_pages.all()) page->saveSettings(settings);
    if (QAction* checked = m_themeGroup->checkedAction())
        settings.setValue(QStringLiteral("theme"), checked->data().toString());
    if (!m_path.isEmpty()) settings.setValue(QStringLiteral("lastWorkspace"), m_path);
}

void MainWindow::addRecent(const QString& path) {
    if (!m_options.useSettings) return;
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentWorkspaces")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(QStringLiteral("recentWorkspaces"), recent);
    settings.setValue(QStringLiteral("lastWorkspace"), path);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = m_options.useSettings
                                   ? QSettings().value(QStringLiteral("recentWorkspaces")).toStringList()
                                   : QStringList();
    for (int i = 0; i < recent.size(); ++i) {
        const QString& path = recent[i];
        QAction* action =
            m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] { openRecent(path); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::openRecent(const QString& path) {
    if (!QFileInfo::exists(path)) {
        // Opening would create an empty workspace where the old one was.
        QSettings settings;
        QStringList recent = settings.value(QStringLiteral("recentWorkspaces")).toStringList();
        recent.removeAll(path);
        settings.setValue(QStringLiteral("recentWorkspaces"), recent);
        updateRecentMenu();
        QMessageBox::warning(
            this, tr("Open workspace"),
            tr("%1 no longer exists (moved or deleted); it was removed from the recent list.").arg(path));
        return;
    }
    QString error;
    if (!openWorkspace(path, Demo::No, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Open workspace"), tr("Cannot open %1:\n\n%2").arg(path, error));
}

void MainWindow::updateTitle() {
    const QString file = m_path.isEmpty() ? tr("no workspace") : QFileInfo(m_path).fileName();
    setWindowTitle(QStringLiteral("%1%2 \u2014 ClusterLoom")
                       .arg(file, clusterEditor()->isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::log(const QString& message) {
    m_log->appendPlainText(
        QStringLiteral("[%1] %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), message));
}

bool MainWindow::isRunning() const {
    return m_job && m_job->isRunning();
}

void MainWindow::setRunningUi(bool running) {
    m_actions.run->setEnabled(!running);
    m_actions.stop->setEnabled(running);
    m_actions.open->setEnabled(!running);
    m_actions.newWorkspace->setEnabled(!running);
    m_recentMenu->setEnabled(!running && !m_recentMenu->isEmpty());
    m_runPanel->setRunning(running);
    m_browser->setEditingLocked(running);
    m_progress->setVisible(running);
}

bool MainWindow::openWorkspace(const QString& path, Demo demo, QString* error) {
    if (isRunning()) {
        if (error) *error = tr("Stop the running simulations before opening another workspace.");
        return false;
    }
    if (m_store && !confirmDiscardEdits()) {
        if (error) error->clear();  // the user chose to stay; nothing to report
        return false;
    }
    std::unique_ptr<cl::ScenarioStore> store;
    QStringList demoNames;
    QString first;
    try {
        store = std::make_unique<cl::ScenarioStore>(path.toStdString());
        if (demo == Demo::Always || (demo == Demo::IfEmpty && store->scenarios().empty()))
            for (const auto& name : cl::populateDemoWorkspace(*store))
                demoNames << QString::fromStdString(name);
        const auto scenarios = store->scenarios();
        if (!demoNames.isEmpty())
            first = demoNames.first();
        else if (!scenarios.empty())
            first = QString::fromStdString(scenarios.front().spec.name);
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        log(tr("Could not open %1: %2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
    m_job.reset();
    // Nothing of the previous workspace may be saved into this one by mistake.
    m_runPanel->setScenario(nullptr);
    m_runPanel->clearRuns();
    m_browser->setStore(nullptr);
    m_properties->setStore(nullptr);
    setPagesWorkspace(nullptr, QString());
    m_store = std::move(store);
    m_shownScenario.clear();
    m_path = QFileInfo(path).absoluteFilePath();
    m_browser->setStore(m_store.get());
    m_properties->setStore(m_store.get());
    setPagesWorkspace(m_store.get(), m_path);
    addRecent(m_path);
    updateTitle();
    log(tr("Opened workspace %1").arg(m_path));
    statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(m_path).fileName()), 5000);

    if (!first.isEmpty()) m_browser->selectScenario(first);
    if (!demoNames.isEmpty()) runScenarios(demoNames);
    return true;
}

bool MainWindow::confirmDiscardEdits() {
    ClusterEditor* editor = clusterEditor();
    if (!editor->isModified()) return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved cluster"),
        tr("The cluster %1 in the editor has unsaved changes. Store them in the workspace?")
            .arg(QString::fromStdString(editor->cluster().name)),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) {
        QString error;
        if (!saveCluster(&error)) {
            if (!error.isEmpty()) QMessageBox::warning(this, tr("Save cluster"), error);
            return false;
        }
    }
    return true;
}

void MainWindow::setPagesWorkspace(cl::ScenarioStore* store, const QString& path) {
    for (MainWindowPage* page : m_pages.all()) page->setWorkspace(store, path);
}

void MainWindow::onScenarioSelected(const QString& name) {
    if (!m_store || name.isEmpty()) {
        m_runPanel->setScenario(nullptr);
        m_pages.results->view()->showScenario({});
        m_shownScenario.clear();
        clusterEditor()->setWhatIfScenario({}, {});
        return;
    }
    ClusterEditor* editor = clusterEditor();
    try {
        const cl::ScenarioInfo info = m_store->scenario(name.toStdString());
        // The editor follows the selection. Unsaved edits of another cluster are not kept on
        // screen beside a scenario they do not belong to: the user saves, discards or stays.
        const bool otherCluster = editor->storedClusterId() != info.spec.cluster_id;
        if (otherCluster && !m_restoringScenario && !confirmDiscardEdits()) {
            const QString previous = m_shownScenario;
            // Back to the scenario the edits belong to, once this selection change is over.
            QTimer::singleShot(0, this, [this, previous] {
                m_restoringScenario = true;
                if (previous.isEmpty())
                    m_browser->view()->selectionModel()->clearCurrentIndex();
                else
                    m_browser->selectScenario(previous);
                m_restoringScenario = false;
            });
            return;
        }
        m_shownScenario = name;
        m_runPanel->setScenario(&info);
        PlanView* plan = m_pages.plan->view();
        if (!plan->isRunning()) plan->useScenarioInputs(name);
        m_pages.compare->view()->setFocusScenario(name);
        m_pages.replay->followScenario(info.id);
        m_pages.results->view()->showScenario(name);
        if (otherCluster && !m_restoringScenario)
            editor->setCluster(m_store->cluster(info.spec.cluster_id), info.spec.cluster_id);
        editor->setWhatIfScenario(m_path, name);
        // The trace browser is reloaded only for another trace (which resets its filters).
        if (m_pages.trace->storedTraceId() != info.spec.trace_id)
            m_pages.trace->showTrace(std::make_shared<const cl::Trace>(m_store->trace(info.spec.trace_id)),
                                     info.spec.trace_id);
    } catch (const std::exception& e) {
        log(tr("Cannot show scenario %1: %2").arg(name, QString::fromStdString(e.what())));
    }
}

void MainWindow::onCurrentItemChanged(const QModelIndex& current) {
    const qint64 id = current.data(WorkspaceModel::IdRole).toLongLong();
    switch (m_browser->model()->kind(current)) {
        case WorkspaceModel::Kind::Scenario:
            m_properties->showScenario(m_browser->model()->scenarioName(current));
            break;
        case WorkspaceModel::Kind::Cluster:
            m_properties->showCluster(id);
            break;
        case WorkspaceModel::Kind::Trace:
            m_properties->showTrace(id);
            break;
        case WorkspaceModel::Kind::Run:
            m_properties->showRun(id);
            break;
        case WorkspaceModel::Kind::Group:
            m_properties->showNothing();
            break;
    }
}

void MainWindow::onClusterActivated(qint64 id) {
    if (!m_store) return;
    m_properties->showCluster(id);
    if (!confirmDiscardEdits()) return;
    try {
        clusterEditor()->setCluster(m_store->cluster(id), id);
        showPage(m_pages.cluster);
    } catch (const std::exception& e) {
        log(tr("Cannot open cluster #%1: %2").arg(id).arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::onTraceActivated(qint64 id) {
    if (!m_store) return;
    m_properties->showTrace(id);
    try {
        m_pages.trace->showTrace(std::make_shared<const cl::Trace>(m_store->trace(id)), id);
        showPage(m_pages.trace);
    } catch (const std::exception& e) {
        log(tr("Cannot open trace #%1: %2").arg(id).arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::onRunActivated(qint64 id) {
    m_properties->showRun(id);
    m_pages.results->view()->showRun(id);
}

void MainWindow::runRequested() {
    if (!m_store || isRunning()) return;
    const RunPanel::Request request = m_runPanel->request();
    if (request.base.isEmpty()) {
        statusBar()->showMessage(tr("Select a scenario to run"), 5000);
        return;
    }
    std::vector<std::string> policies;
    for (const QString& p : request.policies) policies.push_back(p.toStdString());
    QStringList names;
    try {
        const cl::ScenarioInfo base = m_store->scenario(request.base.toStdString());
        const auto specs = cl::whatIfVariants(*m_store, base, policies, request.load_factor,
                                              request.server_count, request.interference);
        for (const auto& info : cl::createSweepScenarios(*m_store, specs))
            names << QString::fromStdString(info.spec.name);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Run"),
                             tr("Cannot prepare the runs:\n\n%1").arg(QString::fromStdString(e.what())));
        return;
    }
    m_browser->refresh();
    runScenarios(names, request.force);
}

void MainWindow::runScenarios(const QStringList& names, bool force) {
    if (!m_store || isRunning() || names.isEmpty()) return;
    m_failedRuns = 0;
    m_runPanel->clearRuns();
    for (const QString& name : names) m_runPanel->addRun(name);
    m_job = std::make_unique<ScenarioRunBatch>(m_path, names, ScenarioRunBatch::Options{force, 0});
    connectRunBatch(static_cast<int>(names.size()));
    m_progress->setValue(0);
    setRunningUi(true);
    log(tr("Running %1").arg(names.join(QStringLiteral(", "))));
    m_job->start();
}

void MainWindow::connectRunBatch(int total) {
    auto progress = std::make_shared<QHash<QString, double>>();
    connect(m_job.get(), &ScenarioRunBatch::runStarted, this, [this](const QString& name) {
        m_runPanel->setRunState(name, RunPanel::RunState::Running);
        m_pages.results->view()->setRunProgress(name, 0.0);
        statusBar()->showMessage(tr("Simulating %1\u2026").arg(name));
    });
    connect(m_job.get(), &ScenarioRunBatch::runProgress, this,
            [this, progress, total](const QString& name, double f) {
                m_runPanel->setRunProgress(name, f);
                m_pages.results->view()->setRunProgress(name, f);
                (*progress)[name] = f;
                double sum = 0.0;
                for (double v : *progress) sum += v;
                m_progress->setValue(static_cast<int>(sum / total * 1000.0));
            });
    connect(m_job.get(), &ScenarioRunBatch::runFinished, this,
            [this, progress](const QString& name, qint64 id, bool reused) {
                (*progress)[name] = 1.0;
                m_pages.results->view()->clearRunProgress(name);
                m_runPanel->setRunState(name,
                                        reused ? RunPanel::RunState::Reused : RunPanel::RunState::Finished,
                                        tr("run %1").arg(id));
                try {
                    const cl::RunInfo info = m_store->runInfo(id);
                    log(tr("%1 %2: average JCT %3, makespan %4 (run %5)")
                            .arg(name, reused ? tr("is up to date") : tr("finished"),
                                 formatDuration(info.summary.avg_jct), formatDuration(info.summary.makespan))
                            .arg(id));
                } catch (const std::exception& e) {
                    log(tr("%1 finished, but its run cannot be read: %2")
                            .arg(name, QString::fromStdString(e.what())));
                }
                m_browser->refresh();
                ResultsView* results = m_pages.results->view();
                if (ResultsView::familyOf(name) == results->family()) results->refresh();
                // The live what-if had nothing to compare with until this run.
                LiveWhatIf* whatIf = clusterEditor()->liveWhatIf();
                if (whatIf->scenario() == name && !whatIf->stored()) whatIf->reload();
            });
    connect(m_job.get(), &ScenarioRunBatch::runFailed, this,
            [this](const QString& name, const QString& message) {
                ++m_failedRuns;
                m_pages.results->view()->clearRunProgress(name);
                m_runPanel->setRunState(name, RunPanel::RunState::Failed, message);
                log(tr("%1 failed: %2").arg(name, message));
                m_browser->refresh();
            });
    connect(m_job.get(), &ScenarioRunBatch::runCancelled, this, [this](const QString& name) {
        m_pages.results->view()->clearRunProgress(name);
        m_runPanel->setRunState(name, RunPanel::RunState::Cancelled, tr("stopped; nothing was stored"));
        log(tr("%1 stopped; nothing was stored").arg(name));
    });
    connect(m_job.get(), &ScenarioRunBatch::finished, this, [this, total](bool cancelled) {
        setRunningUi(false);
        m_pages.results->view()->clearRunProgress();
        m_pages.results->view()->refresh();
        m_browser->refresh();
        m_properties->refresh();
        m_pages.compare->view()->refreshRuns();
        statusBar()->showMessage(
            cancelled          ? tr("Stopped")
            : m_failedRuns > 0 ? tr("%1 of %2 runs failed; see the run log").arg(m_failedRuns).arg(total)
                               : tr("%n run(s) done", nullptr, total),
            8000);
        emit runsFinished();
        if (m_closeWhenStopped) QTimer::singleShot(0, this, &QWidget::close);
    });
}

void MainWindow::stopRuns() {
    if (!isRunning()) return;
    m_job->cancel();
    statusBar()->showMessage(tr("Stopping\u2026"));
}

void MainWindow::sizeSideDocks(int windowWidth) {
    // The workspace tree and the properties need room for names like "fat-tree-k4-power8", the
    // run panel for its policy list; the views get the rest.
    const int em = fontMetrics().averageCharWidth();
    resizeDocks({m_docks.first(), m_docks.at(2)},
                {std::clamp(int(windowWidth * 0.22), 34 * em, 70 * em),
                 std::clamp(int(windowWidth * 0.17), 28 * em, 44 * em)},
                Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // Once laid out at its first size (docks sized before that keep the width they had in the
    // default 640-pixel layout); a layout restored from the settings is the user's and stays.
    if (!m_sideDocksSized) {
        m_sideDocksSized = true;
        sizeSideDocks(width());
    }
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::WindowStateChange) m_rescaleDocks = true;
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    // Maximizing (or restoring) gives the extra width to the views alone, which left the side
    // docks as narrow as in the small window, their labels broken mid-word. Keep their share.
    if (m_rescaleDocks && event->oldSize().width() > 0 && event->size().width() != event->oldSize().width()) {
        m_rescaleDocks = false;
        const double scale = double(event->size().width()) / event->oldSize().width();
        QList<QDockWidget*> docks;
        QList<int> widths;
        for (QDockWidget* dock : {m_docks.first(), m_docks.at(2)})
            if (dock->isVisible() && !dock->isFloating()) {
                docks << dock;
                widths << int(dock->width() * scale);
            }
        QMainWindow::resizeEvent(event);
        if (!docks.isEmpty()) resizeDocks(docks, widths, Qt::Horizontal);
        return;
    }
    QMainWindow::resizeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (isRunning()) {
        const auto answer = QMessageBox::question(this, tr("Runs in progress"),
                                                  tr("%n run(s) are still going. Stop them and quit? "
                                                     "Finished runs are kept; the others are not stored.",
                                                     nullptr, static_cast<int>(m_job->scenarios().size())),
                                                  QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        event->ignore();
        if (answer == QMessageBox::Yes) {
            // Quit once the workers have returned, without freezing the window meanwhile.
            m_closeWhenStopped = true;
            stopRuns();
        }
        return;
    }
    if (!confirmDiscardEdits()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

void MainWindow::showGuide(int tab) {
    // One guide window, kept: reopening it keeps where the reader was.
    if (!m_guide) {
        QList<QMenu*> menus;
        for (QAction* action : menuBar()->actions())
            if (action->menu()) menus << action->menu();
        m_guide = new GuideDialog(menus, this);
        m_guide->setObjectName(QStringLiteral("guideDialog"));
    }
    m_guide->showTab(static_cast<GuideDialog::Tab>(tab));
    m_guide->show();
    m_guide->raise();
    m_guide->activateWindow();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About ClusterLoom"),
        tr("<h3>ClusterLoom %1</h3>"
           "<p>A desktop planner for deep-learning GPU clusters: it simulates job traces on cluster "
           "layouts with the Muri, Synergy and SJF-BSBF schedulers and their baselines, and compares "
           "job completion times and utilization side by side.</p>"
           "<p>Workspace: %2<br>Data directory: %3</p>")
            .arg(QString::fromStdString(cl::engineVersion()), m_path.toHtmlEscaped(),
                 QString::fromStdString(cl::dataDir()).toHtmlEscaped()));
}

void MainWindow::selectScenario(const QString& name) {
    m_browser->selectScenario(name);
}

}  // namespace cl::views
