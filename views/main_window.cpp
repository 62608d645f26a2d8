#include "views/main_window.h"

#include <algorithm>
#include <exception>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "core/io/trace_readers.h"
#include "core/util/data_paths.h"
#include "views/format.h"
#include "views/resources_init.h"
#include "views/summary_table_model.h"
#include "views/utilization_plot.h"

namespace cl::views {

MainWindow::MainWindow(Scenario scenario, QWidget* parent)
    : QMainWindow(parent), m_scenario(std::move(scenario)) {
    initResources();
    setWindowTitle(QStringLiteral("ClusterLoom"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/clusterloom.svg")));

    m_model = new SummaryTableModel(this);
    createActions();
    createCentralWidget();
    updateScenarioLabels();

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(QFontMetrics(font()).averageCharWidth() * 24);
    m_progress->setToolTip(tr("Progress of the simulation runs"));
    m_progress->hide();
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->showMessage(tr("Ready"));
    setRunningUi(false);

    // Size from the font (high-DPI and large-font friendly), within the screen.
    const QFontMetrics fm(font());
    QSize size(fm.height() * 62, fm.height() * 44);
    if (const QScreen* screen = this->screen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    resize(size);

    QTimer::singleShot(0, this, &MainWindow::startRuns);
}

MainWindow::~MainWindow() = default;  // m_job's destructor cancels and waits

void MainWindow::createActions() {
    QStyle* s = style();

    m_openAction = new QAction(
        QIcon::fromTheme(QStringLiteral("document-open"), s->standardIcon(QStyle::SP_DialogOpenButton)),
        tr("&Open trace\u2026"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(
        tr("Load a job trace (Muri/Tiresias, Philly, Helios, Alibaba, Synergy, "
           "Pollux, ClusterLoom CSV/JSON) and simulate it on the current cluster"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::chooseTrace);

    auto* quit = new QAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);
    quit->setStatusTip(tr("Quit ClusterLoom"));
    connect(quit, &QAction::triggered, this, &QWidget::close);

    m_runAction = new QAction(
        QIcon::fromTheme(QStringLiteral("media-playback-start"), s->standardIcon(QStyle::SP_MediaPlay)),
        tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_runAction->setStatusTip(tr("Simulate the trace again with every policy"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRuns);

    m_cancelAction =
        new QAction(QIcon::fromTheme(QStringLiteral("process-stop"), s->standardIcon(QStyle::SP_BrowserStop)),
                    tr("&Cancel"), this);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setStatusTip(tr("Stop the running simulations"));
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelRuns);

    auto* about =
        new QAction(QIcon(QStringLiteral(":/icons/clusterloom.svg")), tr("&About ClusterLoom"), this);
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    auto* aboutQt = new QAction(tr("About &Qt"), this);
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addSeparator();
    file->addAction(quit);

    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    simulation->addAction(m_runAction);
    simulation->addAction(m_cancelAction);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(about);
    help->addAction(aboutQt);

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    toolbar->addAction(m_openAction);
    toolbar->addSeparator();
    toolbar->addAction(m_runAction);
    toolbar->addAction(m_cancelAction);
}

void MainWindow::createCentralWidget() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);

    auto* scenarioBox = new QGroupBox(tr("Scenario"), central);
    auto* form = new QFormLayout(scenarioBox);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_clusterLabel = new QLabel(scenarioBox);
    m_traceLabel = new QLabel(scenarioBox);
    m_policiesLabel = new QLabel(scenarioBox);
    for (QLabel* label : {m_clusterLabel, m_traceLabel, m_policiesLabel}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
    }
    form->addRow(tr("Cluster:"), m_clusterLabel);
    form->addRow(tr("Trace:"), m_traceLabel);
    form->addRow(tr("Policies:"), m_policiesLabel);
    layout->addWidget(scenarioBox);

    auto* splitter = new QSplitter(Qt::Vertical, central);
    splitter->setChildrenCollapsible(false);

    auto* summaryBox = new QGroupBox(tr("Job completion time by policy"), splitter);
    auto* summaryLayout = new QVBoxLayout(summaryBox);
    m_table = new QTableView(summaryBox);
    m_table->setModel(m_model);
    m_table->setObjectName(QStringLiteral("summaryTable"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(SummaryTableModel::PolicyColumn,
                                                      QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    summaryLayout->addWidget(m_table);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::fitSummaryHeight);

    m_plot = new UtilizationPlot(splitter);
    splitter->addWidget(summaryBox);
    splitter->addWidget(m_plot);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    setCentralWidget(central);
}

void MainWindow::fitSummaryHeight() {
    // Show every policy row without a scroll bar (a handful of rows; more scroll).
    const int rows = std::min(m_model->rowCount(), 8);
    const int height = m_table->horizontalHeader()->sizeHint().height() +
                       rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth();
    m_table->setMinimumHeight(height);
}

void MainWindow::updateScenarioLabels() {
    m_clusterLabel->setText(m_scenario.cluster ? describeCluster(*m_scenario.cluster) : tr("none"));
    m_traceLabel->setText(m_scenario.trace ? describeTrace(*m_scenario.trace) : tr("none"));
    m_policiesLabel->setText(m_scenario.policies.join(QStringLiteral(", ")));
    if (m_scenario.trace && !m_scenario.trace->provenance.empty()) {
        QStringList lines;
        for (const std::string& line : m_scenario.trace->provenance) lines << QString::fromStdString(line);
        m_traceLabel->setToolTip(lines.join(QLatin1Char('\n')));
    } else {
        m_traceLabel->setToolTip({});
    }
}

bool MainWindow::isRunning() const {
    return m_job && m_job->isRunning();
}

SimResultPtr MainWindow::result(const QString& policy) const {
    const auto it = m_results.find(policy);
    return it == m_results.end() ? nullptr : it->second;
}

void MainWindow::setRunningUi(bool running) {
    m_runAction->setEnabled(!running);
    m_cancelAction->setEnabled(running);
    m_openAction->setEnabled(!running);
    m_progress->setVisible(running);
}

void MainWindow::startRuns() {
    if (m_job) {  // a previous job: stop it and drop its queued results
        m_job->cancel();
        m_job.reset();
    }
    m_results.clear();
    m_failed = 0;
    m_model->setPolicies(m_scenario.policies);
    m_plot->showMessage(tr("GPU utilization appears here when the first run finishes"));

    if (!m_scenario.isValid()) {
        statusBar()->showMessage(tr("Nothing to simulate: no scenario loaded"));
        setRunningUi(false);
        emit runsFinished();
        return;
    }

    RunInputs inputs{m_scenario.cluster, m_scenario.trace, m_scenario.profiles, {}};
    m_job = std::make_unique<RunJob>(std::move(inputs), m_scenario.policies);
    connect(m_job.get(), &RunJob::policyStarted, this, &MainWindow::onPolicyStarted);
    connect(m_job.get(), &RunJob::progressChanged, this, &MainWindow::onProgress);
    connect(m_job.get(), &RunJob::policyFinished, this, &MainWindow::onPolicyFinished);
    connect(m_job.get(), &RunJob::policyFailed, this, &MainWindow::onPolicyFailed);
    connect(m_job.get(), &RunJob::finished, this, &MainWindow::onFinished);

    m_progress->setValue(0);
    setRunningUi(true);
    statusBar()->showMessage(tr("Simulating\u2026"));
    m_clock.start();
    m_job->start();
}

void MainWindow::cancelRuns() {
    if (!isRunning()) return;
    m_job->cancel();
    statusBar()->showMessage(tr("Cancelling\u2026"));
}

void MainWindow::onPolicyStarted(const QString& policy) {
    m_model->setRunning(policy, 0.0);
    statusBar()->showMessage(tr("Simulating %1 (%2 jobs) with %3: run %4 of %5\u2026")
                                 .arg(QString::fromStdString(m_scenario.trace->name),
                                      QLocale().toString(static_cast<int>(m_scenario.trace->jobs.size())),
                                      policy)
                                 .arg(m_scenario.policies.indexOf(policy) + 1)
                                 .arg(m_scenario.policies.size()));
}

void MainWindow::onProgress(const QString& policy, double fraction_done, double overall_done) {
    m_model->setRunning(policy, fraction_done);
    m_progress->setValue(static_cast<int>(overall_done * 1000.0));
}

void MainWindow::onPolicyFinished(const QString& policy, SimResultPtr result) {
    if (!result) return;
    m_results[policy] = result;
    m_model->setSummary(policy, result->summary);
    if (!m_scenario.policies.isEmpty() && policy == m_scenario.policies.first())
        m_plot->setResult(policy, *result);
}

void MainWindow::onPolicyFailed(const QString& policy, const QString& message) {
    ++m_failed;
    m_model->setFailed(policy, message);
    if (!m_scenario.policies.isEmpty() && policy == m_scenario.policies.first())
        m_plot->showMessage(tr("GPU utilization \u2014 %1: the run failed").arg(policy));
}

void MainWindow::onFinished(bool cancelled) {
    setRunningUi(false);
    const double seconds = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0.0;
    const int done = static_cast<int>(m_results.size());
    const int total = static_cast<int>(m_scenario.policies.size());
    if (cancelled) {
        m_model->setUnfinishedCancelled();
        statusBar()->showMessage(tr("Cancelled after %1 of %2 runs").arg(done).arg(total));
    } else if (m_failed > 0) {
        statusBar()->showMessage(tr("%1 of %2 runs finished, %3 failed (hover over a row for the reason)")
                                     .arg(done)
                                     .arg(total)
                                     .arg(m_failed));
    } else {
        const QString took =
            seconds < 1.0 ? tr("%1 ms").arg(std::max<qint64>(1, m_clock.elapsed())) : formatDuration(seconds);
        statusBar()->showMessage(tr("Simulated %1 jobs with %2 policies in %3")
                                     .arg(QLocale().toString(static_cast<int>(m_scenario.trace->jobs.size())))
                                     .arg(total)
                                     .arg(took));
    }
    emit runsFinished();
}

void MainWindow::chooseTrace() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), QString(),
                                                      tr("Traces (*.csv *.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!openTrace(path, &error))
        QMessageBox::warning(this, tr("Open trace"),
                             tr("Could not read the trace %1:\n\n%2").arg(path, error));
}

bool MainWindow::openTrace(const QString& path, QString* error) {
    std::shared_ptr<cl::Trace> trace;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        cl::TraceReadOptions options;
        options.profiles = m_scenario.profiles.get();
        trace = std::make_shared<cl::Trace>(cl::readTrace(path.toStdString(), "auto", options));
        QApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()));
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    if (trace->name.empty()) trace->name = QFileInfo(path).completeBaseName().toStdString();
    if (isRunning()) cancelRuns();
    m_scenario.trace = std::move(trace);
    updateScenarioLabels();
    startRuns();
    return true;
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About ClusterLoom"),
        tr("<h3>ClusterLoom %1</h3>"
           "<p>A desktop planner for deep-learning GPU clusters: it simulates job traces on cluster "
           "layouts with the Muri, Synergy and SJF-BSBF schedulers and their baselines, and compares "
           "job completion times and utilization side by side.</p>"
           "<p>Data directory: %2</p>")
            .arg(QString::fromStdString(cl::engineVersion()),
                 QString::fromStdString(cl::dataDir()).toHtmlEscaped()));
}

}  // namespace cl::views
