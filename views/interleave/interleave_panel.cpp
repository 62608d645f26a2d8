#include "views/interleave/interleave_panel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/interleave/stage_jobs.h"
#include "core/model/model_profile.h"
#include "views/interleave/interleave_gantt.h"
#include "views/interleave/matching_view.h"
#include "views/interleave/stage_table_model.h"

namespace cl::views {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxJobs = 4;
constexpr int kDefaultGpus = 16;  // Table 2's setting
constexpr int kCustomEntry = -1, kRunEntry = -2;

// Paper Fig. 4 (k = 2: CPU then GPU); the lengths follow from the text (tests/core/test_interleave.cpp).
const std::vector<double> kFig4A{2, 1}, kFig4B{1, 2}, kFig4C{2, 1}, kFig4D{1, 2};
// Paper Fig. 6 (storage, CPU, GPU, network): A is CPU-heavy, B GPU-heavy.
const std::vector<double> kFig6A{1, 2, 1, 1}, kFig6B{1, 1, 2, 1};

enum MatchingSource { kMatchFig4 = 0, kMatchTable = 1, kMatchAllModels = 2 };

}  // namespace

InterleavePanel::InterleavePanel(const cl::ProfileSet* profiles, QWidget* parent)
    : QWidget(parent), profiles_(profiles) {
    model_ = new StageTableModel(this);
    buildUi();
    fillPickers();
    connect(model_, &StageTableModel::stagesChanged, this, &InterleavePanel::recompute);
    connect(model_, &StageTableModel::editRefused, this, [this](const QString& m) { message_->setText(m); });
    showExample(Example::Fig4Plan1);
}

