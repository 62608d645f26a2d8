#include "views/shell/compare_page.h"

#include <exception>
#include <utility>
#include <vector>

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeySequence>
#include <QMessageBox>
#include <nlohmann/json.hpp>

#include "core/store/scenario_store.h"
#include "views/common/describe.h"
#include "views/common/export_folder.h"
#include "views/common/report_writer.h"
#include "views/results/comparison_model.h"
#include "views/results/comparison_view.h"

namespace cl::views {

namespace {

// The Compare view's runs and baseline are remembered in the workspace file itself
// (docs/architecture.md section 9.2), so they travel with it: {"runs": [...], "baseline": id}.
constexpr const char* kCompareSelectionKey = "compare/selection";

// The inputs in which the compared scenarios differ, by name.
QStringList differingInputs(const std::vector<cl::ScenarioSpec>& specs) {
    auto differs = [&](auto field) {
        for (const cl::ScenarioSpec& spec : specs)
            if (!(field(spec) == field(specs.front()))) return true;
        return false;
    };
    QStringList differing;
    const std::pair<QString, bool> kInputs[] = {
        {ComparePage::tr("cluster"),
         differs([](const cl::ScenarioSpec& s) { return s.cluster_id; }) ||
             differs([](const cl::ScenarioSpec& s) { return s.parameters.server_count; })},
        {ComparePage::tr("trace"),
         differs([](const cl::ScenarioSpec& s) { return s.trace_id; }) ||
             differs([](const cl::ScenarioSpec& s) { return s.parameters.transforms; })},
        {ComparePage::tr("policy"), differs([](const cl::ScenarioSpec& s) { return s.policy; })},
        {ComparePage::tr("conventions"), differs([](const cl::ScenarioSpec& s) { return s.conventions; })},
        {ComparePage::tr("load"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.load_factor; })},
        {ComparePage::tr("profiles"), differs([](const cl::ScenarioSpec& s) { return s.profiles_id; })},
        {ComparePage::tr("group size cap"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.max_group_size; })},
        {ComparePage::tr("model reassignment"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.reassign_models; })},
        {ComparePage::tr("measured jobs"), differs([](const cl::ScenarioSpec& s) {
             return std::pair(s.parameters.measure_first, s.parameters.measure_last);
         })},
        {ComparePage::tr("interference ratio"),
         differs([](const cl::ScenarioSpec& s) { return s.parameters.interference; })},
        {ComparePage::tr("seed"), differs([](const cl::ScenarioSpec& s) { return s.seed; })}};
    for (const auto& [name, different] : kInputs)
        if (different) differing << name;
    return differing;
}

}  // namespace

ComparePage::ComparePage(QWidget* tabs, QObject* parent)
    : MainWindowPage({QStringLiteral("compare"), tr("Compare"), "export-chart",
                      tr("Runs side by side: normalized to a baseline, JCT CDFs, per model, large vs small")},
                     parent),
      m_view(new ComparisonView(tabs)) {
    m_view->setObjectName(QStringLiteral("comparisonView"));
    m_report =
        makeAction(this, "export", tr("Comparison &Report (PDF)\u2026"), QKeySequence(Qt::CTRL | Qt::Key_R),
                   tr("One PDF with the compared scenarios, their summary table and every comparison chart"));
    connect(m_report, &QAction::triggered, this, &ComparePage::askAndWriteReport);
    connect(m_view, &ComparisonView::runsChanged, this, &ComparePage::saveSelection);
    connect(m_view, &ComparisonView::baselineRunChanged, this, &ComparePage::saveSelection);
}

QWidget* ComparePage::widget() const {
    return m_view;
}

PaintFunction ComparePage::exportPainting() const {
    return [this](QPainter& p, const QRectF& r) { m_view->paintExport(p, r, QString()); };
}

void ComparePage::setWorkspace(cl::ScenarioStore* store, const QString&) {
    // The selection is saved to the workspace it belongs to while the view changes store.
    if (!store) {
        m_view->setStore(nullptr);
        m_store = nullptr;
        return;
    }
    m_store = store;
    m_view->setStore(store);
    restoreSelection();
}

