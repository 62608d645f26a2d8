#include "views/plan/plan_view.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "core/io/builtin_data.h"
#include "core/metrics/cluster_cost.h"
#include "core/runs/plan_runner.h"
#include "views/common/cost_text.h"
#include "views/common/format.h"
#include "views/common/plan_filter.h"
#include "views/common/report_writer.h"
#include "views/plan/plan_cliff_plot.h"
#include "views/plan/plan_frontier_plot.h"
#include "views/plan/plan_price_dialog.h"
#include "views/plan/plan_queue_plot.h"
#include "views/plan/plan_table_model.h"
#include "views/plan/plan_targets_editor.h"
#include "views/plan/plan_work.h"
#include "views/plan/wheel_guard.h"

namespace cl::views {

namespace {

// The policies a planner most often weighs: the baselines' orders and the papers' presets.
const QStringList& plannedPolicies() {
    static const QStringList list = {QStringLiteral("srtf"),   QStringLiteral("fifo"),
                                     QStringLiteral("las"),    QStringLiteral("tiresias"),
                                     QStringLiteral("sjf"),    QStringLiteral("muri-s"),
                                     QStringLiteral("muri-l"), QStringLiteral("antman"),
                                     QStringLiteral("themis"), QStringLiteral("sjf-bsbf")};
    return list;
}

QListWidgetItem* checkable(QListWidget* list, const QString& text, const QString& data, bool checked,
                           const QString& tip) {
    auto* item = new QListWidgetItem(text, list);
    item->setData(Qt::UserRole, data);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(tip);
    return item;
}

QListWidgetItem* itemWithData(const QListWidget* list, const QString& data) {
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == data) return list->item(i);
    return nullptr;
}

QStringList checkedData(const QListWidget* list) {
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked) out << list->item(i)->data(Qt::UserRole).toString();
    return out;
}

void fillStored(QComboBox* combo, const std::vector<cl::StoredItem>& items, const char* unit) {
    const qint64 keep = combo->currentData().toLongLong();
    combo->clear();
    for (const cl::StoredItem& i : items)
        combo->addItem(QStringLiteral("%1 (%2 %3)")
                           .arg(QString::fromStdString(i.name))
                           .arg(i.size)
                           .arg(QLatin1String(unit)),
                       QVariant::fromValue<qint64>(i.id));
    const int at = combo->findData(QVariant::fromValue<qint64>(keep));
    if (at >= 0) combo->setCurrentIndex(at);
}

}  // namespace

