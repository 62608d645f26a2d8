#include "views/trace/trace_generator_dialog.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "core/workload/model_mix.h"
#include "views/common/format.h"
#include "views/trace/trace_histograms.h"

namespace cl::views {

namespace {

constexpr int kPreviewDelayMs = 200;
constexpr int kMaxJobs = 1'000'000;

enum ModelSource { UniformModels = 0, ModelMixSource = 1, TaskSplitSource = 2 };

QString philyWeightsText() {
    QStringList parts;
    for (const auto& [gpus, weight] : cl::phillyGpuCountWeights())
        parts << QStringLiteral("%1:%2").arg(gpus).arg(weight);
    return parts.join(QLatin1Char(','));
}

}  // namespace

TraceGeneratorDialog::TraceGeneratorDialog(const cl::ProfileSet* profiles, QWidget* parent)
    : QDialog(parent), m_profiles(profiles) {
    setWindowTitle(tr("Generate Trace"));

    m_jobs = new QSpinBox(this);
    m_jobs->setObjectName(QStringLiteral("jobs"));
    m_jobs->setRange(1, kMaxJobs);
    m_jobs->setGroupSeparatorShown(true);
    m_jobs->setToolTip(tr("Number of jobs to generate (ids 0, 1, 2, ...)"));
    m_seed = new QSpinBox(this);
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("Random seed: the same seed and settings give the same trace on every machine"));
    m_arrival = new QComboBox(this);
    m_arrival->setObjectName(QStringLiteral("arrival"));
    m_arrival->addItem(tr("Poisson"), static_cast<int>(cl::ArrivalProcess::Poisson));
    m_arrival->addItem(tr("All at time zero"), static_cast<int>(cl::ArrivalProcess::AllAtZero));
    m_arrival->setToolTip(tr("Poisson: exponential gaps at the given rate; all at zero: a batch workload"));
    m_rate = new QDoubleSpinBox(this);
    m_rate->setObjectName(QStringLiteral("jobsPerHour"));
    m_rate->setRange(0.0, 1e6);
    m_rate->setDecimals(2);
    m_rate->setSuffix(tr(" jobs/h"));
    m_rate->setToolTip(tr("Mean arrival rate of the Poisson process (> 0)"));
    m_duration = new QComboBox(this);
    m_duration->setObjectName(QStringLiteral("durationModel"));
    m_duration->addItem(tr("Philly lognormal (median 19 min, heavy tail)"),
                        static_cast<int>(cl::DurationModel::PhillyLognormal));
    m_duration->addItem(tr("Synergy log-uniform (32 min to 6.9 days)"),
                        static_cast<int>(cl::DurationModel::SynergyLogUniform));
    m_duration->setToolTip(tr("Distribution of solo run times"));
    m_gpuWeights = new QLineEdit(this);
    m_gpuWeights->setObjectName(QStringLiteral("gpuWeights"));
    m_gpuWeights->setPlaceholderText(tr("empty = Philly counts"));
    m_gpuWeights->setToolTip(
        tr("GPU count:weight pairs, e.g. 1:0.7,2:0.1,4:0.2; empty uses the Philly trace's "
           "counts (%1)")
            .arg(philyWeightsText()));
    m_gpuWeights->setClearButtonEnabled(true);
    m_maxGpus = new QSpinBox(this);
    m_maxGpus->setObjectName(QStringLiteral("maxGpus"));
    m_maxGpus->setRange(0, 1 << 16);
    m_maxGpus->setSpecialValueText(tr("no cap"));
    m_maxGpus->setToolTip(tr("GPU counts above this are removed from the weights (not clamped)"));
    m_modelSource = new QComboBox(this);
    m_modelSource->setObjectName(QStringLiteral("modelSource"));
    m_modelSource->addItem(tr("Equal weights over the profiled models"));
    m_modelSource->addItem(tr("Model mix"));
    m_modelSource->addItem(tr("Task split"));
    m_modelSource->setToolTip(tr("How each job's model is drawn"));
    m_models = new QLineEdit(this);
    m_models->setObjectName(QStringLiteral("modelMix"));
    m_models->setPlaceholderText(QStringLiteral("resnet18:2,bert:1"));
    m_models->setToolTip(tr("Model weights, comma-separated model:weight (a missing weight means 1)"));
    m_tasks = new QLineEdit(this);
    m_tasks->setObjectName(QStringLiteral("taskSplit"));
    m_tasks->setPlaceholderText(QStringLiteral("image:20,language:70,rl:10"));
    m_tasks->setToolTip(
        tr("Task weights; each task's weight is shared equally by the catalog's models for it"));
    m_catalog = new QComboBox(this);
    m_catalog->setObjectName(QStringLiteral("taskCatalog"));
    for (const std::string& name : cl::taskCatalogNames()) m_catalog->addItem(QString::fromStdString(name));
    m_catalog->setToolTip(tr("Which models stand for which task"));
    m_taskShare = new QCheckBox(tr("Assign by &share, as the Synergy artifact"), this);
    m_taskShare->setObjectName(QStringLiteral("taskShare"));
    m_taskShare->setToolTip(
        tr("Instead of drawing each job's task by its weight, give it the task furthest below "
           "its share so far and that task's next model in turn (no randomness): how the "
           "Synergy authors' simulator assigns models"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(QStringLiteral("generated"));
    m_name->setToolTip(tr("Name of the trace in the workspace"));

    auto* arrivals = new QGroupBox(tr("Jobs and arrivals"), this);
    auto* fa = new QFormLayout(arrivals);
    fa->addRow(tr("&Jobs:"), m_jobs);
    fa->addRow(tr("&Seed:"), m_seed);
    fa->addRow(tr("&Arrivals:"), m_arrival);
    fa->addRow(tr("&Rate:"), m_rate);
    fa->addRow(tr("&Name:"), m_name);
    auto* shape = new QGroupBox(tr("Durations and GPUs"), this);
    auto* fs = new QFormLayout(shape);
    fs->addRow(tr("&Durations:"), m_duration);
    fs->addRow(tr("&GPU weights:"), m_gpuWeights);
    fs->addRow(tr("Ma&x GPUs:"), m_maxGpus);
    auto* models = new QGroupBox(tr("Models"), this);
    auto* fm_ = new QFormLayout(models);
    fm_->addRow(tr("&Models:"), m_modelSource);
    fm_->addRow(tr("M&ix:"), m_models);
    fm_->addRow(tr("&Task split:"), m_tasks);
    fm_->addRow(tr("&Catalog:"), m_catalog);
    fm_->addRow(QString(), m_taskShare);
    auto* top = new QHBoxLayout;
    top->addWidget(arrivals, 1);
    top->addWidget(shape, 1);
    top->addWidget(models, 1);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_histograms = new TraceHistograms(this);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Generate"));
    m_ok->setToolTip(tr("Use the generated trace"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_histograms, 1);
    layout->addWidget(buttons);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kPreviewDelayMs);
    connect(m_debounce, &QTimer::timeout, this, &TraceGeneratorDialog::refreshPreview);
    const auto changed = [this] { scheduleRefresh(); };
    connect(m_jobs, &QSpinBox::valueChanged, this, changed);
    connect(m_seed, &QSpinBox::valueChanged, this, changed);
    connect(m_arrival, &QComboBox::currentIndexChanged, this, changed);
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_duration, &QComboBox::currentIndexChanged, this, changed);
    connect(m_gpuWeights, &QLineEdit::textChanged, this, changed);
    connect(m_maxGpus, &QSpinBox::valueChanged, this, changed);
    connect(m_modelSource, &QComboBox::currentIndexChanged, this, changed);
    connect(m_models, &QLineEdit::textChanged, this, changed);
    connect(m_tasks, &QLineEdit::textChanged, this, changed);
    connect(m_catalog, &QComboBox::currentIndexChanged, this, changed);
    connect(m_taskShare, &QCheckBox::toggled, this, changed);
    connect(m_name, &QLineEdit::textChanged, this, changed);

    const QFontMetrics fm(font());
    resize(fm.averageCharWidth() * 160, fm.height() * 40);
    cl::GeneratorConfig defaults;
    defaults.tasks = cl::parseTaskSplit("image:20,language:70,rl:10");
    setConfig(defaults);
    m_modelSource->setCurrentIndex(UniformModels);
    refreshPreview();
}

void TraceGeneratorDialog::setConfig(const cl::GeneratorConfig& c) {
    m_loading = true;
    m_jobs->setValue(std::clamp(c.jobs, 1, kMaxJobs));
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(c.seed, std::numeric_limits<int>::max())));
    m_arrival->setCurrentIndex(m_arrival->findData(static_cast<int>(c.arrival)));
    m_rate->setValue(c.jobs_per_hour);
    m_duration->setCurrentIndex(m_duration->findData(static_cast<int>(c.duration)));
    QStringList weights;
    for (const auto& [gpus, w] : c.gpu_weights) weights << QStringLiteral("%1:%2").arg(gpus).arg(w);
    m_gpuWeights->setText(weights.join(QLatin1Char(',')));
    m_maxGpus->setValue(c.max_gpus);
    m_models->setText(QString::fromStdString(c.models.toString()));
    m_tasks->setText(QString::fromStdString(c.tasks.toString()));
    m_catalog->setCurrentText(QString::fromStdString(c.task_catalog));
    m_taskShare->setChecked(c.model_rule == cl::ModelRule::TaskShare);
    m_modelSource->setCurrentIndex(!c.models.empty() ? ModelMixSource
                                                     : (!c.tasks.empty() ? TaskSplitSource : UniformModels));
    m_name->setText(QString::fromStdString(c.name));
    m_loading = false;
    scheduleRefresh();
}

