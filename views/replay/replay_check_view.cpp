#include "views/replay/replay_check_view.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <vector>

#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/common/chart_export.h"
#include "views/common/format.h"
#include "views/common/plan_filter.h"
#include "views/replay/replay_charts.h"
#include "views/replay/replay_jobs_model.h"

namespace cl::views {

namespace {

constexpr int kRunRole = Qt::UserRole + 1;

// The figures table's rows (one column per set of jobs: all, then each partition): label, tooltip.
struct FigureRow {
    const char* label;
    const char* tip;
};

constexpr FigureRow kFigureRows[] = {
    {QT_TRANSLATE_NOOP("ReplayCheckView", "Jobs compared"),
     QT_TRANSLATE_NOOP("ReplayCheckView", "Jobs with a recorded start that the replay started")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "Median |\u0394 start|"),
     QT_TRANSLATE_NOOP("ReplayCheckView",
                       "Median of |simulated \u2212 recorded start|: \"close\" needs at most 10 s")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "p90 |\u0394 start|"),
     QT_TRANSLATE_NOOP("ReplayCheckView",
                       "90th percentile of |simulated \u2212 recorded start|: \"close\" needs at most 60 s")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "Max |\u0394 start|"),
     QT_TRANSLATE_NOOP("ReplayCheckView",
                       "The largest |simulated \u2212 recorded start| (the first job of the table beside)")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "Mean wait, recorded"),
     QT_TRANSLATE_NOOP("ReplayCheckView", "Mean of recorded start \u2212 submit")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "Mean wait, simulated"),
     QT_TRANSLATE_NOOP(
         "ReplayCheckView",
         "Mean of simulated start \u2212 submit: \"close\" needs it within 15% of the recorded mean")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "p95 wait, recorded"),
     QT_TRANSLATE_NOOP("ReplayCheckView", "95th percentile of recorded start \u2212 submit")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "p95 wait, simulated"),
     QT_TRANSLATE_NOOP("ReplayCheckView", "95th percentile of simulated start \u2212 submit")},
    {QT_TRANSLATE_NOOP("ReplayCheckView", "Kendall \u03c4"),
     QT_TRANSLATE_NOOP(
         "ReplayCheckView",
         "Agreement of the two start orders (Kendall's tau-a): 1 = the replay started the jobs in "
         "the recorded order, 0 = no relation, \u22121 = reversed")},
};
constexpr int kFigureRowCount = static_cast<int>(std::size(kFigureRows));

// "1 job" or "4 jobs": no translation file gives %n its plural.
QString jobCount(int n) {
    return n == 1 ? ReplayCheckView::tr("1 job") : ReplayCheckView::tr("%1 jobs").arg(n);
}

QTableWidgetItem* figureItem(const QString& text, const QString& tip) {
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(tip);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

ReplayCheckView::ReplayCheckView(QWidget* parent) : QWidget(parent) {
    m_scenarios = new QComboBox(this);
    m_scenarios->setObjectName(QStringLiteral("replayScenarios"));
    m_scenarios->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scenarios->setMinimumContentsLength(28);
    m_scenarios->setToolTip(
        tr("Scenarios whose trace recorded its jobs' starts (a Slurm import) and that have a finished run; "
           "the latest finished run is checked"));
    auto* scenariosLabel = new QLabel(tr("&Scenario:"), this);
    scenariosLabel->setBuddy(m_scenarios);
    m_run = new QLabel(this);
    m_run->setObjectName(QStringLiteral("replayRun"));
    m_run->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    bar->addWidget(scenariosLabel);
    bar->addWidget(m_scenarios);
    bar->addSpacing(fontMetrics().averageCharWidth() * 2);
    bar->addWidget(m_run, 1);

    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("replayEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(fontMetrics().height() * 2);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    auto* content = new QWidget(this);
    buildContent(content);
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("replayStack"));
    m_stack->addWidget(m_empty);
    m_stack->addWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);

    connect(m_scenarios, &QComboBox::currentIndexChanged, this, [this] { loadCurrent(); });
    refresh();
}

