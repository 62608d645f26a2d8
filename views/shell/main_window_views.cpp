// MainWindow's analysis views: which run the timeline shows, which runs the charts overlay,
// exporting the current view and the comparison report.
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>

#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/charts/run_picker.h"
#include "views/charts/run_series.h"
#include "views/charts/series_charts.h"
#include "views/cluster/cluster_diagram.h"
#include "views/cluster/cluster_editor.h"
#include "views/common/chart_export.h"
#include "views/common/describe.h"
#include "views/common/report_writer.h"
#include "views/interleave/interleave_gantt.h"
#include "views/interleave/interleave_panel.h"
#include "views/plan/plan_cliff_plot.h"
#include "views/plan/plan_frontier_plot.h"
#include "views/plan/plan_view.h"
#include "views/profiles/profiles_view.h"
#include "views/results/comparison_model.h"
#include "views/results/comparison_view.h"
#include "views/results/results_view.h"
#include "views/results/utilization_plot.h"
#include "views/shell/main_window.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"
#include "views/trace/trace_browser.h"
#include "views/trace/trace_histograms.h"

namespace cl::views {

namespace {

// Runs the charts overlay until the user picks others: more lines than this are hard to tell
// apart, although each keeps a colour of its own (chart_style.h).
constexpr int kRunsChartedAtFirst = 8;

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

QString exportDir() {
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

}  // namespace

namespace {

// What the timeline needs of a stored run, read on a worker thread with its own connection.
struct TimelineLoad {
    QString title;
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
        load.title = QCoreApplication::translate("cl::views::MainWindow", "%1 \u00b7 run %2")
                         .arg(QString::fromStdString(info.scenario_name))
                         .arg(run);
    } catch (const std::exception& e) {
        load.error = QString::fromStdString(e.what());
    }
    return load;
}

}  // namespace

void MainWindow::updateTimeline() {
    if (!m_store || m_tabs->currentWidget() != m_timeline->parentWidget()) return;
    const auto [scenario, run] = m_timelineWanted;
    if (run == m_timelineShown && run != 0) return;
    if (run != 0 && run == m_timelineLoading) return;  // on its way
    const int generation = ++m_timelineGeneration;     // a load still running is now stale
    m_timelineLoading = 0;
    if (run == 0) {
        m_timelineShown = 0;
        m_timelineResult.reset();
        m_timelineCluster.clear();
        m_timeline->setRun(cl::Cluster{}, nullptr, m_profiles.get(), QString());
        statusBar()->showMessage(scenario.isEmpty()
                                     ? tr("Select a scenario with a finished run for its timeline")
                                     : tr("%1 has no finished run yet").arg(scenario),
                                 5000);
        return;
    }
    // A big run has millions of segments: read them off the GUI thread. What is shown stays
    // until the new run is there, and a failed read leaves it as it was.
    m_timelineLoading = run;
    statusBar()->showMessage(tr("Loading run %1 for the timeline\u2026").arg(run));
    auto* watcher = new QFutureWatcher<TimelineLoad>(this);
    connect(watcher, &QFutureWatcher<TimelineLoad>::finished, this, [this, watcher, generation, run] {
        watcher->deleteLater();
        if (generation != m_timelineGeneration) return;
        m_timelineLoading = 0;
        TimelineLoad load = watcher->result();
        if (!load.error.isEmpty()) {
            log(tr("Cannot show run %1 in the timeline: %2").arg(run).arg(load.error));
            statusBar()->clearMessage();
            return;
        }
        QApplication::setOverrideCursor(Qt::WaitCursor);  // the layout is built here
        m_timeline->setRun(load.cluster, load.result, load.profiles.get(), load.title);
        QApplication::restoreOverrideCursor();
        m_timelineProfiles = std::move(load.profiles);
        m_timelineResult = std::move(load.result);
        m_timelineCluster = load.key;
        m_timelineShown = run;
        statusBar()->clearMessage();
        updateSecondTimelineChoices();
        updateSecondTimelineRun();  // the new run replaced the panel's second one
        emit timelineLoaded(run);
    });
    watcher->setFuture(QtConcurrent::run(loadTimelineRun, m_path, run));
}

void MainWindow::updateSecondTimelineChoices() {
    const qint64 chosen = m_timelineSecond->currentData().toLongLong();
    m_timelineSecond->clear();
    m_timelineSecond->addItem(tr("nothing"), qint64(0));
    // Only runs on the same GPUs can share the rows.
    for (const auto& [scenario, run] : m_results->finishedRuns()) {
        if (run == m_timelineShown || !m_store) continue;
        const auto info = m_store->findScenario(scenario.toStdString());
        if (info && runKey(info->spec) == m_timelineCluster)
            m_timelineSecond->addItem(tr("%1 (run %2)").arg(scenario).arg(run), run);
    }
    const int keep = m_timelineSecond->findData(chosen);
    m_timelineSecond->setCurrentIndex(keep < 0 ? 0 : keep);
    if (keep < 0 && chosen != 0) m_timeline->setSecondRun(nullptr, QString());
}

void MainWindow::updateSecondTimelineRun() {
    const qint64 run = m_timelineSecond->currentData().toLongLong();
    if (!m_store || run == 0 || !m_timelineResult) {
        m_timeline->setSecondRun(nullptr, QString());
        return;
    }
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        const cl::RunInfo info = m_store->runInfo(run);
        m_timeline->setSecondRun(
            std::make_shared<const cl::SimResult>(m_store->loadRun(run, true)),
            tr("%1 \u00b7 run %2").arg(QString::fromStdString(info.scenario_name)).arg(run));
    } catch (const std::exception& e) {
        log(tr("Cannot show run %1 below the timeline: %2").arg(run).arg(QString::fromStdString(e.what())));
    }
    QApplication::restoreOverrideCursor();
}

