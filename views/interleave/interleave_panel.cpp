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
#include <QTabWidget>
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
    : QWidget(parent), m_profiles(profiles) {
    m_model = new StageTableModel(this);
    m_model->setObjectName(QStringLiteral("interleaveStageModel"));
    buildUi();
    fillPickers();
    connect(m_model, &StageTableModel::stagesChanged, this, &InterleavePanel::recompute);
    connect(m_model, &StageTableModel::editRefused, this,
            [this](const QString& m) { m_message->setText(m); });
    showExample(Example::Fig4Plan1);
}

void InterleavePanel::buildUi() {
    createExamplePicker();
    createJobPickers();
    createContentionBox();
    createOrderingButtons();
    createPlaybackControls();
    createHeadlineLabels();
    createTourBar();
    createDetailLabels();
    createChartAndTable();

    // Layout: controls, the headline numbers, the Gantt, then the table beside the matching.
    QHBoxLayout* top = exampleRow();
    QHBoxLayout* picks = jobPickerRow();
    QHBoxLayout* controls = controlRow();
    QSplitter* split = chartSplitter();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(picks);
    layout->addLayout(controls);
    layout->addWidget(m_tourBar);
    // The headline and its definitions get full-width rows of their own, wrapping rather than
    // being cut on a small screen.
    layout->addWidget(m_result);
    layout->addWidget(m_formula);
    layout->addWidget(split, 1);
}

void InterleavePanel::createExamplePicker() {
    m_example = new QComboBox(this);
    m_example->setToolTip(
        tr("What to interleave: 1-4 model profiles picked on the right, or one of the "
           "Muri paper's examples"));
    m_example->addItem(tr("Models picked here"), kCustomEntry);
    m_example->addItem(tr("Paper Fig. 1: four jobs, four bottlenecks"),
                       static_cast<int>(Example::Fig1FourBottlenecks));
    m_example->addItem(tr("Paper Fig. 4, plan 1: A + B"), static_cast<int>(Example::Fig4Plan1));
    m_example->addItem(tr("Paper Fig. 4, plan 2: A + C"), static_cast<int>(Example::Fig4Plan2));
    m_example->addItem(tr("Paper Fig. 6: ordering matters"), static_cast<int>(Example::Fig6));
    m_example->addItem(tr("Paper Table 2: ShuffleNet, A2C, GPT-2, VGG16"), static_cast<int>(Example::Table2));
    m_example->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_example->setMinimumContentsLength(22);
    connect(m_example, &QComboBox::activated, this, [this](int index) {
        const int id = m_example->itemData(index).toInt();
        if (id == kCustomEntry)
            loadFromPickers();
        else if (id == kRunEntry)
            setGroup(m_runNames, {}, {});
        else
            showExample(static_cast<Example>(id));
    });
}

void InterleavePanel::createJobPickers() {
    for (int i = 0; i < kMaxJobs; ++i) {
        auto* box = new QComboBox(this);
        box->setToolTip(i == 0 ? tr("Job 1: a model from the profile set")
                               : tr("Job %1: a model, or none").arg(i + 1));
        // Narrow enough for a docked window; the popup still shows whole names.
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(9);
        connect(box, &QComboBox::activated, this, [this] { loadFromPickers(); });
        m_pickers.push_back(box);
    }
    m_gpus = new QComboBox(this);
    m_gpus->setToolTip(tr("GPU count of the jobs: picks the profile's stage times measured at that size"));
    connect(m_gpus, &QComboBox::activated, this, [this] {
        if (m_example->currentData().toInt() == kCustomEntry ||
            m_example->currentData().toInt() == static_cast<int>(Example::Table2))
            loadFromPickers();
        updateMatching();
    });
}

void InterleavePanel::createContentionBox() {
    m_contention = new QCheckBox(tr("&Contention"), this);
    m_contention->setToolTip(
        tr("Slow-down of interleaved jobs from contention (Muri's factors): group time "
           "× 1.33, 1.5 or 1.37 (÷ 1.015) for 2, 3 or 4 jobs, a job alone × 1.015. Off: the "
           "paper's idealised figures."));
    connect(m_contention, &QCheckBox::toggled, this, [this] {
        if (!m_loading) recompute();
        updateMatching();
    });
}