void ReplayCheckView::buildContent(QWidget* content) {
    m_verdict = new QLabel(content);
    m_verdict->setObjectName(QStringLiteral("replayVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_verdict->setToolTip(
        tr("\"close\" when the median |start difference| is at most 10 s, the p90 at most 60 s and the "
           "simulated mean wait within 15% of the recorded one (what a real Slurm holds to against its own "
           "record); \"rough\" within five times those bounds; else \"far\". A plan made on a replay that is "
           "not close carries its errors"));
    m_notes = new QLabel(content);
    m_notes->setObjectName(QStringLiteral("replayNotes"));
    m_notes->setWordWrap(true);

    m_figures = new QTableWidget(kFigureRowCount, 0, content);
    m_figures->setObjectName(QStringLiteral("replayFigures"));
    for (int r = 0; r < kFigureRowCount; ++r) {
        auto* header = new QTableWidgetItem(tr(kFigureRows[r].label));
        header->setToolTip(tr(kFigureRows[r].tip));
        m_figures->setVerticalHeaderItem(r, header);
    }
    m_figures->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_figures->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_figures->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_figures->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_figures->setWordWrap(false);
    m_figures->setToolTip(
        tr("The check's figures for all compared jobs and, when the jobs asked for several "
           "partitions, for each partition's; point at a figure for what it measures"));

    m_cdf = new ReplayWaitCdf(content);
    m_cdf->setObjectName(QStringLiteral("replayWaitCdf"));
    m_scatter = new ReplayStartScatter(content);
    m_scatter->setObjectName(QStringLiteral("replayStartScatter"));
    auto* charts = new QSplitter(Qt::Horizontal, content);
    charts->addWidget(m_cdf);
    charts->addWidget(m_scatter);
    charts->setChildrenCollapsible(false);

    m_jobs = new ReplayJobsModel(this);
    m_jobs->setObjectName(QStringLiteral("replayJobsModel"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_jobs);
    m_proxy->setSortRole(ReplayJobsModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_jobsTable = new QTableView(content);
    m_jobsTable->setObjectName(QStringLiteral("replayJobsTable"));
    m_jobsTable->setModel(m_proxy);
    m_jobsTable->setSortingEnabled(true);
    m_jobsTable->sortByColumn(ReplayJobsModel::DifferenceColumn, Qt::DescendingOrder);
    m_jobsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_jobsTable->setAlternatingRowColors(true);
    m_jobsTable->setWordWrap(false);
    m_jobsTable->verticalHeader()->setVisible(false);
    m_jobsTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Every column as wide as its contents, and a scroll bar when the pane is narrower than them
    // (on a 1366 x 768 screen, long job ids or partition names push Difference out of view). The
    // last column does not stretch: at 1920 pixels that put the differences far from their jobs.
    m_jobsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_jobsTable->horizontalHeader()->setStretchLastSection(false);
    m_jobsTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_jobsTable->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_jobsTable->setMinimumWidth(fontMetrics().averageCharWidth() * 24);
    m_jobsTable->setToolTip(
        tr("Every compared job, the largest |start difference| first; click a header to "
           "sort by it"));

    // The charts above, the figures and the jobs beside each other below: on a 1366 x 768 screen
    // the page is about 480 pixels tall, and the charts keep 200 of them.
    auto* figures = new QWidget(content);
    auto* figuresLayout = new QVBoxLayout(figures);
    figuresLayout->setContentsMargins(0, 0, 0, 0);
    figuresLayout->addWidget(m_figures, 1);
    figuresLayout->addWidget(m_notes);
    auto* tables = new QSplitter(Qt::Horizontal, content);
    tables->addWidget(figures);
    tables->addWidget(m_jobsTable);
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 1);
    tables->setChildrenCollapsible(false);
    auto* split = new QSplitter(Qt::Vertical, content);
    split->setObjectName(QStringLiteral("replaySplit"));
    split->addWidget(charts);
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_verdict);
    layout->addWidget(split, 1);
}

void ReplayCheckView::setStore(cl::ScenarioStore* store) {
    m_store = store;
    m_recordedTraces.clear();
    m_shownRun = 0;
    refresh();
}

bool ReplayCheckView::traceHasRecordedStarts(std::int64_t traceId, const std::string& contentHash) {
    const auto known = m_recordedTraces.find(contentHash);
    if (known != m_recordedTraces.end()) return known->second;
    const cl::Trace trace = m_store->trace(traceId);
    const bool recorded = std::any_of(trace.jobs.begin(), trace.jobs.end(),
                                      [](const cl::Job& j) { return j.recorded_start >= 0; });
    m_recordedTraces[contentHash] = recorded;
    return recorded;
}

void ReplayCheckView::refresh() {
    const std::int64_t keep = currentScenario();
    QString problem;
    {
        const QSignalBlocker block(m_scenarios);
        m_scenarios->clear();
        if (m_store) {
            try {
                // The latest finished run of every scenario.
                std::map<std::int64_t, cl::RunInfo> latest;
                for (const cl::RunInfo& run : m_store->runs())
                    if (run.status == cl::RunStatus::Finished &&
                        (!latest.count(run.scenario_id) || latest[run.scenario_id].id < run.id))
                        latest[run.scenario_id] = run;
                std::map<std::int64_t, std::string> traceHashes;
                for (const cl::StoredItem& t : m_store->traces()) traceHashes[t.id] = t.content_hash;
                // A capacity plan's points are not offered, but for the one already chosen or
                // asked for by showScenario (docs/architecture.md 7.9).
                const PlanFilter plans = PlanFilter::read(m_store);
                for (const cl::ScenarioInfo& s : m_store->scenarios()) {
                    const auto run = latest.find(s.id);
                    if (run == latest.end() ||
                        (s.id != keep && s.id != m_requested && plans.isPlanPoint(s.spec.name)) ||
                        !traceHasRecordedStarts(s.spec.trace_id, traceHashes[s.spec.trace_id]))
                        continue;
                    m_scenarios->addItem(QString::fromStdString(s.spec.name),
                                         QVariant::fromValue<qlonglong>(s.id));
                    const int index = m_scenarios->count() - 1;
                    m_scenarios->setItemData(index, QVariant::fromValue<qlonglong>(run->second.id), kRunRole);
                    m_scenarios->setItemData(index,
                                             tr("Run #%1 under %2, finished %3")
                                                 .arg(run->second.id)
                                                 .arg(QString::fromStdString(run->second.policy),
                                                      QString::fromStdString(run->second.finished)),
                                             Qt::ToolTipRole);
                }
            } catch (const std::exception& e) {
                problem = tr("Cannot read the workspace: %1").arg(QString::fromStdString(e.what()));
            }
        }
        const int index = m_scenarios->findData(QVariant::fromValue<qlonglong>(keep));
        m_scenarios->setCurrentIndex(index >= 0 ? index : 0);
    }
    m_scenarios->setEnabled(m_scenarios->count() > 0);
    if (m_scenarios->count() == 0) {
        m_empty->setText(
            !problem.isEmpty() ? problem
            : !m_store
                ? tr("Open a workspace to check a replay against its record.")
                : tr("No scenario to check yet.\n\nThe replay check compares a run with the start times "
                     "a trace recorded. To get one: File \u203a Import from Slurm (a sacct history records "
                     "when each job started), then run the imported scenario with the policy slurm. Every "
                     "scenario whose trace has recorded starts and that has a finished run is listed here."));
        m_run->clear();
        showCheck(nullptr);
        m_stack->setCurrentWidget(m_empty);
        return;
    }
    loadCurrent();
}

bool ReplayCheckView::showScenario(std::int64_t scenarioId) {
    m_requested = scenarioId;
    refresh();
    m_requested = 0;
    const int index = m_scenarios->findData(QVariant::fromValue<qlonglong>(scenarioId));
    if (index < 0) return false;
    m_scenarios->setCurrentIndex(index);  // loads it when it was not the current one already
    return true;
}

std::int64_t ReplayCheckView::currentScenario() const {
    return m_scenarios->currentIndex() >= 0 ? m_scenarios->currentData().toLongLong() : 0;
}

void ReplayCheckView::loadCurrent() {
    const int index = m_scenarios->currentIndex();
    if (!m_store || index < 0) return;
    const std::int64_t run = m_scenarios->itemData(index, kRunRole).toLongLong();
    const std::string name = m_scenarios->itemText(index).toStdString();
    m_stack->setCurrentIndex(1);
    if (run == m_shownRun && m_check) return;  // shown already: a refresh found nothing new
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        // The trace as the run saw it (transforms, load factor), so the run's job indices match.
        const cl::ScenarioInputs inputs = cl::resolveScenario(*m_store, m_store->scenario(name));
        const cl::SimResult result = m_store->loadRun(run, false);
        for (const cl::JobRecord& r : result.jobs)
            if (r.index < 0 || r.index >= static_cast<int>(inputs.trace.jobs.size()))
                throw std::runtime_error("run #" + std::to_string(run) +
                                         " does not match the scenario's trace");
        auto check = std::make_shared<const cl::ReplayCheck>(cl::checkReplay(inputs.trace, result));
        m_run->setText(tr("run #%1 under %2; trace %3 (%4)")
                           .arg(run)
                           .arg(QString::fromStdString(result.policy.empty() ? inputs.policy : result.policy),
                                QString::fromStdString(inputs.trace.name),
                                jobCount(static_cast<int>(inputs.trace.jobs.size()))));
        showCheck(std::move(check));
        m_shownRun = run;
    } catch (const std::exception& e) {
        showCheck(nullptr);
        m_run->clear();
        m_verdict->setText(
            tr("Cannot check %1: %2").arg(m_scenarios->itemText(index), QString::fromStdString(e.what())));
    }
    QGuiApplication::restoreOverrideCursor();
}