void InterleavePanel::buildUi() {
    const QFontMetrics fm(font());

    example_ = new QComboBox(this);
    example_->setToolTip(
        tr("What to interleave: 1-4 model profiles picked on the right, or one of the "
           "Muri paper's examples"));
    example_->addItem(tr("Models picked here"), kCustomEntry);
    example_->addItem(tr("Paper Fig. 1: four jobs, four bottlenecks"),
                      static_cast<int>(Example::Fig1FourBottlenecks));
    example_->addItem(tr("Paper Fig. 4, plan 1: A + B"), static_cast<int>(Example::Fig4Plan1));
    example_->addItem(tr("Paper Fig. 4, plan 2: A + C"), static_cast<int>(Example::Fig4Plan2));
    example_->addItem(tr("Paper Fig. 6: ordering matters"), static_cast<int>(Example::Fig6));
    example_->addItem(tr("Paper Table 2: ShuffleNet, A2C, GPT-2, VGG16"), static_cast<int>(Example::Table2));
    example_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    example_->setMinimumContentsLength(22);
    connect(example_, &QComboBox::activated, this, [this](int index) {
        const int id = example_->itemData(index).toInt();
        if (id == kCustomEntry)
            loadFromPickers();
        else if (id == kRunEntry)
            setGroup(run_names_, {}, {});
        else
            showExample(static_cast<Example>(id));
    });

    for (int i = 0; i < kMaxJobs; ++i) {
        auto* box = new QComboBox(this);
        box->setToolTip(i == 0 ? tr("Job 1: a model from the profile set")
                               : tr("Job %1: a model, or none").arg(i + 1));
        // Narrow enough for a docked window; the popup still shows whole names.
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(9);
        connect(box, &QComboBox::activated, this, [this] { loadFromPickers(); });
        pickers_.push_back(box);
    }
    gpus_ = new QComboBox(this);
    gpus_->setToolTip(tr("GPU count of the jobs: picks the profile's stage times measured at that size"));
    connect(gpus_, &QComboBox::activated, this, [this] {
        if (example_->currentData().toInt() == kCustomEntry ||
            example_->currentData().toInt() == static_cast<int>(Example::Table2))
            loadFromPickers();
        updateMatching();
    });

    contention_ = new QCheckBox(tr("&Contention"), this);
    contention_->setToolTip(
        tr("Slow-down of interleaved jobs from contention (Muri's factors): group time "
           "× 1.33, 1.5 or 1.37 (÷ 1.015) for 2, 3 or 4 jobs, a job alone × 1.015. Off: the "
           "paper's idealised figures."));
    connect(contention_, &QCheckBox::toggled, this, [this] {
        if (!loading_) recompute();
        updateMatching();
    });

    best_button_ = new QToolButton(this);
    best_button_->setText(tr("&Best ordering"));
    best_button_->setToolTip(
        tr("The ordering Muri picks: the one with the shortest group iteration (Alt+B)"));
    worst_button_ = new QToolButton(this);
    worst_button_->setText(tr("&Worst ordering"));
    worst_button_->setToolTip(
        tr("The ordering with the longest group iteration, the paper's ablation (Alt+W)"));
    auto* order_group = new QButtonGroup(this);
    for (QToolButton* b : {best_button_, worst_button_}) {
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        order_group->addButton(b);
    }
    best_button_->setChecked(true);
    connect(best_button_, &QToolButton::toggled, this, [this](bool on) { setBestOrdering(on); });

    iterations_ = new QSpinBox(this);
    iterations_->setRange(1, 12);
    iterations_->setValue(3);
    iterations_->setSuffix(tr(" iterations"));
    iterations_->setToolTip(tr("How many group iterations the chart draws"));
    connect(iterations_, &QSpinBox::valueChanged, this, [this] { recompute(); });

    step_button_ = new QPushButton(tr("&Step"), this);
    step_button_->setToolTip(tr("Highlight the next iteration (Alt+S)"));
    connect(step_button_, &QPushButton::clicked, this, &InterleavePanel::step);
    play_button_ = new QPushButton(tr("&Play"), this);
    play_button_->setCheckable(true);
    play_button_->setToolTip(
        tr("Start the group cold and watch the pipeline form: each job joins with its first stage, "
           "until the pattern repeats every iteration; click again to pause (Alt+P)"));
    connect(play_button_, &QPushButton::toggled, this, &InterleavePanel::setPlaying);
    timer_ = new QTimer(this);
    timer_->setInterval(40);
    connect(timer_, &QTimer::timeout, this, &InterleavePanel::playFrame);

    result_ = new QLabel(this);
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    result_->setFont(big);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    result_->setToolTip(
        tr("γ: interleaving efficiency (Eq. 4), the busy fraction of the resources. Speedup: "
           "the members' iteration times alone, summed, over the group's iteration time."));
    result_->setWordWrap(true);
    formula_ = new QLabel(this);
    formula_->setObjectName(QStringLiteral("interleaveFormula"));
    formula_->setWordWrap(true);
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tour_button_ = new QPushButton(tr("&Guided tour"), this);
    tour_button_->setCheckable(true);
    tour_button_->setToolTip(
        tr("Walk through the Muri paper's Fig. 1, 4 and 6 and Table 2, one caption per step (Alt+G)"));
    connect(tour_button_, &QPushButton::toggled, this, [this](bool on) { on ? startTour() : stopTour(); });
    tour_back_ = new QPushButton(tr("&Back"), this);
    tour_next_ = new QPushButton(tr("&Next"), this);
    connect(tour_back_, &QPushButton::clicked, this, &InterleavePanel::tourBack);
    connect(tour_next_, &QPushButton::clicked, this, &InterleavePanel::tourNext);
    tour_caption_ = new QLabel(this);
    tour_caption_->setObjectName(QStringLiteral("tourCaption"));
    tour_caption_->setWordWrap(true);
    tour_bar_ = new QWidget(this);
    {
        auto* bar = new QHBoxLayout(tour_bar_);
        bar->setContentsMargins(0, 0, 0, 0);
        bar->addWidget(tour_caption_, 1);
        bar->addWidget(tour_back_);
        bar->addWidget(tour_next_);
    }
    tour_bar_->hide();
    detail_ = new QLabel(this);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    QPalette warn = message_->palette();
    warn.setColor(QPalette::WindowText, QColor(0xB0, 0x30, 0x20));
    message_->setPalette(warn);

    gantt_ = new InterleaveGantt(this);
    connect(gantt_, &InterleaveGantt::stageTimeDragged, this,
            [this](int job, int stage, double ms) { model_->setStageTime(job, stage, ms); });

    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setToolTip(tr("Stage times per iteration in milliseconds; double-click to edit (a number > 0)"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);

    matching_source_ = new QComboBox(this);
    matching_source_->setToolTip(tr("Which jobs the matching graph (paper Fig. 5) pairs up"));
    matching_source_->addItem(tr("Paper Fig. 4 jobs A–D"), kMatchFig4);
    matching_source_->addItem(tr("The jobs in the table"), kMatchTable);
    matching_source_->addItem(tr("All built-in models"), kMatchAllModels);
    connect(matching_source_, &QComboBox::activated, this, [this] { updateMatching(); });
    matching_ = new MatchingView(this);

    // Layout: controls, the headline numbers, the Gantt, then the table beside the matching.
    auto* top = new QHBoxLayout;
    auto* example_label = new QLabel(tr("E&xample:"), this);
    example_label->setBuddy(example_);
    top->addWidget(example_label);
    top->addWidget(example_);
    top->addSpacing(fm.averageCharWidth() * 2);
    top->addWidget(contention_);
    top->addStretch(1);
    // The job pickers get a row of their own so that the panel fits a docked window.
    auto* picks = new QHBoxLayout;
    auto* jobs_label = new QLabel(tr("&Jobs:"), this);
    jobs_label->setBuddy(pickers_.front());
    picks->addWidget(jobs_label);
    for (QComboBox* b : pickers_) picks->addWidget(b);
    auto* on_label = new QLabel(tr("&on"), this);
    on_label->setBuddy(gpus_);
    picks->addWidget(on_label);
    picks->addWidget(gpus_);
    picks->addStretch(1);

    auto* controls = new QHBoxLayout;
    controls->addWidget(best_button_);
    controls->addWidget(worst_button_);
    controls->addSpacing(fm.averageCharWidth() * 2);
    controls->addWidget(iterations_);
    controls->addWidget(step_button_);
    controls->addWidget(play_button_);
    controls->addSpacing(fm.averageCharWidth() * 3);
    controls->addWidget(tour_button_);
    controls->addStretch(1);

    auto* table_box = new QWidget(this);
    auto* table_layout = new QVBoxLayout(table_box);
    table_layout->setContentsMargins(0, 0, 0, 0);
    auto* table_title =
        new QLabel(tr("Stage times (ms per iteration) — edit here or drag a block's right edge"), table_box);
    table_title->setWordWrap(true);
    table_layout->addWidget(table_title);
    table_layout->addWidget(table_, 1);
    table_layout->addWidget(detail_);
    table_layout->addWidget(message_);

    auto* matching_box = new QWidget(this);
    auto* matching_layout = new QVBoxLayout(matching_box);
    matching_layout->setContentsMargins(0, 0, 0, 0);
    auto* source_row = new QHBoxLayout;
    auto* source_label = new QLabel(tr("&Matching of:"), matching_box);
    source_label->setBuddy(matching_source_);
    source_row->addWidget(source_label);
    source_row->addWidget(matching_source_);
    source_row->addStretch(1);
    matching_layout->addLayout(source_row);
    matching_layout->addWidget(matching_, 1);

    // The table and its explanations scroll rather than being cut on a small screen.
    auto* table_scroll = new QScrollArea(this);
    table_scroll->setWidgetResizable(true);
    table_scroll->setFrameShape(QFrame::NoFrame);
    table_scroll->setWidget(table_box);
    table_->setMinimumHeight(table_->verticalHeader()->defaultSectionSize() * 3 +
                             table_->horizontalHeader()->sizeHint().height());
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(table_scroll);
    bottom->addWidget(matching_box);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(gantt_);
    split->addWidget(bottom);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(picks);
    layout->addLayout(controls);
    layout->addWidget(tour_bar_);
    // The headline and its definitions get full-width rows of their own, wrapping rather than
    // being cut on a small screen.
    layout->addWidget(result_);
    layout->addWidget(formula_);
    layout->addWidget(split, 1);
}

void InterleavePanel::fillPickers() {
    const QString current_gpus = gpus_->currentText();
    for (std::size_t i = 0; i < pickers_.size(); ++i) {
        QComboBox* box = pickers_[i];
        box->clear();
        box->addItem(tr("—"), QString());
        if (profiles_)
            for (const auto& name : profiles_->modelNames())
                box->addItem(QString::fromStdString(name), QString::fromStdString(name));
        box->setEnabled(profiles_ != nullptr);
    }
    gpus_->clear();
    std::set<int> counts;
    if (profiles_)
        for (const auto& [name, m] : profiles_->models)
            for (const auto& g : m.by_gpus) counts.insert(g.gpus);
    for (int c : counts) gpus_->addItem(c == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(c), c);
    gpus_->setEnabled(profiles_ != nullptr);
    const int keep = gpus_->findText(current_gpus);
    const int def = gpus_->findData(kDefaultGpus);
    gpus_->setCurrentIndex(keep >= 0 ? keep : (def >= 0 ? def : gpus_->count() - 1));
    matching_source_->setItemData(kMatchAllModels, profiles_ ? QVariant() : QVariant(0), Qt::UserRole - 1);
}

void InterleavePanel::setProfiles(const cl::ProfileSet* profiles) {
    profiles_ = profiles;
    fillPickers();
    updateMatching();
}

void InterleavePanel::setGpuCount(int gpus) {
    const int i = gpus_->findData(gpus);
    if (i >= 0) gpus_->setCurrentIndex(i);
    if (example_->currentData().toInt() == kCustomEntry) loadFromPickers();
}

QStringList InterleavePanel::stageNames(std::size_t stage_count) const {
    if (stage_count == static_cast<std::size_t>(cl::kSlotRuleStages))
        return {tr("load+preprocess"), tr("GPU"), tr("network")};
    if (stage_count == 2) return {tr("CPU"), tr("GPU")};  // the paper's two-resource examples
    if (stage_count == 4) return {tr("storage"), tr("CPU"), tr("GPU"), tr("network")};
    QStringList names;
    for (std::size_t s = 0; s < stage_count; ++s) names << tr("stage %1").arg(s + 1);
    return names;
}

void InterleavePanel::selectExampleEntry(int id) {
    const int i = example_->findData(id);
    if (i >= 0) example_->setCurrentIndex(i);
}

void InterleavePanel::loadJobs(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                               const std::vector<double>& solo_ms, const QStringList& resource_names,
                               bool contention) {
    loading_ = true;
    contention_->setChecked(contention);
    loading_ = false;
    resource_names_ = resource_names;
    message_->clear();
    setPlaying(false);
    gantt_->setCurrentIteration(-1);
    const std::size_t k = stages_ms.empty() ? 0 : stages_ms.front().size();
    if (example_->currentData().toInt() != kCustomEntry &&
        example_->currentData().toInt() != static_cast<int>(Example::Table2))
        for (QComboBox* box : pickers_)
            box->setCurrentIndex(0);  // a paper example or a run: no models picked
    if (!model_->setJobs(names, stages_ms, solo_ms, stageNames(k)))
        message_->setText(
            tr("These jobs cannot be shown: every job needs the same number of stages, each a time >= 0."));
    updateMatching();
}

bool InterleavePanel::setModels(const QStringList& models) {
    if (!profiles_) return false;
    const int gpus = gpus_->currentData().isValid() ? gpus_->currentData().toInt() : kDefaultGpus;
    QStringList names;
    std::vector<std::vector<double>> stages;
    std::vector<double> solo;
    for (const QString& m : models) {
        if (names.size() == kMaxJobs) break;
        const cl::ModelProfile* profile = profiles_->find(m.toStdString());
        const cl::GpuCountProfile* g = profile ? profile->at(gpus) : nullptr;
        if (!g || g->stage_times.empty()) continue;
        names << m;
        std::vector<double> ms;
        for (double s : g->stage_times) ms.push_back(s * 1000.0);
        stages.push_back(ms);
        solo.push_back(g->solo_iteration_time * 1000.0);
    }
    if (names.isEmpty()) return false;
    for (std::size_t i = 0; i < pickers_.size(); ++i) {
        QComboBox* box = pickers_[i];
        const int at =
            i < static_cast<std::size_t>(names.size()) ? box->findData(names[static_cast<qsizetype>(i)]) : 0;
        box->setCurrentIndex(std::max(0, at));
    }
    if (example_->currentData().toInt() != static_cast<int>(Example::Table2))
        selectExampleEntry(kCustomEntry);
    loadJobs(names, stages, solo, {}, true);
    return true;
}

void InterleavePanel::loadFromPickers() {
    QStringList models;
    for (QComboBox* box : pickers_)
        if (const QString m = box->currentData().toString(); !m.isEmpty()) models << m;
    selectExampleEntry(kCustomEntry);
    if (!setModels(models)) message_->setText(tr("Pick at least one model."));
    matching_source_->setCurrentIndex(profiles_ ? kMatchAllModels : kMatchTable);
    updateMatching();
}

void InterleavePanel::setGroup(const QStringList& names, const std::vector<std::vector<double>>& stages,
                               const std::vector<double>& solo_seconds) {
    if (!stages.empty() || run_stages_ms_.empty()) {
        run_names_ = names;
        run_stages_ms_.clear();
        for (const auto& job : stages) {
            std::vector<double> ms;
            for (double s : job) ms.push_back(s * 1000.0);
            run_stages_ms_.push_back(ms);
        }
        run_solo_ms_.clear();
        for (double s : solo_seconds) run_solo_ms_.push_back(s * 1000.0);
    }
    if (example_->findData(kRunEntry) < 0) example_->addItem(tr("Group from a run"), kRunEntry);
    selectExampleEntry(kRunEntry);
    matching_source_->setCurrentIndex(kMatchTable);
    loadJobs(run_names_.mid(0, kMaxJobs),
             std::vector<std::vector<double>>(
                 run_stages_ms_.begin(),
                 run_stages_ms_.begin() + std::min<std::ptrdiff_t>(kMaxJobs, std::ssize(run_stages_ms_))),
             run_solo_ms_.size() == run_stages_ms_.size()
                 ? std::vector<double>(
                       run_solo_ms_.begin(),
                       run_solo_ms_.begin() + std::min<std::ptrdiff_t>(kMaxJobs, std::ssize(run_solo_ms_)))
                 : std::vector<double>{},
             {}, true);
}

void InterleavePanel::showExample(Example example) {
    selectExampleEntry(static_cast<int>(example));
    switch (example) {
        case Example::Fig1FourBottlenecks: {
            std::vector<std::vector<double>> jobs;
            for (int b = 0; b < 4; ++b) {
                std::vector<double> t(4, 1.0);
                t[static_cast<std::size_t>(b)] = 2.0;
                jobs.push_back(t);
            }
            matching_source_->setCurrentIndex(kMatchTable);
            loadJobs({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D")},
                     jobs, {}, {}, false);
            break;
        }
        case Example::Fig4Plan1:
            matching_source_->setCurrentIndex(kMatchFig4);
            loadJobs({QStringLiteral("A"), QStringLiteral("B")}, {kFig4A, kFig4B}, {}, {tr("CPU"), tr("GPU")},
                     false);
            break;
        case Example::Fig4Plan2:
            matching_source_->setCurrentIndex(kMatchFig4);
            loadJobs({QStringLiteral("A"), QStringLiteral("C")}, {kFig4A, kFig4C}, {}, {tr("CPU"), tr("GPU")},
                     false);
            break;
        case Example::Fig6:
            matching_source_->setCurrentIndex(kMatchTable);
            loadJobs({QStringLiteral("A"), QStringLiteral("B")}, {kFig6A, kFig6B}, {}, {}, false);
            break;
        case Example::Table2: {
            const int g = gpus_->findData(kDefaultGpus);
            if (g >= 0) gpus_->setCurrentIndex(g);
            selectExampleEntry(static_cast<int>(Example::Table2));
            if (!setModels({QStringLiteral("shufflenet_v2_x1_0"), QStringLiteral("a2c"),
                            QStringLiteral("gpt2"), QStringLiteral("vgg16")}))
                message_->setText(tr("Table 2 needs the built-in model profiles."));
            matching_source_->setCurrentIndex(profiles_ ? kMatchAllModels : kMatchTable);
            updateMatching();
            break;
        }
    }
}

void InterleavePanel::setBestOrdering(bool best) {
    (best ? best_button_ : worst_button_)->setChecked(true);
    if (best == best_) return;
    best_ = best;
    recompute();
}

void InterleavePanel::setContentionEnabled(bool on) {
    contention_->setChecked(on);
}
bool InterleavePanel::contentionEnabled() const {
    return contention_->isChecked();
}
void InterleavePanel::setIterations(int iterations) {
    iterations_->setValue(iterations);
}

void InterleavePanel::step() {
    const int n = gantt_->iterationCount();
    if (n <= 0) return;
    setPlaying(false);
    gantt_->setPlayhead(-1.0);
    gantt_->setCurrentIteration((gantt_->currentIteration() + 1) % n);
}

void InterleavePanel::setPlaying(bool playing) {
    if (playing == timer_->isActive()) return;
    if (playing) {
        tour_button_->setChecked(false);
        gantt_->setCurrentIteration(-1);
        gantt_->setColdStart(true);
        gantt_->setPlayhead(0.0);
        timer_->start();
    } else {
        timer_->stop();
    }
    play_button_->setChecked(playing);
    play_button_->setText(playing ? tr("&Pause") : tr("&Play"));
}

void InterleavePanel::playFrame() {
    // About two seconds per drawn iteration, whatever the time unit of the jobs.
    const double end = gantt_->chartEnd();
    const int n = std::max(1, gantt_->iterationCount());
    const double step = end / n / (2000.0 / std::max(1, timer_->interval()));
    const double next = std::max(0.0, gantt_->playhead()) + step;
    if (next >= end) {
        gantt_->setPlayhead(-1.0);  // the whole cold-started chart stays on screen
        setPlaying(false);
        return;
    }
    gantt_->setPlayhead(next);
}

double InterleavePanel::playhead() const {
    return gantt_->playhead();
}

bool InterleavePanel::isPlaying() const {
    return timer_->isActive();
}

double InterleavePanel::gamma() const {
    return valid_ ? timing_.gamma : kNaN;
}
double InterleavePanel::iterationTime() const {
    return valid_ ? timing_.iteration_time : kNaN;
}
double InterleavePanel::speedup() const {
    return valid_ ? timing_.speedup_vs_alone : kNaN;
}

QString InterleavePanel::resultText() const {
    if (!valid_) return error_;
    const QLocale locale;
    return tr("γ = %1 · iteration time %2 ms · speedup %3× vs alone")
        .arg(locale.toString(timing_.gamma, 'f', 2), formatMs(timing_.iteration_time),
             locale.toString(timing_.speedup_vs_alone, 'f', 2));
}

QString InterleavePanel::tradeText() const {
    // What the group trades, with the numbers: every member runs at the group's pace, and the
    // group does more work per GPU than its members in turn (README, "When interleaving helps").
    if (!valid_ || model_->jobCount() < 2) return {};
    double least = std::numeric_limits<double>::infinity(), most = 0;
    for (double solo : model_->soloTimes()) {
        if (solo <= 0) continue;
        least = std::min(least, timing_.iteration_time / solo);
        most = std::max(most, timing_.iteration_time / solo);
    }
    if (most <= 0) return {};
    const QLocale locale;
    const QString stretch =
        locale.toString(least, 'f', 2) == locale.toString(most, 'f', 2)
            ? locale.toString(most, 'f', 2)
            : tr("%1-%2").arg(locale.toString(least, 'f', 2), locale.toString(most, 'f', 2));
    return tr(" The trade: each job takes %1× as long per iteration as alone, and the group does %2× the "
              "work of its members run one after another. In a cluster that pays off only while jobs "
              "would otherwise wait in the queue.")
        .arg(stretch, locale.toString(timing_.speedup_vs_alone, 'f', 2));
}

QString InterleavePanel::formulaText() const {
    if (!valid_) return {};
    const QLocale locale;
    double busy = 0;
    for (const auto& job : model_->stages())
        for (double t : job) busy += t;
    double alone = 0;
    const double solo_factor = contention_->isChecked() ? cl::Contention{}.solo : 1.0;
    for (double solo : model_->soloTimes()) alone += solo * solo_factor;
    const int resources = gantt_->resourceCount();
    return tr("γ (interleaving efficiency, Muri Eq. 4) = stage time of all jobs / (resources × iteration) = "
              "%1 / (%2 × %3) = %4: the share of the resources' time kept busy.  Speedup = the jobs' "
              "iterations alone, added / the group's iteration = %5 / %3 = %6×: how much more work per "
              "unit of time than running them one after another.")
        .arg(formatMs(busy))
        .arg(resources)
        .arg(formatMs(timing_.iteration_time), locale.toString(timing_.gamma, 'f', 2), formatMs(alone),
             locale.toString(timing_.speedup_vs_alone, 'f', 2));
}

namespace {

struct TourStep {
    InterleavePanel::Example example;
    bool best;
    const char* caption;  // %1 = γ, %2 = speedup, %3 = iteration time (ms)
};

// The Muri paper's figures in the order the paper builds its argument (sections 2 and 4).
const TourStep kTour[] = {
    {InterleavePanel::Example::Fig1FourBottlenecks, true,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Fig. 1: four jobs, each bound by a different resource. Run one after another, each "
                       "leaves three resources mostly idle. Interleaved, every resource is busy all the "
                       "time: γ = %1, and the group does %2× the work per unit of time.")},
    {InterleavePanel::Example::Fig4Plan1, true,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Fig. 4, plan 1: A is CPU-bound, B GPU-bound. While A computes on the CPU, B uses the "
                       "GPU, and the other way round: nothing waits, γ = %1, speedup %2×.")},
    {InterleavePanel::Example::Fig4Plan2, true,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Fig. 4, plan 2: A and C are both CPU-bound. They take turns on the CPU and the GPU "
                       "idles in between: γ = %1, speedup %2×. Which jobs share matters, so Muri pairs jobs "
                       "by a maximum-weight matching (the graph below).")},
    {InterleavePanel::Example::Fig6, true,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Fig. 6, best ordering: two jobs on four resources. Starting them at the right stage "
                       "offsets keeps their long stages apart: one iteration takes %3 ms, γ = %1.")},
    {InterleavePanel::Example::Fig6, false,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Fig. 6, worst ordering: the same jobs, started so that their long stages collide. "
                       "The iteration grows to %3 ms and γ falls to %1. Muri tries every ordering and keeps "
                       "the best.")},
    {InterleavePanel::Example::Table2, true,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Table 2: real models (ShuffleNet, A2C, GPT-2, VGG16 on 16 GPUs) with contention "
                       "between stages. Each job now runs slower than alone, yet the group does %2× the "
                       "work: worth it in a cluster while jobs would otherwise wait (README, \"When "
                       "interleaving helps\").")},
};

}  // namespace

