#include "views/trace/trace_transform_dialog.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/workload/model_mix.h"
#include "core/workload/trace_transforms.h"
#include "views/common/format.h"
#include "views/trace/trace_histograms.h"

namespace cl::views {

namespace {

using Kind = TraceTransformDialog::Kind;
constexpr Kind kKinds[] = {Kind::Scale,  Kind::AllAtZero, Kind::Window, Kind::Subsample,
                           Kind::Models, Kind::Tasks,     Kind::CapGpus};
constexpr int kPreviewDelayMs = 150;
constexpr int kMaxSeed = std::numeric_limits<int>::max();

std::string number(double v) {
    return QString::number(v, 'g', 15).toStdString();
}

std::vector<std::string> muriTasks() {
    return cl::muriTaskCatalog().taskNames();
}

// The core's messages end with the list of every valid spec; the dialog shows its own form.
QString shortMessage(const std::string& what) {
    QString m = QString::fromStdString(what);
    const int cut = m.indexOf(QStringLiteral("; valid transforms:"));
    return cut >= 0 ? m.left(cut) : m;
}

bool parseDouble(const std::string& text, double& out) {
    if (text == "inf") {
        out = std::numeric_limits<double>::infinity();
        return true;
    }
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
}

bool parseUInt(const std::string& text, std::uint64_t& out) {
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
}

QSpinBox* seedBox(QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, kMaxSeed);
    box->setToolTip(TraceTransformDialog::tr("Random seed: the same seed gives the same draw"));
    return box;
}

}  // namespace

QString TraceTransformDialog::kindName(Kind kind) {
    switch (kind) {
        case Kind::Scale:
            return tr("Scale load");
        case Kind::AllAtZero:
            return tr("All at time zero");
        case Kind::Window:
            return tr("Time window");
        case Kind::Subsample:
            return tr("Subsample jobs");
        case Kind::Models:
            return tr("Reassign models");
        case Kind::Tasks:
            return tr("Reassign by task split");
        case Kind::CapGpus:
            return tr("Cap GPUs per job");
    }
    return {};
}

std::string TraceTransformDialog::specOf(const Step& s) {
    switch (s.kind) {
        case Kind::Scale:
            return "scale=" + number(s.factor);
        case Kind::AllAtZero:
            return "all-at-zero";
        case Kind::Window:
            return "window=" + number(s.from_hours * 3600.0) + ":" +
                   (s.open_end ? "inf" : number(s.to_hours * 3600.0));
        case Kind::Subsample:
            return "subsample=" + std::to_string(s.count) + ":" + std::to_string(s.seed);
        case Kind::Models:
            return "models=" + s.mix.trimmed().toStdString() + "@" + std::to_string(s.seed);
        case Kind::Tasks: {
            std::string split;
            const auto tasks = muriTasks();
            for (std::size_t i = 0; i < tasks.size() && i < static_cast<std::size_t>(s.task_weights.size());
                 ++i)
                split += (i ? "," : "") + tasks[i] + ":" + number(s.task_weights[static_cast<int>(i)]);
            return "tasks=" + split + "@" + std::to_string(s.seed);
        }
        case Kind::CapGpus:
            return "cap-gpus=" + std::to_string(s.cap);
    }
    return {};
}

