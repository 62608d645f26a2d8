#include "views/slurm_import/slurm_import_dialog.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <type_traits>
#include <utility>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/policies/slurm_config.h"
#include "core/store/profile_set_versions.h"
#include "core/store/scenario_store.h"
#include "views/common/format.h"
#include "views/common/import_busy_bar.h"
#include "views/common/import_dialog_size.h"
#include "views/common/import_summary_label.h"
#include "views/slurm_import/choice_delegate.h"
#include "views/slurm_import/profile_rules_model.h"
#include "views/slurm_import/slurm_job_table_model.h"

namespace cl::views {

namespace {

constexpr int kMaxListedRefused = 2000;

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

QString number(long long n) {
    return QLocale().toString(n);
}

// Runs work on the thread pool and hands its result to done on owner's thread. When owner is
// destroyed first, the work still finishes (it owns copies of what it reads) and is dropped.
template <typename Work, typename Done>
void runInBackground(QObject* owner, Work work, Done done) {
    using Result = std::invoke_result_t<Work>;
    auto* watcher = new QFutureWatcher<Result>(owner);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, owner, [watcher, done] {
        done(watcher->future().takeResult());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

// A partition as the cluster page lists it: "debug (tier 10, up to 30 min)".
QString partitionText(const cl::Partition& p) {
    QStringList attributes;
    if (p.is_default) attributes << QObject::tr("default");
    if (p.priority_tier != 1) attributes << QObject::tr("tier %1").arg(p.priority_tier);
    if (p.max_time > 0.0) attributes << QObject::tr("up to %1").arg(formatDuration(p.max_time));
    const QString name = fromStd(p.name).toHtmlEscaped();
    return attributes.isEmpty() ? name
                                : QStringLiteral("%1 (%2)").arg(name, attributes.join(QStringLiteral(", ")));
}

QTableView* makeTable(QAbstractItemModel* model, int sortRole, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto* table = new QTableView(parent);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(0, Qt::AscendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() * 3 / 2);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

QPushButton* smallButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QPushButton(text, parent);
    button->setToolTip(tip);
    button->setAutoDefault(false);
    return button;
}

}  // namespace

SlurmImportDialog::SlurmImportDialog(cl::ScenarioStore* store, const cl::ProfileSet* builtin, QWidget* parent)
    : QDialog(parent), m_store(store), m_builtin(builtin) {
    setWindowTitle(tr("Import from Slurm"));
    m_chooser = [](QWidget* owner, FileKind kind) {
        if (kind == FileKind::History)
            return QFileDialog::getOpenFileName(owner, tr("Slurm job history (sacct output)"), QString(),
                                                tr("sacct output (*.txt *.psv *.csv *.json);;All files (*)"));
        if (kind == FileKind::SlurmConfig)
            return QFileDialog::getOpenFileName(
                owner, tr("Slurm configuration (scontrol show config output)"), QString(),
                tr("Configurations (*.txt *.conf);;All files (*)"));
        if (kind == FileKind::Partitions)
            return QFileDialog::getOpenFileName(owner,
                                                tr("Slurm partitions (scontrol show partition output)"),
                                                QString(), tr("Partition lists (*.txt);;All files (*)"));
        return QFileDialog::getOpenFileName(owner, tr("Slurm node inventory (scontrol or sinfo output)"),
                                            QString(), tr("Node inventories (*.txt *.json);;All files (*)"));
    };

    QFormLayout* form = makeInputForm();
    m_busy = importBusyBar(this);
    m_summary = importSummaryLabel(this);
    m_fitRow = makeFitRow();
    m_tabs = makeTabs();
    QHBoxLayout* bottom = makeBottomRow();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_fitRow);
    layout->addWidget(m_tabs, 1);
    layout->addLayout(bottom);

    connectInputs();
    connectRules();
    resizeImportDialog(*this);
    // The first stored set (the workspace's own profiles), else the built-in one.
    m_sets->setCurrentIndex(m_sets->count() > 0 ? 0 : -1);
    loadProfileSet();
    showHistory();
    showCluster();
}

// ---- the dialog's sections, top to bottom ---------------------------------------------------

QHBoxLayout* SlurmImportDialog::makeHistoryRow() {
    m_historyPath = new QLineEdit(this);
    m_historyPath->setObjectName(QStringLiteral("historyPath"));
    m_historyPath->setPlaceholderText(
        tr("sacct -a -S START -E END --parsable2 --format=\u2026 (or --json) output"));
    m_historyPath->setToolTip(
        tr("The accounting history: sacct --parsable2 or --json output (the README shows "
           "the command); read when you press Enter or pick a file"));
    m_historyPath->setClearButtonEnabled(true);
    m_historyBrowse = smallButton(tr("&Browse\u2026"), tr("Choose the sacct output (Ctrl+O)"), this);
    m_historyBrowse->setObjectName(QStringLiteral("historyBrowse"));
    // Ctrl+O as in every file dialog; the button keeps its Alt mnemonic.
    connect(new QShortcut(QKeySequence::Open, this), &QShortcut::activated, m_historyBrowse,
            &QPushButton::click);
    auto* historyRow = new QHBoxLayout;
    historyRow->addWidget(m_historyPath, 1);
    historyRow->addWidget(m_historyBrowse);
    return historyRow;
}

QHBoxLayout* SlurmImportDialog::makeHistoryOptions() {
    m_timezone = new QLineEdit(QStringLiteral("UTC"), this);
    m_timezone->setObjectName(QStringLiteral("timezone"));
    m_timezone->setMaximumWidth(fontMetrics().averageCharWidth() * 10);
    m_timezone->setToolTip(
        tr("The cluster's time zone as an offset from UTC (+02:00, -0530, UTC): sacct's "
           "--parsable2 times are the cluster's local time. The JSON form is in UTC already."));
    m_keepUnstarted = new QCheckBox(tr("Keep ne&ver-started jobs"), this);
    m_keepUnstarted->setObjectName(QStringLiteral("keepUnstarted"));
    m_keepUnstarted->setToolTip(
        tr("PENDING jobs and jobs cancelled before they started (left out by default)"));
    m_keepRunning = new QCheckBox(tr("Keep r&unning jobs"), this);
    m_keepRunning->setObjectName(QStringLiteral("keepRunning"));
    m_keepRunning->setToolTip(tr("Jobs still running when sacct was run, with their run time so far"));
    auto* historyOptions = new QHBoxLayout;
    auto* tzLabel = new QLabel(tr("&Time zone:"), this);
    tzLabel->setBuddy(m_timezone);
    historyOptions->addWidget(tzLabel);
    historyOptions->addWidget(m_timezone);
    historyOptions->addSpacing(fontMetrics().averageCharWidth() * 2);
    historyOptions->addWidget(m_keepUnstarted);
    historyOptions->addWidget(m_keepRunning);
    historyOptions->addStretch(1);
    return historyOptions;
}

QHBoxLayout* SlurmImportDialog::makeNodesRow() {
    m_nodesPath = new QLineEdit(this);
    m_nodesPath->setObjectName(QStringLiteral("nodesPath"));
    m_nodesPath->setPlaceholderText(
        tr("scontrol show node --oneliner, sinfo --Node --json or scontrol show node --json"));
    m_nodesPath->setToolTip(tr("The node inventory; its GPU nodes become the cluster, grouped by partition"));
    m_nodesPath->setClearButtonEnabled(true);
    m_nodesBrowse = smallButton(tr("Bro&wse\u2026"), tr("Choose the scontrol or sinfo output"), this);
    m_nodesBrowse->setObjectName(QStringLiteral("nodesBrowse"));
    m_exclude = new QCheckBox(tr("E&xclude down and drained nodes"), this);
    m_exclude->setObjectName(QStringLiteral("excludeUnavailable"));
    m_exclude->setToolTip(
        tr("Leave down, drained, draining, failing and not-responding nodes out of the "
           "cluster (else they are kept and marked)"));
    auto* nodesRow = new QHBoxLayout;
    nodesRow->addWidget(m_nodesPath, 1);
    nodesRow->addWidget(m_nodesBrowse);
    return nodesRow;
}

QHBoxLayout* SlurmImportDialog::makePartitionsRow() {
    m_partitionsPath = new QLineEdit(this);
    m_partitionsPath->setObjectName(QStringLiteral("partitionsPath"));
    m_partitionsPath->setPlaceholderText(tr("optional: scontrol show partition --oneliner output"));
    m_partitionsPath->setToolTip(
        tr("The partitions (PriorityTier, MaxTime, Default and their nodes), laid over the cluster the "
           "nodes make; each job then runs only on its partitions' servers. Read when you press Enter or "
           "pick a file"));
    m_partitionsPath->setClearButtonEnabled(true);
    m_partitionsBrowse =
        smallButton(tr("Browse\u2026"), tr("Choose the scontrol show partition output"), this);
    m_partitionsBrowse->setObjectName(QStringLiteral("partitionsBrowse"));
    auto* row = new QHBoxLayout;
    row->addWidget(m_partitionsPath, 1);
    row->addWidget(m_partitionsBrowse);
    return row;
}

QHBoxLayout* SlurmImportDialog::makeConfigRow() {
    m_configPath = new QLineEdit(this);
    m_configPath->setObjectName(QStringLiteral("slurmConfigPath"));
    m_configPath->setPlaceholderText(tr("optional: scontrol show config output"));
    m_configPath->setToolTip(
        tr("Slurm's configuration (bf_interval, bf_resolution, PriorityType, the PriorityWeight* "
           "settings, ...): the scenario's slurm policy follows it, Slurm's defaults otherwise. Read when "
           "you press Enter or pick a file"));
    m_configPath->setClearButtonEnabled(true);
    m_configBrowse = smallButton(tr("Browse\u2026"), tr("Choose the scontrol show config output"), this);
    m_configBrowse->setObjectName(QStringLiteral("slurmConfigBrowse"));
    auto* row = new QHBoxLayout;
    row->addWidget(m_configPath, 1);
    row->addWidget(m_configBrowse);
    return row;
}

// The jobs that can never run on the imported cluster, or the partition that refuses the history:
// a sign and a line under the summary, the reasons in its tooltip (docs/architecture.md 2.10).
QWidget* SlurmImportDialog::makeFitRow() {
    auto* row = new QWidget(this);
    m_fitIcon = new QLabel(row);
    m_fitIcon->setObjectName(QStringLiteral("neverFitIcon"));
    m_fitText = new QLabel(row);
    m_fitText->setObjectName(QStringLiteral("neverFit"));
    m_fitText->setWordWrap(true);
    m_fitText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_fitIcon, 0, Qt::AlignTop);
    layout->addWidget(m_fitText, 1);
    row->hide();
    return row;
}

QFormLayout* SlurmImportDialog::makeInputForm() {
    QHBoxLayout* historyRow = makeHistoryRow();
    QHBoxLayout* historyOptions = makeHistoryOptions();
    QHBoxLayout* nodesRow = makeNodesRow();
    QHBoxLayout* partitionsRow = makePartitionsRow();
    QHBoxLayout* configRow = makeConfigRow();
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("importName"));
    m_name->setPlaceholderText(tr("the file's name"));
    m_name->setToolTip(tr("The name of the stored trace and cluster"));