int InterleavePanel::tourLength() const {
    return static_cast<int>(std::size(kTour));
}

void InterleavePanel::startTour() {
    setPlaying(false);
    tour_step_ = 0;
    tour_button_->setChecked(true);
    tour_bar_->show();
    showTourStep();
}

void InterleavePanel::stopTour() {
    tour_step_ = -1;
    tour_button_->setChecked(false);
    tour_bar_->hide();
}

void InterleavePanel::tourNext() {
    if (tour_step_ < 0) return;
    if (tour_step_ + 1 >= tourLength()) {
        stopTour();
        return;
    }
    ++tour_step_;
    showTourStep();
}

void InterleavePanel::tourBack() {
    if (tour_step_ <= 0) return;
    --tour_step_;
    showTourStep();
}

void InterleavePanel::showTourStep() {
    const TourStep& step = kTour[tour_step_];
    showExample(step.example);
    setBestOrdering(step.best);
    tour_caption_->setText(tourCaption());
    tour_back_->setEnabled(tour_step_ > 0);
    tour_next_->setText(tour_step_ + 1 < tourLength() ? tr("&Next") : tr("&Finish"));
}

QString InterleavePanel::tourCaption() const {
    if (tour_step_ < 0) return {};
    const QLocale locale;
    // Each caption uses some of the three numbers: QString::arg would fill the lowest markers
    // present with the first values, so the markers are replaced by name.
    QString caption = tr(kTour[tour_step_].caption);
    caption.replace(QStringLiteral("%1"), locale.toString(timing_.gamma, 'f', 2))
        .replace(QStringLiteral("%2"), locale.toString(timing_.speedup_vs_alone, 'f', 2))
        .replace(QStringLiteral("%3"), formatMs(timing_.iteration_time));
    return tr("Step %1 of %2. ").arg(tour_step_ + 1).arg(tourLength()) + caption;
}