std::vector<int> MainWindow::interleavingGroupOf(int job) const {
    if (!m_timelineResult || job < 0 || job >= static_cast<int>(m_timelineResult->jobs.size())) return {};
    // The jobs on one of its GPUs at the earliest moment it shared one: a group the run had.
    const TimelineLayout& layout = m_timeline->view()->layout();
    const auto& segments = m_timelineResult->segments;
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

void MainWindow::sendGroupToInterleaving() {
    const int job = m_timeline->view()->selectedJob();
    std::vector<int> group = interleavingGroupOf(job);
    if (group.size() < 2) {
        statusBar()->showMessage(tr("The selected job never shared its GPUs: nothing to interleave"), 5000);
        return;
    }
    const std::size_t kMost = 4;  // the teaching view's Gantt shows up to four jobs
    const bool cut = group.size() > kMost;
    if (cut) group.resize(kMost);
    QStringList names;
    std::vector<std::vector<double>> stages;
    std::vector<double> solo;
    for (int j : group) {
        const cl::JobRecord& record = m_timelineResult->jobs[j];
        const cl::ModelProfile* model = m_timelineProfiles->find(record.model);
        const cl::GpuCountProfile* at = model ? model->at(record.gpus) : nullptr;
        if (!at || at->stage_times.empty()) {
            statusBar()->showMessage(
                tr("Job %1's model %2 has no stage profile to interleave")
                    .arg(QString::fromStdString(record.id), QString::fromStdString(record.model)),
                5000);
            return;
        }
        names << tr("%1 (%2)").arg(QString::fromStdString(record.id), QString::fromStdString(record.model));
        stages.push_back(at->stage_times);
        solo.push_back(record.solo_iteration_time);
    }
    m_interleave->setGroup(names, stages, solo);
    m_tabs->setCurrentWidget(m_interleave);
    statusBar()->showMessage(
        cut ? tr("The group had more than four jobs; the first four are shown (profile stage times)")
            : tr("The group of job %1, with its model profiles' stage times")
                  .arg(QString::fromStdString(m_timelineResult->jobs[job].id)),
        8000);
}

void MainWindow::updateCharts() {
    if (!m_store || !m_chartsDirty || m_tabs->currentWidget() != m_charts->parentWidget()) return;
    m_chartsDirty = false;
    // Several runs overlaid show one utilization each (the chosen resource); all five of
    // several runs would be unreadable.
    const QString resource = m_chartResource->currentData().toString();
    QList<ChartRunSeries> runs;
    QHash<qint64, RunSeries> kept;  // only the runs shown stay cached
    const auto finished = m_results->finishedRuns();
    QStringList names;
    for (const auto& entry : finished) names << entry.first;
    {
        const QSignalBlocker quiet(m_chartRuns);  // this refresh reads the choice below
        m_chartRuns->setRuns(names, kRunsChartedAtFirst);
    }
    const int hidden = m_chartRuns->hiddenCount();
    QStringList hiddenNames;
    for (const QString& name : names)
        if (!m_chartRuns->isShown(name)) hiddenNames << name;
    // Said next to the picker, so that a family larger than the charts never looks complete.
    m_chartsHidden->setText(hidden == 1 ? tr("1 run of the family not drawn")
                                        : tr("%1 runs of the family not drawn").arg(hidden));
    m_chartsHidden->setToolTip(tr("Not drawn: %1. Choose the runs with the Runs button.")
                                   .arg(hiddenNames.join(QStringLiteral(", "))));
    m_chartsHidden->setVisible(hidden > 0);
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        for (int index = 0; index < int(finished.size()); ++index) {
            const auto& [scenario, run] = finished[index];
            if (!m_chartRuns->isShown(scenario)) continue;
            auto cached = m_seriesCache.constFind(run);
            RunSeries all =
                cached != m_seriesCache.constEnd() ? *cached : extractRunSeries(m_store->loadRun(run, false));
            kept.insert(run, all);
            if (!resource.isEmpty())
                std::erase_if(all.series, [&](const NamedSeries& s) {
                    return s.group == SeriesGroup::Utilization && s.key != resource;
                });
            // Every run is of the shown family: the legend names them without its prefix, or
            // eight "demo/…" entries do not fit one row.
            const QString prefix = m_results->family() + QLatin1Char('/');
            runs.append({scenario.startsWith(prefix) ? scenario.mid(prefix.size()) : scenario, std::move(all),
                         index});
        }
    } catch (const std::exception& e) {
        log(tr("Cannot read the runs for the charts: %1").arg(QString::fromStdString(e.what())));
    }
    QApplication::restoreOverrideCursor();
    m_seriesCache = std::move(kept);
    m_charts->setRunSeries(runs);
}