TraceTransformDialog::TraceTransformDialog(std::shared_ptr<const cl::Trace> base, QWidget* parent)
    : QDialog(parent), m_base(std::move(base)) {
    setWindowTitle(tr("Transform Trace"));
    if (!m_base) m_base = std::make_shared<const cl::Trace>();

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("steps"));
    m_list->setToolTip(tr("Transforms, applied from top to bottom"));
    m_add = new QToolButton(this);
    m_add->setText(tr("&Add Step"));
    m_add->setToolTip(tr("Append a transform (Ctrl+N)"));
    m_add->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_add);
    for (Kind k : kKinds) menu->addAction(kindName(k), this, [this, k] { addStep(k); });
    m_add->setMenu(menu);
    auto* add_shortcut = new QAction(this);
    add_shortcut->setShortcut(QKeySequence::New);
    connect(add_shortcut, &QAction::triggered, m_add, &QToolButton::showMenu);
    addAction(add_shortcut);
    m_remove = new QToolButton(this);
    m_remove->setText(tr("Remove"));
    m_remove->setToolTip(tr("Remove the selected step (Delete)"));
    m_remove->setShortcut(QKeySequence::Delete);
    m_up = new QToolButton(this);
    m_up->setArrowType(Qt::UpArrow);
    m_up->setToolTip(tr("Move the selected step up (Ctrl+Up)"));
    m_up->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Up));
    m_down = new QToolButton(this);
    m_down->setArrowType(Qt::DownArrow);
    m_down->setToolTip(tr("Move the selected step down (Ctrl+Down)"));
    m_down->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Down));
    connect(m_remove, &QToolButton::clicked, this, [this] { removeStep(current()); });
    connect(m_up, &QToolButton::clicked, this, [this] { moveStep(current(), current() - 1); });
    connect(m_down, &QToolButton::clicked, this, [this] { moveStep(current(), current() + 1); });

    auto* list_buttons = new QHBoxLayout;
    list_buttons->addWidget(m_add);
    list_buttons->addWidget(m_remove);
    list_buttons->addStretch(1);
    list_buttons->addWidget(m_up);
    list_buttons->addWidget(m_down);
    auto* list_box = new QGroupBox(tr("Steps"), this);
    auto* list_layout = new QVBoxLayout(list_box);
    list_layout->addWidget(m_list, 1);
    list_layout->addLayout(list_buttons);

    auto* editor_box = new QGroupBox(tr("Parameters of the selected step"), this);
    auto* editor_layout = new QVBoxLayout(editor_box);
    editor_layout->addWidget(buildEditors());
    editor_layout->addStretch(1);

    m_specLine = new QLineEdit(this);
    m_specLine->setObjectName(QStringLiteral("specs"));
    m_specLine->setReadOnly(true);
    m_specLine->setToolTip(tr("The same transforms as command-line specs (clusterloom --transform)"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_histograms = new TraceHistograms(this);

    auto* top = new QHBoxLayout;
    top->addWidget(list_box, 2);
    top->addWidget(editor_box, 3);
    auto* spec_row = new QFormLayout;
    spec_row->addRow(tr("Specs:"), m_specLine);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setToolTip(tr("Use the transformed trace"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(spec_row);
    layout->addWidget(m_status);
    layout->addWidget(m_histograms, 1);
    layout->addWidget(buttons);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kPreviewDelayMs);
    connect(m_debounce, &QTimer::timeout, this, &TraceTransformDialog::refreshPreview);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] { loadEditors(); });

    const QFontMetrics fm(font());
    resize(fm.averageCharWidth() * 150, fm.height() * 42);
    loadEditors();
    refreshPreview();
}

