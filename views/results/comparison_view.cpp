#include "views/results/comparison_view.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QPainter>
#include <QPicture>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include "core/metrics/cluster_cost.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/common/chart_style.h"
#include "views/common/format.h"
#include "views/common/plan_filter.h"
#include "views/results/results_view.h"

namespace cl::views {

namespace {

// The least height of a chart on a 1366x768 screen (docs/architecture.md 1.6).
constexpr int kMinChartHeight = 200;

// A table never shorter than its header, `rows` rows and a horizontal scroll bar.
void keepRoomForRows(QTableView* table, int rows) {
    table->setMinimumHeight(table->horizontalHeader()->sizeHint().height() +
                            rows * table->verticalHeader()->defaultSectionSize() + 2 * table->frameWidth() +
                            table->horizontalScrollBar()->sizeHint().height());
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Runs ticked by default at most: every run has a colour of its own (chart_style.h), but more
// bars per group than this are hard to read.
constexpr int kPaletteSize = 8;

// Share of a category's width the bars of all runs fill together.
constexpr double kGroupWidth = 0.8;

struct TimeUnit {
    double seconds;
    const char* suffix;
};

TimeUnit unitFor(double largest_seconds) {
    if (largest_seconds < 2.0 * 60.0) return {1.0, "s"};
    if (largest_seconds < 2.0 * 3600.0) return {60.0, "min"};
    if (largest_seconds < 2.0 * 86400.0) return {3600.0, "h"};
    return {86400.0, "d"};
}

// Data stays in seconds (so what is plotted is exactly the run's data); ticks and labels
// are in a readable unit named by the axis label.
class DurationTicker : public QCPAxisTicker {
public:
    explicit DurationTicker(double unit) : m_unit(unit) {}

protected:
    double getTickStep(const QCPRange& range) override {
        return m_unit * QCPAxisTicker::getTickStep(QCPRange(range.lower / m_unit, range.upper / m_unit));
    }
    QString getTickLabel(double tick, const QLocale& locale, QChar format, int precision) override {
        return QCPAxisTicker::getTickLabel(tick / m_unit, locale, format, precision);
    }

private:
    double m_unit;
};

// Log-scale ticks at round durations (1 min, 10 min, 1 h, ...) instead of powers of ten
// of seconds, which nobody reads as times.
class LogDurationTicker : public QCPAxisTicker {
protected:
    int getSubTickCount(double) override { return 0; }
    QVector<double> createTickVector(double, const QCPRange& range) override {
        static const double kDense[] = {
            1,         2,     5,         10,        20,         30,         60,         120,
            300,       600,   1200,      1800,      3600,       7200,       3 * 3600,   6 * 3600,
            12 * 3600, 86400, 2 * 86400, 5 * 86400, 10 * 86400, 20 * 86400, 50 * 86400, 100 * 86400};
        static const double kSparse[] = {1, 10, 60, 600, 3600, 10 * 3600, 86400, 10 * 86400, 100 * 86400};
        QVector<double> ticks;
        for (double t : kDense)
            if (t >= range.lower && t <= range.upper) ticks << t;
        if (ticks.size() > 9) {
            ticks.clear();
            for (double t : kSparse)
                if (t >= range.lower && t <= range.upper) ticks << t;
        }
        return ticks;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return formatDuration(tick); }
};

// As many legend entries per row as fit the width, so a narrow export wraps instead of
// cutting names off.
void fitLegend(QCustomPlot* plot, double width) {
    QCPLegend* legend = plot->legend;
    const QFontMetricsF fm(legend->font());
    double widest = 0.0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            widest = std::max(widest, fm.horizontalAdvance(item->plottable()->name()));
    const double entry =
        widest + legend->iconSize().width() + legend->iconTextPadding() + 3.0 * fm.averageCharWidth();
    const int columns = entry > 0 ? static_cast<int>(width / entry) : 1;
    const int wrap = std::clamp(columns, 1, std::max(1, legend->itemCount()));
    // setWrap alone only affects entries added later; re-filling moves the present ones.
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), /*rearrange=*/true);
}

// Bar charts place value labels and set their own y range; the line charts do neither.
bool hasBars(ComparisonView::Chart chart) {
    return chart != ComparisonView::CdfChart && chart != ComparisonView::LoadChart;
}

QString runLabel(const cl::RunInfo& info) {
    return QStringLiteral("%1 \u00b7 %2")
        .arg(QString::fromStdString(info.scenario_name), QString::fromStdString(info.policy));
}

}  // namespace

double offeredLoadPerHour(const std::vector<cl::JobRecord>& jobs) {
    if (jobs.size() < 2) return kNaN;
    const auto [first, last] = std::minmax_element(
        jobs.begin(), jobs.end(),
        [](const cl::JobRecord& a, const cl::JobRecord& b) { return a.submit < b.submit; });
    const double span = last->submit - first->submit;
    if (!(span > 0.0)) return kNaN;
    return static_cast<double>(jobs.size() - 1) / span * 3600.0;
}

namespace {

// The first `columns` columns of a model, for the report's table.
class LeadingColumnsProxy : public QSortFilterProxyModel {
public:
    LeadingColumnsProxy(int columns, QObject* parent) : QSortFilterProxyModel(parent), m_columns(columns) {}

protected:
    bool filterAcceptsColumn(int column, const QModelIndex&) const override { return column < m_columns; }

private:
    int m_columns;
};

}  // namespace

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent) {
    m_model = new ComparisonModel(this);
    auto* report = new LeadingColumnsProxy(ComparisonModel::P95QueueingColumn, this);
    report->setSourceModel(m_model);
    m_reportTable = report;
    buildUi();
    connect(m_model, &ComparisonModel::baselineChanged, this, [this](int) {
        syncBaselineCombo();
        rebuildNormalized();
        emit baselineRunChanged(baselineRun());
    });
    showMessage(tr("Tick runs in the list to compare them"));
    rebuildAll();
}

ComparisonView::~ComparisonView() = default;

QSize ComparisonView::sizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 160, fm.height() * 45};
}