cl::GeneratorConfig TraceGeneratorDialog::parsedConfig() const {
    cl::GeneratorConfig c;
    c.jobs = m_jobs->value();
    c.seed = static_cast<std::uint64_t>(m_seed->value());
    c.arrival = static_cast<cl::ArrivalProcess>(m_arrival->currentData().toInt());
    c.jobs_per_hour = m_rate->value();
    c.duration = static_cast<cl::DurationModel>(m_duration->currentData().toInt());
    const auto field = [](const QString& name, auto parse) {
        try {
            return parse();
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(tr("%1: %2").arg(name, QString::fromUtf8(e.what())).toStdString());
        }
    };
    const std::string weights = m_gpuWeights->text().trimmed().toStdString();
    if (!weights.empty())
        c.gpu_weights = field(tr("GPU weights"), [&] { return cl::parseGpuWeights(weights); });
    c.max_gpus = m_maxGpus->value();
    if (m_modelSource->currentIndex() == ModelMixSource)
        c.models = field(tr("Model mix"),
                         [&] { return cl::parseModelMix(m_models->text().trimmed().toStdString()); });
    if (m_modelSource->currentIndex() == TaskSplitSource)
        c.tasks = field(tr("Task split"),
                        [&] { return cl::parseTaskSplit(m_tasks->text().trimmed().toStdString()); });
    c.task_catalog = m_catalog->currentText().toStdString();
    if (m_modelSource->currentIndex() == TaskSplitSource && m_taskShare->isChecked())
        c.model_rule = cl::ModelRule::TaskShare;
    c.name = m_name->text().trimmed().toStdString();
    return c;
}