QWidget* TraceTransformDialog::buildEditors() {
    m_editors = new QStackedWidget(this);
    const auto changed = [this] {
        if (!m_loading) storeEditors();
    };
    const auto page = [this](const QString& help) {
        auto* w = new QWidget(m_editors);
        auto* form = new QFormLayout(w);
        form->setContentsMargins(0, 0, 0, 0);
        form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
        auto* label = new QLabel(help, w);
        label->setWordWrap(true);
        form->addRow(label);
        m_editors->addWidget(w);
        return form;
    };

    // Scale
    QFormLayout* f = page(tr("Divides every submit time by the factor: 2 doubles the arrival rate."));
    m_factor = new QDoubleSpinBox(this);
    m_factor->setObjectName(QStringLiteral("scaleFactor"));
    m_factor->setRange(0.0, 1e6);
    m_factor->setDecimals(3);
    m_factor->setSingleStep(0.5);
    m_factor->setToolTip(tr("Load factor (> 0)"));
    m_factor->setMinimumWidth(m_factor->fontMetrics().averageCharWidth() * 16);
    connect(m_factor, &QDoubleSpinBox::valueChanged, this, changed);
    f->addRow(tr("&Factor:"), m_factor);

    // All at zero
    page(tr("Every job is submitted at time 0 (a batch workload). No parameters."));

    // Window
    f = page(tr("Keeps the jobs submitted in [from, to) and shifts them to start at 0."));
    m_from = new QDoubleSpinBox(this);
    m_from->setObjectName(QStringLiteral("windowFrom"));
    m_to = new QDoubleSpinBox(this);
    m_to->setObjectName(QStringLiteral("windowTo"));
    for (QDoubleSpinBox* box : {m_from, m_to}) {
        box->setRange(0.0, 1e7);
        box->setDecimals(3);
        box->setSuffix(tr(" h"));
        connect(box, &QDoubleSpinBox::valueChanged, this, changed);
    }
    m_from->setToolTip(tr("Window start, hours after the trace start (included)"));
    m_to->setToolTip(tr("Window end, hours after the trace start (excluded); must be after the start"));
    m_openEnd = new QCheckBox(tr("to the &end of the trace"), this);
    m_openEnd->setObjectName(QStringLiteral("windowOpenEnd"));
    m_openEnd->setToolTip(tr("No end: keep every job from the start on"));
    connect(m_openEnd, &QCheckBox::toggled, this, changed);
    f->addRow(tr("&From:"), m_from);
    f->addRow(tr("&To:"), m_to);
    f->addRow(QString(), m_openEnd);

    // Subsample
    f = page(tr("Keeps this many jobs chosen at random; their order is kept."));
    m_count = new QSpinBox(this);
    m_count->setObjectName(QStringLiteral("subsampleCount"));
    m_count->setRange(0, std::numeric_limits<int>::max());
    m_count->setToolTip(tr("Jobs to keep (1 to the jobs the step receives)"));
    m_count->setGroupSeparatorShown(true);
    m_sampleSeed = seedBox(this);
    connect(m_count, &QSpinBox::valueChanged, this, changed);
    connect(m_sampleSeed, &QSpinBox::valueChanged, this, changed);
    f->addRow(tr("&Jobs:"), m_count);
    f->addRow(tr("&Seed:"), m_sampleSeed);

    // Models
    f = page(tr("Draws every job's model from the mix (model:weight, comma-separated)."));
    m_mix = new QLineEdit(this);
    m_mix->setObjectName(QStringLiteral("modelMix"));
    m_mix->setPlaceholderText(QStringLiteral("resnet18:2,bert:1"));
    m_mix->setMinimumWidth(m_mix->fontMetrics().averageCharWidth() * 60);
    m_mix->setToolTip(tr("Model weights, e.g. resnet18:2,bert:1 (a missing weight means 1)"));
    m_mixSeed = seedBox(this);
    connect(m_mix, &QLineEdit::textEdited, this, changed);
    connect(m_mixSeed, &QSpinBox::valueChanged, this, changed);
    f->addRow(tr("&Mix:"), m_mix);
    f->addRow(tr("S&eed:"), m_mixSeed);

    // Tasks
    f =
        page(tr("Draws every job's model from a task split over the Muri models; "
                "each task's weight is shared equally by its models."));
    for (const std::string& task : muriTasks()) {
        auto* box = new QDoubleSpinBox(this);
        box->setObjectName(QStringLiteral("task_") + QString::fromStdString(task));
        box->setRange(0.0, 1e6);
        box->setDecimals(1);
        const auto* models = cl::muriTaskCatalog().modelsOf(task);
        QStringList names;
        if (models)
            for (const std::string& m : *models) names << QString::fromStdString(m);
        box->setToolTip(tr("Weight of the %1 task (%2)")
                            .arg(QString::fromStdString(task), names.join(QStringLiteral(", "))));
        connect(box, &QDoubleSpinBox::valueChanged, this, changed);
        m_taskWeights.push_back(box);
        f->addRow(QString::fromStdString(task) + QLatin1Char(':'), box);
    }
    m_taskSeed = seedBox(this);
    connect(m_taskSeed, &QSpinBox::valueChanged, this, changed);
    f->addRow(tr("See&d:"), m_taskSeed);

    // Cap GPUs
    f = page(tr("Jobs that request more GPUs than the cap request the cap."));
    m_cap = new QSpinBox(this);
    m_cap->setObjectName(QStringLiteral("gpuCap"));
    m_cap->setRange(0, 1 << 20);
    m_cap->setToolTip(tr("Most GPUs a job may request (>= 1)"));
    connect(m_cap, &QSpinBox::valueChanged, this, changed);
    f->addRow(tr("&Cap:"), m_cap);

    // Shown while no step is selected.
    page(
        tr("Add a step to transform the trace; the preview below compares the base trace (grey) "
           "with the result."));
    return m_editors;
}