void InterleavePanel::createOrderingButtons() {
    m_bestButton = new QToolButton(this);
    m_bestButton->setText(tr("&Best ordering"));
    m_bestButton->setToolTip(
        tr("The ordering Muri picks: the one with the shortest group iteration (Alt+B)"));
    m_worstButton = new QToolButton(this);
    m_worstButton->setText(tr("&Worst ordering"));
    m_worstButton->setToolTip(
        tr("The ordering with the longest group iteration, the paper's ablation (Alt+W)"));
    auto* order_group = new QButtonGroup(this);
    for (QToolButton* b : {m_bestButton, m_worstButton}) {
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        order_group->addButton(b);
    }
    m_bestButton->setChecked(true);
    connect(m_bestButton, &QToolButton::toggled, this, [this](bool on) { setBestOrdering(on); });
}

void InterleavePanel::createPlaybackControls() {
    m_iterations = new QSpinBox(this);
    m_iterations->setRange(1, 12);
    m_iterations->setValue(3);
    m_iterations->setSuffix(tr(" iterations"));
    m_iterations->setToolTip(tr("How many group iterations the chart draws"));
    connect(m_iterations, &QSpinBox::valueChanged, this, [this] { recompute(); });

    m_stepButton = new QPushButton(tr("&Step"), this);
    m_stepButton->setToolTip(tr("Highlight the next iteration (Alt+S)"));
    connect(m_stepButton, &QPushButton::clicked, this, &InterleavePanel::step);
    m_playButton = new QPushButton(tr("&Play"), this);
    m_playButton->setCheckable(true);
    m_playButton->setToolTip(
        tr("Start the group cold and watch the pipeline form: each job joins with its first stage, "
           "until the pattern repeats every iteration; click again to pause (Alt+P)"));
    connect(m_playButton, &QPushButton::toggled, this, &InterleavePanel::setPlaying);
    m_timer = new QTimer(this);
    m_timer->setInterval(40);
    connect(m_timer, &QTimer::timeout, this, &InterleavePanel::playFrame);
}

void InterleavePanel::createHeadlineLabels() {
    m_result = new QLabel(this);
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_result->setFont(big);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setToolTip(
        tr("γ: interleaving efficiency (Eq. 4), the busy fraction of the resources. Speedup: "
           "the members' iteration times alone, summed, over the group's iteration time."));
    m_result->setWordWrap(true);
    m_formula = new QLabel(this);
    m_formula->setObjectName(QStringLiteral("interleaveFormula"));
    m_formula->setWordWrap(true);
    m_formula->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void InterleavePanel::createTourBar() {
    m_tourButton = new QPushButton(tr("&Guided tour"), this);
    m_tourButton->setCheckable(true);
    m_tourButton->setToolTip(
        tr("Walk through the Muri paper's Fig. 1, 4 and 6 and Table 2, one caption per step (Alt+G)"));
    connect(m_tourButton, &QPushButton::toggled, this, [this](bool on) { on ? startTour() : stopTour(); });
    m_tourBack = new QPushButton(tr("&Back"), this);
    m_tourNext = new QPushButton(tr("&Next"), this);
    connect(m_tourBack, &QPushButton::clicked, this, &InterleavePanel::tourBack);
    connect(m_tourNext, &QPushButton::clicked, this, &InterleavePanel::tourNext);
    m_tourCaption = new QLabel(this);
    m_tourCaption->setObjectName(QStringLiteral("tourCaption"));
    m_tourCaption->setWordWrap(true);
    m_tourBar = new QWidget(this);
    {
        auto* bar = new QHBoxLayout(m_tourBar);
        bar->setContentsMargins(0, 0, 0, 0);
        bar->addWidget(m_tourCaption, 1);
        bar->addWidget(m_tourBack);
        bar->addWidget(m_tourNext);
    }
    m_tourBar->hide();
}

void InterleavePanel::createDetailLabels() {
    m_detail = new QLabel(this);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    QPalette warn = m_message->palette();
    warn.setColor(QPalette::WindowText, QColor(0xB0, 0x30, 0x20));
    m_message->setPalette(warn);
}

void InterleavePanel::createChartAndTable() {
    m_gantt = new InterleaveGantt(this);
    m_gantt->setObjectName(QStringLiteral("interleaveGantt"));
    connect(m_gantt, &InterleaveGantt::stageTimeDragged, this,
            [this](int job, int stage, double ms) { m_model->setStageTime(job, stage, ms); });

    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setToolTip(tr("Stage times per iteration in milliseconds; double-click to edit (a number > 0)"));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);

    m_matchingSource = new QComboBox(this);
    m_matchingSource->setToolTip(tr("Which jobs the matching graph (paper Fig. 5) pairs up"));
    m_matchingSource->addItem(tr("Paper Fig. 4 jobs A–D"), kMatchFig4);
    m_matchingSource->addItem(tr("The jobs in the table"), kMatchTable);
    m_matchingSource->addItem(tr("All built-in models"), kMatchAllModels);
    connect(m_matchingSource, &QComboBox::activated, this, [this] { updateMatching(); });
    m_matching = new MatchingView(this);
    m_matching->setObjectName(QStringLiteral("interleaveMatching"));
}

