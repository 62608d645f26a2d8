#include "views/profiles/kineto_import_dialog.h"

#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/io/builtin_data.h"
#include "core/io/kineto_trace.h"
#include "core/store/profile_set_versions.h"
#include "core/store/scenario_store.h"
#include "views/common/duration_text.h"
#include "views/common/import_busy_bar.h"
#include "views/common/import_dialog_size.h"
#include "views/common/import_summary_label.h"
#include "views/profiles/kineto_figures_model.h"
#include "views/profiles/profile_breakdown_chart.h"
#include "views/profiles/profile_spread_chart.h"

namespace cl::views {

namespace {

// The set an import goes to when the user names none: the CLI's default too.
constexpr const char* kDefaultSet = "profiles";
constexpr const char* kLastSetKey = "kinetoImport/profileSet";
constexpr const char* kLastDirKey = "kinetoImport/directory";
// The summary's medians keep a decimal more than the charts: they read as one run's measurements.
constexpr MsDecimals kMedians = MsDecimals::Measured;

QTableView* figuresTable(QAbstractItemModel* model, const QString& tip, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(KinetoFiguresModel::SortRole);
    auto* table = new QTableView(parent);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(KinetoFiguresModel::LabelColumn, Qt::AscendingOrder);
    table->setToolTip(tip);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() * 3 / 2);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

// What a read on the worker thread hands back.
struct ReadResult {
    std::optional<cl::KinetoProfile> profile;
    QString error;
};

}  // namespace

KinetoImportDialog::KinetoImportDialog(cl::ScenarioStore* store, QWidget* parent)
    : QDialog(parent), m_store(store) {
    setWindowTitle(tr("Import Profiler Trace"));
    m_chooser = [this](QWidget* owner) {
        QSettings settings;
        return QFileDialog::getOpenFileNames(owner, tr("PyTorch profiler traces"),
                                             settings.value(QLatin1String(kLastDirKey)).toString(),
                                             tr("Profiler traces (*.json *.json.gz *.gz);;All files (*)"));
    };

    QFormLayout* form = makeInputForm();
    m_busy = importBusyBar(this);
    m_summary = importSummaryLabel(this);
    m_warnings = makeWarningList();
    m_results = makeResults();
    m_buttons = makeButtons();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_warnings);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_buttons);

    connectInputs();
    resizeImportDialog(*this);
    showProfile();
}

QHBoxLayout* KinetoImportDialog::makeFileRow() {
    m_files = new QListWidget(this);
    m_files->setObjectName(QStringLiteral("traceFiles"));
    m_files->setToolTip(
        tr("The trace files; several files are the ranks of one run and give one profile "
           "(from the slowest rank)"));
    m_files->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_files->setMaximumHeight(fontMetrics().height() * 5);
    m_add = new QPushButton(tr("&Add Files\u2026"), this);
    m_add->setObjectName(QStringLiteral("addFiles"));
    // Ctrl+O as in every file dialog; the button keeps its Alt mnemonic.
    connect(new QShortcut(QKeySequence::Open, this), &QShortcut::activated, m_add, &QPushButton::click);
    m_add->setToolTip(tr("Choose trace files, .json or .json.gz (Ctrl+O)"));
    m_add->setAutoDefault(false);
    m_remove = new QPushButton(tr("&Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeFiles"));
    m_remove->setToolTip(tr("Leave the selected files out (Del)"));
    auto* removeKey = new QShortcut(QKeySequence::Delete, m_files, nullptr, nullptr, Qt::WidgetShortcut);
    connect(removeKey, &QShortcut::activated, m_remove, &QPushButton::click);
    m_remove->setAutoDefault(false);
    auto* fileButtons = new QVBoxLayout;
    fileButtons->addWidget(m_add);
    fileButtons->addWidget(m_remove);
    fileButtons->addStretch(1);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_files, 1);
    fileRow->addLayout(fileButtons);
    return fileRow;
}