void ComparisonView::buildUi() {
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    outer->addWidget(split);

    // Left: the runs to compare.
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* runsTitle = new QLabel(tr("&Runs"), left);
    m_runList = new QListWidget(left);
    runsTitle->setBuddy(m_runList);
    m_runList->setToolTip(tr("Finished runs in the workspace: tick the ones to compare (Space toggles)"));
    m_runList->setAccessibleName(tr("Runs to compare"));
    connect(m_runList, &QListWidget::itemChanged, this, &ComparisonView::onItemChanged);
    leftLayout->addWidget(runsTitle);
    leftLayout->addWidget(m_runList);

    // Right: controls, charts, table.
    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto* baselineLabel = new QLabel(tr("&Baseline:"), right);
    m_baseline = new QComboBox(right);
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baseline->setToolTip(tr("The run every other run is divided by in the normalized chart and table"));
    baselineLabel->setBuddy(m_baseline);
    connect(m_baseline, &QComboBox::activated, this, [this](int index) {
        m_model->setBaseline(index);
        m_userChose = true;
        emit selectionEdited();
    });
    bar->addWidget(baselineLabel);
    bar->addWidget(m_baseline);
    bar->addStretch(1);
    rightLayout->addLayout(bar);

    m_banner = new QLabel(right);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    rightLayout->addWidget(m_banner);
    // Framed in amber so that it reads as a warning on the light and the dark theme alike.
    m_traceWarning = new QLabel(right);
    m_traceWarning->setObjectName(QStringLiteral("traceWarning"));
    m_traceWarning->setWordWrap(true);
    m_traceWarning->setVisible(false);
    m_traceWarning->setStyleSheet(
        QStringLiteral("QLabel#traceWarning { border: 1px solid #c18500; border-left: 4px solid #c18500; "
                       "background: rgba(193, 133, 0, 40); padding: 4px; }"));
    rightLayout->addWidget(m_traceWarning);

    auto* vsplit = new QSplitter(Qt::Vertical, right);
    rightLayout->addWidget(vsplit, 1);
    m_tabs = new QTabWidget(vsplit);
    m_tabs->setToolTip(tr("Chart of the compared runs (Ctrl+PgUp / Ctrl+PgDown switch)"));
    m_tabs->setDocumentMode(true);

    const char* names[ChartCount] = {QT_TR_NOOP("&Normalized"), QT_TR_NOOP("JCT &CDF"),
                                     QT_TR_NOOP("By &model"), QT_TR_NOOP("&Large vs small"),
                                     QT_TR_NOOP("JCT vs l&oad")};
    const char* tips[ChartCount] = {
        QT_TR_NOOP("Average JCT, p99 JCT, makespan and queueing of each run divided by the baseline's"),
        QT_TR_NOOP("Cumulative distribution of job completion times, one line per run"),
        QT_TR_NOOP("Average JCT of the completed jobs of each model, per run"),
        QT_TR_NOOP("Average JCT of small and large jobs, per run"),
        QT_TR_NOOP(
            "Average JCT of each run against its trace's arrival rate, one line per policy (the Synergy "
            "paper's Fig. 9); for load sweeps such as 'clusterloom-cli experiment synergy'")};
    for (int c = 0; c < ChartCount; ++c) {
        auto* page = new QWidget(m_tabs);
        auto* pageLayout = new QVBoxLayout(page);
        pageLayout->setContentsMargins(0, 0, 0, 0);
        if (c == CdfChart) {
            m_logX = new QCheckBox(tr("Logarithmic &time axis"), page);
            m_logX->setChecked(true);
            m_logX->setToolTip(tr("JCTs span minutes to days: a log axis shows short and long jobs alike"));
            connect(m_logX, &QCheckBox::toggled, this, [this] { rebuildCdf(); });
            pageLayout->addWidget(m_logX);
        }
        if (c == SizeChart) {
            auto* row = new QHBoxLayout;
            auto* label = new QLabel(tr("Large jobs use more &than"), page);
            m_threshold = new QSpinBox(page);
            m_threshold->setRange(1, 1024);
            m_threshold->setValue(kDefaultLargeJobThreshold);
            m_threshold->setSuffix(tr(" GPUs"));
            m_threshold->setToolTip(
                tr("Jobs asking for more GPUs than this are large. The default, more than %1 (more than one "
                   "8-GPU server), is the split of the Muri and Synergy evaluations")
                    .arg(kDefaultLargeJobThreshold));
            label->setBuddy(m_threshold);
            connect(m_threshold, &QSpinBox::valueChanged, this, [this] { rebuildSizes(); });
            m_sizeCounts = new QLabel(page);
            row->addWidget(label);
            row->addWidget(m_threshold);
            row->addSpacing(fontMetrics().averageCharWidth() * 3);
            row->addWidget(m_sizeCounts, 1);
            pageLayout->addLayout(row);
        }
        if (c == LoadChart) {
            m_loadNote = new QLabel(page);
            m_loadNote->setWordWrap(true);
            m_loadNote->setVisible(false);
            pageLayout->addWidget(m_loadNote);
        }
        // The shared chart look (title, legend in rows under the axes, palette colours).
        auto* plot = new ThemedPlot(page);
        plot->setObjectName(QStringLiteral("comparisonPlot%1").arg(c));
        plot->setAntialiasedElements(QCP::aeAll);
        plot->setNoAntialiasingOnDrag(true);
        plot->legend->setVisible(true);
        plot->installEventFilter(this);
        // The legend wraps to the width its entries need, measured as the plot is laid out.
        connect(plot, &QCustomPlot::beforeReplot, plot,
                [plot] { fitLegend(plot, plot->viewport().width()); });
        connect(plot, &QCustomPlot::mouseMove, this,
                [this, c](QMouseEvent* event) { showBarTip(static_cast<Chart>(c), event->pos()); });
        plot->setMinimumHeight(kMinChartHeight);
        pageLayout->addWidget(plot, 1);
        m_plots[c] = plot;
        m_tabs->addTab(page, tr(names[c]));
        m_tabs->setTabToolTip(c, tr(tips[c]));
    }

    m_table = new QTableView(vsplit);
    m_table->setModel(m_model);
    m_table->setToolTip(tr("The compared runs' metrics; the columns 'vs base' divide by the baseline run"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ComparisonModel::RunColumn, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && index < ChartCount) fitLabelsToWidget(static_cast<Chart>(index));
    });
    // Both stay readable on a 1366x768 screen (docs/architecture.md 1.6): the chart at least
    // kMinChartHeight, the table five rows; the splitter never collapses either.
    keepRoomForRows(m_table, 5);
    vsplit->setChildrenCollapsible(false);
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 1);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    const QFontMetrics fm(font());
    split->setSizes({fm.averageCharWidth() * 32, fm.averageCharWidth() * 140});
    vsplit->setSizes({fm.height() * 30, fm.height() * 8});
}

void ComparisonView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (!m_tabs) return;  // during construction
    // The plots restyle themselves (ThemedPlot); their series take the new palette's colours.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) rebuildAll();
}

bool ComparisonView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize) {
        for (int c = 0; c < ChartCount; ++c)
            if (watched == m_plots[c]) fitLabelsToWidget(static_cast<Chart>(c));
    }
    return QWidget::eventFilter(watched, event);
}

// ---- runs -----------------------------------------------------------------------------------

void ComparisonView::setStore(cl::ScenarioStore* store) {
    m_store = store;
    m_loaded.clear();
    m_selected.clear();
    m_userChose = false;
    m_focus.clear();
    m_knownScenarios.clear();
    if (!m_store) {
        fillRunList({});
        loadSelection();
        return;
    }
    applyDefaultSelection();
}

void ComparisonView::setFocusScenario(const QString& name) {
    if (name == m_focus) return;
    m_focus = name;
    if (m_store && !m_userChose) applyDefaultSelection();
}

