#include "views/workspace/scenario_dialog.h"

#include <functional>
#include <limits>
#include <stdexcept>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/policies/scheduler_registry.h"
#include "core/sim/conventions.h"
#include "views/common/plan_filter.h"

namespace cl::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// "1 server", "8 servers": English plurals without a loaded translation.
QString counted(long long n, const QString& one, const QString& many) {
    return (n == 1 ? one : many).arg(n);
}

// Fills a combo with stored items ("name (size unit)"), the id as item data, selecting `current`.
void fillItems(QComboBox* combo, const std::vector<StoredItem>& items, std::int64_t current,
               const std::function<QString(long long)>& size_text) {
    for (const StoredItem& item : items) {
        combo->addItem(QStringLiteral("%1 (%2)").arg(qs(item.name), size_text(item.size)), qint64(item.id));
        combo->setItemData(
            combo->count() - 1,
            QObject::tr("%1, id %2, stored %3").arg(qs(item.name)).arg(item.id).arg(qs(item.created)),
            Qt::ToolTipRole);
    }
    const int at = combo->findData(qint64(current));
    combo->setCurrentIndex(at >= 0 ? at : (combo->count() > 0 ? 0 : -1));
}

std::int64_t selectedId(const QComboBox* combo) {
    return combo->currentIndex() >= 0 ? combo->currentData().toLongLong() : 0;
}

}  // namespace

QString ScenarioDialog::uniqueName(cl::ScenarioStore& store, const QString& base) {
    QString name = base;
    for (int n = 2; store.findScenario(name.toStdString()); ++n)
        name = QStringLiteral("%1 (%2)").arg(base).arg(n);
    return name;
}

ScenarioDialog::ScenarioDialog(cl::ScenarioStore& store, const cl::ScenarioSpec& spec, Mode mode,
                               const QString& source, QWidget* parent)
    : QDialog(parent), m_base(spec) {
    setWindowTitle(mode == Mode::Duplicate ? tr("Duplicate \u201c%1\u201d as what-if").arg(source)
                                           : tr("New scenario"));
    std::vector<StoredItem> clusters, traces, profiles;
    readStore(store, clusters, traces, profiles);
    // A plan's candidate clusters are not offered (docs/architecture.md 7.9), but the scenario's
    // own cluster is, so a plan point can be duplicated as it is.
    clusters = PlanFilter::read(&store).pickableClusters(clusters, spec.cluster_id);

    QLabel* intro = createIntro(mode, source);
    createInputPickers(spec, clusters, traces, profiles);
    createPolicyPickers(spec);
    createParameterEditors(spec.parameters);
    createSeedAndNotes(spec);
    QFormLayout* form = settingsForm(spec.parameters);
    createProblemLabel();
    createButtons(mode);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addSpacing(fontMetrics().height() / 2);
    layout->addWidget(m_problemLabel);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(fontMetrics().averageCharWidth() * 90);

    connectValidation();

    validate();
    m_name->selectAll();
    m_name->setFocus();
}

// The inputs offered and the names taken, read once; a failure is shown as the problem.
void ScenarioDialog::readStore(cl::ScenarioStore& store, std::vector<StoredItem>& clusters,
                               std::vector<StoredItem>& traces, std::vector<StoredItem>& profiles) {
    try {
        clusters = store.clusters();
        traces = store.traces();
        profiles = store.profileSets();
        for (const ScenarioInfo& s : store.scenarios()) m_taken.insert(qs(s.spec.name));
    } catch (const std::exception& e) {
        m_readError = qs(e.what());
    }
}

QLabel* ScenarioDialog::createIntro(Mode mode, const QString& source) {
    auto* intro = new QLabel(
        mode == Mode::Duplicate
            ? tr("A copy of \u201c%1\u201d with the settings you change below. The original and its runs "
                 "stay "
                 "as they are; the copy starts without runs.")
                  .arg(source)
            : tr("A scenario names the stored inputs to simulate, the scheduling policy and the settings "
                 "applied to them."),
        this);
    intro->setWordWrap(true);
    return intro;
}

