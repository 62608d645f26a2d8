#include "views/topology_placement/placement_dialog.h"

#include <algorithm>
#include <exception>
#include <initializer_list>
#include <utility>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/topology/network_topology.h"
#include "core/topology_placement/distributed_models.h"
#include "core/topology_placement/distributed_workload.h"
#include "core/topology_placement/placement_policies.h"
#include "views/topology_placement/placement_results_model.h"

namespace cl::views {

namespace {

constexpr int kProgressSteps = 1000;

struct KindChoice {
    cl::PlacementPolicyKind kind;
    const char* label;
    const char* tip;
};

const KindChoice kKindChoices[] = {
    {cl::PlacementPolicyKind::Tetris, "tetris",
     QT_TRANSLATE_NOOP(
         "cl::views::PlacementDialog",
         "Tetris: best fit of the task's CPU, PCIe and GPU demand, keeping a job's workers together")},
    {cl::PlacementPolicyKind::LoadBalancing, "lb",
     QT_TRANSLATE_NOOP("cl::views::PlacementDialog", "Load balancing: the least loaded server")},
    {cl::PlacementPolicyKind::LeastInterference, "lif",
     QT_TRANSLATE_NOOP("cl::views::PlacementDialog",
                       "Least interference first: where co-located tasks slow it least")},
    {cl::PlacementPolicyKind::LeastAllocated, "k8s",
     QT_TRANSLATE_NOOP("cl::views::PlacementDialog", "Kubernetes-like least-allocated scoring")},
};

// Runs on a worker thread: the workload, then each policy, checking the flag in between.
void simulate(QPromise<PlacementRunOutcome>& promise, const cl::Cluster& cluster,
              const PlacementRunSettings& settings, const std::shared_ptr<std::atomic<bool>>& cancel) {
    PlacementRunOutcome outcome;
    try {
        const cl::NetworkTopology topology = cl::NetworkTopology::build(cluster.topology);
        std::vector<double> step_seconds;
        for (const auto& m : cl::distributedModelTypes()) step_seconds.push_back(m.step_seconds);
        cl::DistributedWorkloadSpec w;
        w.pattern = settings.pattern;
        w.jobs_per_interval = settings.jobs_per_interval;
        w.intervals = settings.intervals;
        w.max_jobs = static_cast<std::size_t>(std::max(0, settings.max_jobs));
        w.pods = topology.podCount();
        w.seed = static_cast<std::uint64_t>(settings.seed);
        const std::vector<cl::DistributedJob> jobs = cl::generateDistributedWorkload(w, step_seconds);
        const std::vector<cl::PlacementPolicy> policies = settings.policies();
        promise.setProgressRange(0, kProgressSteps);
        for (std::size_t i = 0; i < policies.size(); ++i) {
            if (cancel->load()) throw cl::PlacementCancelled();
            cl::PlacementSimOptions opt;
            opt.policy = policies[i];
            opt.seed = w.seed;
            opt.cancel = cancel.get();
            const double n = static_cast<double>(policies.size());
            opt.progress = [&promise, i, n](double share) {
                promise.setProgressValue(
                    static_cast<int>((static_cast<double>(i) + share) / n * kProgressSteps));
            };
            outcome.results.push_back(
                cl::simulatePlacement(cluster, topology, jobs, cl::distributedModelTypes(), opt));
            promise.setProgressValue(static_cast<int>(static_cast<double>(i + 1) / n * kProgressSteps));
        }
        outcome.jobs = jobs.size();
    } catch (const cl::PlacementCancelled&) {
        outcome = PlacementRunOutcome{};
        outcome.cancelled = true;
    } catch (const std::exception& e) {
        outcome = PlacementRunOutcome{};
        outcome.error = QString::fromStdString(e.what());
        if (outcome.error.isEmpty()) outcome.error = QStringLiteral("unknown error");
    }
    promise.addResult(std::move(outcome));
}

}  // namespace

std::vector<cl::PlacementPolicy> PlacementRunSettings::policies() const {
    std::vector<cl::PlacementPolicy> out;
    for (cl::PlacementLevel level : {cl::PlacementLevel::Server, cl::PlacementLevel::Device}) {
        if (level == cl::PlacementLevel::Server && levels == Levels::Device) continue;
        if (level == cl::PlacementLevel::Device && levels == Levels::Server) continue;
        for (const KindChoice& choice : kKindChoices)
            if (std::find(kinds.begin(), kinds.end(), choice.kind) != kinds.end())
                out.push_back(cl::PlacementPolicy{choice.kind, level});
    }
    return out;
}

PlacementDialog::PlacementDialog(const cl::Cluster& cluster, QWidget* parent)
    : QDialog(parent),
      m_cluster(cluster),
      m_hasTopology(cluster.topology.kind != cl::TopologyKind::Flat),
      m_pattern(new QComboBox(this)),
      m_rate(new QDoubleSpinBox(this)),
      m_intervals(new QSpinBox(this)),
      m_maxJobs(new QSpinBox(this)),
      m_seed(new QSpinBox(this)),
      m_level(new QComboBox(this)),
      m_run(new QPushButton(tr("&Run"), this)),
      m_cancel(new QPushButton(tr("Ca&ncel run"), this)),
      m_copy(new QPushButton(tr("&Copy as CSV"), this)),
      m_export(new QPushButton(tr("&Export CSV\u2026"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)),
      m_model(new PlacementResultsModel(this)),
      m_sorted(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)),
      m_cancelFlag(std::make_shared<std::atomic<bool>>(false)) {
    setWindowTitle(tr("Topology Placement \u2014 %1").arg(QString::fromStdString(cluster.name)));
    setModal(false);
    m_run->setObjectName(QStringLiteral("placementRun"));
    m_cancel->setObjectName(QStringLiteral("placementCancel"));
    m_model->setObjectName(QStringLiteral("placementResultsModel"));
    m_table->setObjectName(QStringLiteral("placementResults"));

    QLabel* about = createAboutLabel();
    QGroupBox* workload = createWorkloadBox();
    QGroupBox* policyBox = createPolicyBox();
    auto* inputs = new QHBoxLayout;
    inputs->addWidget(workload, 3);
    inputs->addWidget(policyBox, 2);
    QHBoxLayout* runRow = createRunRow();
    setUpResultsTable();
    QDialogButtonBox* buttons = createButtonBox();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(inputs);
    layout->addLayout(runRow);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);