int TraceTransformDialog::current() const {
    return m_list->currentRow();
}

void TraceTransformDialog::loadEditors() {
    const int i = current();
    m_remove->setEnabled(i >= 0);
    m_up->setEnabled(i > 0);
    m_down->setEnabled(i >= 0 && i + 1 < m_steps.size());
    if (i < 0 || i >= m_steps.size()) {
        m_editors->setCurrentIndex(m_editors->count() - 1);
        return;
    }
    m_loading = true;
    const Step& s = m_steps[i];
    m_editors->setCurrentIndex(static_cast<int>(s.kind));
    m_factor->setValue(s.factor);
    m_from->setValue(s.from_hours);
    m_to->setValue(s.to_hours);
    m_openEnd->setChecked(s.open_end);
    m_to->setEnabled(!s.open_end);
    m_count->setValue(s.count);
    const int seed = static_cast<int>(std::min<std::uint64_t>(s.seed, kMaxSeed));
    for (QSpinBox* box : {m_sampleSeed, m_mixSeed, m_taskSeed}) box->setValue(seed);
    m_mix->setText(s.mix);
    for (int t = 0; t < m_taskWeights.size(); ++t)
        m_taskWeights[t]->setValue(t < s.task_weights.size() ? s.task_weights[t] : 0.0);
    m_cap->setValue(s.cap);
    m_loading = false;
}

void TraceTransformDialog::storeEditors() {
    const int i = current();
    if (i < 0 || i >= m_steps.size()) return;
    Step& s = m_steps[i];
    s.factor = m_factor->value();
    s.from_hours = m_from->value();
    s.to_hours = m_to->value();
    s.open_end = m_openEnd->isChecked();
    m_to->setEnabled(!s.open_end);
    s.count = m_count->value();
    if (s.kind == Kind::Subsample) s.seed = static_cast<std::uint64_t>(m_sampleSeed->value());
    if (s.kind == Kind::Models) s.seed = static_cast<std::uint64_t>(m_mixSeed->value());
    if (s.kind == Kind::Tasks) s.seed = static_cast<std::uint64_t>(m_taskSeed->value());
    s.mix = m_mix->text();
    s.task_weights.clear();
    for (QDoubleSpinBox* box : m_taskWeights) s.task_weights.push_back(box->value());
    s.cap = m_cap->value();
    stepsChanged();
}