PlanView::PlanView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(splitter);

    auto* scroll = new QScrollArea(splitter);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setObjectName(QStringLiteral("planInputsScroll"));
    auto* panel = new QWidget(scroll);
    buildInputs(panel);
    scroll->setWidget(panel);
    // Wide enough for a target row (jobs, metric, comparison and value) without scrolling.
    scroll->setMinimumWidth(fontMetrics().averageCharWidth() * 60);
    splitter->addWidget(scroll);

    auto* results = new QWidget(splitter);
    auto* right = new QVBoxLayout(results);
    right->setContentsMargins(0, 0, 0, 0);
    m_summary =
        new QLabel(tr("Choose what to plan for on the left and press Run plan (Ctrl+Return)."), results);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_summary);
    auto* vertical = new QSplitter(Qt::Vertical, results);
    auto* tableBox = new QWidget(vertical);
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    m_model = new PlanTableModel(this);
    m_model->setObjectName(QStringLiteral("planModel"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PlanTableModel::SortRole);
    m_table = new QTableView(tableBox);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    // Enabling sorting sorts by the first column; the model's own order is the ranking.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_proxy->sort(-1);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setToolTip(
        tr("One row per server type and policy: the smallest count that meets every target, "
           "cheapest first; the cheapest plan in bold. Double-click opens it as a scenario"));
    // Room for the header and a few rows; the charts below keep theirs (a 1366x768 screen).
    m_table->setMinimumHeight(m_table->verticalHeader()->defaultSectionSize() * 4);
    tableLayout->addWidget(m_table, 1);
    auto* tableButtons = new QHBoxLayout;
    m_open = new QPushButton(tr("&Open as scenario"), tableBox);
    m_open->setObjectName(QStringLiteral("planOpen"));
    m_open->setToolTip(tr("Show the selected plan's stored scenario (its first seed) in the workspace"));
    m_export = new QPushButton(tr("&Export plan report (PDF)\u2026"), tableBox);
    m_export->setObjectName(QStringLiteral("planExport"));
    m_export->setToolTip(tr("The ranked table, the frontier and the cliff as a PDF report"));
    tableButtons->addWidget(m_open);
    tableButtons->addWidget(m_export);
    tableButtons->addStretch(1);
    tableLayout->addLayout(tableButtons);
    vertical->addWidget(tableBox);
    m_charts = new QTabWidget(vertical);
    m_charts->setObjectName(QStringLiteral("planCharts"));
    m_frontier = new PlanFrontierPlot(m_charts);
    m_frontier->setObjectName(QStringLiteral("planFrontier"));
    m_cliff = new PlanCliffPlot(m_charts);
    m_cliff->setObjectName(QStringLiteral("planCliff"));
    m_queue = new PlanQueuePlot(m_charts);
    m_queue->setObjectName(QStringLiteral("planQueue"));
    m_charts->addTab(m_frontier, tr("Frontier"));
    m_charts->addTab(m_cliff, tr("Cliff"));
    m_charts->addTab(m_queue, tr("Queue over time"));
    m_charts->setTabToolTip(0, tr("Cost against the first target's metric for every cluster evaluated"));
    m_charts->setTabToolTip(1, tr("The targets against the server count around the selected row's answer"));
    m_charts->setTabToolTip(
        2, tr("Jobs waiting and unfinished over the selected row's run (or the cheapest plan's)"));
    // A chart under 200 pixels has no room for its data between title, axes and legend.
    for (PlanPlot* plot : std::initializer_list<PlanPlot*>{m_frontier, m_cliff, m_queue})
        plot->setMinimumHeight(200);
    m_charts->setMinimumHeight(220);
    vertical->addWidget(m_charts);
    vertical->setChildrenCollapsible(false);
    // The charts are what a planner reads; the table has a row per type and policy.
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 2);
    vertical->setSizes({1000, 2000});
    right->addWidget(vertical, 1);
    splitter->addWidget(results);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { runPlan(); });
    connect(m_cancel, &QPushButton::clicked, this, &PlanView::cancelPlan);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString name = selectedScenario();
        if (!name.isEmpty()) emit openScenarioRequested(name);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        const QString name = selectedScenario();
        if (!name.isEmpty()) emit openScenarioRequested(name);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        showSelected();
        updateButtons();
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export plan report"),
                                                          QStringLiteral("plan.pdf"), tr("PDF (*.pdf)"));
        if (path.isEmpty()) return;
        QString error;
        if (!exportReport(path, &error))
            m_status->setText(tr("Could not write the report: %1").arg(error));
        else
            m_status->setText(tr("Wrote %1").arg(path));
    });
    // Window-wide while the view is shown (a hidden widget's shortcut does not fire).
    auto* run = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    run->setContext(Qt::WindowShortcut);
    connect(run, &QShortcut::activated, this, [this] {
        if (!isRunning()) runPlan();
    });
    auto* cancel = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    cancel->setContext(Qt::WidgetWithChildrenShortcut);
    connect(cancel, &QShortcut::activated, this, &PlanView::cancelPlan);
    updateButtons();
}

PlanView::~PlanView() {
    delete m_work;  // cancels and waits
}