void ComparePage::restoreSelection() {
    if (!m_store) return;
    QJsonObject saved;
    try {
        saved = QJsonDocument::fromJson(QByteArray::fromStdString(m_store->setting(kCompareSelectionKey)))
                    .object();
    } catch (const std::exception& e) {
        emit logMessage(
            tr("Cannot read the remembered Compare selection: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    if (saved.isEmpty()) return;
    QList<qint64> runs;
    for (const QJsonValue& id : saved.value(QStringLiteral("runs")).toArray())
        runs << static_cast<qint64>(id.toDouble());
    m_view->restoreSelection(runs, static_cast<qint64>(saved.value(QStringLiteral("baseline")).toDouble()));
}

void ComparePage::saveSelection() {
    if (!m_store || m_store->isReadOnly() || !m_view->isUserSelection()) return;
    QJsonArray runs;
    for (qint64 id : m_view->runs()) runs.append(static_cast<double>(id));
    const QJsonObject selection{{QStringLiteral("runs"), runs},
                                {QStringLiteral("baseline"), static_cast<double>(m_view->baselineRun())}};
    try {
        m_store->setSetting(kCompareSelectionKey,
                            QJsonDocument(selection).toJson(QJsonDocument::Compact).toStdString());
    } catch (const std::exception& e) {
        emit logMessage(
            tr("Cannot remember the Compare selection: %1").arg(QString::fromStdString(e.what())));
    }
}

void ComparePage::askAndWriteReport() {
    if (!m_store || m_view->model()->rowCount() == 0) {
        emit statusMessage(tr("Tick the runs to compare in the Compare view first"), 5000);
        emit showRequested();
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        m_view->window(), tr("Comparison report"),
        defaultExportPath(QStringLiteral("clusterloom-report.pdf")), tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    if (!writeReport(path, &error))
        QMessageBox::warning(m_view->window(), tr("Comparison report"),
                             tr("Cannot write %1:\n\n%2").arg(path, error));
}

QStringList ComparePage::reportScenarios() const {
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
    for (const qint64 run : m_view->runs()) {
        try {
            const cl::RunInfo info = m_store->runInfo(run);
            compared.push_back({run, info, m_store->scenario(info.scenario_name).spec});
        } catch (const std::exception& e) {
            lines << tr("run %1: %2").arg(run).arg(QString::fromStdString(e.what()));
        }
    }
    std::vector<cl::ScenarioSpec> specs;
    for (const Compared& c : compared) specs.push_back(c.spec);
    const QStringList differing = differingInputs(specs);
    QHash<qint64, QString> clusters, traces, profiles;
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
            if (p.server_count > 0) parts << tr("resized to %n server(s)", nullptr, p.server_count);
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

bool ComparePage::writeReport(const QString& path, QString* error) {
    if (!m_store || m_view->model()->rowCount() == 0) {
        if (error) *error = tr("no runs are ticked in the Compare view");
        return false;
    }
    const QStringList descriptions = reportScenarios();
    // Every chart of the Compare view, drawn one after another; its own tab is restored after.
    const auto shown = m_view->currentChart();
    QList<PaintFunction> charts;
    QStringList titles;
    const std::pair<ComparisonView::Chart, QString> kCharts[] = {
        {ComparisonView::NormalizedChart, tr("Relative to the baseline")},
        {ComparisonView::CdfChart, tr("Job completion time distribution")},
        {ComparisonView::ModelChart, tr("Average JCT by model")},
        {ComparisonView::SizeChart, tr("Large and small jobs")},
        {ComparisonView::LoadChart, tr("Average JCT against offered load")}};
    // Each chart is laid out as shown before it is painted: a page never shown has no size yet.
    emit showRequested();
    for (const auto& [chart, title] : kCharts) {
        charts.append([this, chart](QPainter& p, const QRectF& r) {
            m_view->setCurrentChart(chart);
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
            m_view->paintExport(p, r, QString());
        });
        titles << title;
    }
    ReportContent content;
    content.title = tr("ClusterLoom comparison");
    content.scenarioDescriptions = descriptions;
    content.summaryTable = m_view->reportTable();
    // The columns a portrait page has no room for (docs/architecture.md 7.5, 7.8).
    content.sections.append({tr("Queueing tail and cost"), m_view->reportTailAndCostHtml(), {}, 0.55});
    for (int i = 0; i < charts.size(); ++i) content.sections.append({titles[i], QString(), charts[i], 0.62});
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = cl::views::writeReport(path, content, error);
    QApplication::restoreOverrideCursor();
    m_view->setCurrentChart(shown);
    if (ok) emit logMessage(tr("Wrote the comparison report %1").arg(path));
    return ok;
}

}  // namespace cl::views