QList<qint64> ComparisonView::defaultSelection(qint64* baseline) {
    *baseline = 0;
    const QList<qint64> latest = latestRuns();
    if (latest.isEmpty()) return {};
    QList<qint64> chosen;
    try {
        QHash<qint64, cl::ScenarioSpec> specs;
        for (const cl::ScenarioInfo& info : m_store->scenarios()) specs.insert(info.id, info.spec);
        QHash<qint64, qint64> scenarioOfRun;
        for (const cl::RunInfo& info : m_store->runs()) scenarioOfRun.insert(info.id, info.scenario_id);
        // Without a selected scenario (or one never run), the first run's scenario leads.
        const std::optional<cl::ScenarioInfo> focus =
            m_focus.isEmpty() ? std::nullopt : m_store->findScenario(m_focus.toStdString());
        const qint64 leadScenario = focus ? focus->id : scenarioOfRun.value(latest.first());
        const cl::ScenarioSpec lead = focus ? focus->spec : specs.value(leadScenario);
        const QString family = ResultsView::familyOf(QString::fromStdString(lead.name));
        const qint64 baseScenario = focus ? whatIfSourceOf(*focus, latest, scenarioOfRun) : leadScenario;
        qint64 leadRun = 0;
        for (qint64 run : latest) {
            const qint64 scenario = scenarioOfRun.value(run);
            const cl::ScenarioSpec& spec = specs[scenario];
            if (scenario == baseScenario)
                *baseline = run;
            else if (scenario == leadScenario)
                leadRun = run;
            else if (spec.trace_id == lead.trace_id &&
                     ResultsView::familyOf(QString::fromStdString(spec.name)) == family)
                chosen << run;
        }
        // The newest runs (what-ifs just made) when the family has more than colours.
        const int room = kPaletteSize - (*baseline != 0 ? 1 : 0) - (leadRun != 0 ? 1 : 0);
        if (chosen.size() > room) {
            QList<qint64> newest = chosen;
            std::sort(newest.begin(), newest.end());
            newest = newest.mid(newest.size() - room);
            chosen.erase(
                std::remove_if(chosen.begin(), chosen.end(), [&](qint64 id) { return !newest.contains(id); }),
                chosen.end());
        }
        if (leadRun != 0) chosen.prepend(leadRun);
        if (*baseline != 0) chosen.prepend(*baseline);
    } catch (const std::exception& e) {
        showMessage(tr("Could not read the runs of the workspace: %1").arg(QString::fromUtf8(e.what())));
        return {};
    }
    return chosen;
}

qint64 ComparisonView::whatIfSourceOf(const cl::ScenarioInfo& scenario, const QList<qint64>& latest,
                                      const QHash<qint64, qint64>& scenarioOfRun) {
    // A what-if is compared with the scenario it was made from, when that one ran the same
    // trace: "X (what if)" and "X (what if) (2)" are the workspace's copies of X, and
    // "X/n<servers>/x<load>/<policy>" the Run panel's variants of X (whatIfVariants).
    const QString name = QString::fromStdString(scenario.spec.name);
    QStringList sources;
    static const QRegularExpression copy(QStringLiteral("^(.*) \\(what if\\)( \\(\\d+\\))?$"));
    if (const QRegularExpressionMatch match = copy.match(name); match.hasMatch())
        sources << match.captured(1);
    for (qsizetype slash = name.lastIndexOf(QLatin1Char('/')); slash > 0;
         slash = name.lastIndexOf(QLatin1Char('/'), slash - 1))
        sources << name.left(slash);
    QSet<qint64> ran;
    for (qint64 run : latest) ran.insert(scenarioOfRun.value(run));
    for (const QString& source : std::as_const(sources)) {
        const std::optional<cl::ScenarioInfo> info = m_store->findScenario(source.toStdString());
        if (info && ran.contains(info->id) && info->spec.trace_id == scenario.spec.trace_id) return info->id;
    }
    return scenario.id;
}

void ComparisonView::applyDefaultSelection() {
    qint64 baseline = 0;
    m_selected = defaultSelection(&baseline);
    fillRunList(m_selected);
    loadSelection();
    if (baseline != 0) setBaselineRun(baseline);
}

void ComparisonView::restoreSelection(const QList<qint64>& runIds, qint64 baselineRunId) {
    if (!m_store) return;
    m_userChose = true;
    m_selected = runIds;
    QHash<qint64, qint64> scenarioOf, newest;
    try {
        for (const cl::RunInfo& info : m_store->runs()) {
            scenarioOf.insert(info.id, info.scenario_id);
            if (info.status == cl::RunStatus::Finished)
                newest[info.scenario_id] = std::max<qint64>(newest.value(info.scenario_id, 0), info.id);
        }
    } catch (const std::exception& e) {
        showMessage(tr("Could not read the runs of the workspace: %1").arg(QString::fromUtf8(e.what())));
    }
    refreshRuns();
    const qint64 baseline = newest.value(scenarioOf.value(baselineRunId), baselineRunId);
    setBaselineRun(baseline);
}

QList<qint64> ComparisonView::latestRuns() {
    // The latest finished run of each scenario, in the order the scenarios were run first.
    // A capacity plan's points are left out unless the selected scenario is a point of the same
    // plan (docs/architecture.md 7.9): dozens of them would crowd out the user's own scenarios.
    QList<qint64> latest;
    QHash<qint64, int> slot;
    const PlanFilter plans = PlanFilter::read(m_store);
    const std::string focusPlan = plans.planOf(m_focus.toStdString());
    try {
        for (const cl::RunInfo& info : m_store->runs()) {
            if (info.status != cl::RunStatus::Finished || plans.planOf(info.scenario_name) != focusPlan)
                continue;
            auto it = slot.find(info.scenario_id);
            if (it == slot.end()) {
                slot.insert(info.scenario_id, static_cast<int>(latest.size()));
                latest << info.id;
            } else if (info.id > latest[*it]) {
                latest[*it] = info.id;
            }
        }
    } catch (const std::exception& e) {
        showMessage(tr("Could not read the runs of the workspace: %1").arg(QString::fromUtf8(e.what())));
        return {};
    }
    return latest;
}

