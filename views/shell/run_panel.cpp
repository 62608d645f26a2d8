#include "views/shell/run_panel.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/policies/scheduler_registry.h"
#include "core/runs/what_if_variants.h"
#include "core/store/scenario_store.h"

namespace cl::views {

namespace {

// The interference box's minimum stands for 0, "the profile's ratios"; the box shows 1..3.
constexpr double kXiProfile = 0.95;
constexpr double kXiMax = 3.0;

// The orders and presets a planner compares most; the scenario's own policy is added first.
QStringList offeredPolicies() {
    QStringList policies;
    for (const auto& name : cl::orderNames()) policies << QString::fromStdString(name);
    for (const auto& name : cl::presetNames()) policies << QString::fromStdString(name);
    // Synergy's mechanisms with the orders its paper evaluates (section 5).
    for (const char* order : {"fifo", "srtf", "las", "ftf"})
        for (const char* mechanism : {"proportional", "greedy", "tune", "opt"})
            policies << QStringLiteral("%1+%2").arg(QLatin1String(order), QLatin1String(mechanism));
    // SJF-BSBF's sharing mechanisms under other orders (the presets sjf-bsbf / sjf-ffs are SJF).
    for (const char* order : {"fifo", "srtf", "las"})
        for (const char* mechanism : {"bsbf", "ffs"})
            policies << QStringLiteral("%1+%2").arg(QLatin1String(order), QLatin1String(mechanism));
    policies.removeDuplicates();
    return policies;
}

QString stateText(RunPanel::RunState state) {
    switch (state) {
        case RunPanel::RunState::Queued:
            return RunPanel::tr("queued");
        case RunPanel::RunState::Running:
            return RunPanel::tr("running");
        case RunPanel::RunState::Finished:
            return RunPanel::tr("finished");
        case RunPanel::RunState::Reused:
            return RunPanel::tr("up to date");
        case RunPanel::RunState::Failed:
            return RunPanel::tr("failed");
        case RunPanel::RunState::Cancelled:
            return RunPanel::tr("cancelled");
    }
    return {};
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_scenarioLabel = new QLabel(tr("Select a scenario in the workspace to run it."), this);
    m_scenarioLabel->setWordWrap(true);
    layout->addWidget(m_scenarioLabel);

    createPolicyList();
    layout->addWidget(new QLabel(tr("Policies:"), this));
    layout->addWidget(m_policies, 2);
    layout->addLayout(createSettingsForm());
    layout->addLayout(createButtons());
    layout->addWidget(createRunList(), 1);

    setScenario(nullptr);
}

QListWidget* RunPanel::createPolicyList() {
    m_policies = new QListWidget(this);
    m_policies->setObjectName(QStringLiteral("runPolicies"));
    m_policies->setToolTip(
        tr("Policies to run on this scenario's cluster and trace. A policy other than the "
           "scenario's own becomes a what-if scenario named <scenario>/<policy>."));
    m_policies->setUniformItemSizes(true);
    m_policies->setMaximumHeight(fontMetrics().height() * 12);
    for (const QString& policy : offeredPolicies()) {
        auto* item = new QListWidgetItem(policy, m_policies);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Unchecked);
    }
    connect(m_policies, &QListWidget::itemChanged, this, &RunPanel::updateRunEnabled);
    return m_policies;
}

QFormLayout* RunPanel::createSettingsForm() {
    auto* form = new QFormLayout;
    m_load = new QDoubleSpinBox(this);
    m_load->setObjectName(QStringLiteral("runLoad"));
    m_load->setRange(0.001, 1000.0);
    m_load->setDecimals(3);
    m_load->setSingleStep(0.25);
    m_load->setSuffix(QStringLiteral(" \u00d7"));
    m_load->setToolTip(tr("Load factor: submit times are divided by it (2 \u00d7 = twice the arrival rate)"));
    form->addRow(tr("&Load:"), m_load);
    m_servers = new QSpinBox(this);
    m_servers->setObjectName(QStringLiteral("runServers"));
    m_servers->setRange(0, 100000);
    m_servers->setSpecialValueText(tr("as stored"));
    m_servers->setToolTip(
        tr("Cluster size: the first N servers, then copies of the last one "
           "(\u201cwhat if we add 16 servers\u201d)"));
    form->addRow(tr("Cluster si&ze:"), m_servers);
    m_xi = new QDoubleSpinBox(this);
    m_xi->setObjectName(QStringLiteral("interferenceRatio"));
    m_xi->setRange(kXiProfile, kXiMax);
    m_xi->setDecimals(2);
    m_xi->setSingleStep(0.05);
    m_xi->setSpecialValueText(tr("profile"));
    m_xi->setSuffix(QStringLiteral(" \u00d7"));
    m_xi->setToolTip(
        tr("Interference ratio \u03be of the GPU-sharing policies (bsbf, ffs): how much slower "
           "each of two jobs sharing a GPU runs. The SJF-BSBF paper's default is 1.8; "
           "\u201cprofile\u201d uses the profile set's per-pair ratios where it has them, else 1.8. "
           "Other policies ignore it."));
    // Typed values between "profile" and 1 have no meaning (sharing never speeds a job up).
    connect(m_xi, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (v > kXiProfile && v < 1.0) m_xi->setValue(1.0);
    });
    form->addRow(tr("&Interference ratio \u03be:"), m_xi);
    m_force = new QCheckBox(tr("Run again if an identical run is stored"), this);
    m_force->setObjectName(QStringLiteral("forceRun"));
    m_force->setToolTip(
        tr("Otherwise a scenario whose inputs and settings were already simulated by this "
           "version reuses that run"));
    form->addRow(m_force);
    return form;
}