void TraceTransformDialog::addStep(Kind kind) {
    Step s;
    s.kind = kind;
    const cl::Trace& base = *m_base;
    const double last_h = base.jobs.empty() ? 24.0 : base.lastSubmit() / 3600.0;
    s.to_hours = std::max(0.001, std::round(last_h / 2.0 * 1000.0) / 1000.0);
    s.count = std::max(1, static_cast<int>(base.jobs.size() / 2));
    int max_gpus = 1;
    for (const cl::Job& j : base.jobs) max_gpus = std::max(max_gpus, j.gpus);
    s.cap = std::max(1, max_gpus / 2);
    QStringList models;
    for (const std::string& m : cl::muriTaskCatalog().allModels()) models << QString::fromStdString(m);
    s.mix = models.join(QLatin1Char(','));
    // Muri's evaluation split (image, language, rl) as a starting point.
    const double defaults[] = {20.0, 70.0, 10.0};
    const auto tasks = muriTasks();
    for (std::size_t t = 0; t < tasks.size(); ++t) s.task_weights.push_back(t < 3 ? defaults[t] : 10.0);
    m_steps.push_back(s);
    m_list->addItem(QString());
    m_list->setCurrentRow(static_cast<int>(m_steps.size()) - 1);
    stepsChanged();
}

bool TraceTransformDialog::addStepFromSpec(const QString& text) {
    const std::string spec = text.trimmed().toStdString();
    const auto eq = spec.find('=');
    const std::string name = spec.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
    Step s;
    const auto seedAfter = [&](const std::string& body, char sep, std::string& head) {
        const auto at = body.rfind(sep);
        head = body.substr(0, at);
        if (at == std::string::npos) return true;
        return parseUInt(body.substr(at + 1), s.seed);
    };
    std::string head;
    bool ok = false;
    if (name == "scale") {
        s.kind = Kind::Scale;
        ok = parseDouble(value, s.factor);
    } else if (name == "all-at-zero") {
        s.kind = Kind::AllAtZero;
        ok = value.empty();
    } else if (name == "window") {
        s.kind = Kind::Window;
        const auto colon = value.find(':');
        double t0 = 0.0, t1 = 0.0;
        ok = colon != std::string::npos && parseDouble(value.substr(0, colon), t0) &&
             parseDouble(value.substr(colon + 1), t1);
        s.from_hours = t0 / 3600.0;
        s.open_end = std::isinf(t1);
        s.to_hours = s.open_end ? s.from_hours + 1.0 : t1 / 3600.0;
    } else if (name == "subsample") {
        s.kind = Kind::Subsample;
        std::uint64_t n = 0;
        ok = seedAfter(value, ':', head) && parseUInt(head, n) && n <= static_cast<std::uint64_t>(kMaxSeed);
        s.count = static_cast<int>(n);
    } else if (name == "models") {
        s.kind = Kind::Models;
        ok = seedAfter(value, '@', head) && !head.empty();
        s.mix = QString::fromStdString(head);
    } else if (name == "tasks") {
        s.kind = Kind::Tasks;
        ok = seedAfter(value, '@', head);
        if (ok) {
            try {
                const cl::TaskSplit split = cl::parseTaskSplit(head);
                for (const std::string& task : muriTasks()) {
                    double w = 0.0;
                    for (const auto& [name_, weight] : split.entries)
                        if (name_ == task) w = weight;
                    s.task_weights.push_back(w);
                }
                for (const auto& [name_, weight] : split.entries)
                    if (!cl::muriTaskCatalog().modelsOf(name_)) ok = false;
            } catch (const std::invalid_argument&) {
                ok = false;
            }
        }
    } else if (name == "cap-gpus") {
        s.kind = Kind::CapGpus;
        std::uint64_t c = 0;
        ok = parseUInt(value, c) && c <= (1u << 20);
        s.cap = static_cast<int>(c);
    }
    if (!ok || s.seed > static_cast<std::uint64_t>(kMaxSeed)) return false;
    addStep(s.kind);
    setStep(static_cast<int>(m_steps.size()) - 1, s);
    return true;
}