void ComparisonView::refreshRuns() {
    if (m_store && !m_userChose) {
        applyDefaultSelection();
        return;
    }
    if (m_store) {
        try {
            const qint64 baselineBefore = baselineRun();
            QHash<qint64, qint64> scenarioOf, newest;
            for (const cl::RunInfo& info : m_store->runs()) {
                if (info.status != cl::RunStatus::Finished) continue;
                scenarioOf.insert(info.id, info.scenario_id);
                newest[info.scenario_id] = std::max<qint64>(newest.value(info.scenario_id, 0), info.id);
            }
            QList<qint64> updated;
            for (qint64 id : std::as_const(m_selected))
                if (scenarioOf.contains(id) && !updated.contains(newest.value(scenarioOf.value(id))))
                    updated << newest.value(scenarioOf.value(id));
            // A scenario run for the first time since the last refresh (a what-if just run) is
            // compared when it belongs with the baseline: same family, same trace.
            if (!m_knownScenarios.isEmpty() && baselineBefore != 0 && scenarioOf.contains(baselineBefore)) {
                QHash<qint64, cl::ScenarioSpec> specs;
                for (const cl::ScenarioInfo& info : m_store->scenarios()) specs.insert(info.id, info.spec);
                const cl::ScenarioSpec base = specs.value(scenarioOf.value(baselineBefore));
                const QString family = ResultsView::familyOf(QString::fromStdString(base.name));
                for (auto it = newest.cbegin(); it != newest.cend(); ++it) {
                    const cl::ScenarioSpec& spec = specs[it.key()];
                    if (!m_knownScenarios.contains(it.key()) && spec.trace_id == base.trace_id &&
                        ResultsView::familyOf(QString::fromStdString(spec.name)) == family &&
                        !updated.contains(it.value()))
                        updated << it.value();
                }
            }
            m_selected = updated;
            fillRunList(m_selected);
            loadSelection();
            if (scenarioOf.contains(baselineBefore))
                setBaselineRun(newest.value(scenarioOf.value(baselineBefore)));
            return;
        } catch (const std::exception& e) {
            showMessage(tr("Could not read the runs of the workspace: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    fillRunList(m_selected);
    loadSelection();
}

void ComparisonView::fillRunList(const QList<qint64>& checked) {
    m_filling = true;
    m_runList->clear();
    m_knownScenarios.clear();
    if (m_store) {
        // The runs of a capacity plan's points are listed only while compared (docs/architecture.md
        // 7.9): the Plan view opens them here; the list is for choosing the user's own runs.
        const PlanFilter plans = PlanFilter::read(m_store);
        try {
            for (const cl::RunInfo& info : m_store->runs()) {
                if (info.status != cl::RunStatus::Finished) continue;
                if (!checked.contains(info.id) && plans.isPlanPoint(info.scenario_name)) continue;
                auto* item = new QListWidgetItem(runLabel(info), m_runList);
                item->setData(Qt::UserRole, QVariant::fromValue<qint64>(info.id));
                item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
                item->setCheckState(checked.contains(info.id) ? Qt::Checked : Qt::Unchecked);
                m_knownScenarios.insert(info.scenario_id);
                item->setToolTip(tr("Run %1 of %2, finished %3: %4 of %5 jobs completed, avg JCT %6")
                                     .arg(info.id)
                                     .arg(QString::fromStdString(info.scenario_name),
                                          QString::fromStdString(info.finished))
                                     .arg(info.summary.completed)
                                     .arg(info.summary.jobs)
                                     .arg(formatDuration(info.summary.avg_jct)));
            }
        } catch (const std::exception& e) {
            showMessage(tr("Could not read the runs of the workspace: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    m_filling = false;
}

void ComparisonView::onItemChanged(QListWidgetItem* item) {
    if (m_filling) return;
    const qint64 id = item->data(Qt::UserRole).value<qint64>();
    if (item->checkState() == Qt::Checked) {
        if (!m_selected.contains(id)) m_selected << id;
    } else {
        m_selected.removeAll(id);
    }
    m_userChose = true;
    loadSelection();
    emit selectionEdited();
}

void ComparisonView::setRuns(const QList<qint64>& runIds) {
    m_userChose = true;
    m_selected.clear();
    for (qint64 id : runIds)
        if (!m_selected.contains(id)) m_selected << id;
    fillRunList(m_selected);
    loadSelection();
}

QString ComparisonView::reportTailAndCostHtml() const {
    const auto cell = [this](int row, int column) {
        return m_model->index(row, column).data().toString().toHtmlEscaped();
    };
    const auto header = [this](int column) {
        return m_model->headerData(column, Qt::Horizontal).toString().toHtmlEscaped();
    };
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">%1</th>")
                       .arg(header(ComparisonModel::RunColumn));
    const int columns[] = {ComparisonModel::P95QueueingColumn, ComparisonModel::P95QueueingRelativeColumn,
                           ComparisonModel::CostColumn, ComparisonModel::CostPerMonthColumn};
    for (int c : columns) html += QStringLiteral("<th align=\"right\">%1</th>").arg(header(c));
    html += QStringLiteral("</tr>");
    for (int r = 0; r < m_model->rowCount(); ++r) {
        html += QStringLiteral("<tr><td>%1</td>").arg(cell(r, ComparisonModel::RunColumn));
        for (int c : columns) html += QStringLiteral("<td align=\"right\">%1</td>").arg(cell(r, c));
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

QList<qint64> ComparisonView::runs() const {
    QList<qint64> ids;
    for (int r = 0; r < m_model->rowCount(); ++r) ids << m_model->runId(r);
    return ids;
}

void ComparisonView::setBaselineRun(qint64 runId) {
    const int row = m_model->rowOfRun(runId);
    if (row >= 0) m_model->setBaseline(row);
}

qint64 ComparisonView::baselineRun() const {
    return m_model->baseline() >= 0 ? m_model->runId(m_model->baseline()) : 0;
}

void ComparisonView::loadSelection() {
    std::vector<ComparisonModel::Run> compared;
    QStringList failures;
    QHash<qint64, cl::SimResult> kept;
    for (qint64 id : std::as_const(m_selected)) {
        if (!m_store) break;
        try {
            const cl::RunInfo info = m_store->runInfo(id);
            if (info.status != cl::RunStatus::Finished) {
                failures << tr("run %1 has not finished").arg(id);
                continue;
            }
            if (!m_loaded.contains(id)) m_loaded.insert(id, m_store->loadRun(id, /*with_segments=*/false));
            kept.insert(id, m_loaded.value(id));
            ComparisonModel::Run run{id, runLabel(info), m_loaded.value(id), std::nullopt, 0};
            // The cost of the run's cluster as the scenario ran it (docs/architecture.md 7.8).
            const cl::Cluster cluster =
                cl::scenarioCluster(*m_store, m_store->scenario(info.scenario_name).spec);
            run.cost = cl::clusterCost(cluster);
            run.cluster_servers = static_cast<int>(cluster.servers.size());
            compared.push_back(std::move(run));
        } catch (const std::exception& e) {
            failures << tr("run %1: %2").arg(id).arg(QString::fromUtf8(e.what()));
        }
    }
    m_loaded = kept;
    // Two runs of the same scenario and policy get their run ids, or the legend is ambiguous.
    std::vector<QString> plain;
    for (const auto& run : compared) plain.push_back(run.label);
    for (std::size_t i = 0; i < compared.size(); ++i)
        if (std::count(plain.begin(), plain.end(), plain[i]) > 1)
            compared[i].label += tr(" (run %1)").arg(compared[i].id);
    m_splits.clear();
    m_model->setRuns(std::move(compared));
    if (!failures.isEmpty())
        showMessage(tr("Some runs could not be compared: %1").arg(failures.join(QStringLiteral("; "))));
    else if (m_model->rowCount() == 0)
        showMessage(m_store ? tr("Tick runs in the list to compare them")
                            : tr("Open a workspace to compare its runs"));
    else
        showMessage({});
    updateTraceWarning();
    rebuildAll();
    emit runsChanged(runs());
}

void ComparisonView::updateTraceWarning() {
    QString warning;
    if (m_store && m_model->rowCount() > 1) {
        try {
            QHash<qint64, qint64> traceOfScenario;
            for (const cl::ScenarioInfo& info : m_store->scenarios())
                traceOfScenario.insert(info.id, info.spec.trace_id);
            QHash<qint64, QString> traceNames;
            for (const cl::StoredItem& item : m_store->traces())
                traceNames.insert(item.id, QString::fromStdString(item.name));
            // Runs grouped by trace, in the rows' order.
            QList<qint64> traces;
            QHash<qint64, QStringList> runsOf;
            for (int r = 0; r < m_model->rowCount(); ++r) {
                const qint64 trace = traceOfScenario.value(m_store->runInfo(m_model->runId(r)).scenario_id);
                if (!traces.contains(trace)) traces << trace;
                runsOf[trace] << m_model->label(r);
            }
            if (traces.size() > 1) {
                QStringList parts;
                for (qint64 trace : std::as_const(traces))
                    parts << tr("trace “%1”: %2")
                                 .arg(traceNames.value(trace, tr("#%1").arg(trace)),
                                      runsOf.value(trace).join(QStringLiteral(", ")));
                warning = tr("⚠ The compared runs ran different traces, so their ratios to the "
                             "baseline compare different workloads. %1.")
                              .arg(parts.join(QStringLiteral("; ")));
            }
        } catch (const std::exception& e) {
            warning = tr("Could not check the runs' traces: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    m_traceWarning->setText(warning);
    m_traceWarning->setVisible(!warning.isEmpty());
}

QString ComparisonView::traceWarning() const {
    return m_traceWarning->isHidden() ? QString() : m_traceWarning->text();
}

void ComparisonView::showMessage(const QString& text) {
    m_banner->setText(text);
    m_banner->setVisible(!text.isEmpty());
}

QString ComparisonView::message() const {
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void ComparisonView::syncBaselineCombo() {
    m_baseline->clear();
    for (int r = 0; r < m_model->rowCount(); ++r) m_baseline->addItem(m_model->label(r));
    m_baseline->setCurrentIndex(m_model->baseline());
    m_baseline->setEnabled(m_model->rowCount() > 1);
}

void ComparisonView::setCurrentChart(Chart chart) {
    m_tabs->setCurrentIndex(chart);
}

ComparisonView::Chart ComparisonView::currentChart() const {
    return static_cast<Chart>(m_tabs->currentIndex());
}

void ComparisonView::setLargeJobThreshold(int gpus) {
    m_threshold->setValue(gpus);
}

int ComparisonView::largeJobThreshold() const {
    return m_threshold->value();
}

void ComparisonView::setLogTimeAxis(bool on) {
    m_logX->setChecked(on);
}

bool ComparisonView::logTimeAxis() const {
    return m_logX->isChecked();
}

// ---- charts -------------------------------------------------------------------------------

void ComparisonView::rebuildAll() {
    syncBaselineCombo();
    rebuildNormalized();
    rebuildCdf();
    rebuildModels();
    rebuildSizes();
    rebuildLoad();
}

void ComparisonView::preparePlot(Chart chart, const QString& title) {
    QCustomPlot* plot = m_plots[chart];
    plot->clearPlottables();
    plot->clearItems();
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setLabel(QString());
        axis->grid()->setVisible(true);
    }
    plot->xAxis->grid()->setVisible(!hasBars(chart));
    m_bars[chart] = {};
    m_barTips[chart].clear();
    m_plots[chart]->setTitle(title);
    plot->legend->setVisible(m_model->rowCount() > 0);
}

void ComparisonView::addGroupedBars(Chart chart, const QStringList& categories,
                                    const std::vector<std::vector<double>>& values,
                                    const std::vector<QStringList>& labels,
                                    const std::vector<QStringList>& tips) {
    QCustomPlot* plot = m_plots[chart];
    const int series = static_cast<int>(values.size());
    BarLayout& layout = m_bars[chart];
    layout.bar_width = kGroupWidth / std::max(series, 1);
    QFont labelFont = font();
    labelFont.setPointSizeF(font().pointSizeF() * 0.9);
    for (int s = 0; s < series; ++s) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(m_model->label(s) +
                      (s == m_model->baseline() && chart == NormalizedChart ? tr(" (baseline)") : QString()));
        const QColor color = seriesColor(s);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(140), 0.8));
        bars->setWidth(layout.bar_width);
        bars->setSelectable(QCP::stNone);
        const double offset = (s - (series - 1) / 2.0) * layout.bar_width;
        QVector<double> keys, heights;
        std::vector<QString> barTips;
        for (int k = 0; k < categories.size(); ++k) {
            const double v = values[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)];
            if (std::isnan(v)) continue;  // no bar rather than a zero that reads as data
            keys << k + offset;
            heights << v;
            barTips.push_back(tips[static_cast<std::size_t>(s)][k]);
            layout.top = std::max(layout.top, v);
            auto* text = new QCPItemText(plot);
            text->setText(labels[static_cast<std::size_t>(s)][k]);
            text->setFont(labelFont);
            text->setColor(palette().color(QPalette::Text));
            text->setClipToAxisRect(false);
            text->position->setType(QCPItemPosition::ptPlotCoords);
            text->position->setCoords(k + offset, v);
            text->setSelectable(false);
            layout.labels.push_back({text, k + offset, v});
        }
        bars->setData(keys, heights, /*alreadySorted=*/true);
        m_barTips[chart].push_back(barTips);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int k = 0; k < categories.size(); ++k) ticker->addTick(k, categories[k]);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setTickLength(0, 0);
    plot->xAxis->setSubTicks(false);
    plot->xAxis->setRange(-0.5, std::max<qsizetype>(categories.size(), 1) - 0.5);
}

// Value labels sit on their bars when they fit across them, else they stand upright; the y
// range leaves room for the tallest one either way.
void ComparisonView::layoutLabels(Chart chart, QSizeF axisRectSize) {
    QCustomPlot* plot = m_plots[chart];
    BarLayout& layout = m_bars[chart];
    double top = std::max(layout.top, layout.floor_top);
    if (top <= 0.0) top = 1.0;
    if (layout.labels.empty()) {
        plot->yAxis->setRange(0.0, top * 1.1);
        return;
    }
    const QFontMetricsF fm(layout.labels.front().item->font());
    double widest = 0.0;
    for (const ValueLabel& l : layout.labels) widest = std::max(widest, fm.horizontalAdvance(l.item->text()));
    const bool known = axisRectSize.width() > 0 && axisRectSize.height() > 0;
    const double barPx = known ? layout.bar_width * axisRectSize.width() / plot->xAxis->range().size() : 0.0;
    // Neighbouring labels need a gap, or "3.1 h" and "2.9 h" read as one.
    const bool upright = known && widest + 2.0 * fm.averageCharWidth() > barPx;
    const double pad = fm.height() * 0.25;
    for (const ValueLabel& l : layout.labels) {
        l.item->setRotation(upright ? -90.0 : 0.0);
        l.item->setPositionAlignment(upright ? (Qt::AlignLeft | Qt::AlignVCenter)
                                             : (Qt::AlignHCenter | Qt::AlignBottom));
        l.item->setPadding(upright ? QMargins(qRound(pad), 0, 0, 0) : QMargins(0, 0, 0, qRound(pad)));
    }
    // Category names that would run into each other slant instead.
    if (auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>(); ticker && known) {
        const QFontMetricsF tickFm(plot->xAxis->tickLabelFont());
        double widestName = 0.0;
        for (const QString& name : ticker->ticks())
            for (const QString& line : name.split(QLatin1Char('\n')))
                widestName = std::max(widestName, tickFm.horizontalAdvance(line));
        const double categoryPx = axisRectSize.width() / plot->xAxis->range().size();
        plot->xAxis->setTickLabelRotation(widestName + tickFm.averageCharWidth() > categoryPx ? -35.0 : 0.0);
    }
    const double height = known ? axisRectSize.height() : fm.height() * 20.0;
    const double needPx = (upright ? widest : fm.height()) + 2.0 * pad;
    const double share = std::clamp(needPx / height, 0.05, 0.6);
    // The tallest bar ends where its label still fits below the top of the axes.
    plot->yAxis->setRange(0.0, std::max(layout.top / (1.0 - share), top * 1.08));
}

void ComparisonView::fitLabelsToWidget(Chart chart) {
    QCustomPlot* plot = m_plots[chart];
    // The margins around the axes stay when the plot is resized: take them from the last
    // layout (viewport minus axis rect), or estimate them from the font before there was one.
    const QRect viewport = plot->viewport();
    const QRect axes = plot->axisRect()->rect();
    QSizeF margins(viewport.width() - axes.width(), viewport.height() - axes.height());
    if (axes.width() <= 0 || axes.height() <= 0 || margins.width() <= 0 || margins.height() <= 0) {
        const QFontMetricsF fm(font());
        margins = QSizeF(fm.averageCharWidth() * 12, fm.height() * 7);
    }
    if (hasBars(chart))
        layoutLabels(chart, QSizeF(plot->width() - margins.width(), plot->height() - margins.height()));
    fitLegend(plot, plot->width());
    plot->replot();
}

void ComparisonView::rebuildNormalized() {
    const int rows = m_model->rowCount();
    const QString baseLabel = m_model->baseline() >= 0 ? m_model->label(m_model->baseline()) : QString();
    preparePlot(NormalizedChart, rows == 0 ? tr("Normalized to a baseline run")
                                           : tr("Relative to %1 (lower is better)").arg(baseLabel));
    QCustomPlot* plot = m_plots[NormalizedChart];
    QStringList categories;
    for (int m = 0; m < ComparisonModel::kMetricCount; ++m) {
        const auto metric = static_cast<ComparisonModel::Metric>(m);
        categories << ComparisonModel::metricName(metric);
        // A baseline of 0 (no job waited) gives no ratio: said where the bars would be.
        if (m_model->baseline() >= 0 && !(m_model->value(m_model->baseline(), metric) > 0.0))
            categories.back() +=
                QLatin1Char('\n') + tr("(baseline %1: no ratio)")
                                        .arg(formatDuration(m_model->value(m_model->baseline(), metric)));
    }
    std::vector<std::vector<double>> values(static_cast<std::size_t>(rows));
    std::vector<QStringList> labels(static_cast<std::size_t>(rows)), tips(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        for (int m = 0; m < ComparisonModel::kMetricCount; ++m) {
            const auto metric = static_cast<ComparisonModel::Metric>(m);
            const double v = m_model->relative(r, metric);
            values[static_cast<std::size_t>(r)].push_back(v);
            labels[static_cast<std::size_t>(r)] << ComparisonModel::ratioText(v);
            tips[static_cast<std::size_t>(r)]
                << tr("%1 \u2014 %2: %3 (%4 vs %5 for the baseline)")
                       .arg(m_model->label(r), categories[m], ComparisonModel::ratioText(v),
                            formatDuration(m_model->value(r, metric)),
                            formatDuration(m_model->value(m_model->baseline(), metric)));
        }
    }
    addGroupedBars(NormalizedChart, categories, values, labels, tips);
    plot->yAxis->setLabel(tr("relative to baseline (\u00d7)"));
    m_bars[NormalizedChart].floor_top = 1.0;
    if (rows > 0) {
        auto* line = new QCPItemStraightLine(plot);
        line->point1->setCoords(0.0, 1.0);
        line->point2->setCoords(1.0, 1.0);
        line->setPen(QPen(palette().color(QPalette::Text), 1.2, Qt::DashLine));
        line->setSelectable(false);
    }
    fitLabelsToWidget(NormalizedChart);
}

void ComparisonView::rebuildCdf() {
    const int rows = m_model->rowCount();
    preparePlot(CdfChart, tr("Distribution of job completion times"));
    QCustomPlot* plot = m_plots[CdfChart];
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (int r = 0; r < rows; ++r) {
        const JctCdf cdf = jctCdf(m_model->result(r).jobs);
        QCPGraph* graph = plot->addGraph();
        graph->setName(m_model->label(r));
        graph->setPen(QPen(seriesColor(r), 2.0));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setSelectable(QCP::stNone);
        QVector<double> x(cdf.x.begin(), cdf.x.end()), y(cdf.y.begin(), cdf.y.end());
        graph->setData(x, y, /*alreadySorted=*/true);
        for (double v : cdf.x)
            if (v > 0.0) {
                lo = std::min(lo, v);
                break;
            }
        if (!cdf.x.empty()) hi = std::max(hi, cdf.x.back());
    }
    if (!(hi > 0.0)) {
        lo = 1.0;
        hi = 3600.0;
    }
    const bool log = m_logX->isChecked();
    plot->xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    const TimeUnit unit = unitFor(hi);
    if (log) {
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LogDurationTicker));
        plot->xAxis->setRange(lo / 1.25, hi * 1.25);
        plot->xAxis->setLabel(tr("job completion time (log scale)"));
    } else {
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new DurationTicker(unit.seconds)));
        plot->xAxis->setRange(0.0, hi * 1.03);
        plot->xAxis->setLabel(tr("job completion time (%1)").arg(QString::fromLatin1(unit.suffix)));
    }
    plot->xAxis->setSubTicks(!log);
    plot->xAxis->setTickLength(0, 5);
    plot->yAxis->setRange(0.0, 1.02);
    plot->yAxis->setLabel(tr("fraction of completed jobs"));
    fitLegend(plot, plot->width());
    plot->replot();
}

void ComparisonView::rebuildModels() {
    const int rows = m_model->rowCount();
    preparePlot(ModelChart, tr("Average JCT per model"));
    const cl::Comparison& c = m_model->comparison();
    std::map<std::string, bool> models;  // the union over the runs, by name
    for (const cl::ComparisonRow& row : c.rows)
        for (const auto& [name, e] : row.avg_jct_by_model) models[name] = true;
    m_models.clear();
    for (const auto& [name, unused] : models) m_models << QString::fromStdString(name);
    double top = 0.0;
    std::vector<std::vector<double>> values(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r)
        for (const auto& [name, unused] : models) {
            const auto& byModel = c.rows[static_cast<std::size_t>(r)].avg_jct_by_model;
            auto it = byModel.find(name);
            const double v = it == byModel.end() || it->second.n == 0 ? kNaN : it->second.mean;
            values[static_cast<std::size_t>(r)].push_back(v);
            if (!std::isnan(v)) top = std::max(top, v);
        }
    std::vector<QStringList> labels(static_cast<std::size_t>(rows)), tips(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < m_models.size(); ++k) {
            const double v = values[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)];
            labels[static_cast<std::size_t>(r)] << formatDuration(v);
            tips[static_cast<std::size_t>(r)]
                << tr("%1 \u2014 %2: average JCT %3")
                       .arg(m_model->label(r), m_models[k], formatDurationExact(v));
        }
    QStringList categories = m_models;
    for (QString& name : categories)
        if (name.isEmpty()) name = tr("(unnamed)");
    addGroupedBars(ModelChart, categories, values, labels, tips);
    const TimeUnit unit = unitFor(top);
    m_plots[ModelChart]->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new DurationTicker(unit.seconds)));
    m_plots[ModelChart]->yAxis->setLabel(tr("average JCT (%1)").arg(QString::fromLatin1(unit.suffix)));
    fitLabelsToWidget(ModelChart);
}

void ComparisonView::rebuildSizes() {
    const int rows = m_model->rowCount();
    const int threshold = m_threshold->value();
    preparePlot(SizeChart, tr("Average JCT of small and large jobs"));
    m_splits.clear();
    for (int r = 0; r < rows; ++r) m_splits.push_back(splitBySize(m_model->result(r).jobs, threshold));
    // Runs of one trace share the counts; then the categories name them.
    bool same = true;
    for (const SizeSplit& s : m_splits)
        same = same && s.small_jobs == m_splits.front().small_jobs &&
               s.large_jobs == m_splits.front().large_jobs;
    QString small = tr("small (\u2264 %1 GPUs)").arg(threshold);
    QString large = tr("large (> %1 GPUs)").arg(threshold);
    if (same && !m_splits.empty()) {
        small += tr("\n%n job(s)", "", m_splits.front().small_jobs);
        large += tr("\n%n job(s)", "", m_splits.front().large_jobs);
        m_sizeCounts->setText(tr("%1 small and %2 large jobs in the trace")
                                  .arg(m_splits.front().small_jobs)
                                  .arg(m_splits.front().large_jobs));
    } else {
        m_sizeCounts->setText(m_splits.empty() ? QString()
                                               : tr("The runs' traces differ; counts in the tooltips"));
    }
    double top = 0.0;
    std::vector<std::vector<double>> values;
    std::vector<QStringList> labels, tips;
    for (int r = 0; r < rows; ++r) {
        const SizeSplit& s = m_splits[static_cast<std::size_t>(r)];
        values.push_back({s.small_avg_jct, s.large_avg_jct});
        labels.push_back({formatDuration(s.small_avg_jct), formatDuration(s.large_avg_jct)});
        tips.push_back({tr("%1 \u2014 small jobs: average JCT %2 over %3 of %4 completed; p95 %5, p99 %6")
                            .arg(m_model->label(r), formatDurationExact(s.small_avg_jct))
                            .arg(s.small_completed)
                            .arg(s.small_jobs)
                            .arg(formatDuration(s.small_p95_jct), formatDuration(s.small_p99_jct)),
                        tr("%1 \u2014 large jobs: average JCT %2 over %3 of %4 completed; p95 %5, p99 %6")
                            .arg(m_model->label(r), formatDurationExact(s.large_avg_jct))
                            .arg(s.large_completed)
                            .arg(s.large_jobs)
                            .arg(formatDuration(s.large_p95_jct), formatDuration(s.large_p99_jct))});
        for (double v : {s.small_avg_jct, s.large_avg_jct})
            if (!std::isnan(v)) top = std::max(top, v);
    }
    addGroupedBars(SizeChart, {small, large}, values, labels, tips);
    const TimeUnit unit = unitFor(top);
    m_plots[SizeChart]->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new DurationTicker(unit.seconds)));
    m_plots[SizeChart]->yAxis->setLabel(tr("average JCT (%1)").arg(QString::fromLatin1(unit.suffix)));
    fitLabelsToWidget(SizeChart);
}