QHBoxLayout* InterleavePanel::exampleRow() {
    const QFontMetrics fm(font());
    auto* top = new QHBoxLayout;
    auto* example_label = new QLabel(tr("E&xample:"), this);
    example_label->setBuddy(m_example);
    top->addWidget(example_label);
    top->addWidget(m_example);
    top->addSpacing(fm.averageCharWidth() * 2);
    top->addWidget(m_contention);
    top->addStretch(1);
    return top;
}

QHBoxLayout* InterleavePanel::jobPickerRow() {
    // The job pickers get a row of their own so that the panel fits a docked window.
    auto* picks = new QHBoxLayout;
    auto* jobs_label = new QLabel(tr("&Jobs:"), this);
    jobs_label->setBuddy(m_pickers.front());
    picks->addWidget(jobs_label);
    for (QComboBox* b : m_pickers) picks->addWidget(b);
    auto* on_label = new QLabel(tr("&on"), this);
    on_label->setBuddy(m_gpus);
    picks->addWidget(on_label);
    picks->addWidget(m_gpus);
    picks->addStretch(1);
    return picks;
}

QHBoxLayout* InterleavePanel::controlRow() {
    const QFontMetrics fm(font());
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_bestButton);
    controls->addWidget(m_worstButton);
    controls->addSpacing(fm.averageCharWidth() * 2);
    controls->addWidget(m_iterations);
    controls->addWidget(m_stepButton);
    controls->addWidget(m_playButton);
    controls->addSpacing(fm.averageCharWidth() * 3);
    controls->addWidget(m_tourButton);
    controls->addStretch(1);
    return controls;
}

QWidget* InterleavePanel::stageTableBox() {
    auto* table_box = new QWidget(this);
    auto* table_layout = new QVBoxLayout(table_box);
    table_layout->setContentsMargins(0, 0, 0, 0);
    auto* table_title =
        new QLabel(tr("Stage times (ms per iteration) — edit here or drag a block's right edge"), table_box);
    table_title->setWordWrap(true);
    table_layout->addWidget(table_title);
    table_layout->addWidget(m_table, 1);
    table_layout->addWidget(m_detail);
    table_layout->addWidget(m_message);
    return table_box;
}

QWidget* InterleavePanel::matchingBox() {
    auto* matching_box = new QWidget(this);
    auto* matching_layout = new QVBoxLayout(matching_box);
    matching_layout->setContentsMargins(0, 0, 0, 0);
    auto* source_row = new QHBoxLayout;
    auto* source_label = new QLabel(tr("&Matching of:"), matching_box);
    source_label->setBuddy(m_matchingSource);
    source_row->addWidget(source_label);
    source_row->addWidget(m_matchingSource);
    source_row->addStretch(1);
    matching_layout->addLayout(source_row);
    matching_layout->addWidget(m_matching, 1);
    return matching_box;
}