void PlanView::buildInputs(QWidget* panel) {
    auto* form = new QFormLayout(panel);
    // Labels above their fields: the panel stays narrow beside the results and the docks.
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    m_trace = new QComboBox(panel);
    m_trace->setObjectName(QStringLiteral("planTrace"));
    m_trace->setToolTip(tr("The workload to plan for (a trace stored in the workspace)"));
    form->addRow(tr("&Trace:"), m_trace);
    m_cluster = new QComboBox(panel);
    m_cluster->setObjectName(QStringLiteral("planCluster"));
    m_cluster->setToolTip(tr("The base cluster: candidates are it retyped to a server type and resized"));
    form->addRow(tr("&Base cluster:"), m_cluster);
    m_profiles = new QComboBox(panel);
    m_profiles->setObjectName(QStringLiteral("planProfiles"));
    m_profiles->setToolTip(tr("The model profiles the simulations use"));
    form->addRow(tr("Pro&files:"), m_profiles);

    m_serverTypes = new QListWidget(panel);
    m_serverTypes->setObjectName(QStringLiteral("planServerTypes"));
    checkable(m_serverTypes, tr("Base cluster's own servers"), QStringLiteral("base"), true,
              tr("The base cluster resized: its servers as they are, priced as the layout says"));
    try {
        for (const cl::ServerType& p : cl::builtinServerTypes()) {
            const double hourly = cl::pricePerHour(p.server.price);
            // The basis shows, since a plan ranks costs on one basis only (architecture.md 7.9).
            const QString basis = p.server.price.basis == cl::PriceBasis::Hourly      ? tr("cloud")
                                  : p.server.price.basis == cl::PriceBasis::Amortized ? tr("owned")
                                                                                      : tr("no price");
            checkable(m_serverTypes,
                      tr("%1 \u2014 %2 a month, %3")
                          .arg(QString::fromStdString(p.id), formatUsd(hourly * cl::kHoursPerMonth), basis),
                      QString::fromStdString(p.id), false,
                      QString::fromStdString(p.label) + QStringLiteral("\n") +
                          QString::fromStdString(p.source) + QStringLiteral("\n") +
                          tr("Price (%1): %2").arg(basis, QString::fromStdString(p.server.price.source)) +
                          (p.server.price.approximate ? tr(" (approximate)") : QString()));
        }
    } catch (const std::exception&) {
        // Without the server types file only the base cluster's own servers can be planned.
    }
    connect(m_cluster, &QComboBox::currentIndexChanged, this, [this] { showBasePrice(); });
    m_serverTypes->setMaximumHeight(m_serverTypes->sizeHintForRow(0) * 8 + 6);
    m_serverTypes->setToolTip(tr("Server types a plan may use; each is tried in every count"));
    form->addRow(tr("Server &types:"), m_serverTypes);

    m_policies = new QListWidget(panel);
    m_policies->setObjectName(QStringLiteral("planPolicies"));
    for (const QString& p : plannedPolicies())
        checkable(m_policies, p, p, p == QLatin1String("srtf") || p == QLatin1String("muri-s"),
                  tr("Consider the %1 policy").arg(p));
    m_policies->setMaximumHeight(m_policies->sizeHintForRow(0) * 6 + 6);
    m_policies->setToolTip(tr("Scheduling policies a plan may use; each is tried with every server type"));
    form->addRow(tr("&Policies:"), m_policies);

    m_targets = new PlanTargetsEditor(panel);
    m_targets->setObjectName(QStringLiteral("planTargetsEditor"));
    m_targets->setMinimumHeight(fontMetrics().height() * 9);
    form->addRow(tr("Tar&gets:"), m_targets);

    m_loadFactor = new QDoubleSpinBox(panel);
    m_loadFactor->setObjectName(QStringLiteral("planLoad"));
    m_loadFactor->setRange(0.05, 100);
    m_loadFactor->setDecimals(2);
    m_loadFactor->setSingleStep(0.05);
    m_loadFactor->setValue(1.0);
    m_loadFactor->setPrefix(QStringLiteral("\u00d7"));
    m_loadFactor->setToolTip(
        tr("The planned load as a factor of the trace's: 1.25 = 25% more jobs in the same time"));
    form->addRow(tr("&Load:"), m_loadFactor);
    m_seeds = new QSpinBox(panel);
    m_seeds->setObjectName(QStringLiteral("planSeeds"));
    m_seeds->setRange(1, 20);
    m_seeds->setValue(1);
    m_seeds->setToolTip(tr("Every cluster runs with seeds 1..N; targets hold for the mean over them"));
    form->addRow(tr("S&eeds:"), m_seeds);
    m_budget = new QDoubleSpinBox(panel);
    m_budget->setObjectName(QStringLiteral("planBudget"));
    m_budget->setRange(0, 1e9);
    m_budget->setDecimals(0);
    m_budget->setSingleStep(1000);
    m_budget->setSuffix(tr(" USD/month"));
    m_budget->setSpecialValueText(tr("no budget"));
    m_budget->setToolTip(tr("The most a plan may cost a month; dearer candidates are listed but not plans"));
    form->addRow(tr("B&udget:"), m_budget);
    m_prefix = new QLineEdit(QStringLiteral("plan"), panel);
    m_prefix->setObjectName(QStringLiteral("planPrefix"));
    m_prefix->setToolTip(
        tr("Every simulated point is stored as a scenario PREFIX/TYPE/POLICY/nN/xLOAD/sSEED"));
    form->addRow(tr("Scenario pre&fix:"), m_prefix);
    // The panel scrolls: the wheel must not change an input it merely passes over.
    for (QWidget* input :
         std::initializer_list<QWidget*>{m_trace, m_cluster, m_profiles, m_loadFactor, m_seeds, m_budget})
        takeWheelOnlyWithFocus(input);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("&Run plan"), panel);
    m_run->setObjectName(QStringLiteral("planRun"));
    m_run->setToolTip(tr("Search the cheapest cluster and policy meeting every target (Ctrl+Return)"));
    m_cancel = new QPushButton(tr("Cancel"), panel);
    m_cancel->setObjectName(QStringLiteral("planCancel"));
    m_cancel->setToolTip(tr("Stop after the running simulations; what finished stays stored (Esc)"));
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    form->addRow(buttons);
    m_progress = new QProgressBar(panel);
    m_progress->setObjectName(QStringLiteral("planProgress"));
    m_progress->setTextVisible(true);
    m_progress->hide();
    form->addRow(m_progress);
    m_status = new QLabel(panel);
    m_status->setObjectName(QStringLiteral("planStatus"));
    m_status->setWordWrap(true);
    form->addRow(m_status);
}