void ComparisonView::rebuildLoad() {
    const int rows = m_model->rowCount();
    preparePlot(LoadChart, tr("Average JCT against offered load"));
    QCustomPlot* plot = m_plots[LoadChart];
    struct Point {
        double load;
        double hours;
        QString tip;
    };
    // One line per cluster and policy, in order of appearance: a line joins loads of one
    // setup, never the same policy on clusters of other sizes.
    struct Line {
        QString policy;
        QString cluster;  // stored cluster and server count, e.g. "synergy-128, 2 servers"
        std::vector<Point> points;
    };
    std::vector<Line> lines;
    QHash<qint64, QString> clusterNames;
    QHash<qint64, QString> clusterOfScenario;
    if (m_store) {
        try {
            for (const cl::StoredItem& item : m_store->clusters())
                clusterNames.insert(item.id, QString::fromStdString(item.name));
            for (const cl::ScenarioInfo& info : m_store->scenarios()) {
                QString cluster =
                    clusterNames.value(info.spec.cluster_id, tr("cluster #%1").arg(info.spec.cluster_id));
                if (const int servers = info.spec.parameters.server_count; servers > 0)
                    cluster += servers == 1 ? tr(", 1 server") : tr(", %1 servers").arg(servers);
                clusterOfScenario.insert(info.id, cluster);
            }
        } catch (const std::exception&) {
            clusterOfScenario.clear();  // without the store's names every run is one setup
        }
    }
    QStringList omitted;
    for (int r = 0; r < rows; ++r) {
        const cl::SimResult& result = m_model->result(r);
        const double load = offeredLoadPerHour(result.jobs);
        if (std::isnan(load)) {
            omitted << m_model->label(r);
            continue;
        }
        const QString policy = QString::fromStdString(result.policy);
        QString cluster;
        if (!clusterOfScenario.isEmpty()) {
            try {
                cluster = clusterOfScenario.value(m_store->runInfo(m_model->runId(r)).scenario_id);
            } catch (const std::exception&) {
                cluster.clear();
            }
        }
        auto line = std::find_if(lines.begin(), lines.end(),
                                 [&](const Line& l) { return l.policy == policy && l.cluster == cluster; });
        if (line == lines.end()) line = lines.insert(lines.end(), Line{policy, cluster, {}});
        const double hours = result.summary.avg_jct / 3600.0;
        line->points.push_back(
            {load, hours,
             tr("%1 — offered load %2 jobs/h, average JCT %3 (%4 h) over %5 measured jobs")
                 .arg(m_model->label(r), QLocale().toString(load, 'f', 2),
                      formatDurationExact(result.summary.avg_jct), QLocale().toString(hours, 'f', 3))
                 .arg(result.summary.completed)});
    }

    static const QCPScatterStyle::ScatterShape kShapes[] = {
        QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare,           QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCross};
    const double marker = QFontMetricsF(font()).height() * 0.7;
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, top = 0.0;
    const bool oneCluster = std::all_of(lines.begin(), lines.end(),
                                        [&](const Line& l) { return l.cluster == lines.front().cluster; });
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto& [policy, cluster, points] = lines[i];
        std::stable_sort(points.begin(), points.end(),
                         [](const Point& a, const Point& b) { return a.load < b.load; });
        QCPGraph* graph = plot->addGraph();
        const QString name = policy.isEmpty() ? tr("(no policy)") : policy;
        graph->setName(oneCluster ? name : tr("%1 on %2").arg(name, cluster));
        const QColor color = seriesColor(static_cast<int>(i));
        graph->setPen(QPen(color, 2.0));
        // Shapes as well as colours, so the lines stay apart in grey print.
        graph->setScatterStyle(QCPScatterStyle(kShapes[i % std::size(kShapes)], QPen(color, 1.5),
                                               palette().brush(QPalette::Base), marker));
        graph->setSelectable(QCP::stNone);
        QVector<double> x, y;
        std::vector<QString> tips;
        for (const Point& p : points) {
            x << p.load;
            y << p.hours;
            tips.push_back(p.tip);
            xlo = std::min(xlo, p.load);
            xhi = std::max(xhi, p.load);
            if (std::isfinite(p.hours)) top = std::max(top, p.hours);
        }
        graph->setData(x, y, /*alreadySorted=*/true);
        m_barTips[LoadChart].push_back(std::move(tips));
    }
    if (xlo > xhi) {
        xlo = 0.0;
        xhi = 10.0;
    }
    const double pad = xhi > xlo ? (xhi - xlo) * 0.06 : std::max(xlo * 0.1, 0.5);
    plot->xAxis->setRange(std::max(0.0, xlo - pad), xhi + pad);
    plot->yAxis->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
    plot->xAxis->setTickLength(0, 5);
    plot->xAxis->setSubTicks(true);
    plot->xAxis->setLabel(tr("Offered load (jobs per hour)"));
    plot->yAxis->setLabel(tr("Average JCT (hours)"));
    plot->legend->setVisible(plot->graphCount() > 0);

    QString note;
    if (!omitted.isEmpty())
        note = tr("Left out, their jobs all arrive at once so they have no arrival rate: %1")
                   .arg(omitted.join(QStringLiteral("; ")));
    else if (rows > 0 && lines.size() == static_cast<std::size_t>(rows) && rows > 1)
        note = tr("Every run is on its own line: tick runs of one policy at several loads to see a trend");
    m_loadNote->setText(note);
    m_loadNote->setToolTip(
        tr("A run's offered load is (jobs − 1) over the time from its first to its last "
           "submission; its JCT is the run's average over the jobs it measured"));
    m_loadNote->setVisible(!note.isEmpty());
    fitLegend(plot, plot->width());
    plot->replot();
}