    connectSignals();

    // The tier columns show before the first run.
    m_model->setResults({}, m_cluster.topology.tier_gbps, 1800.0);
    setSettings(PlacementRunSettings{});
    setRunningUi(false);
    if (m_hasTopology) {
        resize(1000, 620);  // room for all eight rows and three tier columns
    } else {
        // Nothing to set or run: the message and Close only.
        for (QWidget* w : std::initializer_list<QWidget*>{workload, policyBox, m_run, m_cancel, m_progress,
                                                          m_status, m_table, m_copy, m_export})
            w->setVisible(false);
        setMinimumWidth(560);
        adjustSize();
    }
}

QLabel* PlacementDialog::createAboutLabel() {
    auto* about = new QLabel(this);
    about->setObjectName(QStringLiteral("placementAbout"));
    about->setWordWrap(true);
    about->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (m_hasTopology) {
        about->setText(tr("Cluster <b>%1</b>: %2, %3 servers, %4 GPUs. Jobs of the multi-agent placement "
                          "paper's model types arrive at one scheduler per pod every 30 minutes; each policy "
                          "places the same workload.")
                           .arg(QString::fromStdString(m_cluster.name).toHtmlEscaped(),
                                QString::fromStdString(cl::topologyKindName(m_cluster.topology.kind)))
                           .arg(m_cluster.servers.size())
                           .arg(m_cluster.totalGpus()));
    } else {
        about->setText(
            tr("Cluster <b>%1</b> has no network topology (it is flat), so there is nothing to place. "
               "Build one in the Cluster view with <i>New from topology\u2026</i> (fat-tree, VL2 or "
               "BCube) and open this dialog again.")
                .arg(QString::fromStdString(m_cluster.name).toHtmlEscaped()));
    }
    return about;
}