void PlanView::setStore(cl::ScenarioStore* store) {
    if (isRunning()) cancelPlan();
    m_store = store;
    m_request.reset();
    m_report.reset();
    m_model->clear();
    m_frontier->setPlan(nullptr, nullptr);
    m_cliff->setPlan(nullptr, nullptr, -1);
    m_queue->setPlan(nullptr, nullptr, -1);
    refresh();
    restoreInputs();
}

namespace {

constexpr const char* kInputsSetting = "plan/inputs";

}  // namespace

void PlanView::saveInputs() {
    if (!m_store || m_store->isReadOnly()) return;
    nlohmann::json j;
    for (const QString& t : checkedData(m_serverTypes)) j["server_types"].push_back(t.toStdString());
    for (const QString& p : checkedData(m_policies)) j["policies"].push_back(p.toStdString());
    for (const QString& t : m_targets->texts()) j["targets"].push_back(t.toStdString());
    j["load_factor"] = m_loadFactor->value();
    j["seeds"] = m_seeds->value();
    j["budget"] = m_budget->value();
    j["prefix"] = m_prefix->text().toStdString();
    try {
        m_store->setSetting(kInputsSetting, j.dump());
    } catch (const std::exception&) {
        // Remembering the inputs is a convenience; a plan does not fail for it.
    }
}