void TraceTransformDialog::setStep(int index, const Step& step) {
    if (index < 0 || index >= m_steps.size()) return;
    Step s = step;
    if (s.task_weights.isEmpty()) s.task_weights = m_steps[index].task_weights;
    m_steps[index] = s;
    if (index == current()) loadEditors();
    stepsChanged();
}

void TraceTransformDialog::removeStep(int index) {
    if (index < 0 || index >= m_steps.size()) return;
    m_steps.remove(index);
    delete m_list->takeItem(index);
    loadEditors();
    stepsChanged();
}

void TraceTransformDialog::moveStep(int from, int to) {
    if (from < 0 || from >= m_steps.size() || to < 0 || to >= m_steps.size() || from == to) return;
    m_steps.move(from, to);
    m_list->insertItem(to, m_list->takeItem(from));
    m_list->setCurrentRow(to);
    stepsChanged();
}

std::shared_ptr<cl::Trace> TraceTransformDialog::result() const {
    // The preview is a cache of the steps; a pending edit makes it stale.
    if (m_debounce->isActive()) const_cast<TraceTransformDialog*>(this)->refreshPreview();
    return m_result;
}

std::vector<std::string> TraceTransformDialog::specs() const {
    std::vector<std::string> out;
    for (const Step& s : m_steps) out.push_back(specOf(s));
    return out;
}

void TraceTransformDialog::stepsChanged() {
    QStringList all;
    for (int i = 0; i < m_steps.size(); ++i) {
        const QString spec = QString::fromStdString(specOf(m_steps[i]));
        all << spec;
        m_list->item(i)->setText(tr("%1. %2   %3").arg(i + 1).arg(kindName(m_steps[i].kind), spec));
        m_list->item(i)->setToolTip(spec);
    }
    m_specLine->setText(all.join(QLatin1Char(' ')));
    m_up->setEnabled(current() > 0);
    m_down->setEnabled(current() >= 0 && current() + 1 < m_steps.size());
    // OK waits for the preview to confirm the new steps.
    m_ok->setEnabled(false);
    m_debounce->start();
}

void TraceTransformDialog::refreshPreview() {
    m_debounce->stop();
    m_error.clear();
    m_result.reset();
    // One step at a time, to name the step that fails.
    cl::Trace out = *m_base;
    for (int i = 0; i < m_steps.size(); ++i) {
        const std::string spec = specOf(m_steps[i]);
        try {
            out = cl::applyTransform(out, spec);
        } catch (const std::exception& e) {
            m_error =
                tr("Step %1 (%2): %3").arg(i + 1).arg(kindName(m_steps[i].kind), shortMessage(e.what()));
            m_status->setToolTip(QString::fromStdString(e.what()));
            break;
        }
    }
    if (!m_error.isEmpty()) {
        m_status->setText(
            QStringLiteral("<span style='color:#c62828'><b>%1</b></span>").arg(m_error.toHtmlEscaped()));
        m_histograms->clear(tr("No preview: fix the step"));
        m_ok->setEnabled(false);
        return;
    }
    m_status->setToolTip(QString());
    m_result = std::make_shared<cl::Trace>(std::move(out));
    const QLocale locale;
    const auto lastOf = [](const cl::Trace& t) { return t.jobs.empty() ? 0.0 : t.lastSubmit(); };
    m_status->setText(tr("<b>%1 \u2192 %2 jobs</b>; last submit %3 \u2192 %4; GPUs requested %5 \u2192 %6. "
                         "Grey bars: base trace, coloured bars: result.")
                          .arg(locale.toString(static_cast<qlonglong>(m_base->jobs.size())),
                               locale.toString(static_cast<qlonglong>(m_result->jobs.size())),
                               formatDuration(lastOf(*m_base)), formatDuration(lastOf(*m_result)),
                               locale.toString(m_base->totalGpuDemand()),
                               locale.toString(m_result->totalGpuDemand())));
    m_histograms->setComparison(*m_base, *m_result);
    m_ok->setEnabled(true);
}

}  // namespace cl::views