QGroupBox* PlacementDialog::createWorkloadBox() {
    auto* workload = new QGroupBox(tr("Workload"), this);
    auto* form = new QFormLayout(workload);
    m_pattern->addItem(tr("uniform"), static_cast<int>(cl::ArrivalPattern::Uniform));
    m_pattern->addItem(tr("Poisson"), static_cast<int>(cl::ArrivalPattern::Poisson));
    m_pattern->setToolTip(tr("Jobs per interval: always the rate (uniform) or drawn around it (Poisson)"));
    form->addRow(tr("&Arrivals:"), m_pattern);
    m_rate->setRange(0.1, 1000.0);
    m_rate->setDecimals(1);
    m_rate->setToolTip(
        tr("Mean jobs submitted to each pod's scheduler per 30-minute interval (the "
           "multi-agent placement paper's: 15)"));
    form->addRow(tr("Jobs per &pod per interval:"), m_rate);
    m_intervals->setRange(1, 10000);
    m_intervals->setToolTip(tr("30-minute intervals with arrivals"));
    form->addRow(tr("&Intervals:"), m_intervals);
    m_maxJobs->setRange(0, 1000000);
    m_maxJobs->setSpecialValueText(tr("no cap"));
    m_maxJobs->setToolTip(tr("Stop the workload after this many jobs (0: no cap)"));
    form->addRow(tr("Job &cap:"), m_maxJobs);
    m_seed->setRange(0, 1000000000);
    m_seed->setToolTip(tr("Seed of the workload and of the server-level device draws"));
    form->addRow(tr("&Seed:"), m_seed);
    return workload;
}

QGroupBox* PlacementDialog::createPolicyBox() {
    auto* policyBox = new QGroupBox(tr("Policies"), this);
    auto* policyLayout = new QVBoxLayout(policyBox);
    for (const KindChoice& choice : kKindChoices) {
        auto* box = new QCheckBox(QString::fromLatin1(choice.label), policyBox);
        box->setToolTip(tr(choice.tip));
        policyLayout->addWidget(box);
        m_kinds.emplace_back(choice.kind, box);
        connect(box, &QCheckBox::toggled, this, &PlacementDialog::updateRunEnabled);
    }
    auto* levelRow = new QFormLayout;
    m_level->addItem(tr("server"), static_cast<int>(PlacementRunSettings::Levels::Server));
    m_level->addItem(tr("device"), static_cast<int>(PlacementRunSettings::Levels::Device));
    m_level->addItem(tr("both"), static_cast<int>(PlacementRunSettings::Levels::Both));
    m_level->setToolTip(
        tr("Server: the policy picks a server, the GPU group is drawn at random; device: it "
           "also picks the socket and GPU group; both: each policy at both levels"));
    levelRow->addRow(tr("&Level:"), m_level);
    policyLayout->addLayout(levelRow);
    policyLayout->addStretch(1);
    return policyBox;
}