void PlanView::restoreInputs() {
    if (!m_store) return;
    try {
        const std::string text = m_store->setting(kInputsSetting);
        if (text.empty()) return;
        const nlohmann::json j = nlohmann::json::parse(text);
        auto strings = [&](const char* key) {
            QStringList out;
            if (j.contains(key) && j[key].is_array())
                for (const auto& v : j[key])
                    if (v.is_string()) out << QString::fromStdString(v.get<std::string>());
            return out;
        };
        auto tickOnly = [](QListWidget* list, const QStringList& ids) {
            if (ids.isEmpty()) return;
            for (int i = 0; i < list->count(); ++i)
                list->item(i)->setCheckState(
                    ids.contains(list->item(i)->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
        };
        tickOnly(m_serverTypes, strings("server_types"));
        tickOnly(m_policies, strings("policies"));
        if (const QStringList targets = strings("targets"); !targets.isEmpty())
            m_targets->setTargets(targets);
        // Inputs saved before the planned load had one name carry it as "growth".
        for (const char* key : {"load_factor", "growth"})
            if (j.value(key, 0.0) > 0) {
                m_loadFactor->setValue(j[key].get<double>());
                break;
            }
        if (j.value("seeds", 0) > 0) m_seeds->setValue(j["seeds"].get<int>());
        m_budget->setValue(j.value("budget", 0.0));
        if (const std::string prefix = j.value("prefix", std::string()); !prefix.empty())
            m_prefix->setText(QString::fromStdString(prefix));
    } catch (const std::exception&) {
        // Settings of another version or damaged: the defaults stay.
    }
}

void PlanView::refresh() {
    if (!m_store) {
        m_trace->clear();
        m_cluster->clear();
        m_profiles->clear();
        updateButtons();
        return;
    }
    try {
        fillStored(m_trace, m_store->traces(), "jobs");
        // A plan's candidates are no base for another (architecture.md 7.9, "Storage").
        fillStored(m_cluster, PlanFilter::read(m_store).pickableClusters(m_store->clusters(), 0), "servers");
        fillStored(m_profiles, m_store->profileSets(), "models");
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot read the workspace: %1").arg(QString::fromStdString(e.what())));
    }
    updateButtons();
}

void PlanView::useScenarioInputs(const QString& scenario) {
    if (!m_store || scenario.isEmpty()) return;
    try {
        const cl::ScenarioInfo info = m_store->scenario(scenario.toStdString());
        refresh();
        auto pick = [](QComboBox* combo, qint64 id) {
            const int at = combo->findData(QVariant::fromValue<qint64>(id));
            if (at >= 0) combo->setCurrentIndex(at);
        };
        pick(m_trace, info.spec.trace_id);
        pick(m_cluster, info.spec.cluster_id);
        pick(m_profiles, info.spec.profiles_id);
    } catch (const std::exception&) {
        // A scenario deleted meanwhile leaves the choices as they were.
    }
}

bool PlanView::isRunning() const {
    return m_work && m_work->isRunning();
}

void PlanView::showBasePrice() {
    QListWidgetItem* base = itemWithData(m_serverTypes, QStringLiteral("base"));
    if (!base || !m_store || m_cluster->currentIndex() < 0) return;
    int unpriced = 0, servers = 0;
    try {
        const cl::Cluster c = m_store->cluster(m_cluster->currentData().toLongLong());
        servers = static_cast<int>(c.servers.size());
        unpriced = cl::clusterCost(c).unpriced_servers;
    } catch (const std::exception&) {
        return;
    }
    // Unpriced servers make the plan rank by GPU count (architecture.md 7.9), so they are not
    // offered by default: the planner sets prices in the Cluster view, or ticks them knowingly.
    if (unpriced > 0) {
        base->setText(tr("Base cluster's own servers (%1 of %2 without a price)").arg(unpriced).arg(servers));
        base->setToolTip(
            tr("The base cluster's servers have no price: with them the plan ranks by GPU count and "
               "calls nothing cheapest. Set prices in the Cluster view's server properties."));
        base->setCheckState(Qt::Unchecked);
    } else {
        base->setText(tr("Base cluster's own servers"));
        base->setToolTip(tr("The base cluster resized: its servers as they are, priced as the layout says"));
    }
}

bool PlanView::runPlan() {
    if (isRunning()) return false;
    auto refuse = [this](const QString& why) {
        m_status->setText(why);
        return false;
    };
    if (!m_store) return refuse(tr("Open a workspace first."));
    if (m_trace->currentIndex() < 0) return refuse(tr("The workspace has no trace to plan for."));
    if (m_cluster->currentIndex() < 0) return refuse(tr("The workspace has no cluster to start from."));
    if (m_profiles->currentIndex() < 0) return refuse(tr("The workspace has no profile set."));
    QString error;
    auto request = std::make_shared<cl::PlanRequest>();
    request->targets = m_targets->targets(&error);
    if (request->targets.empty()) return refuse(error);
    for (const QString& p : checkedData(m_policies)) request->policies.push_back(p.toStdString());
    if (request->policies.empty()) return refuse(tr("Tick at least one policy."));
    const QString prefix = m_prefix->text().trimmed();
    if (prefix.isEmpty()) return refuse(tr("The scenario prefix may not be empty."));
    cl::ScenarioSpec base;
    try {
        base.trace_id = m_trace->currentData().toLongLong();
        base.cluster_id = m_cluster->currentData().toLongLong();
        base.profiles_id = m_profiles->currentData().toLongLong();
        request->base = m_store->cluster(base.cluster_id);
        if (request->base.servers.empty()) return refuse(tr("The base cluster has no servers."));
        for (const QString& id : checkedData(m_serverTypes)) {
            if (id == QLatin1String("base")) {
                request->server_types.push_back(cl::baseServerType(request->base));
            } else if (const cl::ServerType* preset = cl::findServerType(id.toStdString())) {
                request->server_types.push_back(*preset);
            }
        }
    } catch (const std::exception& e) {
        return refuse(QString::fromStdString(e.what()));
    }
    if (request->server_types.empty()) return refuse(tr("Tick at least one server type."));
    request->seeds.clear();
    for (int s = 1; s <= m_seeds->value(); ++s) request->seeds.push_back(static_cast<std::uint64_t>(s));
    request->load_factor = m_loadFactor->value();
    if (m_budget->value() > 0) request->budget_per_month = m_budget->value();
    QString priceNote;
    if (!settlePrices(*request, &priceNote)) return refuse(tr("Not run: the price dialog was cancelled."));

    saveInputs();
    delete m_work;
    m_work = new PlanWork(QString::fromStdString(m_store->path()), *request, base, prefix, this);
    m_request = request;
    m_reportPrefix = prefix;
    connect(m_work, &PlanWork::progress, this,
            [this](const QString& phase, int round, int simulations, int done, int total) {
                if (total > 0) {
                    m_progress->setRange(0, total);
                    m_progress->setValue(done);
                } else {
                    m_progress->setRange(0, 0);
                }
                m_status->setText(
                    tr("%1, round %2: %3 simulations done").arg(phase).arg(round).arg(simulations + done));
            });
    connect(m_work, &PlanWork::finished, this, &PlanView::onFinished);
    connect(m_work, &PlanWork::failed, this, [this](const QString& message) {
        m_progress->hide();
        m_status->setText(tr("The plan failed: %1").arg(message));
        // Where the answer would be: the status line sits below the fold on small screens.
        m_summary->setText(tr("<b>The plan failed:</b> %1").arg(message.toHtmlEscaped()));
        updateButtons();
        emit planFailed(message);
    });
    m_progress->setRange(0, 0);
    m_progress->show();
    m_status->setText(priceNote.isEmpty() ? tr("Planning\u2026") : tr("Planning %1\u2026").arg(priceNote));
    m_work->start();
    updateButtons();
    return true;
}

bool PlanView::settlePrices(cl::PlanRequest& request, QString* note) {
    const std::vector<UnpricedServerKind> kinds = unpricedServerKinds(request);
    // A budget needs prices (section 7.9, "Prices"), so "ranked by GPU count" is not taken as read.
    if (kinds.empty() || (m_priceAnswer == PriceAnswer::ByGpuCount && !request.budget_per_month)) return true;
    auto apply = [&](const std::map<std::string, cl::ServerPrice>& prices) {
        applyPrices(request, prices);
        *note = tr("with the prices entered for its unpriced servers");
        return true;
    };
    const bool known = std::all_of(kinds.begin(), kinds.end(), [this](const UnpricedServerKind& k) {
        return m_sessionPrices.count(k.key);
    });
    if (m_priceAnswer == PriceAnswer::WithPrices && known) return apply(m_sessionPrices);
    PlanPriceDialog dialog(kinds, pricedBasis(request), request.budget_per_month.has_value(), m_sessionPrices,
                           this);
    dialog.exec();
    switch (dialog.choice()) {
        case PlanPriceDialog::Choice::Cancelled:
            return false;
        case PlanPriceDialog::Choice::ByGpuCount:
            if (dialog.dontAskAgain()) m_priceAnswer = PriceAnswer::ByGpuCount;
            return true;
        case PlanPriceDialog::Choice::WithPrices:
            break;
    }
    const std::map<std::string, cl::ServerPrice> prices = dialog.prices();
    for (const auto& [key, price] : prices) m_sessionPrices[key] = price;
    if (dialog.dontAskAgain()) m_priceAnswer = PriceAnswer::WithPrices;
    return apply(prices);
}

void PlanView::cancelPlan() {
    if (!isRunning()) return;
    m_work->cancel();
    m_status->setText(tr("Stopping after the running simulations\u2026"));
}

void PlanView::onFinished(std::shared_ptr<const cl::PlanReport> report, bool cancelled) {
    m_progress->hide();
    showPlan(m_request, std::move(report), m_reportPrefix);
    emit scenariosAdded();
    emit planFinished(cancelled);
}

void PlanView::showPlan(std::shared_ptr<const cl::PlanRequest> request,
                        std::shared_ptr<const cl::PlanReport> report, const QString& prefix) {
    m_request = std::move(request);
    m_report = std::move(report);
    m_reportPrefix = prefix;
    m_model->setPlan(m_request, m_report);
    m_frontier->setPlan(m_request, m_report);
    m_table->resizeColumnsToContents();
    QString summary;
    if (m_report->chosen) {
        const cl::CandidateResult& c = m_report->candidates[*m_report->chosen];
        const cl::PlanEvaluation* e = cl::evaluationOf(*m_report, c);
        const double cost = e ? e->cost_per_month : 0.0;
        const QString type =
            QString::fromStdString(cl::serverTypeKey(m_request->server_types[c.server_type]));
        // Unpriced servers rank by GPU count, and nothing is called cheapest (section 7.9).
        if (m_report->ranked_by_gpus)
            summary = tr("<b>Smallest plan by GPU count:</b> %1 \u00d7 %2 with %3, %4 GPUs.")
                          .arg(*c.servers)
                          .arg(type, QString::fromStdString(c.policy))
                          .arg(e ? e->gpus : 0);
        else
            summary = tr("<b>Cheapest plan:</b> %1 \u00d7 %2 with %3, %4 a month.")
                          .arg(*c.servers)
                          .arg(type, QString::fromStdString(c.policy), formatUsd(cost));
        if (m_report->headroom.computed) {
            const cl::PlanHeadroom& h = m_report->headroom;
            if (h.over_planned <= 1.0)
                summary += QStringLiteral(" ") + tr("No headroom: %1% more load already misses a target.")
                                                     .arg(std::round(h.resolution * 100));
            else
                summary +=
                    QStringLiteral(" ") + tr("Headroom: it meets the targets with up to %1%2% more load "
                                             "(to within %3%).")
                                              .arg(h.at_least ? tr("at least ") : QString())
                                              .arg(std::round((h.over_planned - 1) * 100))
                                              .arg(std::round(h.resolution * 100));
        }
    } else if (m_report->error.empty() && !m_report->interrupted) {
        summary = tr("<b>No candidate meets every target</b>%1. The table says why for each.")
                      .arg(m_request->budget_per_month ? tr(" within the budget") : QString());
    }
    int unpriced = 0;
    for (const cl::PlanEvaluation& e : m_report->evaluations)
        unpriced = std::max(unpriced, e.unpriced_servers);
    if (unpriced > 0)
        summary += QStringLiteral(" ") +
                   tr("Some clusters have servers without a price (up to %1); they count as free. "
                      "Set prices in the Cluster view or choose priced server types.")
                       .arg(unpriced);
    if (m_report->interrupted)
        summary +=
            QStringLiteral(" ") + tr("Cancelled: this covers what finished; run again to complete it.");
    if (!m_report->error.empty())
        summary += QStringLiteral(" ") + tr("Stopped: %1").arg(QString::fromStdString(m_report->error));
    m_summary->setText(summary);
    m_status->setText(
        tr("%n simulation(s), stored as %1/\u2026", "", m_report->simulations).arg(m_reportPrefix));
    const int chosen = m_model->chosenRow();
    if (m_model->rowCount() > 0)
        m_table->selectRow(chosen >= 0 ? m_proxy->mapFromSource(m_model->index(chosen, 0)).row() : 0);
    showSelected();
    updateButtons();
}

void PlanView::showSelected() {
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const int candidate = current.isValid() ? m_model->candidateAt(current.row()) : -1;
    m_cliff->setPlan(m_request, m_report, candidate);
    // The selected row's queue at its answer; for a row without one, at the largest count tried
    // (which shows how it falls behind); with no row, the cheapest plan's.
    int evaluation = -1;
    if (m_report) {
        const int row = candidate >= 0     ? candidate
                        : m_report->chosen ? static_cast<int>(*m_report->chosen)
                                           : -1;
        if (row >= 0) {
            const cl::CandidateResult& c = m_report->candidates[static_cast<std::size_t>(row)];
            if (c.evaluation) {
                evaluation = static_cast<int>(*c.evaluation);
            } else {
                for (std::size_t i = 0; i < m_report->evaluations.size(); ++i) {
                    const cl::PlanEvaluation& e = m_report->evaluations[i];
                    if (e.server_type == c.server_type && e.policy == c.policy &&
                        (evaluation < 0 ||
                         e.servers > m_report->evaluations[static_cast<std::size_t>(evaluation)].servers))
                        evaluation = static_cast<int>(i);
                }
            }
        }
    }
    m_queue->setPlan(m_request, m_report, evaluation);
}

QString PlanView::selectedScenario() const {
    if (!m_report || !m_request) return {};
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const int candidate = current.isValid() ? m_model->candidateAt(current.row()) : -1;
    if (candidate < 0) return {};
    const cl::CandidateResult& c = m_report->candidates[static_cast<std::size_t>(candidate)];
    if (!c.servers) return {};
    cl::PlanPoint point{c.server_type, c.policy, *c.servers, m_request->load_factor,
                        m_request->seeds.front()};
    return QString::fromStdString(
        cl::planScenarioName(m_reportPrefix.toStdString(), *m_request, point, m_report->resample));
}

void PlanView::updateButtons() {
    const bool running = isRunning();
    m_run->setEnabled(!running && m_store);
    m_cancel->setEnabled(running);
    m_open->setEnabled(!running && !selectedScenario().isEmpty());
    m_export->setEnabled(!running && m_report != nullptr);
}

bool PlanView::exportReport(const QString& path, QString* error) const {
    if (!m_report || !m_request) {
        if (error) *error = tr("no plan has been run");
        return false;
    }
    ReportContent content;
    content.title = tr("ClusterLoom capacity plan");
    QStringList targets;
    for (const cl::PlanTarget& t : m_request->targets) targets << QString::fromStdString(t.text);
    content.scenarioDescriptions
        << tr("Targets: %1; load \u00d7%2; seeds 1\u2013%3%4.")
               .arg(targets.join(QStringLiteral(", ")))
               .arg(m_request->load_factor)
               .arg(m_request->seeds.size())
               .arg(m_request->budget_per_month
                        ? tr("; budget %1 a month").arg(formatUsd(*m_request->budget_per_month))
                        : QString())
        << m_summary->text().remove(QStringLiteral("<b>")).remove(QStringLiteral("</b>"));
    // The table without its notes (they follow it as a list): a page-wide table of whole values,
    // continued on the next pages when long.
    PlanReportTable table(m_model);
    content.summaryTable = &table;
    if (const QString notes = table.notesHtml(); !notes.isEmpty())
        content.sections.append({tr("Notes"), notes, {}, 0.0});
    auto* frontier = m_frontier;
    auto* cliff = m_cliff;
    auto* queue = m_queue;
    content.sections.append(
        {tr("Frontier"),
         tr("Every cluster evaluated at the planned load; filled points meet every target; "
            "the line is the cheapest cluster for each level of %1.")
             .arg(QString::fromStdString(cl::planMetricKey(m_request->targets.front()))),
         [frontier](QPainter& p, const QRectF& r) { frontier->paintExport(p, r); }, 0.6});
    content.sections.append({tr("Cliff"),
                             cliff->subject().isEmpty()
                                 ? tr("No row selected.")
                                 : tr("Each target's metric as a multiple of its target against the server "
                                      "count, around the answer of %1.")
                                       .arg(cliff->subject()),
                             [cliff](QPainter& p, const QRectF& r) { cliff->paintExport(p, r); }, 0.6});
    content.sections.append(
        {tr("Queue over time"),
         queue->subject().isEmpty()
             ? tr("No queue to show.")
             : tr("Jobs waiting and jobs not yet finished during the first seed's run of %1.")
                   .arg(queue->subject()),
         [queue](QPainter& p, const QRectF& r) { queue->paintExport(p, r); }, 0.5});
    // The paper is white whatever the theme: without a colour of its own the text would take the
    // dark theme's light text colour and all but vanish.
    for (ReportSection& section : content.sections)
        section.html = QStringLiteral("<div style=\"color:#202020\">%1</div>").arg(section.html);
    return writeReport(path, content, error);
}

}  // namespace cl::views