void ScenarioDialog::createInputPickers(const cl::ScenarioSpec& spec, const std::vector<StoredItem>& clusters,
                                        const std::vector<StoredItem>& traces,
                                        const std::vector<StoredItem>& profiles) {
    m_name = new QLineEdit(qs(spec.name), this);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setToolTip(tr("Unique name of the scenario in this workspace"));

    m_cluster = new QComboBox(this);
    m_cluster->setObjectName(QStringLiteral("cluster"));
    m_cluster->setToolTip(tr("The stored cluster layout to simulate"));
    fillItems(m_cluster, clusters, spec.cluster_id,
              [](long long n) { return counted(n, tr("%1 server"), tr("%1 servers")); });

    m_trace = new QComboBox(this);
    m_trace->setObjectName(QStringLiteral("trace"));
    m_trace->setToolTip(tr("The stored job trace to replay"));
    fillItems(m_trace, traces, spec.trace_id,
              [](long long n) { return counted(n, tr("%1 job"), tr("%1 jobs")); });

    m_profiles = new QComboBox(this);
    m_profiles->setObjectName(QStringLiteral("profiles"));
    m_profiles->setToolTip(tr("The stored model profiles (per-stage times of each model)"));
    fillItems(m_profiles, profiles, spec.profiles_id,
              [](long long n) { return counted(n, tr("%1 model"), tr("%1 models")); });
}

void ScenarioDialog::createPolicyPickers(const cl::ScenarioSpec& spec) {
    m_policy = new QComboBox(this);
    m_policy->setObjectName(QStringLiteral("policy"));
    m_policy->setEditable(true);
    m_policy->setInsertPolicy(QComboBox::NoInsert);
    for (const std::string& p : presetNames()) m_policy->addItem(qs(p));
    m_policy->insertSeparator(m_policy->count());
    for (const std::string& p : orderNames()) m_policy->addItem(qs(p));
    m_policy->setEditText(qs(spec.policy));
    m_policy->setToolTip(tr("A preset, or ORDER[+MECHANISM][+PLACEMENT].\n%1").arg(qs(policyHelp())));

    m_conventions = new QComboBox(this);
    m_conventions->setObjectName(QStringLiteral("conventions"));
    for (const std::string& c : Conventions::names()) m_conventions->addItem(qs(c));
    m_conventions->setCurrentText(qs(spec.conventions));
    m_conventions->setToolTip(tr("Simulation conventions: clean, or those of the Muri artifact"));
}

void ScenarioDialog::createParameterEditors(const ScenarioParameters& p) {
    m_load = new QDoubleSpinBox(this);
    m_load->setObjectName(QStringLiteral("loadFactor"));
    m_load->setDecimals(2);
    m_load->setRange(0.01, 1000.0);
    m_load->setSingleStep(0.25);
    m_load->setPrefix(QStringLiteral("\u00d7"));
    m_load->setValue(p.load_factor);
    m_load->setToolTip(tr("Submit times are divided by this: \u00d72 submits the same jobs twice as fast"));

    m_servers = new QSpinBox(this);
    m_servers->setObjectName(QStringLiteral("serverCount"));
    m_servers->setRange(0, 100000);
    m_servers->setSpecialValueText(tr("as stored"));
    m_servers->setValue(p.server_count);
    m_servers->setToolTip(
        tr("0 keeps the stored cluster; otherwise it is resized to this many servers "
           "(extra servers copy its last one)"));

    m_group = new QSpinBox(this);
    m_group->setObjectName(QStringLiteral("maxGroupSize"));
    m_group->setRange(0, 4);
    m_group->setSpecialValueText(tr("policy's own"));
    m_group->setValue(p.max_group_size);
    m_group->setToolTip(
        tr("Muri's cap on jobs interleaved on one GPU group (1..4); 0 keeps the policy's own"));
}

void ScenarioDialog::createSeedAndNotes(const cl::ScenarioSpec& spec) {
    const ScenarioParameters& p = spec.parameters;
    m_seed = new QLineEdit(QString::number(spec.seed), this);
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,19}")), m_seed));
    m_seed->setToolTip(tr("Seed of the model reassignment and the profiling noise (0 to 2^63 - 1)"));

    m_reassign = new QCheckBox(tr("Give every job a model drawn from the profile set"), this);
    m_reassign->setObjectName(QStringLiteral("reassignModels"));
    m_reassign->setChecked(p.reassign_models);
    m_reassign->setToolTip(tr("Replaces the trace's models with ones drawn with the seed above"));

    m_notes = new QPlainTextEdit(qs(spec.notes), this);
    m_notes->setObjectName(QStringLiteral("notes"));
    m_notes->setTabChangesFocus(true);
    m_notes->setFixedHeight(fontMetrics().lineSpacing() * 4 + 2 * m_notes->frameWidth() +
                            int(m_notes->document()->documentMargin() * 2));
    m_notes->setToolTip(tr("Free text kept with the scenario"));
}

