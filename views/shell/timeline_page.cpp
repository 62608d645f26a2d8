#include "views/shell/timeline_page.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include <QApplication>
#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QPromise>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <nlohmann/json.hpp>

#include "core/model/grouping_explanation.h"
#include "core/model/sim_result.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/common/plan_filter.h"
#include "views/results/results_view.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

namespace cl::views {

namespace {

// Runs with equal keys ran the same jobs (same trace and settings, so job i is the same job)
// on the same GPUs with the same profiles: only the policy differs.
QString runKey(const cl::ScenarioSpec& spec) {
    return QStringLiteral("%1/%2/%3/%4/%5/%6")
        .arg(spec.cluster_id)
        .arg(spec.parameters.server_count)
        .arg(spec.trace_id)
        .arg(spec.profiles_id)
        .arg(QString::fromStdString(spec.parameters.toJson().dump()))
        .arg(spec.seed);
}

// The second-run box's items: the scenario of each run offered.
constexpr int kScenarioRole = Qt::UserRole + 1;

}  // namespace

namespace {

// What the timeline needs of a stored run, read on a worker thread with its own connection.
struct TimelineLoad {
    QString title;
    QString scenario;
    cl::Cluster cluster;
    std::shared_ptr<const cl::ProfileSet> profiles;
    std::shared_ptr<const cl::SimResult> result;
    QString key;
    QString error;
};

TimelineLoad loadTimelineRun(const QString& workspace, qint64 run) {
    TimelineLoad load;
    try {
        cl::ScenarioStore store(workspace.toStdString());
        const cl::RunInfo info = store.runInfo(run);
        const cl::ScenarioInfo spec = store.scenario(info.scenario_name);
        load.cluster = store.cluster(spec.spec.cluster_id);
        if (spec.spec.parameters.server_count > 0)
            load.cluster = cl::withServerCount(load.cluster, spec.spec.parameters.server_count);
        load.profiles = std::make_shared<const cl::ProfileSet>(store.profiles(spec.spec.profiles_id));
        load.result = std::make_shared<const cl::SimResult>(store.loadRun(run, true));
        load.key = runKey(spec.spec);
        load.scenario = QString::fromStdString(info.scenario_name);
        load.title =
            TimelinePage::tr("%1 \u00b7 run %2").arg(QString::fromStdString(info.scenario_name)).arg(run);
    } catch (const std::exception& e) {
        load.error = QString::fromStdString(e.what());
    }
    return load;
}

}  // namespace

// The shown run's scenario simulated again with the grouping log on (docs/architecture.md 5.1,
// "Why this grouping"), on a worker with its own connection; cancelled through the promise.
struct GroupingsExplained {
    std::shared_ptr<const cl::GroupingLog> log;
    QString error;
    bool sameRun = true;  // the jobs started when the stored run says
};

namespace {

void explainGroupings(QPromise<GroupingsExplained>& promise, const QString& workspace,
                      const QString& scenario, const std::shared_ptr<const cl::SimResult>& stored) {
    GroupingsExplained out;
    try {
        cl::ScenarioStore store(workspace.toStdString());
        cl::ScenarioInputs in = cl::resolveScenario(store, store.scenario(scenario.toStdString()));
        auto log = std::make_shared<cl::GroupingLog>();
        in.options.grouping_log = log.get();
        in.options.record_segments = false;  // the stored run has them; the log is what is new
        promise.setProgressRange(0, 100);
        in.options.progress = [&promise](double done) {
            promise.setProgressValue(static_cast<int>(done * 100));
            return !promise.isCanceled();
        };
        const cl::SimResult again =
            cl::simulatePolicy(in.cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
        if (again.cancelled || promise.isCanceled()) return;
        // The same engine decides the same: a job started at another time means the stored run
        // came from an older engine, whose groups this log would not describe.
        out.sameRun = again.jobs.size() == stored->jobs.size();
        for (std::size_t j = 0; out.sameRun && j < again.jobs.size(); ++j) {
            const double a = again.jobs[j].first_start, b = stored->jobs[j].first_start;
            out.sameRun = a == b || (std::isnan(a) && std::isnan(b)) ||
                          std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
        }
        out.log = std::move(log);
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    promise.addResult(std::move(out));
}

}  // namespace

TimelinePage::TimelinePage(const ResultsView* results, const cl::ProfileSet* profiles, QWidget* tabs,
                           QObject* parent)
    : MainWindowPage({QStringLiteral("timeline"), tr("Timeline"), "trace",
                      tr("Every GPU over time: which job or interleaved group held it; zoom with the wheel")},
                     parent),
      m_results(results),
      m_builtinProfiles(profiles),
      m_widget(new QWidget(tabs)) {
    auto* layout = new QVBoxLayout(m_widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(createBar());
    m_why = new QLabel(m_widget);
    m_why->setObjectName(QStringLiteral("groupingExplanation"));
    m_why->setTextFormat(Qt::RichText);
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_why->setFrameShape(QFrame::StyledPanel);
    m_why->setMargin(m_widget->fontMetrics().averageCharWidth() / 2);
    m_why->hide();
    layout->addWidget(m_why);
    m_panel = new TimelinePanel(m_widget);
    m_panel->setObjectName(QStringLiteral("timelinePanel"));
    layout->addWidget(m_panel, 1);
    connect(m_second, &QComboBox::activated, this, &TimelinePage::updateSecondRun);
    connect(m_panel, &TimelinePanel::jobSelected, this,
            [this](int job) { m_toInterleaving->setEnabled(interleavingGroupOf(job).size() >= 2); });
    connect(m_toInterleaving, &QPushButton::clicked, this, &TimelinePage::sendGroupToInterleaving);
    connect(m_panel, &TimelinePanel::simulateWithTimelineRequested, this, &TimelinePage::requestTimeline);
    connect(m_explain, &QPushButton::clicked, this, &TimelinePage::toggleExplaining);
    connect(m_panel->view(), &TimelineView::segmentClicked, this, [this](int job, double t) {
        if (!shownRunIsMuri()) return;
        if (m_groupings) return showExplanation();
        // The first click on an interleaved bar asks for the explanation.
        const TimelineLayout& layout = m_panel->view()->layout();
        for (int s : layout.segmentsOfJob(job))
            if (!layout.partnersAt(s, t).empty()) return startExplaining();
    });
    connect(m_panel, &TimelinePanel::jobSelected, this, [this](int job) {
        if (job < 0) m_why->hide();
    });
}

TimelinePage::~TimelinePage() {
    if (m_explaining) m_explaining->cancel();
}

QHBoxLayout* TimelinePage::createBar() {
    QWidget* bar = m_widget;
    auto* row = new QHBoxLayout;
    m_second = new QComboBox(bar);
    m_second->setObjectName(QStringLiteral("timelineSecondRun"));
    m_second->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_second->setMinimumContentsLength(24);
    m_second->setToolTip(
        tr("Another run of the family drawn below with the same time axis (what-if at a "
           "glance)"));
    auto* secondLabel = new QLabel(tr("Compare &with:"), bar);
    secondLabel->setBuddy(m_second);
    row->addWidget(secondLabel);
    row->addWidget(m_second);
    row->addSpacing(bar->fontMetrics().averageCharWidth() * 3);
    m_toInterleaving = new QPushButton(resourceIcon("what-if"), tr("Show its &group interleaving"), bar);
    m_toInterleaving->setToolTip(
        tr("Open the selected job's interleaving group (the jobs sharing its GPUs) in the "
           "Interleaving view"));
    m_toInterleaving->setEnabled(false);
    m_toInterleaving->setObjectName(QStringLiteral("toInterleaving"));
    row->addWidget(m_toInterleaving);
    m_explain = new QPushButton(tr("E&xplain groupings"), bar);
    m_explain->setObjectName(QStringLiteral("explainGroupings"));
    m_explain->setToolTip(
        tr("Why Muri grouped these jobs: simulates the run again, recording each group's \u03b3, "
           "its speed-up and the alternatives its matching weighed; then hover or click a shared bar"));
    m_explain->hide();
    row->addWidget(m_explain);
    row->addStretch(1);
    return row;
}

PaintFunction TimelinePage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { m_panel->paintExport(p, r, QString()); };
}

void TimelinePage::setWorkspace(cl::ScenarioStore* store, const QString& path) {
    m_store = store;
    m_path = path;
    if (store) {
        update();
        return;
    }
    // Nothing of the previous workspace is shown, and a load from it is dropped.
    m_wanted = {};
    ++m_generation;
    m_loading = 0;
    m_toInterleaving->setEnabled(false);
    m_shown = 0;
    m_shownScenario.clear();
    m_secondScenario.clear();
    m_followSecond.clear();
    m_result.reset();
    m_panel->setRun(cl::Cluster{}, nullptr, m_builtinProfiles, QString());
    m_panel->setSecondRun(nullptr, QString());
    resetGroupings();
}

void TimelinePage::showRun(const QString& scenario, qint64 run) {
    m_wanted = {scenario, run};
    update();
}

void TimelinePage::forgetRuns() {
    m_shown = -1;  // reload when shown
    m_loading = 0;
    ++m_generation;
}

void TimelinePage::activated() {
    update();
}

void TimelinePage::update() {
    if (!m_store || !isCurrent()) return;
    const auto [scenario, run] = m_wanted;
    if (run == m_shown && run != 0) return;
    if (run != 0 && run == m_loading) return;  // on its way
    const int generation = ++m_generation;     // a load still running is now stale
    m_loading = 0;
    if (run == 0) {
        m_shown = 0;
        m_shownScenario.clear();
        m_result.reset();
        m_clusterKey.clear();
        m_panel->setRun(cl::Cluster{}, nullptr, m_builtinProfiles, QString());
        resetGroupings();
        emit statusMessage(scenario.isEmpty() ? tr("Select a scenario with a finished run for its timeline")
                                              : tr("%1 has no finished run yet").arg(scenario),
                           5000);
        return;
    }
    // A big run has millions of segments: read them off the GUI thread. What is shown stays
    // until the new run is there, and a failed read leaves it as it was.
    m_loading = run;
    emit statusMessage(tr("Loading run %1 for the timeline\u2026").arg(run), 0);
    auto* watcher = new QFutureWatcher<TimelineLoad>(this);
    connect(watcher, &QFutureWatcher<TimelineLoad>::finished, this, [this, watcher, generation, run] {
        watcher->deleteLater();
        if (generation != m_generation) return;
        m_loading = 0;
        TimelineLoad load = watcher->result();
        if (!load.error.isEmpty()) {
            emit logMessage(tr("Cannot show run %1 in the timeline: %2").arg(run).arg(load.error));
            emit statusMessage(QString(), 0);
            return;
        }
        QApplication::setOverrideCursor(Qt::WaitCursor);  // the layout is built here
        m_panel->setRun(load.cluster, load.result, load.profiles.get(), load.title);
        QApplication::restoreOverrideCursor();
        m_profiles = std::move(load.profiles);
        m_result = std::move(load.result);
        m_clusterKey = load.key;
        m_shown = run;
        m_shownScenario = load.scenario;
        resetGroupings();
        emit statusMessage(QString(), 0);
        updateSecondRunChoices();
        updateSecondRun();  // the new run replaced the panel's second one
        emit runLoaded(run);
    });
    watcher->setFuture(QtConcurrent::run(loadTimelineRun, m_path, run));
}

void TimelinePage::updateSecondRunChoices() {
    const qint64 chosen = m_second->currentData().toLongLong();
    m_second->clear();
    m_second->addItem(tr("nothing"), qint64(0));
    // A capacity plan's points are offered only beside a point of the same plan, or when
    // already chosen (docs/architecture.md 7.9).
    const PlanFilter plans = PlanFilter::read(m_store);
    std::string shownPlan;
    for (const auto& [scenario, run] : m_results->finishedRuns())
        if (run == m_shown) shownPlan = plans.planOf(scenario.toStdString());
    // Only runs on the same GPUs can share the rows.
    for (const auto& [scenario, run] : m_results->finishedRuns()) {
        if (run == m_shown || !m_store) continue;
        if (run != chosen && plans.planOf(scenario.toStdString()) != shownPlan) continue;
        const auto info = m_store->findScenario(scenario.toStdString());
        if (info && runKey(info->spec) == m_clusterKey) {
            m_second->addItem(tr("%1 (run %2)").arg(scenario).arg(run), run);
            m_second->setItemData(m_second->count() - 1, scenario, kScenarioRole);
        }
    }
    int keep = m_second->findData(chosen);
    // The second run was simulated again with its timeline: its new run takes its place.
    const int follow = m_followSecond.isEmpty() ? -1 : m_second->findData(m_followSecond, kScenarioRole);
    if (keep < 0 && follow > 0) {
        m_followSecond.clear();
        m_second->setCurrentIndex(follow);
        updateSecondRun();
        return;
    }
    m_second->setCurrentIndex(keep < 0 ? 0 : keep);
    if (keep < 0 && chosen != 0) m_panel->setSecondRun(nullptr, QString());
}

void TimelinePage::updateSecondRun() {
    const qint64 run = m_second->currentData().toLongLong();
    m_secondScenario.clear();
    if (!m_store || run == 0 || !m_result) {
        m_panel->setSecondRun(nullptr, QString());
        return;
    }
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        const cl::RunInfo info = m_store->runInfo(run);
        m_secondScenario = QString::fromStdString(info.scenario_name);
        m_panel->setSecondRun(
            std::make_shared<const cl::SimResult>(m_store->loadRun(run, true)),
            tr("%1 \u00b7 run %2").arg(QString::fromStdString(info.scenario_name)).arg(run));
    } catch (const std::exception& e) {
        emit logMessage(
            tr("Cannot show run %1 below the timeline: %2").arg(run).arg(QString::fromStdString(e.what())));
    }
    QApplication::restoreOverrideCursor();
}

std::vector<int> TimelinePage::interleavingGroupOf(int job) const {
    if (!m_result || job < 0 || job >= static_cast<int>(m_result->jobs.size())) return {};
    // The jobs on one of its GPUs at the earliest moment it shared one: a group the run had.
    const TimelineLayout& layout = m_panel->view()->layout();
    const auto& segments = m_result->segments;
    int first = -1;
    for (int s : layout.segmentsOfJob(job))
        if (!layout.partnersOfSegment(s).empty() && (first < 0 || segments[s].t0 < segments[first].t0))
            first = s;
    if (first < 0) return {};
    // The start of the first overlap with a partner, just inside it.
    double t = segments[first].t1;
    for (int p : layout.partnersOfSegment(first))
        for (int s : layout.segmentsOfJob(p))
            if (segments[s].gpu == segments[first].gpu && segments[s].t1 > segments[first].t0 &&
                segments[s].t0 < segments[first].t1)
                t = std::min(t, std::max(segments[s].t0, segments[first].t0));
    t = std::nextafter(t, segments[first].t1);
    std::vector<int> group{job};
    for (int p : layout.partnersOfSegment(first))
        for (int s : layout.segmentsOfJob(p))
            if (segments[s].gpu == segments[first].gpu && segments[s].t0 <= t && t < segments[s].t1) {
                group.push_back(p);
                break;
            }
    return group;
}

bool TimelinePage::shownRunIsMuri() const {
    return m_result && m_result->policy.rfind("muri", 0) == 0 && !m_result->segments.empty();
}

void TimelinePage::resetGroupings() {
    if (m_explaining) {  // for the run shown before: let it end unheard
        m_explaining->disconnect(this);
        connect(m_explaining, &QFutureWatcherBase::finished, m_explaining, &QObject::deleteLater);
        m_explaining->cancel();
        m_explaining = nullptr;
    }
    m_groupings.reset();
    m_why->hide();
    const bool muri = shownRunIsMuri();
    m_explain->setVisible(muri);
    m_explain->setEnabled(muri);
    m_explain->setText(tr("E&xplain groupings"));
    m_panel->view()->setGroupings(
        nullptr, muri ? tr("Why this group? Click the bar or press Explain groupings") : QString());
}

void TimelinePage::toggleExplaining() {
    if (m_explaining)
        m_explaining->cancel();
    else
        startExplaining();
}

void TimelinePage::startExplaining() {
    if (m_explaining || m_groupings || !m_store || !m_result || m_shownScenario.isEmpty()) return;
    m_explaining = new QFutureWatcher<GroupingsExplained>(this);
    const QString working =
        tr("Working out why Muri grouped these jobs: simulating %1 again\u2026").arg(m_shownScenario);
    m_explain->setText(tr("Cancel e&xplaining"));
    m_panel->view()->setGroupings(nullptr, working);
    // Above the rows only for a selected job (a click on its shared bar asked); else the status
    // bar and the button say it.
    m_why->setText(QStringLiteral("<i>%1</i>").arg(working.toHtmlEscaped()));
    m_why->setVisible(m_panel->view()->selectedJob() >= 0);
    emit statusMessage(working, 0);
    connect(m_explaining, &QFutureWatcherBase::progressValueChanged, this,
            [this](int percent) { m_explain->setText(tr("Cancel e&xplaining (%1%)").arg(percent)); });
    connect(m_explaining, &QFutureWatcherBase::finished, this, &TimelinePage::explainingFinished);
    m_explaining->setFuture(QtConcurrent::run(explainGroupings, m_path, m_shownScenario, m_result));
}

void TimelinePage::explainingFinished() {
    QFutureWatcher<GroupingsExplained>* watcher = m_explaining;
    m_explaining = nullptr;
    watcher->deleteLater();
    m_explain->setText(tr("E&xplain groupings"));
    emit statusMessage(QString(), 0);
    QString hint;
    if (watcher->isCanceled() || watcher->future().resultCount() == 0) {
        hint = tr("Explaining was cancelled: press Explain groupings to try again");
    } else {
        const GroupingsExplained done = watcher->result();
        if (!done.error.isEmpty()) {
            hint = tr("Cannot explain the groupings: %1").arg(done.error);
            emit logMessage(hint);
        } else if (!done.sameRun) {
            hint = tr(
                "This run is from an older engine: simulated again, its jobs start at other times, so "
                "its groupings cannot be explained. Simulate the scenario again for a run of this engine.");
            m_explain->setEnabled(false);
        } else {
            m_groupings = done.log;
            m_panel->view()->setGroupings(m_groupings, QString());
            m_explain->setText(tr("Groupings explained"));
            m_explain->setEnabled(false);
            showExplanation();
            return;
        }
    }
    m_panel->view()->setGroupings(nullptr, hint);
    m_why->setText(QStringLiteral("<i>%1</i>").arg(hint.toHtmlEscaped()));
    m_why->setVisible(m_panel->view()->selectedJob() >= 0);
    emit statusMessage(hint, 8000);
}

void TimelinePage::showExplanation() {
    const TimelineView* view = m_panel->view();
    const QString text = view->groupingExplanation(view->selectedJob(), view->selectedTime());
    m_why->setText(text);
    m_why->setVisible(!text.isEmpty() && view->selectedJob() >= 0);
}

void TimelinePage::requestTimeline(int which) {
    const QString scenario = which == 0 ? m_shownScenario : m_secondScenario;
    if (scenario.isEmpty()) return;
    if (which == 1) m_followSecond = scenario;
    emit simulateWithTimelineRequested(scenario);
}

void TimelinePage::sendGroupToInterleaving() {
    const int job = m_panel->view()->selectedJob();
    std::vector<int> group = interleavingGroupOf(job);
    if (group.size() < 2) {
        emit statusMessage(tr("The selected job never shared its GPUs: nothing to interleave"), 5000);
        return;
    }
    const std::size_t kMost = 4;  // the teaching view's Gantt shows up to four jobs
    const bool cut = group.size() > kMost;
    if (cut) group.resize(kMost);
    QStringList names;
    std::vector<std::vector<double>> stages;
    std::vector<double> solo;
    for (int j : group) {
        const cl::JobRecord& record = m_result->jobs[j];
        const cl::ModelProfile* model = m_profiles->find(record.model);
        const cl::GpuCountProfile* at = model ? model->at(record.gpus) : nullptr;
        if (!at || at->stage_times.empty()) {
            emit statusMessage(
                tr("Job %1's model %2 has no stage profile to interleave")
                    .arg(QString::fromStdString(record.id), QString::fromStdString(record.model)),
                5000);
            return;
        }
        names << tr("%1 (%2)").arg(QString::fromStdString(record.id), QString::fromStdString(record.model));
        stages.push_back(at->stage_times);
        solo.push_back(record.solo_iteration_time);
    }
    emit interleavingRequested(names, stages, solo);
    emit statusMessage(
        cut ? tr("The group had more than four jobs; the first four are shown (profile stage times)")
            : tr("The group of job %1, with its model profiles' stage times")
                  .arg(QString::fromStdString(m_result->jobs[job].id)),
        8000);
}

}  // namespace cl::views