    auto* form = new QFormLayout;
    auto* historyLabel = new QLabel(tr("Job &history:"), this);
    historyLabel->setBuddy(m_historyPath);
    form->addRow(historyLabel, historyRow);
    form->addRow(QString(), historyOptions);
    auto* nodesLabel = new QLabel(tr("N&odes:"), this);
    nodesLabel->setBuddy(m_nodesPath);
    form->addRow(nodesLabel, nodesRow);
    form->addRow(QString(), m_exclude);
    // Every letter of "Partitions" is another field's mnemonic already: reached by Tab.
    auto* partitionsLabel = new QLabel(tr("Partitions:"), this);
    partitionsLabel->setBuddy(m_partitionsPath);
    partitionsLabel->setToolTip(tr("scontrol show partition --oneliner"));
    form->addRow(partitionsLabel, partitionsRow);
    auto* configLabel = new QLabel(tr("Slurm config:"), this);
    configLabel->setBuddy(m_configPath);
    configLabel->setToolTip(tr("scontrol show config"));
    form->addRow(configLabel, configRow);
    auto* nameLabel = new QLabel(tr("N&ame:"), this);
    nameLabel->setBuddy(m_name);
    form->addRow(nameLabel, m_name);
    return form;
}

QTabWidget* SlurmImportDialog::makeTabs() {
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("tabs"));
    m_jobs = new SlurmJobTableModel(this);
    m_jobs->setObjectName(QStringLiteral("jobModel"));
    m_jobTable = makeTable(m_jobs, SlurmJobTableModel::SortRole, tabs);
    m_jobTable->setObjectName(QStringLiteral("jobs"));
    m_jobTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    tabs->addTab(m_jobTable, tr("&Jobs"));
    tabs->setTabToolTip(JobsTab, tr("The jobs kept, with the profile the rules gave each"));
    tabs->addTab(makeLeftOutPage(tabs), tr("&Left out"));
    tabs->setTabToolTip(LeftOutTab, tr("What the history held but the import leaves out, and why"));
    tabs->addTab(makeRulesPage(tabs), tr("Profile &rules"));
    tabs->setTabToolTip(RulesTab, tr("Which profile each job gets, by rules on its name, user, account or "
                                     "partition"));
    tabs->addTab(makeClusterPage(tabs), tr("&Cluster"));
    tabs->setTabToolTip(ClusterTab, tr("The servers the GPU nodes become, grouped by partition"));
    return tabs;
}

QWidget* SlurmImportDialog::makeLeftOutPage(QWidget* tabs) {
    auto* leftOut = new QWidget(tabs);
    auto* leftOutLayout = new QVBoxLayout(leftOut);
    m_dropped = new QTableWidget(0, 2, leftOut);
    m_dropped->setObjectName(QStringLiteral("dropped"));
    m_dropped->setHorizontalHeaderLabels({tr("Left out because"), tr("Jobs")});
    m_dropped->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_dropped->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_dropped->verticalHeader()->setVisible(false);
    m_dropped->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_dropped->setToolTip(tr("Jobs of the history that are not imported, by reason"));
    m_refused = new QListWidget(leftOut);
    m_refused->setObjectName(QStringLiteral("refused"));
    m_refused->setToolTip(tr("Rows that could not be read, each as file:line: field: what is wrong"));
    m_refused->setAlternatingRowColors(true);
    m_refused->setIconSize(QSize(fontMetrics().height(), fontMetrics().height()));
    auto* refusedLabel = new QLabel(tr("Refused rows:"), leftOut);
    leftOutLayout->addWidget(m_dropped, 1);
    leftOutLayout->addWidget(refusedLabel);
    leftOutLayout->addWidget(m_refused, 2);
    return leftOut;
}

QHBoxLayout* SlurmImportDialog::makeProfileSetRow(QWidget* page) {
    m_sets = new QComboBox(page);
    m_sets->setObjectName(QStringLiteral("profileSet"));
    m_sets->setToolTip(tr("The profile set the rules pick profiles from; a scenario made here runs with it"));
    if (m_store) {
        try {
            // The newest version of each set: an older one serves only the scenarios made with it.
            for (const cl::StoredItem& item : cl::latestProfileSets(*m_store))
                m_sets->addItem(tr("%1 (#%2, %n model(s))", nullptr, static_cast<int>(item.size))
                                    .arg(fromStd(item.name))
                                    .arg(item.id),
                                QVariant::fromValue<qlonglong>(item.id));
        } catch (const std::exception&) {
            // Listed as far as it can be; the built-in set stays available.
        }
    }
    if (m_builtin)
        m_sets->addItem(tr("%1 (built-in, %n model(s))", nullptr, static_cast<int>(m_builtin->models.size()))
                            .arg(fromStd(m_builtin->name)),
                        QVariant::fromValue<qlonglong>(0));
    auto* setRow = new QHBoxLayout;
    auto* setLabel = new QLabel(tr("Profile s&et:"), page);
    setLabel->setBuddy(m_sets);
    setRow->addWidget(setLabel);
    setRow->addWidget(m_sets, 1);
    return setRow;
}