void ComparisonView::showBarTip(Chart chart, const QPoint& pos) {
    QCustomPlot* plot = m_plots[chart];
    const auto& tips = m_barTips[chart];
    if (tips.empty()) {
        QToolTip::hideText();
        return;
    }
    if (chart == LoadChart) {
        // The point nearest the mouse, if it is within about a line of text of it.
        const double reach = QFontMetricsF(font()).height();
        double best = reach * reach;
        const QString* tip = nullptr;
        for (int g = 0; g < plot->graphCount() && g < static_cast<int>(tips.size()); ++g) {
            const auto& seriesTips = tips[static_cast<std::size_t>(g)];
            std::size_t k = 0;
            for (auto it = plot->graph(g)->data()->constBegin(); it != plot->graph(g)->data()->constEnd();
                 ++it, ++k) {
                const QPointF d =
                    QPointF(plot->xAxis->coordToPixel(it->key), plot->yAxis->coordToPixel(it->value)) - pos;
                const double dist = QPointF::dotProduct(d, d);
                if (dist <= best && k < seriesTips.size()) {
                    best = dist;
                    tip = &seriesTips[k];
                }
            }
        }
        if (tip)
            QToolTip::showText(plot->mapToGlobal(pos), *tip, plot);
        else
            QToolTip::hideText();
        return;
    }
    int series = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        if (!bars) continue;
        QVariant details;
        if (bars->selectTest(pos, false, &details) >= 0.0 && series < static_cast<int>(tips.size())) {
            const QCPDataSelection selection = details.value<QCPDataSelection>();
            const int index = selection.isEmpty() ? -1 : selection.dataRange().begin();
            const auto& seriesTips = tips[static_cast<std::size_t>(series)];
            if (index >= 0 && index < static_cast<int>(seriesTips.size())) {
                QToolTip::showText(plot->mapToGlobal(pos), seriesTips[static_cast<std::size_t>(index)], plot);
                return;
            }
        }
        ++series;
    }
    QToolTip::hideText();
}