QHBoxLayout* PlacementDialog::createRunRow() {
    m_run->setToolTip(tr("Simulate the checked policies on a worker thread"));
    m_run->setDefault(true);
    m_cancel->setToolTip(tr("Stop the run; nothing of it is kept"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addWidget(m_progress, 1);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return runRow;
}

void PlacementDialog::setUpResultsTable() {
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(PlacementResultsModel::kSortRole);
    m_table->setModel(m_sorted);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // run order until a click
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setToolTip(tr("Click a header to sort"));
}

QDialogButtonBox* PlacementDialog::createButtonBox() {
    m_copy->setToolTip(tr("Copy the results table to the clipboard as CSV"));
    m_export->setToolTip(tr("Write the results table to a CSV file"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    return buttons;
}

void PlacementDialog::connectSignals() {
    connect(m_run, &QPushButton::clicked, this, &PlacementDialog::run);
    connect(m_cancel, &QPushButton::clicked, this, &PlacementDialog::cancel);
    connect(m_copy, &QPushButton::clicked, this, &PlacementDialog::copyCsv);
    connect(m_export, &QPushButton::clicked, this, &PlacementDialog::chooseCsv);
    connect(&m_watcher, &QFutureWatcher<PlacementRunOutcome>::progressValueChanged, m_progress,
            &QProgressBar::setValue);
    connect(&m_watcher, &QFutureWatcher<PlacementRunOutcome>::finished, this, &PlacementDialog::onFinished);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_copy->setEnabled(m_model->rowCount() > 0);
        m_export->setEnabled(m_model->rowCount() > 0);
    });
}

PlacementDialog::~PlacementDialog() {
    stopAndWait();
}

PlacementRunSettings PlacementDialog::settings() const {
    PlacementRunSettings s;
    s.pattern = static_cast<cl::ArrivalPattern>(m_pattern->currentData().toInt());
    s.jobs_per_interval = m_rate->value();
    s.intervals = m_intervals->value();
    s.max_jobs = m_maxJobs->value();
    s.seed = m_seed->value();
    s.kinds.clear();
    for (const auto& [kind, box] : m_kinds)
        if (box->isChecked()) s.kinds.push_back(kind);
    s.levels = static_cast<PlacementRunSettings::Levels>(m_level->currentData().toInt());
    return s;
}

void PlacementDialog::setSettings(const PlacementRunSettings& s) {
    m_pattern->setCurrentIndex(std::max(0, m_pattern->findData(static_cast<int>(s.pattern))));
    m_rate->setValue(s.jobs_per_interval);
    m_intervals->setValue(s.intervals);
    m_maxJobs->setValue(s.max_jobs);
    m_seed->setValue(s.seed);
    for (const auto& entry : m_kinds)
        entry.second->setChecked(std::find(s.kinds.begin(), s.kinds.end(), entry.first) != s.kinds.end());
    m_level->setCurrentIndex(std::max(0, m_level->findData(static_cast<int>(s.levels))));
    updateRunEnabled();
}

bool PlacementDialog::isRunning() const {
    return m_running;
}

QString PlacementDialog::statusText() const {
    return m_status->text();
}

void PlacementDialog::run() {
    if (!m_hasTopology || isRunning()) return;
    const PlacementRunSettings s = settings();
    if (s.policies().empty()) return;
    m_model->clear();
    m_cancelFlag->store(false);
    m_progress->setValue(0);
    m_status->setText(tr("Running %n policies\u2026", nullptr, static_cast<int>(s.policies().size())));
    m_running = true;
    setRunningUi(true);
    m_watcher.setFuture(QtConcurrent::run(simulate, m_cluster, s, m_cancelFlag));
}

void PlacementDialog::cancel() {
    if (isRunning()) m_cancelFlag->store(true);
}

void PlacementDialog::stopAndWait() {
    if (!m_watcher.isRunning()) return;
    m_cancelFlag->store(true);
    m_watcher.waitForFinished();  // prompt: the simulator polls the flag between events
}

void PlacementDialog::reject() {
    stopAndWait();
    QDialog::reject();
}

void PlacementDialog::onFinished() {
    m_running = false;
    setRunningUi(false);
    const QFuture<PlacementRunOutcome> future = m_watcher.future();
    PlacementRunOutcome outcome = future.resultCount() > 0 ? future.result() : PlacementRunOutcome{};
    if (outcome.cancelled) {
        m_progress->setValue(0);
        m_status->setText(tr("Cancelled; nothing kept."));
    } else if (outcome.results.empty()) {
        m_progress->setValue(0);
        m_status->setText(
            tr("The run failed: %1").arg(outcome.error.isEmpty() ? tr("no result") : outcome.error));
    } else {
        const int policies = static_cast<int>(outcome.results.size());
        m_status->setText(
            tr("%1 policies on %2 jobs.").arg(policies).arg(static_cast<qulonglong>(outcome.jobs)));
        m_model->setResults(std::move(outcome.results), m_cluster.topology.tier_gbps, 1800.0);
        m_progress->setValue(kProgressSteps);
    }
    emit runFinished();
}

void PlacementDialog::setRunningUi(bool running) {
    m_cancel->setEnabled(running);
    for (QWidget* w :
         {static_cast<QWidget*>(m_pattern), static_cast<QWidget*>(m_rate), static_cast<QWidget*>(m_intervals),
          static_cast<QWidget*>(m_maxJobs), static_cast<QWidget*>(m_seed), static_cast<QWidget*>(m_level)})
        w->setEnabled(m_hasTopology && !running);
    for (const auto& entry : m_kinds) entry.second->setEnabled(m_hasTopology && !running);
    m_copy->setEnabled(!running && m_model->rowCount() > 0);
    m_export->setEnabled(!running && m_model->rowCount() > 0);
    updateRunEnabled();
}

void PlacementDialog::updateRunEnabled() {
    m_run->setEnabled(m_hasTopology && !isRunning() && !settings().policies().empty());
}

bool PlacementDialog::exportCsv(const QString& path, QString* error) const {
    // QSaveFile: a failed write leaves an existing file as it was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(m_model->toCsv().toUtf8()) < 0 ||
        !file.commit()) {
        if (error) *error = tr("%1: cannot write the results (%2)").arg(path, file.errorString());
        return false;
    }
    return true;
}

void PlacementDialog::chooseCsv() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export placement results"),
        QStringLiteral("placement-%1.csv").arg(QString::fromStdString(m_cluster.name)),
        tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export placement results"), error);
}

void PlacementDialog::copyCsv() {
    QApplication::clipboard()->setText(m_model->toCsv());
}

}  // namespace cl::views