QComboBox* KinetoImportDialog::makeProfileSetCombo() {
    auto* sets = new QComboBox(this);
    sets->setObjectName(QStringLiteral("profileSet"));
    sets->setEditable(true);
    sets->setInsertPolicy(QComboBox::NoInsert);
    sets->setToolTip(
        tr("The profile set to add the model to; a new name makes a new set. The set is "
           "stored as a new version, so scenarios that use the old one keep their figures."));
    if (m_store) {
        QStringList names;
        try {
            for (const cl::StoredItem& item : m_store->profileSets()) {
                const QString name = QString::fromStdString(item.name);
                if (!names.contains(name)) names << name;
            }
        } catch (const std::exception&) {
            // An unreadable list leaves the name to type; storing reports the real problem.
        }
        sets->addItems(names);
    }
    const QString last = QSettings().value(QLatin1String(kLastSetKey), QLatin1String(kDefaultSet)).toString();
    sets->setCurrentText(last.isEmpty() ? QLatin1String(kDefaultSet) : last);
    return sets;
}

QFormLayout* KinetoImportDialog::makeInputForm() {
    QHBoxLayout* fileRow = makeFileRow();
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("modelName"));
    m_name->setPlaceholderText(tr("the first file's name"));
    m_name->setToolTip(tr("The model's name in the profile set; traces and rules refer to it"));
    m_set = makeProfileSetCombo();

    auto* form = new QFormLayout;
    auto* filesLabel = new QLabel(tr("&Traces:"), this);
    filesLabel->setBuddy(m_files);
    form->addRow(filesLabel, fileRow);
    auto* nameLabel = new QLabel(tr("&Model name:"), this);
    nameLabel->setBuddy(m_name);
    form->addRow(nameLabel, m_name);
    auto* setLabel = new QLabel(tr("Profile s&et:"), this);
    setLabel->setBuddy(m_set);
    form->addRow(setLabel, m_set);
    return form;
}

QListWidget* KinetoImportDialog::makeWarningList() {
    auto* warnings = new QListWidget(this);
    warnings->setObjectName(QStringLiteral("warnings"));
    warnings->setToolTip(tr("What the reader noticed in the traces (nothing was left out silently)"));
    warnings->setWordWrap(true);
    warnings->setMaximumHeight(fontMetrics().height() * 5);
    warnings->setIconSize(QSize(fontMetrics().height(), fontMetrics().height()));
    warnings->hide();
    return warnings;
}

QSplitter* KinetoImportDialog::makeResults() {
    m_rankModel = new KinetoFiguresModel(this);
    m_rankModel->setObjectName(QStringLiteral("rankFigures"));
    m_stepModel = new KinetoFiguresModel(this);
    m_stepModel->setObjectName(QStringLiteral("stepFigures"));
    m_rankTable = figuresTable(m_rankModel, tr("Each rank's medians, ms; select a rank for its steps"), this);
    m_rankTable->setObjectName(QStringLiteral("ranks"));
    m_stepTable = figuresTable(m_stepModel,
                               tr("Every training step of the selected rank after the warm-up "
                                  "step, and the medians, ms"),
                               this);
    m_stepTable->setObjectName(QStringLiteral("steps"));
    m_breakdown = new ProfileBreakdownChart(this);
    m_breakdown->setObjectName(QStringLiteral("breakdown"));
    m_spread = new ProfileSpreadChart(this);
    m_spread->setObjectName(QStringLiteral("spread"));
    auto* tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(m_rankTable);
    tables->addWidget(m_stepTable);
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 2);
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_breakdown);
    charts->addWidget(m_spread);
    charts->setStretchFactor(0, 2);
    charts->setStretchFactor(1, 3);
    auto* results = new QSplitter(Qt::Horizontal, this);
    results->addWidget(tables);
    results->addWidget(charts);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    results->setChildrenCollapsible(false);
    return results;
}