QTableView* SlurmImportDialog::makeRulesTable(QWidget* page) {
    m_rules = new ProfileRulesModel(this);
    m_rules->setObjectName(QStringLiteral("rulesModel"));
    auto* table = new QTableView(page);
    table->setObjectName(QStringLiteral("rules"));
    table->setModel(m_rules);
    table->setItemDelegate(new ChoiceDelegate(ProfileRulesModel::ChoicesRole, table));
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    QHeaderView* header = table->horizontalHeader();
    header->setSectionResizeMode(ProfileRulesModel::PatternColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(ProfileRulesModel::FieldColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ProfileRulesModel::ProfileColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ProfileRulesModel::MatchesColumn, QHeaderView::ResizeToContents);
    return table;
}

QVBoxLayout* SlurmImportDialog::makeRuleButtons(QWidget* page) {
    m_addRule = smallButton(tr("A&dd Rule"), tr("A new rule below the selected one (Ins)"), page);
    m_addRule->setObjectName(QStringLiteral("addRule"));
    m_removeRule = smallButton(tr("Re&move"), tr("Remove the selected rule (Del)"), page);
    m_removeRule->setObjectName(QStringLiteral("removeRule"));
    m_ruleUp = smallButton(tr("U&p"), tr("Try the selected rule earlier (Ctrl+Up)"), page);
    m_ruleUp->setObjectName(QStringLiteral("ruleUp"));
    m_ruleDown = smallButton(tr("Dow&n"), tr("Try the selected rule later (Ctrl+Down)"), page);
    m_ruleDown->setObjectName(QStringLiteral("ruleDown"));
    // The keys act in the rules table only (Delete in a path field deletes text), and leave the
    // buttons their Alt mnemonics.
    for (const auto& [key, button] : {std::pair{QKeySequence(Qt::Key_Insert), m_addRule},
                                      std::pair{QKeySequence(QKeySequence::Delete), m_removeRule},
                                      std::pair{QKeySequence(Qt::CTRL | Qt::Key_Up), m_ruleUp},
                                      std::pair{QKeySequence(Qt::CTRL | Qt::Key_Down), m_ruleDown}}) {
        auto* shortcut = new QShortcut(key, m_rulesTable, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, button, &QPushButton::click);
    }
    m_loadRules =
        smallButton(tr("Load\u2026"), tr("Read a rule file (FIELD PATTERN PROFILE per line)"), page);
    m_loadRules->setObjectName(QStringLiteral("loadRules"));
    m_saveRules =
        smallButton(tr("Save\u2026"), tr("Write the rules as a rule file, for the command line too"), page);
    m_saveRules->setObjectName(QStringLiteral("saveRules"));
    auto* ruleButtons = new QVBoxLayout;
    for (QPushButton* b : {m_addRule, m_removeRule, m_ruleUp, m_ruleDown}) ruleButtons->addWidget(b);
    ruleButtons->addStretch(1);
    ruleButtons->addWidget(m_loadRules);
    ruleButtons->addWidget(m_saveRules);
    return ruleButtons;
}

QHBoxLayout* SlurmImportDialog::makeDefaultProfileRow(QWidget* page) {
    m_default = new QComboBox(page);
    m_default->setObjectName(QStringLiteral("defaultProfile"));
    m_default->setToolTip(tr("The profile of jobs no rule matches (never a random model)"));
    m_defaultCount = new QLabel(page);
    m_defaultCount->setObjectName(QStringLiteral("defaultMatches"));
    auto* defaultRow = new QHBoxLayout;
    auto* defaultLabel = new QLabel(tr("De&fault profile:"), page);
    defaultLabel->setBuddy(m_default);
    defaultRow->addWidget(defaultLabel);
    defaultRow->addWidget(m_default);
    defaultRow->addWidget(m_defaultCount);
    defaultRow->addStretch(1);
    return defaultRow;
}

QWidget* SlurmImportDialog::makeRulesPage(QWidget* tabs) {
    auto* rulesPage = new QWidget(tabs);
    auto* rulesLayout = new QVBoxLayout(rulesPage);
    rulesLayout->addLayout(makeProfileSetRow(rulesPage));
    auto* rulesHelp =
        new QLabel(tr("Each job takes the profile of the first rule whose regular expression is "
                      "found in its field; jobs no rule matches take the default profile."),
                   rulesPage);
    rulesHelp->setWordWrap(true);
    rulesLayout->addWidget(rulesHelp);
    m_rulesTable = makeRulesTable(rulesPage);
    auto* rulesRow = new QHBoxLayout;
    rulesRow->addWidget(m_rulesTable, 1);
    rulesRow->addLayout(makeRuleButtons(rulesPage));
    rulesLayout->addLayout(rulesRow, 1);
    rulesLayout->addLayout(makeDefaultProfileRow(rulesPage));
    m_rulesStatus = new QLabel(rulesPage);
    m_rulesStatus->setObjectName(QStringLiteral("rulesStatus"));
    m_rulesStatus->setWordWrap(true);
    m_rulesStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rulesLayout->addWidget(m_rulesStatus);
    return rulesPage;
}

QWidget* SlurmImportDialog::makeClusterPage(QWidget* tabs) {
    auto* clusterPage = new QWidget(tabs);
    auto* clusterLayout = new QVBoxLayout(clusterPage);
    m_clusterSummary = new QLabel(clusterPage);
    m_clusterSummary->setObjectName(QStringLiteral("clusterSummary"));
    m_clusterSummary->setWordWrap(true);
    m_clusterSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_clusterTree = new QTreeWidget(clusterPage);
    m_clusterTree->setObjectName(QStringLiteral("clusterTree"));
    m_clusterTree->setHeaderLabels({tr("Partition / server"), tr("GPUs"), tr("GPU type"), tr("CPU cores"),
                                    tr("Memory (GB)"), tr("State"), tr("Partitions")});
    m_clusterTree->headerItem()->setToolTip(
        6, tr("Every partition the server is in (the partition file's members, when one is read)"));
    m_clusterTree->setAlternatingRowColors(true);
    m_clusterTree->setUniformRowHeights(true);
    m_clusterTree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_clusterWarnings = new QListWidget(clusterPage);
    m_clusterWarnings->setObjectName(QStringLiteral("clusterWarnings"));
    m_clusterWarnings->setToolTip(
        tr("What the node inventory holds that the cluster leaves out or cannot map"));
    m_clusterWarnings->setWordWrap(true);
    m_clusterWarnings->setMaximumHeight(fontMetrics().height() * 6);
    m_clusterWarnings->setIconSize(QSize(fontMetrics().height(), fontMetrics().height()));
    clusterLayout->addWidget(m_clusterSummary);
    clusterLayout->addWidget(m_clusterTree, 1);
    clusterLayout->addWidget(m_clusterWarnings);
    return clusterPage;
}

QHBoxLayout* SlurmImportDialog::makeBottomRow() {
    m_scenario = new QCheckBox(tr("Also create a &scenario that replays these jobs on this cluster as Slurm "
                                  "ran them (policy slurm)"),
                               this);
    m_scenario->setObjectName(QStringLiteral("createScenario"));
    m_scenario->setChecked(true);
    m_scenario->setToolTip(
        tr("A scenario of the imported trace, cluster and profile set with the policy slurm (Slurm's "
           "priority, main scheduler and backfill): run it, check it against the record on the Replay "
           "page, then duplicate it as a what-if"));
    m_scenario->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = m_buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_import->setObjectName(QStringLiteral("import"));

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_scenario, 1);
    bottom->addWidget(m_buttons);
    return bottom;
}

// ---- behaviour ------------------------------------------------------------------------------