QHBoxLayout* RunPanel::createButtons() {
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), this);
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setToolTip(tr("Run the checked policies on worker threads (F5)"));
    m_stop = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("Stop every running simulation; nothing partial is stored"));
    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_stop, &QPushButton::clicked, this, &RunPanel::stopRequested);
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    return buttons;
}

QTreeWidget* RunPanel::createRunList() {
    m_runs = new QTreeWidget(this);
    m_runs->setObjectName(QStringLiteral("runProgress"));
    m_runs->setColumnCount(3);
    m_runs->setHeaderLabels({tr("Run"), tr("Progress"), tr("Status")});
    m_runs->setRootIsDecorated(false);
    m_runs->setUniformRowHeights(true);
    m_runs->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_runs->header()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_runs->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_runs->header()->setStretchLastSection(false);
    m_runs->setColumnWidth(1, fontMetrics().averageCharWidth() * 14);
    m_runs->setToolTip(tr("Runs of the last request"));
    return m_runs;
}

void RunPanel::setScenario(const cl::ScenarioInfo* scenario) {
    if (!scenario) {
        m_base.clear();
        m_scenarioLabel->setText(tr("Select a scenario in the workspace to run it."));
        updateRunEnabled();
        return;
    }
    const bool sameBase = m_base == QString::fromStdString(scenario->spec.name);
    m_base = QString::fromStdString(scenario->spec.name);
    m_scenarioLabel->setText(tr("Scenario <b>%1</b>").arg(m_base.toHtmlEscaped()));
    if (!sameBase) {
        const QString own = QString::fromStdString(scenario->spec.policy);
        if (m_policies->findItems(own, Qt::MatchExactly).isEmpty()) {
            auto* item = new QListWidgetItem(own);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
            m_policies->insertItem(0, item);
        }
        markRunnablePolicies(*scenario);
        setCheckedPolicies({own});
        m_baseLoad = scenario->spec.parameters.load_factor;
        m_load->setValue(m_baseLoad);
        m_servers->setValue(scenario->spec.parameters.server_count);
        setInterference(scenario->spec.parameters.interference);
    }
    updateRunEnabled();
}

void RunPanel::markRunnablePolicies(const cl::ScenarioInfo& scenario) {
    // A policy the scenario's conventions cannot run (e.g. srtf under synergy-artifact, which
    // needs a Synergy mechanism) stays listed but cannot be checked; its tooltip says why.
    cl::Conventions conventions;
    try {
        conventions = cl::Conventions::byName(scenario.spec.conventions);
    } catch (const std::invalid_argument&) {
        conventions = cl::Conventions::clean();
    }
    cl::SchedulerTuning tuning;
    tuning.max_group_size = scenario.spec.parameters.max_group_size;
    tuning.seed = scenario.spec.seed;
    const QSignalBlocker blocker(m_policies);
    for (int i = 0; i < m_policies->count(); ++i) {
        QListWidgetItem* item = m_policies->item(i);
        const std::string problem = cl::policyProblem(item->text().toStdString(), conventions, tuning);
        const Qt::ItemFlags runnable = Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable;
        item->setFlags(problem.empty() ? runnable : Qt::ItemFlags(Qt::ItemIsSelectable));
        item->setToolTip(QString::fromStdString(problem));
        if (!problem.empty()) item->setCheckState(Qt::Unchecked);
    }
}