void ReplayCheckView::showCheck(std::shared_ptr<const cl::ReplayCheck> check) {
    m_check = std::move(check);
    m_shownRun = 0;
    m_cdf->setCheck(m_check);
    m_scatter->setCheck(m_check);
    m_jobs->setCheck(m_check);
    m_figures->setColumnCount(0);
    if (!m_check) {
        m_verdict->clear();
        m_notes->clear();
        return;
    }
    m_verdict->setText(QString::fromStdString(m_check->verdict));
    QStringList notes{tr("%1 compared").arg(jobCount(m_check->all.jobs))};
    if (m_check->without_recorded_start > 0)
        notes << tr("%1 without a recorded start (not compared)").arg(m_check->without_recorded_start);
    if (m_check->not_started > 0)
        notes << tr("%1 with a recorded start never started in the replay").arg(m_check->not_started);
    m_notes->setText(notes.join(QStringLiteral("; ")));
    fillFigures(*m_check);
}

void ReplayCheckView::fillFigures(const cl::ReplayCheck& check) {
    std::vector<std::pair<QString, const cl::ReplayFigures*>> sets{{tr("All jobs"), &check.all}};
    for (const auto& [name, figures] : check.by_partition)
        sets.emplace_back(name.empty() ? tr("(no partition)") : QString::fromStdString(name), &figures);
    m_figures->setColumnCount(static_cast<int>(sets.size()));
    for (int c = 0; c < static_cast<int>(sets.size()); ++c) {
        const auto& [label, figures] = sets[static_cast<std::size_t>(c)];
        const cl::ReplayFigures& f = *figures;
        auto* header = new QTableWidgetItem(label);
        header->setToolTip(c == 0 ? tr("Every compared job")
                                  : tr("The compared jobs of partition %1").arg(label));
        m_figures->setHorizontalHeaderItem(c, header);
        m_figures->setItem(0, c, figureItem(QString::number(f.jobs), tr(kFigureRows[0].tip)));
        const double times[] = {f.median_difference,  f.p90_difference,      f.max_difference,
                                f.mean_wait_recorded, f.mean_wait_simulated, f.p95_wait_recorded,
                                f.p95_wait_simulated};
        for (int t = 0; t < 7; ++t)
            m_figures->setItem(
                1 + t, c,
                figureItem(formatDuration(times[t]), tr(kFigureRows[1 + t].tip) + QStringLiteral("\n") +
                                                         formatDurationExact(times[t])));
        m_figures->setItem(8, c,
                           figureItem(QLocale().toString(f.kendall_tau, 'f', 3), tr(kFigureRows[8].tip)));
    }
    // No wider than its figures (the jobs beside take the rest); a scroll bar beyond that.
    m_figures->resizeColumnsToContents();
    int width = m_figures->verticalHeader()->sizeHint().width() + 2 * m_figures->frameWidth() +
                m_figures->verticalScrollBar()->sizeHint().width() + 4;
    for (int c = 0; c < m_figures->columnCount(); ++c) width += m_figures->columnWidth(c);
    m_figures->parentWidget()->setMaximumWidth(std::max(width, fontMetrics().averageCharWidth() * 30));
}

void ReplayCheckView::paintExport(QPainter& painter, const QRectF& rect) {
    renderWidget(painter, rect, this);
}

}  // namespace cl::views