void SlurmImportDialog::connectInputs() {
    connect(m_historyBrowse, &QPushButton::clicked, this, [this] { chooseFile(FileKind::History); });
    connect(m_nodesBrowse, &QPushButton::clicked, this, [this] { chooseFile(FileKind::Nodes); });
    connect(m_partitionsBrowse, &QPushButton::clicked, this, [this] { chooseFile(FileKind::Partitions); });
    connect(m_configBrowse, &QPushButton::clicked, this, [this] { chooseFile(FileKind::SlurmConfig); });
    connect(m_configPath, &QLineEdit::returnPressed, this, &SlurmImportDialog::readConfigFile);
    connect(m_configPath, &QLineEdit::editingFinished, this, [this] {
        if (!m_slurmParameters && m_configError.isEmpty() && !slurmConfigPath().isEmpty()) readConfigFile();
    });
    connect(m_configPath, &QLineEdit::textEdited, this, [this] {
        m_slurmParameters.reset();
        m_configError.clear();
        updateButtons();
        showSummary();
    });
    connect(m_historyPath, &QLineEdit::editingFinished, this, [this] {
        if (!m_history && m_historyError.isEmpty() && !historyPath().isEmpty()) readHistoryFile();
    });
    connect(m_historyPath, &QLineEdit::returnPressed, this, &SlurmImportDialog::readHistoryFile);
    connect(m_historyPath, &QLineEdit::textEdited, this, [this] {
        // What is shown belongs to another file now.
        ++m_historyGeneration;
        m_history.reset();
        m_historyTrace.reset();
        m_historyError.clear();
        m_ruled.reset();
        showHistory();
    });
    connect(m_nodesPath, &QLineEdit::returnPressed, this, &SlurmImportDialog::readNodesFile);
    connect(m_nodesPath, &QLineEdit::editingFinished, this, [this] {
        if (!m_nodes && m_nodesError.isEmpty() && !nodesPath().isEmpty()) readNodesFile();
    });
    connect(m_nodesPath, &QLineEdit::textEdited, this, [this] {
        ++m_nodesGeneration;
        m_nodes.reset();
        m_nodesError.clear();
        makeLayout();
    });
    connect(m_partitionsPath, &QLineEdit::returnPressed, this, &SlurmImportDialog::readPartitionsFile);
    connect(m_partitionsPath, &QLineEdit::editingFinished, this, [this] {
        if (!m_partitions && m_partitionsError.isEmpty() && !partitionsPath().isEmpty()) readPartitionsFile();
    });
    connect(m_partitionsPath, &QLineEdit::textEdited, this, [this] {
        ++m_partitionsGeneration;
        m_partitions.reset();
        m_partitionsError.clear();
        makeLayout();
    });
    connect(m_timezone, &QLineEdit::editingFinished, this, [this] {
        if (!historyPath().isEmpty()) readHistoryFile();
    });
    connect(m_keepUnstarted, &QCheckBox::toggled, this, &SlurmImportDialog::readHistoryFile);
    connect(m_keepRunning, &QCheckBox::toggled, this, &SlurmImportDialog::readHistoryFile);
    connect(m_exclude, &QCheckBox::toggled, this, &SlurmImportDialog::makeLayout);
    connect(m_scenario, &QCheckBox::toggled, this, &SlurmImportDialog::showSummary);
    connect(m_name, &QLineEdit::textEdited, this, [this] {
        m_nameTyped = !m_name->text().trimmed().isEmpty();
        renameImport();
    });
    readWhenTypingPauses(m_historyPath, &SlurmImportDialog::readHistoryFile);
    readWhenTypingPauses(m_nodesPath, &SlurmImportDialog::readNodesFile);
    readWhenTypingPauses(m_partitionsPath, &SlurmImportDialog::readPartitionsFile);
    readWhenTypingPauses(m_configPath, &SlurmImportDialog::readConfigFile);
}

// A typed path is read once the typing pauses, as Import Trace previews it: waiting for Enter or
// Tab left "Reading ..." on screen with Import disabled and no hint why.
void SlurmImportDialog::readWhenTypingPauses(QLineEdit* field, void (SlurmImportDialog::*read)()) {
    auto* pause = new QTimer(this);
    pause->setSingleShot(true);
    pause->setInterval(kTypingPauseMs);
    m_typingPauses.push_back(pause);
    connect(pause, &QTimer::timeout, this, [this, field, read] {
        if (!field->text().trimmed().isEmpty()) (this->*read)();
        updateBusy();
        updateButtons();
    });
    connect(field, &QLineEdit::textEdited, pause, [this, pause] {
        pause->start();
        updateBusy();
        updateButtons();
    });
    // Enter, Tab or a chosen file reads it at once.
    connect(field, &QLineEdit::editingFinished, pause, &QTimer::stop);
    connect(field, &QLineEdit::textChanged, pause, [pause, field] {
        if (!field->isModified()) pause->stop();
    });
}

void SlurmImportDialog::connectRules() {
    m_rulesPause = new QTimer(this);
    m_rulesPause->setSingleShot(true);
    m_rulesPause->setInterval(kRulesPauseMs);
    connect(m_rulesPause, &QTimer::timeout, this, &SlurmImportDialog::matchJobs);
    connect(m_sets, &QComboBox::currentIndexChanged, this, &SlurmImportDialog::loadProfileSet);
    connect(m_rules, &ProfileRulesModel::rulesEdited, this, &SlurmImportDialog::scheduleMatching);
    connect(m_rules, &QAbstractItemModel::rowsRemoved, this, &SlurmImportDialog::updateButtons);
    connect(m_rules, &QAbstractItemModel::rowsInserted, this, &SlurmImportDialog::updateButtons);
    connect(m_default, &QComboBox::currentTextChanged, this,
            [this](const QString& profile) { m_rules->setDefaultProfile(profile); });
    connect(m_addRule, &QPushButton::clicked, this, &SlurmImportDialog::addRule);
    connect(m_removeRule, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_rulesTable->currentIndex();
        if (current.isValid()) m_rules->removeRows(current.row(), 1);
    });
    connect(m_ruleUp, &QPushButton::clicked, this, [this] { moveRule(-1); });
    connect(m_ruleDown, &QPushButton::clicked, this, [this] { moveRule(+1); });
    connect(m_rulesTable->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &SlurmImportDialog::updateButtons);
    connect(m_loadRules, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Load profile rules"), QString(),
                                                          tr("Rule files (*.txt *.rules);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !loadRules(path, &error))
            QMessageBox::warning(this, tr("Load profile rules"), error);
    });
    connect(m_saveRules, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save profile rules"), QStringLiteral("profile-rules.txt"),
                                         tr("Rule files (*.txt *.rules);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !saveRules(path, &error))
            QMessageBox::warning(this, tr("Save profile rules"), error);
    });
}

void SlurmImportDialog::addRule() {
    const QModelIndex current = m_rulesTable->currentIndex();
    const int row = m_rules->addRule(current.isValid() ? current.row() : -1);
    const QModelIndex pattern = m_rules->index(row, ProfileRulesModel::PatternColumn);
    // The pattern is typed next, also when the button was pressed by its mnemonic.
    m_rulesTable->setFocus(Qt::OtherFocusReason);
    m_rulesTable->setCurrentIndex(pattern);
    m_rulesTable->edit(pattern);
}

void SlurmImportDialog::moveRule(int by) {
    const QModelIndex current = m_rulesTable->currentIndex();
    if (!current.isValid()) return;
    const int to = current.row() + by;
    if (m_rules->moveRule(current.row(), to))
        m_rulesTable->setCurrentIndex(m_rules->index(to, current.column()));
}

SlurmImportDialog::~SlurmImportDialog() {
    // Hiding the dialog on destruction takes the focus from a path field, which would read the
    // file again into members already gone: nothing of the children may reach this dialog now.
    for (QObject* child : findChildren<QObject*>()) disconnect(child, nullptr, this, nullptr);
}

// ---- inputs ---------------------------------------------------------------------------------

QString SlurmImportDialog::historyPath() const {
    return m_historyPath->text().trimmed();
}

QString SlurmImportDialog::nodesPath() const {
    return m_nodesPath->text().trimmed();
}

QString SlurmImportDialog::partitionsPath() const {
    return m_partitionsPath->text().trimmed();
}

QString SlurmImportDialog::partitionsError() const {
    return m_partitionsError.isEmpty() ? m_partitionsApplyError : m_partitionsError;
}

QString SlurmImportDialog::fitError() const {
    return m_fit ? m_fit->error : QString();
}

void SlurmImportDialog::setHistoryPath(const QString& path) {
    m_historyPath->setText(path);
    readHistoryFile();
}

void SlurmImportDialog::setNodesPath(const QString& path) {
    m_nodesPath->setText(path);
    readNodesFile();
}

void SlurmImportDialog::setPartitionsPath(const QString& path) {
    m_partitionsPath->setText(path);
    readPartitionsFile();
}

void SlurmImportDialog::setTimezone(const QString& offset) {
    m_timezone->setText(offset);
    if (!historyPath().isEmpty()) readHistoryFile();
}

void SlurmImportDialog::setKeepUnstarted(bool keep) {
    m_keepUnstarted->setChecked(keep);
}

void SlurmImportDialog::setKeepRunning(bool keep) {
    m_keepRunning->setChecked(keep);
}

void SlurmImportDialog::setExcludeUnavailable(bool exclude) {
    m_exclude->setChecked(exclude);
}

void SlurmImportDialog::setImportName(const QString& name) {
    m_name->setText(name);
    m_nameTyped = !name.trimmed().isEmpty();
    renameImport();
}

QString SlurmImportDialog::importName() const {
    if (m_nameTyped) return m_name->text().trimmed();
    const QString from = !historyPath().isEmpty() ? historyPath() : nodesPath();
    return from.isEmpty() ? QStringLiteral("slurm") : QFileInfo(from).completeBaseName();
}