QSplitter* InterleavePanel::chartSplitter() {
    QWidget* table_box = stageTableBox();
    QWidget* matching_box = matchingBox();

    // The table and its explanations scroll rather than being cut on a small screen; with the
    // whole width to itself every stage column shows.
    auto* table_scroll = new QScrollArea(this);
    table_scroll->setWidgetResizable(true);
    table_scroll->setFrameShape(QFrame::NoFrame);
    table_scroll->setWidget(table_box);
    m_table->setMinimumHeight(m_table->verticalHeader()->defaultSectionSize() * 3 +
                              m_table->horizontalHeader()->sizeHint().height());
    // The title and three rows of the table stay in view; the chart takes the rest.
    table_scroll->setMinimumHeight(m_table->minimumHeight() + fontMetrics().height() * 2);
    // The Gantt and the matching graph take turns in the large area: side by side or stacked,
    // neither had the height to show its rows and labels on a 1366 x 768 screen.
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName(QStringLiteral("interleaveChartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartTabs->addTab(m_gantt, tr("Stage chart (Fig. 1, 4, 6)"));
    m_chartTabs->addTab(matching_box, tr("Matching graph (Fig. 5)"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chartTabs);
    split->addWidget(table_scroll);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    return split;
}

void InterleavePanel::fillPickers() {
    const QString current_gpus = m_gpus->currentText();
    for (std::size_t i = 0; i < m_pickers.size(); ++i) {
        QComboBox* box = m_pickers[i];
        box->clear();
        box->addItem(tr("—"), QString());
        if (m_profiles)
            for (const auto& name : m_profiles->modelNames())
                box->addItem(QString::fromStdString(name), QString::fromStdString(name));
        box->setEnabled(m_profiles != nullptr);
    }
    m_gpus->clear();
    std::set<int> counts;
    if (m_profiles)
        for (const auto& [name, m] : m_profiles->models)
            for (const auto& g : m.by_gpus) counts.insert(g.gpus);
    for (int c : counts) m_gpus->addItem(c == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(c), c);
    m_gpus->setEnabled(m_profiles != nullptr);
    const int keep = m_gpus->findText(current_gpus);
    const int def = m_gpus->findData(kDefaultGpus);
    m_gpus->setCurrentIndex(keep >= 0 ? keep : (def >= 0 ? def : m_gpus->count() - 1));
    m_matchingSource->setItemData(kMatchAllModels, m_profiles ? QVariant() : QVariant(0), Qt::UserRole - 1);
}

void InterleavePanel::setProfiles(const cl::ProfileSet* profiles) {
    m_profiles = profiles;
    fillPickers();
    updateMatching();
}

void InterleavePanel::setGpuCount(int gpus) {
    const int i = m_gpus->findData(gpus);
    if (i >= 0) m_gpus->setCurrentIndex(i);
    if (m_example->currentData().toInt() == kCustomEntry) loadFromPickers();
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
    const int i = m_example->findData(id);
    if (i >= 0) m_example->setCurrentIndex(i);
}

void InterleavePanel::loadJobs(const QStringList& names, const std::vector<std::vector<double>>& stages_ms,
                               const std::vector<double>& solo_ms, const QStringList& resource_names,
                               bool contention) {
    m_loading = true;
    m_contention->setChecked(contention);
    m_loading = false;
    m_resourceNames = resource_names;
    m_message->clear();
    setPlaying(false);
    m_gantt->setCurrentIteration(-1);
    const std::size_t k = stages_ms.empty() ? 0 : stages_ms.front().size();
    if (m_example->currentData().toInt() != kCustomEntry &&
        m_example->currentData().toInt() != static_cast<int>(Example::Table2))
        for (QComboBox* box : m_pickers)
            box->setCurrentIndex(0);  // a paper example or a run: no models picked
    if (!m_model->setJobs(names, stages_ms, solo_ms, stageNames(k)))
        m_message->setText(
            tr("These jobs cannot be shown: every job needs the same number of stages, each a time >= 0."));
    updateMatching();
}

bool InterleavePanel::setModels(const QStringList& models) {
    if (!m_profiles) return false;
    const int gpus = m_gpus->currentData().isValid() ? m_gpus->currentData().toInt() : kDefaultGpus;
    QStringList names;
    std::vector<std::vector<double>> stages;
    std::vector<double> solo;
    for (const QString& m : models) {
        if (names.size() == kMaxJobs) break;
        const cl::ModelProfile* profile = m_profiles->find(m.toStdString());
        const cl::GpuCountProfile* g = profile ? profile->at(gpus) : nullptr;
        if (!g || g->stage_times.empty()) continue;
        names << m;
        std::vector<double> ms;
        for (double s : g->stage_times) ms.push_back(s * 1000.0);
        stages.push_back(ms);
        solo.push_back(g->solo_iteration_time * 1000.0);
    }
    if (names.isEmpty()) return false;
    for (std::size_t i = 0; i < m_pickers.size(); ++i) {
        QComboBox* box = m_pickers[i];
        const int at =
            i < static_cast<std::size_t>(names.size()) ? box->findData(names[static_cast<qsizetype>(i)]) : 0;
        box->setCurrentIndex(std::max(0, at));
    }
    if (m_example->currentData().toInt() != static_cast<int>(Example::Table2))
        selectExampleEntry(kCustomEntry);
    loadJobs(names, stages, solo, {}, true);
    return true;
}

void InterleavePanel::loadFromPickers() {
    QStringList models;
    for (QComboBox* box : m_pickers)
        if (const QString m = box->currentData().toString(); !m.isEmpty()) models << m;
    selectExampleEntry(kCustomEntry);
    if (!setModels(models)) m_message->setText(tr("Pick at least one model."));
    m_matchingSource->setCurrentIndex(m_profiles ? kMatchAllModels : kMatchTable);
    updateMatching();
}

void InterleavePanel::setGroup(const QStringList& names, const std::vector<std::vector<double>>& stages,
                               const std::vector<double>& solo_seconds) {
    if (!stages.empty() || m_runStagesMs.empty()) {
        m_runNames = names;
        m_runStagesMs.clear();
        for (const auto& job : stages) {
            std::vector<double> ms;
            for (double s : job) ms.push_back(s * 1000.0);
            m_runStagesMs.push_back(ms);
        }
        m_runSoloMs.clear();
        for (double s : solo_seconds) m_runSoloMs.push_back(s * 1000.0);
    }
    if (m_example->findData(kRunEntry) < 0) m_example->addItem(tr("Group from a run"), kRunEntry);
    selectExampleEntry(kRunEntry);
    m_matchingSource->setCurrentIndex(kMatchTable);
    loadJobs(m_runNames.mid(0, kMaxJobs),
             std::vector<std::vector<double>>(
                 m_runStagesMs.begin(),
                 m_runStagesMs.begin() + std::min<std::ptrdiff_t>(kMaxJobs, std::ssize(m_runStagesMs))),
             m_runSoloMs.size() == m_runStagesMs.size()
                 ? std::vector<double>(
                       m_runSoloMs.begin(),
                       m_runSoloMs.begin() + std::min<std::ptrdiff_t>(kMaxJobs, std::ssize(m_runSoloMs)))
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
            m_matchingSource->setCurrentIndex(kMatchTable);
            loadJobs({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D")},
                     jobs, {}, {}, false);
            break;
        }
        case Example::Fig4Plan1:
            m_matchingSource->setCurrentIndex(kMatchFig4);
            loadJobs({QStringLiteral("A"), QStringLiteral("B")}, {kFig4A, kFig4B}, {}, {tr("CPU"), tr("GPU")},
                     false);
            break;
        case Example::Fig4Plan2:
            m_matchingSource->setCurrentIndex(kMatchFig4);
            loadJobs({QStringLiteral("A"), QStringLiteral("C")}, {kFig4A, kFig4C}, {}, {tr("CPU"), tr("GPU")},
                     false);
            break;
        case Example::Fig6:
            m_matchingSource->setCurrentIndex(kMatchTable);
            loadJobs({QStringLiteral("A"), QStringLiteral("B")}, {kFig6A, kFig6B}, {}, {}, false);
            break;
        case Example::Table2: {
            const int g = m_gpus->findData(kDefaultGpus);
            if (g >= 0) m_gpus->setCurrentIndex(g);
            selectExampleEntry(static_cast<int>(Example::Table2));
            if (!setModels({QStringLiteral("shufflenet_v2_x1_0"), QStringLiteral("a2c"),
                            QStringLiteral("gpt2"), QStringLiteral("vgg16")}))
                m_message->setText(tr("Table 2 needs the built-in model profiles."));
            m_matchingSource->setCurrentIndex(m_profiles ? kMatchAllModels : kMatchTable);
            updateMatching();
            break;
        }
    }
}

void InterleavePanel::setBestOrdering(bool best) {
    (best ? m_bestButton : m_worstButton)->setChecked(true);
    if (best == m_best) return;
    m_best = best;
    recompute();
}

void InterleavePanel::setContentionEnabled(bool on) {
    m_contention->setChecked(on);
}
bool InterleavePanel::contentionEnabled() const {
    return m_contention->isChecked();
}
void InterleavePanel::setIterations(int iterations) {
    m_iterations->setValue(iterations);
}

void InterleavePanel::step() {
    const int n = m_gantt->iterationCount();
    if (n <= 0) return;
    setPlaying(false);
    m_gantt->setPlayhead(-1.0);
    m_gantt->setCurrentIteration((m_gantt->currentIteration() + 1) % n);
}

void InterleavePanel::setPlaying(bool playing) {
    if (playing == m_timer->isActive()) return;
    if (playing) {
        m_tourButton->setChecked(false);
        m_gantt->setCurrentIteration(-1);
        m_gantt->setColdStart(true);
        m_gantt->setPlayhead(0.0);
        m_timer->start();
    } else {
        m_timer->stop();
    }
    m_playButton->setChecked(playing);
    m_playButton->setText(playing ? tr("&Pause") : tr("&Play"));
}

void InterleavePanel::playFrame() {
    // About two seconds per drawn iteration, whatever the time unit of the jobs.
    const double end = m_gantt->chartEnd();
    const int n = std::max(1, m_gantt->iterationCount());
    const double step = end / n / (2000.0 / std::max(1, m_timer->interval()));
    const double next = std::max(0.0, m_gantt->playhead()) + step;
    if (next >= end) {
        m_gantt->setPlayhead(-1.0);  // the whole cold-started chart stays on screen
        setPlaying(false);
        return;
    }
    m_gantt->setPlayhead(next);
}

double InterleavePanel::playhead() const {
    return m_gantt->playhead();
}

bool InterleavePanel::isPlaying() const {
    return m_timer->isActive();
}

double InterleavePanel::gamma() const {
    return m_valid ? m_timing.gamma : kNaN;
}
double InterleavePanel::iterationTime() const {
    return m_valid ? m_timing.iteration_time : kNaN;
}
double InterleavePanel::speedup() const {
    return m_valid ? m_timing.speedup_vs_alone : kNaN;
}

QString InterleavePanel::resultText() const {
    if (!m_valid) return m_error;
    const QLocale locale;
    return tr("γ = %1 · iteration time %2 ms · speedup %3× vs alone")
        .arg(locale.toString(m_timing.gamma, 'f', 2), formatMs(m_timing.iteration_time),
             locale.toString(m_timing.speedup_vs_alone, 'f', 2));
}

QString InterleavePanel::lateStageText() const {
    // The steady schedule staggers the jobs (Muri section 4.2, Fig. 6): a stage of the last
    // iteration can run past that iteration's time, alone on the chart because the next
    // iteration, which would fill the idle time around it, is not drawn.
    const int last = m_gantt->iterationCount() - 1;
    if (!m_valid || last < 0) return {};
    double start = std::numeric_limits<double>::infinity();
    for (const auto& iv : m_gantt->drawnIntervals())
        if (iv.iteration == last) start = std::min(start, iv.t0);
    const double end = start + m_timing.iteration_time;
    for (const auto& iv : m_gantt->drawnIntervals()) {
        if (iv.iteration != last || iv.t1 <= end * (1 + 1e-9)) continue;
        const int stage = m_gantt->stageOfResource(iv.resource);
        return tr(" %1's %2 stage of iteration %3 ends at %4 ms, after that iteration's span (%5 to %6 ms): "
                  "each job starts its iteration at its own offset, and the chart ends with iteration %3, so "
                  "the next iteration's stages that would run beside it are not drawn.")
            .arg(m_gantt->jobLabel(iv.job),
                 stageNames(static_cast<std::size_t>(m_model->stageCount())).value(stage))
            .arg(last + 1)
            .arg(formatMs(iv.t1), formatMs(start), formatMs(end));
    }
    return {};
}

QString InterleavePanel::tradeText() const {
    // What the group trades, with the numbers: every member runs at the group's pace, and the
    // group does more work per GPU than its members in turn (README, "When interleaving helps").
    if (!m_valid || m_model->jobCount() < 2) return {};
    double least = std::numeric_limits<double>::infinity(), most = 0;
    for (double solo : m_model->soloTimes()) {
        if (solo <= 0) continue;
        least = std::min(least, m_timing.iteration_time / solo);
        most = std::max(most, m_timing.iteration_time / solo);
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
        .arg(stretch, locale.toString(m_timing.speedup_vs_alone, 'f', 2));
}

QString InterleavePanel::formulaText() const {
    if (!m_valid) return {};
    const QLocale locale;
    double busy = 0;
    for (const auto& job : m_model->stages())
        for (double t : job) busy += t;
    double alone = 0;
    const double solo_factor = m_contention->isChecked() ? cl::Contention{}.solo : 1.0;
    for (double solo : m_model->soloTimes()) alone += solo * solo_factor;
    const int resources = m_gantt->resourceCount();
    return tr("γ (interleaving efficiency, Muri Eq. 4) = stage time of all jobs / (resources × iteration) = "
              "%1 / (%2 × %3) = %4: the share of the resources' time kept busy.  Speedup = the jobs' "
              "iterations alone, added / the group's iteration = %5 / %3 = %6×: how much more work per "
              "unit of time than running them one after another.")
        .arg(formatMs(busy))
        .arg(resources)
        .arg(formatMs(m_timing.iteration_time), locale.toString(m_timing.gamma, 'f', 2), formatMs(alone),
             locale.toString(m_timing.speedup_vs_alone, 'f', 2));
}

namespace {

struct TourStep {
    InterleavePanel::Example example;
    bool best;
    // %1 = γ, %2 = speedup, %3 = iteration time (ms), %4 = resources, %5 = resources × γ,
    // %6 = the members' iterations alone, added (ms), %7 = their stage times, added (ms),
    // %8 = total γ of the matching graph.
    const char* caption;
    bool graph = false;  // shows the matching graph instead of the Gantt
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
                       "by a maximum-weight matching (next step).")},
    {InterleavePanel::Example::Fig4Plan2, true,
     QT_TRANSLATE_NOOP("InterleavePanel",
                       "Fig. 5: the same choice as a graph. Each job is a node, each pair an edge weighted "
                       "with its γ. Muri picks the maximum-weight matching (thick edges), here total γ = %8: "
                       "plan 1's pairs, never plan 2's A + C (γ = 0.75)."),
     true},
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
     QT_TRANSLATE_NOOP(
         "InterleavePanel",
         "Table 2: ShuffleNet, A2C, GPT-2 and VGG16 on 16 GPUs, with contention. Each job runs "
         "slower than alone, yet the group does %2× the work. γ = %1 and %2× hold together: γ is "
         "the busy share of the %4 resources (Muri, section 4.2, Eq. 4), so %4 × γ = %5 stages run "
         "at once; the speedup adds the jobs' normalised throughputs (Muri, section 2.2, Table 2), "
         "and alone a job's iteration also holds overheads beyond its stages (%6 vs %7 ms): "
         "%5 × %6 / %7 = %2×.")},
};

}  // namespace

int InterleavePanel::tourLength() const {
    return static_cast<int>(std::size(kTour));
}

void InterleavePanel::startTour() {
    setPlaying(false);
    m_tourStep = 0;
    m_tourButton->setChecked(true);
    m_tourBar->show();
    // The captions explain each step's numbers; the definitions line gives them its room, so
    // that the chart keeps the height of its rows on a 768-pixel screen.
    m_formula->hide();
    showTourStep();
}

void InterleavePanel::stopTour() {
    m_tourStep = -1;
    m_tourButton->setChecked(false);
    m_tourBar->hide();
    m_formula->show();
}

void InterleavePanel::tourNext() {
    if (m_tourStep < 0) return;
    if (m_tourStep + 1 >= tourLength()) {
        stopTour();
        return;
    }
    ++m_tourStep;
    showTourStep();
}

void InterleavePanel::tourBack() {
    if (m_tourStep <= 0) return;
    --m_tourStep;
    showTourStep();
}

void InterleavePanel::showTourStep() {
    const TourStep& step = kTour[m_tourStep];
    showExample(step.example);
    setBestOrdering(step.best);
    m_chartTabs->setCurrentIndex(step.graph ? 1 : 0);
    m_tourCaption->setText(tourCaption());
    m_tourBack->setEnabled(m_tourStep > 0);
    m_tourNext->setText(m_tourStep + 1 < tourLength() ? tr("&Next") : tr("&Finish"));
}

QString InterleavePanel::tourCaption() const {
    if (m_tourStep < 0) return {};
    const QLocale locale;
    // Each caption uses some of the three numbers: QString::arg would fill the lowest markers
    // present with the first values, so the markers are replaced by name.
    QString caption = tr(kTour[m_tourStep].caption);
    double busy = 0, alone = 0;
    for (const auto& job : m_model->stages())
        for (double t : job) busy += t;
    const double solo_factor = m_contention->isChecked() ? cl::Contention{}.solo : 1.0;
    for (double solo : m_model->soloTimes()) alone += solo * solo_factor;
    const int resources = m_gantt->resourceCount();
    caption.replace(QStringLiteral("%1"), locale.toString(m_timing.gamma, 'f', 2))
        .replace(QStringLiteral("%2"), locale.toString(m_timing.speedup_vs_alone, 'f', 2))
        .replace(QStringLiteral("%3"), formatMs(m_timing.iteration_time))
        .replace(QStringLiteral("%4"), locale.toString(resources))
        .replace(QStringLiteral("%5"), locale.toString(resources * m_timing.gamma, 'f', 2))
        .replace(QStringLiteral("%6"), formatMs(alone))
        .replace(QStringLiteral("%7"), formatMs(busy))
        .replace(QStringLiteral("%8"), locale.toString(m_matching->matchedGamma(), 'f', 2));
    return tr("Step %1 of %2. ").arg(m_tourStep + 1).arg(tourLength()) + caption;
}

void InterleavePanel::recompute() {
    const auto& stages = m_model->stages();
    const cl::Contention contention = m_contention->isChecked() ? cl::Contention{} : cl::Contention::none();
    m_valid = false;
    m_error.clear();
    if (stages.empty()) {
        m_error = tr("No jobs");
    } else {
        try {
            m_timing = cl::groupTiming(stages, m_model->soloTimes(), m_best, contention);
            m_valid = true;
        } catch (const std::exception& e) {
            m_error = tr("Cannot interleave these jobs: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    if (m_valid) {
        // Draw what the numbers say: an iteration on the chart lasts the headline's time.
        const double scale = m_timing.raw_time > 0 ? m_timing.iteration_time / m_timing.raw_time : 1.0;
        m_gantt->setGroup(m_model->names(), stages, m_timing.ordering, m_iterations->value(), m_resourceNames,
                          scale);
        QStringList order;
        for (int i : m_timing.ordering.order) order << m_gantt->jobLabel(i);
        const QString how = m_timing.ordering.split_pair
                                ? tr("split pair: %1 loads while %2 computes, then the other way round")
                                      .arg(order.value(0), order.value(1))
                                : tr("order %1").arg(order.join(QStringLiteral(" → ")));
        QString text = tr("%1 ordering, %2. Stage-derived group time %3 ms")
                           .arg(m_best ? tr("Best") : tr("Worst"), how, formatMs(m_timing.raw_time));
        text += m_contention->isChecked()
                    ? tr(", × contention = %1 ms.").arg(formatMs(m_timing.iteration_time))
                    : tr(" (no contention: the paper's idealised timing).");
        if (m_model->jobCount() == 1) {
            text +=
                tr(" A job alone runs at its measured iteration time, %1 ms, not the %2 ms its stages add up "
                   "to: the stages are measured one at a time, and the whole iteration also holds what "
                   "happens between them (synchronisation, framework overhead) or overlaps some of them.")
                    .arg(formatMs(m_timing.iteration_time), formatMs(m_timing.raw_time));
        }
        if (std::abs(scale - 1.0) > 1e-9)
            text += tr(" The chart draws every stage ×%1 longer, so one iteration lasts %2 ms as in the "
                       "headline.")
                        .arg(QLocale().toString(scale, 'f', 3), formatMs(m_timing.iteration_time));
        if (!m_best && m_model->jobCount() == 2) {
            try {
                const cl::GroupTiming best = cl::groupTiming(stages, m_model->soloTimes(), true, contention);
                text +=
                    tr(" The matching graph weighs this pair at its best ordering (γ = %1), as Muri does; "
                       "this worst ordering reaches γ = %2.")
                        .arg(QLocale().toString(best.gamma, 'f', 2),
                             QLocale().toString(m_timing.gamma, 'f', 2));
            } catch (const std::exception&) {
            }
        }
        text += lateStageText();
        text += tradeText();
        m_detail->setText(text);
    } else {
        m_gantt->clear();
        m_detail->clear();
    }
    m_result->setText(resultText());
    m_result->setToolTip(resultText());
    m_formula->setText(formulaText());
    if (m_matchingSource->currentIndex() == kMatchTable) updateMatching();
    emit resultChanged();
}

void InterleavePanel::updateMatching() {
    m_matching->setContention(m_contention->isChecked() ? cl::Contention{} : cl::Contention::none());
    switch (m_matchingSource->currentIndex()) {
        case kMatchFig4:
            m_matching->setJobs(
                {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D")},
                {kFig4A, kFig4B, kFig4C, kFig4D}, stageNames(2));
            break;
        case kMatchAllModels: {
            if (!m_profiles) break;
            const int gpus = m_gpus->currentData().toInt();
            QStringList names;
            std::vector<std::vector<double>> stages;
            for (const auto& name : m_profiles->modelNames()) {
                const cl::ModelProfile* m = m_profiles->find(name);
                const cl::GpuCountProfile* g = m ? m->at(gpus) : nullptr;
                if (!g || g->stage_times.size() != static_cast<std::size_t>(cl::kSlotRuleStages)) continue;
                names << QString::fromStdString(name);
                std::vector<double> ms;
                for (double s : g->stage_times) ms.push_back(s * 1000.0);
                stages.push_back(ms);
                if (names.size() == MatchingView::kMaxJobs) break;
            }
            m_matching->setJobs(names, stages, stageNames(cl::kSlotRuleStages));
            break;
        }
        default:
            m_matching->setJobs(m_model->names(), m_model->stages(),
                                stageNames(static_cast<std::size_t>(m_model->stageCount())));
            break;
    }
    // A job keeps its colour in both pictures when the graph holds it (same name).
    std::vector<int> palette_slots;
    for (const QString& name : m_model->names())
        if (const auto at = m_matching->names().indexOf(name); at >= 0)
            palette_slots.push_back(static_cast<int>(at));
    if (palette_slots.size() != static_cast<std::size_t>(m_model->jobCount())) palette_slots.clear();
    m_gantt->setColorSlots(palette_slots);
}

}  // namespace cl::views