PaintFunction MainWindow::currentViewPainting() const {
    QWidget* current = m_tabs->currentWidget();
    if (current == m_results)
        return [this](QPainter& p, const QRectF& r) { renderWidget(p, r, m_results->plot()); };
    if (current == m_editor)
        return [this](QPainter& p, const QRectF& r) { renderWidget(p, r, m_editor->diagram()); };
    if (current == m_traces)
        return [this](QPainter& p, const QRectF& r) { renderWidget(p, r, m_traces->histograms()); };
    if (current == m_timeline->parentWidget())
        return [this](QPainter& p, const QRectF& r) { m_timeline->paintExport(p, r, QString()); };
    if (current == m_charts->parentWidget())
        return [this](QPainter& p, const QRectF& r) { m_charts->paint(p, r); };
    if (current == m_compare)
        return [this](QPainter& p, const QRectF& r) { m_compare->paintExport(p, r, QString()); };
    if (current == m_interleave)
        return [this](QPainter& p, const QRectF& r) { m_interleave->gantt()->paintExport(p, r, QString()); };
    if (current == m_profilesView)
        return [this](QPainter& p, const QRectF& r) { m_profilesView->paintExport(p, r); };
    if (current == m_planView)
        return [this](QPainter& p, const QRectF& r) {
            if (m_planView->cliffPlot()->isVisible())
                m_planView->cliffPlot()->paintExport(p, r);
            else
                m_planView->frontierPlot()->paintExport(p, r);
        };
    return {};
}

bool MainWindow::exportCurrentView(const QString& path, const ExportOptions& options, QString* error) {
    const PaintFunction paint = currentViewPainting();
    if (!paint) {
        if (error) *error = tr("this view cannot be exported");
        return false;
    }
    if (!exportPainting(path, options, paint, error)) return false;
    log(tr("Exported %1 to %2 (%3 \u00d7 %4 px at %5 dpi)")
            .arg(m_tabs->tabText(m_tabs->currentIndex()), path)
            .arg(options.size.width())
            .arg(options.size.height())
            .arg(options.dpi));
    return true;
}