QDialogButtonBox* KinetoImportDialog::makeButtons() {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_storeButton = buttons->addButton(tr("&Store"), QDialogButtonBox::AcceptRole);
    m_storeButton->setObjectName(QStringLiteral("store"));
    m_storeButton->setToolTip(tr("Add the model to the profile set in the workspace"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    return buttons;
}

void KinetoImportDialog::connectInputs() {
    connect(m_add, &QPushButton::clicked, this, &KinetoImportDialog::chooseFiles);
    connect(m_remove, &QPushButton::clicked, this, &KinetoImportDialog::removeSelected);
    connect(m_files, &QListWidget::itemSelectionChanged, this, &KinetoImportDialog::updateButtons);
    connect(m_name, &QLineEdit::textEdited, this, [this] {
        m_nameTyped = !m_name->text().trimmed().isEmpty();
        updateButtons();
    });
    connect(m_set, &QComboBox::currentTextChanged, this, &KinetoImportDialog::updateButtons);
    connect(m_rankTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid() || !m_profile) return;
                const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_rankTable->model());
                showRank(proxy->mapToSource(current).row());
            });
}

KinetoImportDialog::~KinetoImportDialog() {
    // Children signal while the dialog goes (focus, selection): nothing may reach it then.
    for (QObject* child : findChildren<QObject*>()) disconnect(child, nullptr, this, nullptr);
}

void KinetoImportDialog::setFiles(const QStringList& paths) {
    m_files->clear();
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(QDir::cleanPath(path), m_files);
        item->setToolTip(QFileInfo(path).absoluteFilePath());
    }
    read();
}

QStringList KinetoImportDialog::files() const {
    QStringList paths;
    for (int i = 0; i < m_files->count(); ++i) paths << m_files->item(i)->text();
    return paths;
}

void KinetoImportDialog::setModelName(const QString& name) {
    m_name->setText(name);
    m_nameTyped = !name.trimmed().isEmpty();
    updateButtons();
}

QString KinetoImportDialog::modelName() const {
    return m_name->text().trimmed();
}

void KinetoImportDialog::setProfileSetName(const QString& name) {
    m_set->setCurrentText(name);
}

QString KinetoImportDialog::profileSetName() const {
    return m_set->currentText().trimmed();
}

bool KinetoImportDialog::isReading() const {
    return m_watcher != nullptr;
}

bool KinetoImportDialog::canStore() const {
    return m_store && !isReading() && m_profile && !modelName().isEmpty() && !profileSetName().isEmpty();
}

void KinetoImportDialog::chooseFiles() {
    const QStringList chosen = m_chooser ? m_chooser(this) : QStringList();
    if (chosen.isEmpty()) return;
    QSettings().setValue(QLatin1String(kLastDirKey), QFileInfo(chosen.first()).absolutePath());
    QStringList paths = files();
    for (const QString& path : chosen)
        if (!paths.contains(path)) paths << path;
    setFiles(paths);
}

void KinetoImportDialog::removeSelected() {
    const QList<QListWidgetItem*> selected = m_files->selectedItems();
    if (selected.isEmpty()) return;
    for (QListWidgetItem* item : selected) delete item;
    read();
}

void KinetoImportDialog::read() {
    ++m_generation;
    m_profile.reset();
    m_error.clear();
    if (m_watcher) {
        // The older read finishes on its own; what it returns is dropped.
        m_watcher->disconnect(this);
        m_watcher->deleteLater();
        m_watcher = nullptr;
    }
    const QStringList paths = files();
    if (paths.isEmpty()) {
        showProfile();
        return;
    }
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    auto result = std::make_shared<ReadResult>();
    auto* watcher = new QFutureWatcher<void>(this);
    m_watcher = watcher;
    const int generation = m_generation;
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, result, generation] {
        watcher->deleteLater();
        if (generation != m_generation) return;
        m_watcher = nullptr;
        m_profile = std::move(result->profile);
        m_error = result->error;
        if (m_profile && !m_nameTyped) m_name->setText(QString::fromStdString(m_profile->name));
        showProfile();
        emit readFinished();
    });
    // Reading a 20 MB trace takes most of a second: never on the GUI thread.
    watcher->setFuture(QtConcurrent::run([files, result] {
        try {
            result->profile = cl::kinetoProfile(files, std::string());
        } catch (const std::exception& e) {
            result->error = QString::fromUtf8(e.what());
        }
    }));
    showProfile();
}