cl::GeneratorConfig TraceGeneratorDialog::config() const {
    try {
        return parsedConfig();
    } catch (const std::invalid_argument&) {
        // Fall back field by field: keep what parses.
        cl::GeneratorConfig c;
        c.jobs = m_jobs->value();
        c.seed = static_cast<std::uint64_t>(m_seed->value());
        c.arrival = static_cast<cl::ArrivalProcess>(m_arrival->currentData().toInt());
        c.jobs_per_hour = m_rate->value();
        c.duration = static_cast<cl::DurationModel>(m_duration->currentData().toInt());
        c.max_gpus = m_maxGpus->value();
        c.task_catalog = m_catalog->currentText().toStdString();
        c.name = m_name->text().trimmed().toStdString();
        return c;
    }
}

std::shared_ptr<cl::Trace> TraceGeneratorDialog::trace() const {
    if (m_debounce->isActive()) const_cast<TraceGeneratorDialog*>(this)->refreshPreview();
    return m_trace;
}

void TraceGeneratorDialog::scheduleRefresh() {
    if (m_loading) return;
    const bool poisson = m_arrival->currentData().toInt() == static_cast<int>(cl::ArrivalProcess::Poisson);
    m_rate->setEnabled(poisson);
    m_models->setEnabled(m_modelSource->currentIndex() == ModelMixSource);
    m_tasks->setEnabled(m_modelSource->currentIndex() == TaskSplitSource);
    m_catalog->setEnabled(m_modelSource->currentIndex() == TaskSplitSource);
    m_taskShare->setEnabled(m_modelSource->currentIndex() == TaskSplitSource);
    m_ok->setEnabled(false);  // until the preview confirms the new settings
    m_debounce->start();
}

void TraceGeneratorDialog::refreshPreview() {
    m_debounce->stop();
    m_error.clear();
    m_trace.reset();
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        m_trace = std::make_shared<cl::Trace>(cl::generate(parsedConfig(), m_profiles));
        QApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        m_error = QString::fromUtf8(e.what());
    }
    if (!m_error.isEmpty()) {
        m_status->setText(
            QStringLiteral("<span style='color:#c62828'><b>%1</b></span>").arg(m_error.toHtmlEscaped()));
        m_histograms->clear(tr("No preview: fix the settings"));
        m_ok->setEnabled(false);
        return;
    }
    const QLocale locale;
    const cl::Trace& t = *m_trace;
    std::vector<double> durations;
    durations.reserve(t.jobs.size());
    for (const cl::Job& j : t.jobs) durations.push_back(j.duration);
    std::sort(durations.begin(), durations.end());
    const double median = durations.empty() ? 0.0 : durations[durations.size() / 2];
    m_status->setText(tr("<b>%1 jobs</b> requesting %2 GPUs, submitted over %3; median duration %4.")
                          .arg(locale.toString(static_cast<qlonglong>(t.jobs.size())),
                               locale.toString(t.totalGpuDemand()),
                               formatDuration(t.jobs.empty() ? 0.0 : t.lastSubmit() - t.firstSubmit()),
                               formatDuration(median)));
    m_status->setToolTip(t.provenance.empty() ? QString() : QString::fromStdString(t.provenance.back()));
    m_histograms->setTrace(t, m_profiles);
    m_ok->setEnabled(true);
}

}  // namespace cl::views