void SlurmImportDialog::chooseFile(FileKind kind) {
    const QString path = m_chooser ? m_chooser(this, kind) : QString();
    if (path.isEmpty()) return;
    if (kind == FileKind::History)
        setHistoryPath(path);
    else if (kind == FileKind::Nodes)
        setNodesPath(path);
    else if (kind == FileKind::Partitions)
        setPartitionsPath(path);
    else
        setSlurmConfigPath(path);
}

// Enter in a text field reads that field (a path: the file, as the fields' tooltips say); it must
// not also press Import, the default button, which would store the import before the other files
// are given. Enter anywhere else still imports.
void SlurmImportDialog::keyPressEvent(QKeyEvent* event) {
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
        qobject_cast<QLineEdit*>(focusWidget())) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

void SlurmImportDialog::setSlurmConfigPath(const QString& path) {
    m_configPath->setText(path);
    readConfigFile();
}

QString SlurmImportDialog::slurmConfigPath() const {
    return m_configPath->text().trimmed();
}

void SlurmImportDialog::readConfigFile() {
    m_slurmParameters.reset();
    m_configError.clear();
    if (!slurmConfigPath().isEmpty()) {
        try {
            m_slurmParameters = cl::slurmParameters(cl::readSlurmConfig(slurmConfigPath().toStdString()));
        } catch (const std::exception& e) {
            m_configError = QString::fromUtf8(e.what());
        }
    }
    updateButtons();
    showSummary();
    emit previewUpdated();
}

QString SlurmImportDialog::configSummary() const {
    if (slurmConfigPath().isEmpty()) return {};
    const QString file = QFileInfo(slurmConfigPath()).fileName().toHtmlEscaped();
    if (!m_configError.isEmpty())
        return tr("<b>%1 cannot be read:</b> %2").arg(file, m_configError.toHtmlEscaped());
    if (!m_slurmParameters) return tr("Press Enter in the Slurm config field to read %1.").arg(file);
    if (m_slurmParameters->empty())
        return tr("<b>%1</b>: Slurm's defaults; the scenario's slurm policy follows them.").arg(file);
    QStringList settings;
    for (const std::string& s : *m_slurmParameters) settings << QString::fromStdString(s).toHtmlEscaped();
    return tr("<b>%1</b>: the scenario's slurm policy follows %n setting(s) that differ from Slurm's "
              "defaults: %2.",
              nullptr, static_cast<int>(settings.size()))
        .arg(file, settings.join(QStringLiteral(", ")));
}

void SlurmImportDialog::readHistoryFile() {
    const int generation = ++m_historyGeneration;
    m_history.reset();
    m_historyTrace.reset();
    m_leftOut.clear();
    m_historyError.clear();
    m_ruled.reset();
    if (!m_nameTyped) m_name->setText(importName());
    const QString path = historyPath();
    if (path.isEmpty()) {
        showHistory();
        return;
    }
    cl::SacctOptions options;
    try {
        options.utc_offset_s = cl::parseUtcOffset(m_timezone->text().trimmed().toStdString());
    } catch (const std::exception& e) {
        m_historyError = tr("Time zone: %1").arg(QString::fromUtf8(e.what()));
        showHistory();
        return;
    }
    options.keep_unstarted = m_keepUnstarted->isChecked();
    options.keep_running = m_keepRunning->isChecked();
    const QString name = importName();
    ++m_running;
    runInBackground(
        this, [path, options, name] { return readHistory(path, options, name); },
        [this, generation](HistoryRead read) {
            --m_running;
            if (generation == m_historyGeneration) {
                m_history = std::move(read.history);
                m_historyTrace = std::move(read.trace);
                m_leftOut.clear();
                if (m_history) m_leftOut = m_history->dropped;
                for (const auto& [reason, n] : read.left_out) m_leftOut[reason] += n;
                m_historyError = read.error;
                if (m_historyTrace && m_historyTrace->jobs.empty() && m_historyError.isEmpty())
                    m_historyError = tr("%1: no job with GPUs is left to import").arg(historyPath());
                scheduleMatching();
            }
            showHistory();
            emit previewUpdated();
        });
    showHistory();
}

void SlurmImportDialog::readNodesFile() {
    const int generation = ++m_nodesGeneration;
    m_nodes.reset();
    m_nodesError.clear();
    if (!m_nameTyped) m_name->setText(importName());
    const QString path = nodesPath();
    if (path.isEmpty()) {
        makeLayout();
        return;
    }
    ++m_running;
    runInBackground(
        this, [path] { return readNodes(path); },
        [this, generation](NodesRead read) {
            --m_running;
            if (generation == m_nodesGeneration) {
                m_nodes = std::move(read.inventory);
                m_nodesError = read.error;
            }
            makeLayout();
            emit previewUpdated();
        });
    makeLayout();
}

void SlurmImportDialog::readPartitionsFile() {
    const int generation = ++m_partitionsGeneration;
    m_partitions.reset();
    m_partitionsError.clear();
    const QString path = partitionsPath();
    if (path.isEmpty()) {
        makeLayout();
        return;
    }
    ++m_running;
    runInBackground(
        this, [path] { return readPartitions(path); },
        [this, generation](PartitionsRead read) {
            --m_running;
            if (generation == m_partitionsGeneration) {
                m_partitions = std::move(read.partitions);
                m_partitionsError = read.error;
            }
            makeLayout();
            emit previewUpdated();
        });
    makeLayout();
}

void SlurmImportDialog::makeLayout() {
    m_layout.reset();
    m_layoutError.clear();
    m_partitionsApplied.reset();
    m_partitionsApplyError.clear();
    if (m_nodes) {
        try {
            cl::SlurmLayoutOptions options;
            options.name = importName().toStdString();
            options.exclude_unavailable = m_exclude->isChecked();
            m_layout = cl::clusterFromSlurmNodes(*m_nodes, options);
        } catch (const std::exception& e) {
            m_layoutError = QString::fromUtf8(e.what());
        }
    }
    // The partition file's attributes and members win over the nodes' Partitions=, as with
    // `import slurm --partitions` (docs/architecture.md 8.7); the layout is unchanged on an error.
    if (m_layout && m_partitions && !partitionsPath().isEmpty()) {
        try {
            m_partitionsApplied = cl::applySlurmPartitions(m_layout->cluster, *m_partitions, &*m_nodes);
        } catch (const std::exception& e) {
            m_partitionsApplyError = QString::fromUtf8(e.what());
        }
    }
    showCluster();
    checkFit();
}

// The name is only the cluster's name: the layout is not made again, and what was checked stays
// shown (and Import usable) while the reasons, which name the cluster, are checked again.
void SlurmImportDialog::renameImport() {
    if (m_layout) m_layout->cluster.name = importName().toStdString();
    showCluster();
    checkFit(m_fit.has_value());
}

void SlurmImportDialog::checkFit(bool refresh) {
    const int generation = ++m_fitGeneration;
    if (!refresh) {
        m_fit.reset();
        m_jobs->setNeverFits({});
    }
    // Only the cluster as it will be stored: with its partition file laid over, when one is named.
    const bool partitionsReady =
        partitionsPath().isEmpty() || (m_partitionsApplied.has_value() && partitionsError().isEmpty());
    if (!m_historyTrace || historyPath().isEmpty() || !m_layout || nodesPath().isEmpty() ||
        m_layout->cluster.servers.empty() || !partitionsReady) {
        m_fit.reset();
        m_jobs->setNeverFits({});
        showFit();
        return;
    }
    if (!refresh) ++m_running;
    const std::shared_ptr<const cl::Trace> trace = m_historyTrace;
    const auto cluster = std::make_shared<const cl::Cluster>(m_layout->cluster);
    // Which files to look at, as `import slurm` says it (core's message names job and partition).
    const QString historyFile = QFileInfo(historyPath()).fileName();
    const QString partitionsFrom =
        QFileInfo(partitionsPath().isEmpty() ? nodesPath() : partitionsPath()).fileName();
    runInBackground(
        this, [trace, cluster] { return checkJobsFit(*cluster, *trace); },
        [this, generation, refresh, historyFile, partitionsFrom](FitCheck fit) {
            if (!refresh) --m_running;
            if (generation == m_fitGeneration) {
                if (!fit.error.isEmpty())
                    fit.error = tr("%1: %2 (its partitions come from %3)")
                                    .arg(historyFile, fit.error, partitionsFrom);
                m_jobs->setNeverFits(fit.reasons);
                m_fit = std::move(fit);
            }
            showFit();
            emit previewUpdated();
        });
    showFit();
}