void KinetoImportDialog::showProfile() {
    const int n = m_files->count();
    m_busy->setVisible(isReading());
    m_warnings->clear();
    if (isReading()) {
        m_summary->setText(tr("Reading %n trace(s)\u2026", nullptr, n));
    } else if (n == 0) {
        m_summary->setText(
            tr("Add the PyTorch profiler traces of a training run (Ctrl+O): one file, or one per "
               "rank. The profile is shown here before anything is stored."));
    } else if (!m_error.isEmpty()) {
        m_summary->setText(tr("<b>No profile:</b> %1").arg(m_error.toHtmlEscaped()));
        m_warnings->addItem(
            new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxCritical), m_error));
    } else if (m_profile) {
        const cl::KinetoProfile& p = *m_profile;
        const cl::KinetoStepFigures& m = p.median;
        const cl::KinetoRankProfile& slowest = p.ranks[p.slowest_rank];
        QString text =
            tr("<b>%n rank(s)</b> of a run on %1 GPU(s)", nullptr, static_cast<int>(p.ranks.size()))
                .arg(p.world_size);
        if (!p.gpu_name.empty())
            text +=
                QStringLiteral(" (") + QString::fromStdString(p.gpu_name).toHtmlEscaped() + QLatin1Char(')');
        text += p.ranks.size() > 1
                    ? tr("; the profile takes the medians of rank %1, the slowest, over its %n "
                         "step(s): ",
                         nullptr, static_cast<int>(slowest.steps.size()))
                          .arg(slowest.rank)
                    : tr("; the profile takes the medians over its %n step(s): ", nullptr,
                         static_cast<int>(slowest.steps.size()));
        text +=
            tr("iteration <b>%1</b> \u2014 storage %2, CPU %3, GPU %4, network %5 (NCCL %6, of which %7 "
               "overlapped by computation).")
                .arg(msText(m.iteration_ms, kMedians), msText(m.storage_ms, kMedians),
                     msText(m.cpu_ms, kMedians), msText(m.gpu_ms, kMedians), msText(m.network_ms, kMedians),
                     msText(m.nccl_ms, kMedians), msText(std::max(0.0, m.nccl_ms - m.network_ms), kMedians));
        m_summary->setText(text);
        for (const cl::KinetoRankProfile& r : p.ranks)
            for (const std::string& w : r.warnings)
                m_warnings->addItem(new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxWarning),
                                                        QString::fromStdString(w)));
    }
    m_warnings->setVisible(m_warnings->count() > 0);

    if (m_profile) {
        const cl::KinetoProfile& p = *m_profile;
        m_rankModel->setRanks(p);
        std::vector<ProfileBreakdownChart::Bar> bars;
        // The profile's figures first, then each rank's (the slowest one's are the profile's).
        auto barOf = [](const QString& label, const cl::KinetoStepFigures& f, const QString& note) {
            ProfileBreakdownChart::Bar bar;
            bar.label = label;
            bar.iteration_s = f.iteration_ms / 1000.0;
            bar.segments = {{StageResource::Storage, f.storage_ms / 1000.0},
                            {StageResource::Cpu, f.cpu_ms / 1000.0},
                            {StageResource::Gpu, f.gpu_ms / 1000.0},
                            {StageResource::Network, f.network_ms / 1000.0}};
            bar.note = note;
            return bar;
        };
        if (p.ranks.size() > 1)
            for (const cl::KinetoRankProfile& r : p.ranks)
                bars.push_back(
                    barOf(tr("rank %1").arg(r.rank), r.median,
                          tr("medians over %n step(s)", nullptr, static_cast<int>(r.steps.size()))));
        else
            bars.push_back(barOf(tr("profile"), p.median, tr("medians over the steps")));
        m_breakdown->setBars(bars, tr("Medians per iteration by resource"));
        m_rankTable->selectRow(0);
        const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_rankTable->model());
        const int slowestRow =
            proxy->mapFromSource(m_rankModel->index(static_cast<int>(p.slowest_rank), 0)).row();
        m_rankTable->selectRow(slowestRow);
        showRank(static_cast<int>(p.slowest_rank));
    } else {
        m_rankModel->clear();
        m_stepModel->clear();
        m_breakdown->clear();
        m_spread->clear();
    }
    m_results->setEnabled(m_profile.has_value());
    updateButtons();
}