QFormLayout* ScenarioDialog::settingsForm(const ScenarioParameters& p) {
    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Cluster:"), m_cluster);
    form->addRow(tr("&Trace:"), m_trace);
    form->addRow(tr("&Profiles:"), m_profiles);
    form->addRow(tr("P&olicy:"), m_policy);
    form->addRow(tr("Con&ventions:"), m_conventions);
    form->addRow(tr("&Load factor:"), m_load);
    form->addRow(tr("&Servers:"), m_servers);
    form->addRow(tr("Max &group size:"), m_group);
    form->addRow(tr("S&eed:"), m_seed);
    form->addRow(QString(), m_reassign);
    if (!p.transforms.empty()) {
        QStringList transforms;
        for (const auto& t : p.transforms) transforms << qs(t);
        auto* kept = new QLabel(transforms.join(QLatin1Char(' ')), this);
        kept->setToolTip(
            tr("Trace transforms of the scenario, applied before the load factor; kept as they are"));
        form->addRow(tr("Transforms:"), kept);
    }
    form->addRow(tr("No&tes:"), m_notes);
    return form;
}

void ScenarioDialog::createProblemLabel() {
    m_problemLabel = new QLabel(this);
    m_problemLabel->setObjectName(QStringLiteral("problem"));
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette warn = m_problemLabel->palette();
    warn.setColor(QPalette::WindowText, QColor(0xb0, 0x2a, 0x2a));
    m_problemLabel->setPalette(warn);
}

void ScenarioDialog::createButtons(Mode mode) {
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)
        ->setText(mode == Mode::Duplicate ? tr("Create &copy") : tr("C&reate"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void ScenarioDialog::connectValidation() {
    connect(m_name, &QLineEdit::textChanged, this, &ScenarioDialog::validate);
    connect(m_seed, &QLineEdit::textChanged, this, &ScenarioDialog::validate);
    connect(m_policy, &QComboBox::editTextChanged, this, &ScenarioDialog::validate);
    for (QComboBox* c : {m_cluster, m_trace, m_profiles, m_conventions})
        connect(c, &QComboBox::currentIndexChanged, this, &ScenarioDialog::validate);
    connect(m_group, &QSpinBox::valueChanged, this, &ScenarioDialog::validate);
    connect(m_load, &QDoubleSpinBox::valueChanged, this, &ScenarioDialog::validate);
}

cl::ScenarioSpec ScenarioDialog::spec() const {
    cl::ScenarioSpec s = m_base;
    s.name = m_name->text().trimmed().toStdString();
    s.cluster_id = selectedId(m_cluster);
    s.trace_id = selectedId(m_trace);
    s.profiles_id = selectedId(m_profiles);
    s.policy = m_policy->currentText().trimmed().toStdString();
    s.conventions = m_conventions->currentText().toStdString();
    s.parameters.load_factor = m_load->value();
    s.parameters.server_count = m_servers->value();
    s.parameters.max_group_size = m_group->value();
    s.parameters.reassign_models = m_reassign->isChecked();
    s.seed = m_seed->text().toULongLong();
    s.notes = m_notes->toPlainText().toStdString();
    return s;
}

QString ScenarioDialog::findProblem() const {
    if (!m_readError.isEmpty()) return tr("Cannot read the workspace: %1").arg(m_readError);
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) return tr("Name: a scenario needs a name.");
    if (m_taken.contains(name)) return tr("Name: a scenario named \u201c%1\u201d already exists.").arg(name);
    if (m_cluster->count() == 0) return tr("Cluster: the workspace holds no cluster yet; store one first.");
    if (m_trace->count() == 0) return tr("Trace: the workspace holds no trace yet; import one first.");
    if (m_profiles->count() == 0)
        return tr("Profiles: the workspace holds no profile set yet; store one first.");
    if (!(m_load->value() > 0)) return tr("Load factor: must be above 0.");
    bool seed_ok = false;
    const qulonglong seed = m_seed->text().toULongLong(&seed_ok);
    if (!seed_ok || seed > qulonglong(std::numeric_limits<std::int64_t>::max()))
        return tr("Seed: a whole number from 0 to 2^63 - 1.");
    const std::string policy = m_policy->currentText().trimmed().toStdString();
    if (policy.empty()) return tr("Policy: name a preset or ORDER[+MECHANISM][+PLACEMENT].");
    SchedulerTuning tuning;
    tuning.max_group_size = m_group->value();
    tuning.seed = seed;
    const std::string problem =
        policyProblem(policy, Conventions::byName(m_conventions->currentText().toStdString()), tuning);
    if (!problem.empty()) return tr("Policy: %1").arg(qs(problem));
    return {};
}

void ScenarioDialog::validate() {
    m_problem = findProblem();
    m_problemLabel->setText(m_problem);
    m_problemLabel->setVisible(!m_problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(m_problem);
}

}  // namespace cl::views