// ---- profiles and rules ---------------------------------------------------------------------

bool SlurmImportDialog::setProfileSet(std::int64_t id) {
    const int index = m_sets->findData(QVariant::fromValue<qlonglong>(id));
    if (index < 0) return false;
    m_sets->setCurrentIndex(index);
    return true;
}

std::int64_t SlurmImportDialog::profileSetId() const {
    return m_sets->currentIndex() >= 0 ? m_sets->currentData().toLongLong() : -1;
}

void SlurmImportDialog::loadProfileSet() {
    m_profiles.reset();
    const std::int64_t id = profileSetId();
    try {
        if (id > 0 && m_store)
            m_profiles = std::make_shared<const cl::ProfileSet>(m_store->profiles(id));
        else if (id == 0 && m_builtin)
            m_profiles = std::make_shared<const cl::ProfileSet>(*m_builtin);
    } catch (const std::exception& e) {
        m_rulesError = tr("Cannot read the profile set: %1").arg(QString::fromUtf8(e.what()));
    }
    const QString keep = m_default->currentText();
    m_rules->setProfiles(m_profiles.get());
    {
        const QSignalBlocker block(m_default);
        m_default->clear();
        m_default->addItems(m_rules->profileNames());
        // A default the set lacks stays visible (and is reported) rather than silently replaced.
        if (!keep.isEmpty() && m_default->findText(keep) < 0) m_default->addItem(keep);
        m_default->setCurrentIndex(keep.isEmpty() ? 0 : m_default->findText(keep));
    }
    m_rules->setDefaultProfile(m_default->currentText());
    scheduleMatching();
}