// ---- export and read-back -----------------------------------------------------------------------

void ComparisonView::paintExport(QPainter& painter, const QRectF& rect, const QString& title) {
    const Chart chart = currentChart();
    ThemedPlot* plot = m_plots[chart];
    const int width = std::max(1, qRound(rect.width()));
    const int height = std::max(1, qRound(rect.height()));
    const QString shownTitle = plot->title();
    if (!title.isEmpty()) m_plots[chart]->setTitle(title);
    if (hasBars(chart))
        layoutLabels(chart, QSizeF(width - (plot->viewport().width() - plot->axisRect()->width()),
                                   height - (plot->viewport().height() - plot->axisRect()->height())));
    fitLegend(plot, width);
    // QCustomPlot paints through its own QCPPainter, which cannot share the caller's device;
    // a QPicture records its vector commands and replays them into the caller's painter.
    QPicture picture;
    {
        QCPPainter recorder(&picture);
        plot->toPainter(&recorder, width, height);
    }
    painter.save();
    painter.translate(rect.topLeft());
    painter.setClipRect(QRectF(0, 0, width, height), Qt::IntersectClip);
    painter.drawPicture(0, 0, picture);
    painter.restore();
    plot->setTitle(shownTitle);
    fitLabelsToWidget(chart);
}