void MainWindow::exportView() {
    const QString what = m_tabs->tabText(m_tabs->currentIndex()).remove(QLatin1Char('&'));
    ExportDialog dialog(this);
    const QString base = m_results->family().isEmpty() ? what : m_results->family() + QLatin1Char('-') + what;
    dialog.setPath(exportDir() + QLatin1Char('/') +
                   base.toLower().replace(QLatin1Char('/'), QLatin1Char('-')) + QStringLiteral(".png"));
    QString path;
    ExportOptions options;
    if (!dialog.ask(&path, &options)) return;
    QString error;
    if (!exportCurrentView(path, options, &error))
        QMessageBox::warning(this, tr("Export"), tr("Cannot export to %1:\n\n%2").arg(path, error));
}

void MainWindow::exportReport() {
    if (!m_store || m_compare->model()->rowCount() == 0) {
        statusBar()->showMessage(tr("Tick the runs to compare in the Compare view first"), 5000);
        m_tabs->setCurrentWidget(m_compare);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Comparison report"),
                                                      exportDir() + QStringLiteral("/clusterloom-report.pdf"),
                                                      tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    if (!writeComparisonReport(path, &error))
        QMessageBox::warning(this, tr("Comparison report"), tr("Cannot write %1:\n\n%2").arg(path, error));
}

QStringList MainWindow::comparisonReportScenarios() const {
    // Every input that makes runs differ is named, so that a what-if that only changed the
    // cluster or the trace does not read like its baseline: cluster, trace, policy, conventions
    // and load always, the other settings where one of the compared scenarios differs.
    struct Compared {
        qint64 run = 0;
        cl::RunInfo info;
        cl::ScenarioSpec spec;
    };
    if (!m_store) return {};
    std::vector<Compared> compared;
    QStringList lines;
    for (const qint64 run : m_compare->runs()) {
        try {
            const cl::RunInfo info = m_store->runInfo(run);
            compared.push_back({run, info, m_store->scenario(info.scenario_name).spec});
        } catch (const std::exception& e) {
            lines << tr("run %1: %2").arg(run).arg(QString::fromStdString(e.what()));
        }
    }
    auto differs = [&](auto field) {
        for (const Compared& c : compared)
            if (!(field(c.spec) == field(compared.front().spec))) return true;
        return false;
    };
    QHash<qint64, QString> clusters, traces, profiles;
    QStringList differing;
    const std::pair<QString, bool> kInputs[] = {
        {tr("cluster"), differs([](const cl::ScenarioSpec& s) { return s.cluster_id; }) ||
                            differs([](const cl::ScenarioSpec& s) { return s.parameters.server_count; })},
        {tr("trace"), differs([](const cl::ScenarioSpec& s) { return s.trace_id; }) ||
                          differs([](const cl::ScenarioSpec& s) { return s.parameters.transforms; })},
        {tr("policy"), differs([](const cl::ScenarioSpec& s) { return s.policy; })},
        {tr("conventions"), differs([](const cl::ScenarioSpec& s) { return s.conventions; })},
        {tr("load"), differs([](const cl::ScenarioSpec& s) { return s.parameters.load_factor; })},
        {tr("profiles"), differs([](const cl::ScenarioSpec& s) { return s.profiles_id; })},
        {tr("group size cap"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.max_group_size; })},
        {tr("model reassignment"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.reassign_models; })},
        {tr("measured jobs"), differs([](const cl::ScenarioSpec& s) {
             return std::pair(s.parameters.measure_first, s.parameters.measure_last);
         })},
        {tr("interference ratio"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.interference; })},
        {tr("seed"), differs([](const cl::ScenarioSpec& s) { return s.seed; })}};
    for (const auto& [name, different] : kInputs)
        if (different) differing << name;
    const bool profilesDiffer = differing.contains(tr("profiles"));
    const bool seedDiffers = differing.contains(tr("seed"));
    try {
        for (const cl::StoredItem& item : m_store->profileSets())
            profiles.insert(item.id, QString::fromStdString(item.name));
        for (const Compared& c : compared) {
            const cl::ScenarioSpec& spec = c.spec;
            if (!clusters.contains(spec.cluster_id))
                clusters.insert(spec.cluster_id, describeCluster(m_store->cluster(spec.cluster_id)));
            if (!traces.contains(spec.trace_id))
                traces.insert(spec.trace_id, describeTrace(m_store->trace(spec.trace_id)));
            const cl::ScenarioParameters& p = spec.parameters;
            QStringList parts;
            parts << tr("cluster %1").arg(clusters.value(spec.cluster_id));
            if (p.server_count > 0) parts << tr("resized to %1 servers").arg(p.server_count);
            parts << tr("trace %1").arg(traces.value(spec.trace_id));
            if (!p.transforms.empty()) {
                QStringList transforms;
                for (const std::string& t : p.transforms) transforms << QString::fromStdString(t);
                parts << tr("transformed by %1").arg(transforms.join(QStringLiteral(", ")));
            }
            parts << tr("policy %1").arg(QString::fromStdString(spec.policy))
                  << tr("conventions %1").arg(QString::fromStdString(spec.conventions))
                  << tr("load \u00d7%1").arg(p.load_factor);
            if (profilesDiffer) parts << tr("profiles %1").arg(profiles.value(spec.profiles_id));
            if (p.max_group_size > 0) parts << tr("groups of at most %1").arg(p.max_group_size);
            if (p.reassign_models) parts << tr("models reassigned");
            if (p.measure_first > 0 || p.measure_last >= 0)
                parts << tr("jobs %1\u2013%2 measured")
                             .arg(p.measure_first)
                             .arg(p.measure_last >= 0 ? QString::number(p.measure_last) : tr("last"));
            if (p.interference > 0.0) parts << tr("interference ratio %1").arg(p.interference);
            if (seedDiffers || p.reassign_models) parts << tr("seed %1").arg(spec.seed);
            lines << tr("%1 (run %2): %3; engine %4")
                         .arg(QString::fromStdString(c.info.scenario_name))
                         .arg(c.run)
                         .arg(parts.join(QStringLiteral("; ")),
                              QString::fromStdString(c.info.engine_version));
        }
    } catch (const std::exception& e) {
        lines << tr("Cannot describe the scenarios: %1").arg(QString::fromStdString(e.what()));
    }
    if (compared.size() > 1)
        lines.prepend(differing.isEmpty() ? tr("The compared scenarios have the same inputs.")
                                          : tr("Inputs that differ between the compared scenarios: %1.")
                                                .arg(differing.join(QStringLiteral(", "))));
    return lines;
}