bool SlurmImportDialog::loadRules(const QString& path, QString* error) {
    try {
        const cl::ProfileRules rules = cl::readProfileRules(path.toStdString());
        m_rules->setRules(rules);
        if (!rules.default_profile.empty()) {
            const QString name = fromStd(rules.default_profile);
            if (m_default->findText(name) < 0) m_default->addItem(name);
            m_default->setCurrentText(name);
        }
        m_rules->setDefaultProfile(m_default->currentText());
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool SlurmImportDialog::saveRules(const QString& path, QString* error) const {
    QSaveFile file(path);
    const QByteArray text = QByteArray::fromStdString(cl::profileRulesText(m_rules->rules()));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void SlurmImportDialog::scheduleMatching() {
    m_rulesPause->start();
    updateBusy();
    updateButtons();
}

void SlurmImportDialog::matchJobs() {
    const int generation = ++m_matchGeneration;
    m_rulesError.clear();
    if (!m_historyTrace || !m_profiles) {
        m_ruled.reset();
        m_rules->setMatchCounts(std::nullopt);
        updateRuleCounts();
        return;
    }
    if (m_rules->hasProblems()) {
        m_ruled.reset();
        for (int r = 0; r < m_rules->rowCount(); ++r)
            if (!m_rules->problem(r).isEmpty()) {
                m_rulesError = tr("Rule %1: %2").arg(r + 1).arg(m_rules->problem(r));
                break;
            }
        m_rules->setMatchCounts(std::nullopt);
        m_jobs->setTrace(m_historyTrace);
        updateRuleCounts();
        return;
    }
    ++m_running;
    const std::shared_ptr<const cl::Trace> trace = m_historyTrace;
    const std::shared_ptr<const cl::ProfileSet> profiles = m_profiles;
    const cl::ProfileRules rules = m_rules->rules();
    runInBackground(
        this, [trace, profiles, rules] { return applyProfileRules(*trace, rules, *profiles); },
        [this, generation](RuledTrace ruled) {
            --m_running;
            if (generation == m_matchGeneration) {
                m_rulesError = ruled.error;
                m_ruled = std::move(ruled);
                m_jobs->setTrace(m_ruled->trace ? m_ruled->trace : m_historyTrace);
                m_rules->setMatchCounts(m_ruled->trace ? std::optional(m_ruled->counts.per_rule)
                                                       : std::nullopt);
                emit previewTraceChanged(m_jobs->trace(), m_profiles.get());
            }
            updateRuleCounts();
            emit previewUpdated();
        });
    updateBusy();
}

std::optional<std::size_t> SlurmImportDialog::defaultMatches() const {
    if (!m_ruled || !m_ruled->trace) return std::nullopt;
    return m_ruled->counts.defaulted;
}

void SlurmImportDialog::updateRuleCounts() {
    const QLocale locale;
    if (const auto n = defaultMatches())
        m_defaultCount->setText(tr("%n job(s) no rule matched", nullptr, static_cast<int>(*n)));
    else
        m_defaultCount->clear();
    QStringList lines;
    if (!m_rulesError.isEmpty()) {
        lines << tr("<b>The rules cannot be used:</b> %1").arg(m_rulesError.toHtmlEscaped());
    } else if (m_ruled && m_ruled->trace) {
        const cl::MeasuredIterations& it = m_ruled->iterations;
        lines << tr("%1 of %2 jobs: run time turned into iterations of their profile on their GPU type.")
                     .arg(locale.toString(qulonglong(it.converted)))
                     .arg(locale.toString(qulonglong(m_ruled->trace->jobs.size())));
        if (m_ruled->counts.unmatched > 0)
            lines << tr("%n job(s) matched no rule and have no profile (choose a default profile).", nullptr,
                        static_cast<int>(m_ruled->counts.unmatched));
        for (const auto& [type, n] : it.unknown_types)
            lines
                << tr("The profile set has no speed for GPU type %1 (%n job(s)): taken as the reference GPU.",
                      nullptr, static_cast<int>(n))
                       .arg(fromStd(type).toHtmlEscaped());
    } else if (!m_historyTrace) {
        lines << tr("The counts follow once a job history is read.");
    }
    m_rulesStatus->setText(lines.join(QStringLiteral("<br>")));
    showSummary();
    updateBusy();
    updateButtons();
}

// ---- what is shown --------------------------------------------------------------------------

void SlurmImportDialog::showHistory() {
    m_jobs->setTrace(m_historyTrace);
    // The origin traceFromSacct counts from: the earliest submission it read.
    double firstUtc = std::numeric_limits<double>::quiet_NaN();
    if (m_history)
        for (const cl::SlurmJob& job : m_history->jobs)
            if (std::isfinite(job.submit) && (std::isnan(firstUtc) || job.submit < firstUtc))
                firstUtc = job.submit;
    m_jobs->setFirstSubmitUtc(firstUtc);
    m_jobTable->resizeColumnsToContents();
    if (!m_historyTrace) emit previewTraceChanged(nullptr, m_profiles.get());
    showLeftOut();
    updateRuleCounts();
    checkFit();
}

void SlurmImportDialog::showFit() {
    constexpr std::size_t kListed = 3, kInTooltip = 20;
    if (m_fit && !m_fit->error.isEmpty()) {
        m_fitIcon->setPixmap(
            style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(fontMetrics().height()));
        m_fitText->setText(tr("<b>A job asks for a partition the cluster does not have:</b> %1")
                               .arg(fitError().toHtmlEscaped()));
        m_fitText->setToolTip(
            tr("A run refuses such a history, and so does the import: add the partition to the "
               "partition file (or the nodes' Partitions=), or import the history alone"));
        m_fitRow->show();
    } else if (m_fit && m_fit->never_fit > 0) {
        m_fitIcon->setPixmap(
            style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(fontMetrics().height()));
        QStringList reasons;
        for (const std::string& why : m_fit->reasons)
            if (!why.empty() && static_cast<std::size_t>(reasons.size()) < kInTooltip)
                reasons << fromStd(why);
        QStringList listed;
        for (const QString& why : reasons.mid(0, kListed)) listed << why.toHtmlEscaped();
        QString text = m_fit->never_fit == 1
                           ? tr("<b>1 job can never run on this cluster</b>: a run leaves it out, named "
                                "(marked in Jobs).")
                           : tr("<b>%1 jobs can never run on this cluster</b>: a run leaves them out, named "
                                "(marked in Jobs).")
                                 .arg(number(static_cast<long long>(m_fit->never_fit)));
        text += QStringLiteral("<br>") + listed.join(QStringLiteral("<br>"));
        if (m_fit->never_fit > kListed)
            text += QStringLiteral("<br>") +
                    tr("\u2026 and %1 more").arg(number(static_cast<long long>(m_fit->never_fit - kListed)));
        m_fitText->setText(text);
        QString tip = reasons.join(QLatin1Char('\n'));
        if (m_fit->never_fit > kInTooltip)
            tip +=
                QLatin1Char('\n') +
                tr("\u2026 and %1 more").arg(number(static_cast<long long>(m_fit->never_fit - kInTooltip)));
        m_fitText->setToolTip(tip);
        m_fitRow->show();
    } else {
        m_fitText->clear();
        m_fitText->setToolTip(QString());
        m_fitRow->hide();
    }
    updateBusy();
    updateButtons();
    showSummary();
}

void SlurmImportDialog::showLeftOut() {
    m_dropped->setRowCount(0);
    m_refused->clear();
    int dropped = 0;
    if (m_history) {
        for (const auto& [reason, n] : m_leftOut) {
            const int row = m_dropped->rowCount();
            m_dropped->insertRow(row);
            m_dropped->setItem(row, 0, new QTableWidgetItem(fromStd(reason)));
            auto* count = new QTableWidgetItem(number(n));
            count->setData(Qt::TextAlignmentRole, QVariant(Qt::AlignRight | Qt::AlignVCenter));
            m_dropped->setItem(row, 1, count);
            dropped += n;
        }
        const QIcon icon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
        const std::size_t listed = std::min<std::size_t>(m_history->refused.size(), kMaxListedRefused);
        for (std::size_t i = 0; i < listed; ++i)
            m_refused->addItem(new QListWidgetItem(icon, fromStd(m_history->refused[i])));
        if (m_history->refused.size() > listed)
            m_refused->addItem(tr("\u2026 and %1 more")
                                   .arg(number(static_cast<long long>(m_history->refused.size() - listed))));
    }
    const int refused = m_history ? static_cast<int>(m_history->refused.size()) : 0;
    m_tabs->setTabText(LeftOutTab, dropped + refused > 0 ? tr("&Left out (%1)").arg(number(dropped + refused))
                                                         : tr("&Left out"));
}

void SlurmImportDialog::showCluster() {
    m_clusterTree->clear();
    m_clusterWarnings->clear();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    if (!m_nodesError.isEmpty() || !m_layoutError.isEmpty()) {
        m_clusterSummary->setText(
            tr("<b>No cluster:</b> %1")
                .arg((m_nodesError.isEmpty() ? m_layoutError : m_nodesError).toHtmlEscaped()));
    } else if (!m_layout) {
        m_clusterSummary->setText(nodesPath().isEmpty()
                                      ? tr("No node inventory chosen: the import makes no cluster.")
                                      : tr("Reading the node inventory\u2026"));
    } else {
        const cl::Cluster& cluster = m_layout->cluster;
        std::map<std::string, std::pair<int, int>> byRack;  // servers, GPUs
        int unavailable = 0;
        for (const cl::Server& s : cluster.servers) {
            auto& [servers, gpus] = byRack[s.rack];
            ++servers;
            gpus += s.gpus;
            if (s.unavailable) ++unavailable;
        }
        QStringList types;
        for (const auto& [type, gpus] : cluster.gpusByType())
            types << tr("%1 %2").arg(number(gpus), fromStd(type).toHtmlEscaped());
        QString text = tr("<b>%n server(s)</b>", nullptr, static_cast<int>(cluster.servers.size())) +
                       tr(" with %n GPU(s)", nullptr, cluster.totalGpus()) +
                       tr(" in %n partition(s)", nullptr, static_cast<int>(byRack.size()));
        if (!types.isEmpty()) text += QStringLiteral(": ") + types.join(QStringLiteral(", "));
        text += QLatin1Char('.');
        if (!m_layout->unknown_gpu_types.empty()) {
            QStringList unknown;
            for (const auto& [type, gpus] : m_layout->unknown_gpu_types)
                unknown << tr("%1 (%n GPU(s))", nullptr, gpus).arg(fromStd(type).toHtmlEscaped());
            text += QLatin1Char(' ') +
                    tr("<b>Unknown GPU types</b>, kept by name at speed 1.0 until you set one: %1.")
                        .arg(unknown.join(QStringLiteral(", ")));
        }
        if (m_layout->cpu_only_nodes > 0)
            text += QLatin1Char(' ') + tr("%n CPU-only node(s) left out.", nullptr, m_layout->cpu_only_nodes);
        if (m_layout->excluded_unavailable > 0)
            text += QLatin1Char(' ') +
                    tr("%n down or drained node(s) excluded.", nullptr, m_layout->excluded_unavailable);
        if (unavailable > 0)
            text +=
                QLatin1Char(' ') + tr("%n down or drained server(s) kept and marked.", nullptr, unavailable);
        text += partitionsSummary();
        m_clusterSummary->setText(text);

        std::map<std::string, QTreeWidgetItem*> racks;
        for (const auto& [rack, counts] : byRack) {
            auto* item = new QTreeWidgetItem(m_clusterTree);
            item->setText(0, rack.empty() ? tr("(no partition)") : fromStd(rack));
            item->setText(1, number(counts.second));
            item->setText(3, tr("%n server(s)", nullptr, counts.first));
            QFont bold = item->font(0);
            bold.setBold(true);
            item->setFont(0, bold);
            racks[rack] = item;
        }
        for (const cl::Server& s : cluster.servers) {
            auto* item = new QTreeWidgetItem(racks[s.rack]);
            item->setText(0, fromStd(s.name));
            item->setText(1, number(s.gpus));
            item->setText(2, fromStd(s.gpu_type));
            item->setText(3, number(s.cpu_cores));
            item->setText(4, QLocale().toString(s.memory_gb, 'f', 0));
            item->setText(5, s.state.empty() ? QStringLiteral("\u2013") : fromStd(s.state));
            QStringList partitions;
            for (const std::string& p : s.partitions) partitions << fromStd(p);
            item->setText(
                6, partitions.isEmpty() ? QStringLiteral("\u2013") : partitions.join(QStringLiteral(", ")));
            for (int c : {1, 3, 4}) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
            if (s.unavailable) {
                item->setIcon(0, warning);
                item->setToolTip(0, tr("Down, drained or failing when the inventory was taken"));
                item->setToolTip(5, item->toolTip(0));
            }
            if (m_layout->unknown_gpu_types.count(s.gpu_type) > 0)
                item->setToolTip(2, tr("Not in the GPU type table: speed 1.0 until you set one"));
        }
        if (cluster.servers.size() <= 64) m_clusterTree->expandAll();
        for (const std::string& w : m_layout->warnings)
            m_clusterWarnings->addItem(new QListWidgetItem(warning, fromStd(w)));
        if (m_nodes)
            for (const std::string& w : m_nodes->warnings)
                m_clusterWarnings->addItem(new QListWidgetItem(warning, fromStd(w)));
        if (m_partitions && m_partitionsApplied) {
            for (const std::string& w : m_partitions->warnings)
                m_clusterWarnings->addItem(new QListWidgetItem(warning, fromStd(w)));
            for (const std::string& w : m_partitionsApplied->warnings)
                m_clusterWarnings->addItem(new QListWidgetItem(warning, fromStd(w)));
        }
    }
    m_clusterWarnings->setVisible(m_clusterWarnings->count() > 0);
    m_tabs->setTabText(ClusterTab, m_layout ? tr("&Cluster (%n server(s))", nullptr,
                                                 static_cast<int>(m_layout->cluster.servers.size()))
                                            : tr("&Cluster"));
    updateBusy();
    updateButtons();
    showSummary();
}

// What the cluster page says of the partitions: the partition file's, with what it set, or why
// it cannot be used.
QString SlurmImportDialog::partitionsSummary() const {
    if (partitionsPath().isEmpty()) return {};
    const QString file = QFileInfo(partitionsPath()).fileName().toHtmlEscaped();
    if (!partitionsError().isEmpty())
        return QStringLiteral("<br>") + tr("<b>The partitions of %1 cannot be used:</b> %2")
                                            .arg(file, partitionsError().toHtmlEscaped());
    if (!m_partitionsApplied || !m_layout) return QStringLiteral("<br>") + tr("Reading %1\u2026").arg(file);
    QStringList partitions;
    for (const cl::Partition& p : m_layout->cluster.partitions) partitions << partitionText(p);
    QString text = QStringLiteral("<br>") + tr("Partitions of %1: %2; %n server membership(s).", nullptr,
                                               m_partitionsApplied->memberships)
                                                .arg(file, partitions.join(QStringLiteral(", ")));
    if (!m_partitionsApplied->left_out_nodes.empty())
        text += QLatin1Char(' ') + tr("%n node(s) it names are not in the cluster (CPU-only or left out).",
                                      nullptr, static_cast<int>(m_partitionsApplied->left_out_nodes.size()));
    return text;
}

void SlurmImportDialog::showSummary() {
    QStringList parts;
    const QLocale locale;
    if (!historyPath().isEmpty()) {
        const QString file = QFileInfo(historyPath()).fileName().toHtmlEscaped();
        if (!m_historyError.isEmpty()) {
            parts << tr("<b>%1 cannot be imported:</b> %2").arg(file, m_historyError.toHtmlEscaped());
        } else if (m_history && m_historyTrace) {
            int dropped = 0;
            for (const auto& [reason, n] : m_leftOut) dropped += n;
            QString text = tr("<b>%1</b>: %2 rows, <b>%3 jobs</b> kept")
                               .arg(file, number(m_history->rows),
                                    number(static_cast<long long>(m_historyTrace->jobs.size())));
            if (dropped > 0) text += tr(", %1 left out").arg(number(dropped));
            if (!m_history->refused.empty())
                text +=
                    tr(", <b>%n row(s) refused</b>", nullptr, static_cast<int>(m_history->refused.size()));
            text += tr(" (see Left out).");
            if (m_ruled && m_ruled->trace && m_profiles) {
                std::size_t byRule = 0;
                for (std::size_t n : m_ruled->counts.per_rule) byRule += n;
                text += QLatin1Char(' ') +
                        tr("Profiles of %1: %2 by rule, %3 by the default %4 (see Profile rules).")
                            .arg(fromStd(m_profiles->name).toHtmlEscaped(),
                                 number(static_cast<long long>(byRule)),
                                 number(static_cast<long long>(m_ruled->counts.defaulted)),
                                 m_rules->defaultProfile().toHtmlEscaped());
            }
            parts << text;
        } else {
            parts << tr("Reading %1\u2026").arg(file);
        }
    }
    if (!nodesPath().isEmpty()) {
        const QString file = QFileInfo(nodesPath()).fileName().toHtmlEscaped();
        if (!m_nodesError.isEmpty())
            parts << tr("<b>%1 cannot be imported:</b> %2").arg(file, m_nodesError.toHtmlEscaped());
        else if (m_layout)
            parts << tr("<b>%1</b>: %n GPU server(s) (see Cluster).", nullptr,
                        static_cast<int>(m_layout->cluster.servers.size()))
                         .arg(file);
        else if (m_nodes)
            parts << tr("<b>%1</b>: %2").arg(file, m_layoutError.toHtmlEscaped());
        else
            parts << tr("Reading %1\u2026").arg(file);
    }
    if (!partitionsPath().isEmpty()) {
        const QString file = QFileInfo(partitionsPath()).fileName().toHtmlEscaped();
        if (!partitionsError().isEmpty())
            parts << tr("<b>%1 cannot be imported:</b> %2").arg(file, partitionsError().toHtmlEscaped());
        else if (nodesPath().isEmpty())
            parts
                << tr("<b>%1</b>: the partitions lay over the cluster of a node inventory; choose the nodes "
                      "too.")
                       .arg(file);
        else if (m_partitionsApplied && m_layout)
            parts << tr("<b>%1</b>: %n partition(s) laid over the cluster (see Cluster).", nullptr,
                        static_cast<int>(m_layout->cluster.partitions.size()))
                         .arg(file);
        else if (!m_partitions)
            parts << tr("Reading %1\u2026").arg(file);
    }
    if (const QString config = configSummary(); !config.isEmpty()) parts << config;
    // Where the replay goes next (docs/architecture.md 7.10): the scenario replays what happened.
    if (!historyPath().isEmpty() && !nodesPath().isEmpty() && m_store && m_scenario->isChecked() &&
        canImport())
        parts << tr(
            "Import creates a scenario with the policy slurm: run it, then compare its starts with the "
            "recorded ones on the Replay page (Alt+0) before you plan with it.");
    if (parts.isEmpty())
        parts << tr(
            "Choose the job history (sacct output, Ctrl+O), the node inventory, or both. Nothing is "
            "stored until you import.");
    m_summary->setText(parts.join(QStringLiteral("<br>")));
}

void SlurmImportDialog::updateBusy() {
    m_busy->setVisible(isBusy());
}

bool SlurmImportDialog::isBusy() const {
    return m_running > 0 || m_rulesPause->isActive() ||
           std::any_of(m_typingPauses.begin(), m_typingPauses.end(),
                       [](const QTimer* pause) { return pause->isActive(); });
}

void SlurmImportDialog::updateButtons() {
    const QModelIndex current = m_rulesTable->currentIndex();
    m_removeRule->setEnabled(current.isValid());
    m_ruleUp->setEnabled(current.isValid() && current.row() > 0);
    m_ruleDown->setEnabled(current.isValid() && current.row() + 1 < m_rules->rowCount());
    m_addRule->setEnabled(m_profiles != nullptr);
    const bool both = !historyPath().isEmpty() && !nodesPath().isEmpty();
    m_scenario->setVisible(both && m_store);
    const QString blocker = importBlocker();
    m_import->setEnabled(blocker.isEmpty());
    m_import->setToolTip(blocker.isEmpty() ? tr("Store the trace and the cluster in the workspace")
                                           : blocker);
}

// ---- results --------------------------------------------------------------------------------

QString SlurmImportDialog::importBlocker() const {
    if (!m_store) return tr("Open a workspace first");
    if (historyPath().isEmpty() && nodesPath().isEmpty())
        return tr("Choose a job history or a node inventory");
    if (isBusy()) return tr("Reading\u2026");
    if (!historyPath().isEmpty()) {
        if (!m_historyError.isEmpty()) return tr("The job history cannot be imported (see above)");
        if (!m_historyTrace) return tr("Press Enter in the job history field to read it");
        if (!m_profiles) return tr("Choose a profile set for the rules");
        if (!m_rulesError.isEmpty()) return tr("The profile rules cannot be used (see Profile rules)");
        if (!m_ruled || !m_ruled->trace) return tr("The jobs are being matched to profiles");
    }
    if (!nodesPath().isEmpty()) {
        if (!m_nodesError.isEmpty() || !m_layoutError.isEmpty())
            return tr("The node inventory cannot be imported (see Cluster)");
        if (!m_layout) return tr("Press Enter in the nodes field to read it");
        if (m_layout->cluster.servers.empty()) return tr("The node inventory has no GPU server to import");
    }
    if (!partitionsPath().isEmpty()) {
        if (nodesPath().isEmpty())
            return tr("The partitions lay over the cluster of a node inventory: choose the nodes too");
        if (!partitionsError().isEmpty()) return tr("The partition file cannot be imported (see Cluster)");
        if (!m_partitionsApplied) return tr("Press Enter in the partitions field to read it");
    }
    if (!slurmConfigPath().isEmpty()) {
        if (!m_configError.isEmpty()) return tr("The Slurm configuration cannot be read (see above)");
        if (!m_slurmParameters) return tr("Press Enter in the Slurm config field to read it");
    }
    if (!fitError().isEmpty()) return tr("A job asks for a partition the cluster does not have (see above)");
    return {};
}

bool SlurmImportDialog::canImport() const {
    return importBlocker().isEmpty();
}

std::shared_ptr<const cl::Trace> SlurmImportDialog::trace() const {
    if (historyPath().isEmpty() || !m_ruled || !m_ruled->trace) return nullptr;
    const std::string name = importName().toStdString();
    if (m_ruled->trace->name == name) return m_ruled->trace;
    auto named = std::make_shared<cl::Trace>(*m_ruled->trace);
    named->name = name;
    return named;
}

std::optional<cl::Cluster> SlurmImportDialog::cluster() const {
    if (nodesPath().isEmpty() || !m_layout) return std::nullopt;
    std::optional<cl::Cluster> cluster = m_layout->cluster;
    cluster->name = importName().toStdString();  // as the trace: the name shown when Import is pressed
    return cluster;
}

bool SlurmImportDialog::createScenario() const {
    return m_scenario->isVisibleTo(this) && m_scenario->isChecked() && trace() && cluster();
}

void SlurmImportDialog::addPreviewTab(QWidget* widget, const QString& title) {
    m_tabs->addTab(widget, title);
}

void SlurmImportDialog::accept() {
    if (!canImport()) return;
    QDialog::accept();
}

}  // namespace cl::views