void KinetoImportDialog::showRank(int rank) {
    if (!m_profile || rank < 0 || rank >= static_cast<int>(m_profile->ranks.size())) return;
    const cl::KinetoRankProfile& r = m_profile->ranks[static_cast<std::size_t>(rank)];
    m_stepModel->setSteps(r);
    std::vector<double> iteration, storage, cpu, gpu, network;
    for (const cl::KinetoStepFigures& s : r.steps) {
        iteration.push_back(s.iteration_ms);
        storage.push_back(s.storage_ms);
        cpu.push_back(s.cpu_ms);
        gpu.push_back(s.gpu_ms);
        network.push_back(s.network_ms);
    }
    const QColor base = palette().color(QPalette::Base), text = palette().color(QPalette::Text);
    const QColor grey((base.red() + text.red()) / 2, (base.green() + text.green()) / 2,
                      (base.blue() + text.blue()) / 2);
    m_spread->setBoxes(
        {{tr("iteration"), iteration, grey},
         {stageResourceName(StageResource::Storage), storage, stageResourceColor(StageResource::Storage)},
         {stageResourceName(StageResource::Cpu), cpu, stageResourceColor(StageResource::Cpu)},
         {stageResourceName(StageResource::Gpu), gpu, stageResourceColor(StageResource::Gpu)},
         {stageResourceName(StageResource::Network), network, stageResourceColor(StageResource::Network)}},
        tr("Rank %1 over %n step(s)", nullptr, static_cast<int>(r.steps.size())).arg(r.rank));
}

void KinetoImportDialog::updateButtons() {
    m_remove->setEnabled(!m_files->selectedItems().isEmpty() && !isReading());
    m_storeButton->setEnabled(canStore());
    if (!m_store)
        m_storeButton->setToolTip(tr("Open a workspace first"));
    else if (modelName().isEmpty() && m_profile)
        m_storeButton->setToolTip(tr("Name the model first"));
    else
        m_storeButton->setToolTip(
            tr("Add the model to the profile set %1 in the workspace")
                .arg(profileSetName().isEmpty() ? tr("(none named)") : profileSetName()));
}

void KinetoImportDialog::accept() {
    if (store(true)) QDialog::accept();
}

bool KinetoImportDialog::store(bool askBeforeReplacing) {
    if (!canStore()) return false;
    const std::string setName = profileSetName().toStdString();
    cl::KinetoProfile profile = *m_profile;
    profile.name = modelName().toStdString();
    try {
        if (askBeforeReplacing) {
            if (const auto latest = cl::latestProfileSet(*m_store, setName);
                latest && m_store->profiles(latest->id).has(profile.name)) {
                const auto answer = QMessageBox::question(
                    this, tr("Replace model"),
                    tr("The profile set %1 already has a model %2. Store a new version of the set with this "
                       "profile in its place? Scenarios that use the current version keep their figures.")
                        .arg(profileSetName(), modelName()),
                    QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
                if (answer != QMessageBox::Yes) return false;
            }
        }
        // Speeds on other GPU types relative to the measured one, from the built-in set's table,
        // as the command line's profile import does (docs/architecture.md section 8.6).
        const std::map<std::string, double> speeds = cl::builtinProfiles("muri").gpu_type_speed;
        const cl::StoredModelProfile stored =
            cl::storeModelProfile(*m_store, setName, cl::modelProfileFromKineto(profile, &speeds),
                                  "PyTorch profiler traces (imported in the desktop app)");
        m_storedSet = stored.set_id;
        QSettings().setValue(QLatin1String(kLastSetKey), profileSetName());
        emit this->stored(stored.set_id, modelName());
        return true;
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Store profile"),
                             tr("The profile was not stored:\n\n%1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

}  // namespace cl::views