namespace {

// The height of the bar at key in the plot's i-th bar series; NaN if there is none.
double barAt(QCustomPlot* plot, int series, double key) {
    int seen = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        if (!bars) continue;
        if (seen++ != series) continue;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            if (std::abs(it->key - key) < 1e-9) return it->value;
        return kNaN;
    }
    return kNaN;
}

double keyOf(int category, int series, int count) {
    const double width = kGroupWidth / std::max(count, 1);
    return category + (series - (count - 1) / 2.0) * width;
}

}  // namespace

double ComparisonView::normalizedBar(int row, ComparisonModel::Metric metric) const {
    return barAt(m_plots[NormalizedChart], row, keyOf(static_cast<int>(metric), row, m_model->rowCount()));
}

QVector<QPointF> ComparisonView::cdfPoints(int row) const {
    QVector<QPointF> points;
    QCustomPlot* plot = m_plots[CdfChart];
    if (row < 0 || row >= plot->graphCount()) return points;
    for (auto it = plot->graph(row)->data()->constBegin(); it != plot->graph(row)->data()->constEnd(); ++it)
        points << QPointF(it->key, it->value);
    return points;
}

QStringList ComparisonView::plottedModels() const {
    return m_models;
}

double ComparisonView::modelBar(int row, const QString& model) const {
    const int k = static_cast<int>(m_models.indexOf(model));
    if (k < 0) return kNaN;
    return barAt(m_plots[ModelChart], row, keyOf(k, row, m_model->rowCount()));
}

double ComparisonView::sizeBar(int row, bool large) const {
    return barAt(m_plots[SizeChart], row, keyOf(large ? 1 : 0, row, m_model->rowCount()));
}

SizeSplit ComparisonView::sizeSplit(int row) const {
    return m_splits.at(static_cast<std::size_t>(row));
}

QStringList ComparisonView::loadPolicies() const {
    QStringList names;
    QCustomPlot* plot = m_plots[LoadChart];
    for (int g = 0; g < plot->graphCount(); ++g) names << plot->graph(g)->name();
    return names;
}

QVector<QPointF> ComparisonView::loadPoints(const QString& policy) const {
    QVector<QPointF> points;
    QCustomPlot* plot = m_plots[LoadChart];
    for (int g = 0; g < plot->graphCount(); ++g) {
        if (plot->graph(g)->name() != policy) continue;
        for (auto it = plot->graph(g)->data()->constBegin(); it != plot->graph(g)->data()->constEnd(); ++it)
            points << QPointF(it->key, it->value);
    }
    return points;
}

QString ComparisonView::loadNote() const {
    return m_loadNote->isHidden() ? QString() : m_loadNote->text();
}

}  // namespace cl::views