void InterleavePanel::recompute() {
    const auto& stages = model_->stages();
    const cl::Contention contention = contention_->isChecked() ? cl::Contention{} : cl::Contention::none();
    valid_ = false;
    error_.clear();
    if (stages.empty()) {
        error_ = tr("No jobs");
    } else {
        try {
            timing_ = cl::groupTiming(stages, model_->soloTimes(), best_, contention);
            valid_ = true;
        } catch (const std::exception& e) {
            error_ = tr("Cannot interleave these jobs: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    if (valid_) {
        // Draw what the numbers say: an iteration on the chart lasts the headline's time.
        const double scale = timing_.raw_time > 0 ? timing_.iteration_time / timing_.raw_time : 1.0;
        gantt_->setGroup(model_->names(), stages, timing_.ordering, iterations_->value(), resource_names_,
                         scale);
        QStringList order;
        for (int i : timing_.ordering.order) order << gantt_->jobLabel(i);
        const QString how = timing_.ordering.split_pair
                                ? tr("split pair: %1 loads while %2 computes, then the other way round")
                                      .arg(order.value(0), order.value(1))
                                : tr("order %1").arg(order.join(QStringLiteral(" → ")));
        QString text = tr("%1 ordering, %2. Stage-derived group time %3 ms")
                           .arg(best_ ? tr("Best") : tr("Worst"), how, formatMs(timing_.raw_time));
        text += contention_->isChecked() ? tr(", × contention = %1 ms.").arg(formatMs(timing_.iteration_time))
                                         : tr(" (no contention: the paper's idealised timing).");
        if (model_->jobCount() == 1) {
            text +=
                tr(" A job alone runs at its measured iteration time, %1 ms, not the %2 ms its stages add up "
                   "to: the stages are measured one at a time, and the whole iteration also holds what "
                   "happens between them (synchronisation, framework overhead) or overlaps some of them.")
                    .arg(formatMs(timing_.iteration_time), formatMs(timing_.raw_time));
        }
        if (std::abs(scale - 1.0) > 1e-9)
            text += tr(" The chart draws every stage ×%1 longer, so one iteration lasts %2 ms as in the "
                       "headline.")
                        .arg(QLocale().toString(scale, 'f', 3), formatMs(timing_.iteration_time));
        if (!best_ && model_->jobCount() == 2) {
            try {
                const cl::GroupTiming best = cl::groupTiming(stages, model_->soloTimes(), true, contention);
                text +=
                    tr(" The matching graph weighs this pair at its best ordering (γ = %1), as Muri does; "
                       "this worst ordering reaches γ = %2.")
                        .arg(QLocale().toString(best.gamma, 'f', 2),
                             QLocale().toString(timing_.gamma, 'f', 2));
            } catch (const std::exception&) {
            }
        }
        text += tradeText();
        detail_->setText(text);
    } else {
        gantt_->clear();
        detail_->clear();
    }
    result_->setText(resultText());
    result_->setToolTip(resultText());
    formula_->setText(formulaText());
    if (matching_source_->currentIndex() == kMatchTable) updateMatching();
    emit resultChanged();
}

void InterleavePanel::updateMatching() {
    matching_->setContention(contention_->isChecked() ? cl::Contention{} : cl::Contention::none());
    switch (matching_source_->currentIndex()) {
        case kMatchFig4:
            matching_->setJobs(
                {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D")},
                {kFig4A, kFig4B, kFig4C, kFig4D}, stageNames(2));
            break;
        case kMatchAllModels: {
            if (!profiles_) break;
            const int gpus = gpus_->currentData().toInt();
            QStringList names;
            std::vector<std::vector<double>> stages;
            for (const auto& name : profiles_->modelNames()) {
                const cl::ModelProfile* m = profiles_->find(name);
                const cl::GpuCountProfile* g = m ? m->at(gpus) : nullptr;
                if (!g || g->stage_times.size() != static_cast<std::size_t>(cl::kSlotRuleStages)) continue;
                names << QString::fromStdString(name);
                std::vector<double> ms;
                for (double s : g->stage_times) ms.push_back(s * 1000.0);
                stages.push_back(ms);
                if (names.size() == MatchingView::kMaxJobs) break;
            }
            matching_->setJobs(names, stages, stageNames(cl::kSlotRuleStages));
            break;
        }
        default:
            matching_->setJobs(model_->names(), model_->stages(),
                               stageNames(static_cast<std::size_t>(model_->stageCount())));
            break;
    }
    // A job keeps its colour in both pictures when the graph holds it (same name).
    std::vector<int> palette_slots;
    for (const QString& name : model_->names())
        if (const auto at = matching_->names().indexOf(name); at >= 0)
            palette_slots.push_back(static_cast<int>(at));
    if (palette_slots.size() != static_cast<std::size_t>(model_->jobCount())) palette_slots.clear();
    gantt_->setColorSlots(palette_slots);
}

}  // namespace cl::views