bool MainWindow::writeComparisonReport(const QString& path, QString* error) {
    if (!m_store || m_compare->model()->rowCount() == 0) {
        if (error) *error = tr("no runs are ticked in the Compare view");
        return false;
    }
    const QStringList descriptions = comparisonReportScenarios();
    // Every chart of the Compare view, drawn one after another; its own tab is restored after.
    const auto shown = m_compare->currentChart();
    QList<PaintFunction> charts;
    QStringList titles;
    const std::pair<ComparisonView::Chart, QString> kCharts[] = {
        {ComparisonView::NormalizedChart, tr("Relative to the baseline")},
        {ComparisonView::CdfChart, tr("Job completion time distribution")},
        {ComparisonView::ModelChart, tr("Average JCT by model")},
        {ComparisonView::SizeChart, tr("Large and small jobs")},
        {ComparisonView::LoadChart, tr("Average JCT against offered load")}};
    // Each chart is laid out as shown before it is painted: a page never shown has no size yet.
    m_tabs->setCurrentWidget(m_compare);
    for (const auto& [chart, title] : kCharts) {
        charts.append([this, chart](QPainter& p, const QRectF& r) {
            m_compare->setCurrentChart(chart);
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
            m_compare->paintExport(p, r, QString());
        });
        titles << title;
    }
    ReportContent content;
    content.title = tr("ClusterLoom comparison");
    content.scenarioDescriptions = descriptions;
    content.summaryTable = m_compare->reportTable();
    // The columns a portrait page has no room for (docs/architecture.md 7.5, 7.8).
    content.sections.append({tr("Queueing tail and cost"), m_compare->reportTailAndCostHtml(), {}, 0.55});
    for (int i = 0; i < charts.size(); ++i) content.sections.append({titles[i], QString(), charts[i], 0.62});
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = writeReport(path, content, error);
    QApplication::restoreOverrideCursor();
    m_compare->setCurrentChart(shown);
    if (ok) log(tr("Wrote the comparison report %1").arg(path));
    return ok;
}

}  // namespace cl::views