RunPanel::Request RunPanel::request() const {
    Request r;
    r.base = m_base;
    r.policies = checkedPolicies();
    // The spin box rounds to its decimals: an untouched value means the scenario's own, exactly.
    const double step = std::pow(10.0, -m_load->decimals());
    r.load_factor = std::abs(m_load->value() - m_baseLoad) < step / 2 ? m_baseLoad : m_load->value();
    r.server_count = m_servers->value();
    r.interference = interference();
    r.force = m_force->isChecked();
    return r;
}

QStringList RunPanel::checkedPolicies() const {
    QStringList checked;
    for (int i = 0; i < m_policies->count(); ++i)
        if (m_policies->item(i)->checkState() == Qt::Checked) checked << m_policies->item(i)->text();
    return checked;
}

void RunPanel::setCheckedPolicies(const QStringList& policies) {
    QListWidgetItem* first = nullptr;
    for (int i = 0; i < m_policies->count(); ++i) {
        QListWidgetItem* item = m_policies->item(i);
        const bool checked = policies.contains(item->text());
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
        if (checked && !first) first = item;
    }
    // The scenario's own policy may sit far down the list (sjf-bsbf among the presets).
    if (first) m_policies->scrollToItem(first);
    updateRunEnabled();
}

void RunPanel::setLoadFactor(double factor) {
    m_load->setValue(factor);
}

void RunPanel::setServerCount(int servers) {
    m_servers->setValue(servers);
}

void RunPanel::setInterference(double xi) {
    // A ratio stored from the command line above the box's range widens it rather than clamp.
    m_xi->setMaximum(std::max(kXiMax, xi));
    m_xi->setValue(xi < 1.0 ? kXiProfile : xi);
}

double RunPanel::interference() const {
    return m_xi->value() < 1.0 ? 0.0 : m_xi->value();
}

void RunPanel::setRunning(bool running) {
    m_running = running;
    updateRunEnabled();
}

void RunPanel::updateRunEnabled() {
    const bool ready = !m_base.isEmpty() && !checkedPolicies().isEmpty();
    m_run->setEnabled(ready && !m_running);
    m_stop->setEnabled(m_running);
    m_policies->setEnabled(!m_base.isEmpty() && !m_running);
    m_load->setEnabled(!m_base.isEmpty() && !m_running);
    m_servers->setEnabled(!m_base.isEmpty() && !m_running);
    bool sharing = false;
    for (const QString& policy : checkedPolicies())
        sharing = sharing || cl::policyUsesInterference(policy.toStdString());
    m_xi->setEnabled(!m_base.isEmpty() && !m_running && sharing);
}

void RunPanel::clearRuns() {
    m_runs->clear();
    m_rows.clear();
}

void RunPanel::addRun(const QString& scenario) {
    if (m_rows.contains(scenario)) return;
    auto* item = new QTreeWidgetItem(m_runs, {scenario, QString(), stateText(RunState::Queued)});
    item->setToolTip(0, scenario);
    auto* bar = new QProgressBar(m_runs);
    bar->setRange(0, 1000);
    bar->setValue(0);
    bar->setTextVisible(false);
    m_runs->setItemWidget(item, 1, bar);
    m_rows.insert(scenario, {item, bar, RunState::Queued});
}

void RunPanel::setRunProgress(const QString& scenario, double fraction) {
    auto it = m_rows.find(scenario);
    if (it == m_rows.end()) return;
    it->bar->setValue(static_cast<int>(fraction * 1000.0));
}

void RunPanel::setRunState(const QString& scenario, RunState state, const QString& detail) {
    auto it = m_rows.find(scenario);
    if (it == m_rows.end()) return;
    it->state = state;
    it->item->setText(2, stateText(state));
    it->item->setToolTip(2, detail);
    if (state == RunState::Finished || state == RunState::Reused) it->bar->setValue(1000);
    const QStyle::StandardPixmap icon = state == RunState::Failed      ? QStyle::SP_MessageBoxCritical
                                        : state == RunState::Cancelled ? QStyle::SP_BrowserStop
                                        : state == RunState::Running   ? QStyle::SP_MediaPlay
                                        : state == RunState::Queued    ? QStyle::SP_MediaPause
                                                                       : QStyle::SP_DialogApplyButton;
    it->item->setIcon(2, style()->standardIcon(icon));
}

RunPanel::RunState RunPanel::runState(const QString& scenario) const {
    const auto it = m_rows.constFind(scenario);
    return it == m_rows.constEnd() ? RunState::Queued : it->state;
}

int RunPanel::runCount() const {
    return static_cast<int>(m_rows.size());
}

}  // namespace cl::views
