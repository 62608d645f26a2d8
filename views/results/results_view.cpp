#include "views/results/results_view.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include <QFile>
#include <QFrame>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSaveFile>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QTextStream>
#include <QVBoxLayout>

#include "core/metrics/cluster_cost.h"
#include "core/metrics/interleaving_effect.h"
#include "core/policies/scheduler_registry.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/results/summary_table_model.h"
#include "views/results/utilization_plot.h"

namespace cl::views {

ResultsView::ResultsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("resultsTitle"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_interleavingNote = new QLabel(this);
    m_interleavingNote->setObjectName(QStringLiteral("interleavingNote"));
    m_interleavingNote->setWordWrap(true);
    m_interleavingNote->setFrameShape(QFrame::StyledPanel);
    m_interleavingNote->setMargin(6);
    m_interleavingNote->setToolTip(
        tr("Interleaving trades each job's speed for cluster capacity; it pays off only when that capacity "
           "removes queueing (README, \"When interleaving helps\")"));
    m_interleavingNote->hide();
    layout->addWidget(m_interleavingNote);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    m_model = new SummaryTableModel(this);
    m_model->setObjectName(QStringLiteral("resultsModel"));
    m_model->setLabelTitle(tr("Scenario"));
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fourteen columns: each as wide as its contents, the table scrolling sideways on a small
    // screen rather than eliding the figures.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setToolTip(tr("Latest run of every scenario in this family; select a row to plot its run"));
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                // The row the user picked stays picked when the family refreshes.
                if (current.isValid() && current.row() < m_model->rowCount())
                    m_selected = m_model->policies().at(current.row());
                plotRow(current.row());
                if (!m_refreshing && current.isValid() && current.row() < m_model->rowCount())
                    emit scenarioPicked(m_model->policies().at(current.row()));
            });
    m_plot = new UtilizationPlot(splitter);
    m_plot->setObjectName(QStringLiteral("resultsPlot"));
    splitter->addWidget(m_table);
    splitter->addWidget(m_plot);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    showScenario({});
}

void ResultsView::setStore(cl::ScenarioStore* store) {
    m_store = store;
    m_plottedRun = 0;
    m_family.clear();
    m_selected.clear();
    showScenario({});
}

QString ResultsView::familyOf(const QString& scenarioName) {
    const int slash = scenarioName.indexOf(QLatin1Char('/'));
    return slash < 0 ? scenarioName : scenarioName.left(slash);
}

void ResultsView::showScenario(const QString& name) {
    m_selected = name;
    m_family = familyOf(name);
    refresh();
}

void ResultsView::showRun(qint64 runId) {
    if (!m_store) return;
    try {
        const cl::RunInfo info = m_store->runInfo(runId);
        showScenario(QString::fromStdString(info.scenario_name));
        m_plottedRun = 0;
        if (info.status == cl::RunStatus::Finished) {
            const cl::SimResult result = m_store->loadRun(runId, false);
            m_plot->setResult(QString::fromStdString(info.scenario_name), result);
            m_plottedRun = runId;
            emit runSelected(runId, QString::fromStdString(info.scenario_name));
        }
    } catch (const std::exception& e) {
        m_plot->showMessage(tr("Cannot read run %1: %2").arg(runId).arg(QString::fromStdString(e.what())));
    }
}

void ResultsView::refresh() {
    m_latestRun.clear();
    m_policyOf.clear();
    m_traceOf.clear();
    m_traceCount = 0;
    if (!m_store || m_family.isEmpty()) {
        m_plottedRun = 0;
        m_title->setText(tr("Select a scenario in the workspace to see its results."));
        m_model->clear();
        m_plot->showMessage(tr("No scenario selected"));
        emit familyRefreshed();
        return;
    }
    QStringList names;
    try {
        const std::string prefix = m_family.toStdString() + "/";
        std::vector<cl::ScenarioInfo> family;
        for (auto& info : m_store->scenarios())
            if (info.spec.name == m_family.toStdString() || info.spec.name.rfind(prefix, 0) == 0)
                family.push_back(std::move(info));
        for (const auto& info : family) names << QString::fromStdString(info.spec.name);
        m_model->setPolicies(names);
        nameTraces(family);
        QHash<QPair<qint64, int>, QPair<cl::ClusterCost, int>> costs;  // by cluster id and server count
        for (const auto& info : family) {
            const QString name = QString::fromStdString(info.spec.name);
            m_policyOf.insert(name, QString::fromStdString(info.spec.policy));
            const std::vector<cl::RunInfo> runs = m_store->runs(info.id);
            if (runs.empty()) continue;
            const cl::RunInfo& latest = *std::max_element(
                runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
            m_latestRun.insert(name, latest.id);
            switch (latest.status) {
                case cl::RunStatus::Finished: {
                    m_model->setSummary(name, latest.summary);
                    // Only a plan's points may stop early (docs/architecture.md 7.9).
                    if (info.spec.parameters.stop_when_overloaded > 0 ||
                        !info.spec.parameters.stop_when_missed.empty()) {
                        const std::vector<std::string> notes = m_store->runNotes(latest.id);
                        if (const std::string* note = cl::stoppedEarlyNote(notes))
                            m_model->setStoppedEarly(name, QString::fromStdString(*note));
                    }
                    // The scenario's cluster, resized as it ran: its cost for the run (section 7.8).
                    const QPair<qint64, int> key(info.spec.cluster_id, info.spec.parameters.server_count);
                    if (!costs.contains(key)) {
                        const cl::Cluster cluster = cl::scenarioCluster(*m_store, info.spec);
                        costs.insert(key,
                                     {cl::clusterCost(cluster), static_cast<int>(cluster.servers.size())});
                    }
                    m_model->setCost(name, costs.value(key).first, costs.value(key).second);
                    break;
                }
                case cl::RunStatus::Running:
                    m_model->setRunning(name, 0.0);
                    break;
                case cl::RunStatus::Failed:
                case cl::RunStatus::Cancelled:
                    m_model->setFailed(name, QString::fromStdString(latest.message));
                    break;
            }
        }
    } catch (const std::exception& e) {
        m_title->setText(
            tr("Cannot read the workspace: %1").arg(QString::fromStdString(e.what()).toHtmlEscaped()));
        m_model->clear();
        return;
    }
    QString title =
        tr("<b>%1</b> \u2014 %n scenario(s); latest run of each", nullptr, static_cast<int>(names.size()))
            .arg(m_family.toHtmlEscaped());
    // Runs of different traces side by side would read as policy wins: said where they meet.
    if (mixesTraces()) {
        QStringList traces;
        for (const QString& name : names) {
            const QString trace = m_traceOf.value(name).toHtmlEscaped();
            if (!traces.contains(trace)) traces << trace;
        }
        title += QStringLiteral("<br>") +
                 tr("<b>These scenarios run %1 different traces</b> (%2): compare policies within one trace.")
                     .arg(m_traceCount)
                     .arg(traces.join(QStringLiteral(", ")));
    }
    m_title->setText(title);
    fitTableHeight();
    const int row = std::max(0, static_cast<int>(names.indexOf(m_selected)));
    if (names.isEmpty()) {
        m_plot->showMessage(tr("No scenarios in %1").arg(m_family));
        emit familyRefreshed();
        return;
    }
    for (auto it = m_runProgress.cbegin(); it != m_runProgress.cend(); ++it)
        m_model->setRunning(it.key(), it.value());
    m_refreshing = true;
    m_table->selectRow(row);
    m_refreshing = false;
    plotRow(row);
    emit familyRefreshed();
}

void ResultsView::nameTraces(const std::vector<cl::ScenarioInfo>& family) {
    QHash<qint64, QString> traceNames;
    for (const cl::StoredItem& t : m_store->traces()) traceNames.insert(t.id, QString::fromStdString(t.name));
    QSet<qint64> used;
    for (const auto& info : family) {
        used.insert(info.spec.trace_id);
        m_traceOf.insert(QString::fromStdString(info.spec.name), traceNames.value(info.spec.trace_id));
    }
    m_traceCount = static_cast<int>(used.size());
    for (int row = 0; row < m_model->rowCount(); ++row)
        m_model->setTraceName(row, mixesTraces() ? m_traceOf.value(m_model->policies().at(row)) : QString());
}

void ResultsView::setRunProgress(const QString& scenario, double fractionDone) {
    m_runProgress.insert(scenario, fractionDone);
    m_model->setRunning(scenario, fractionDone);  // no row outside the shown family: nothing
}

void ResultsView::clearRunProgress(const QString& scenario) {
    if (scenario.isEmpty())
        m_runProgress.clear();
    else
        m_runProgress.remove(scenario);
}

void ResultsView::fitTableHeight() {
    const int rows = std::min(m_model->rowCount(), 8);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              rows * m_table->verticalHeader()->defaultSectionSize() +
                              2 * m_table->frameWidth());
}

void ResultsView::plotRow(int row) {
    if (!m_store || row < 0 || row >= m_model->rowCount()) return;
    const QString name = m_model->policies().at(row);
    const qint64 run = m_latestRun.value(name, 0);
    if (run == m_plottedRun && run != 0) return;
    m_plottedRun = 0;
    m_interleavingNote->hide();
    if (run == 0 || m_model->state(row) != SummaryTableModel::RowState::Done) {
        emit runSelected(0, name);
        m_plot->showMessage(tr("%1 has no finished run yet \u2014 run it from the Run panel (F5)").arg(name));
        return;
    }
    try {
        const cl::SimResult result = m_store->loadRun(run, false);
        m_plot->setResult(name, result);
        m_plottedRun = run;
        explainInterleaving(name, result);
        emit runSelected(run, name);
    } catch (const std::exception& e) {
        m_plot->showMessage(tr("Cannot read run %1: %2").arg(run).arg(QString::fromStdString(e.what())));
    }
}

void ResultsView::explainInterleaving(const QString& name, const cl::SimResult& shared) {
    // The closest exclusive counterpart with a finished run on the same inputs (docs/architecture.md
    // section 7.6): its own order without sharing first, then the paper's baseline.
    m_interleavingNote->hide();
    const std::vector<std::string> counterparts =
        cl::exclusiveCounterparts(m_policyOf.value(name).toStdString());
    if (counterparts.empty()) return;
    const cl::ScenarioSpec spec = m_store->scenario(name.toStdString()).spec;
    for (const std::string& policy : counterparts) {
        for (auto it = m_policyOf.cbegin(); it != m_policyOf.cend(); ++it) {
            if (it.value().toStdString() != policy) continue;
            const qint64 run = m_latestRun.value(it.key(), 0);
            const int row = static_cast<int>(m_model->policies().indexOf(it.key()));
            if (run == 0 || row < 0 || m_model->state(row) != SummaryTableModel::RowState::Done) continue;
            const cl::ScenarioSpec other = m_store->scenario(it.key().toStdString()).spec;
            if (other.cluster_id != spec.cluster_id || other.trace_id != spec.trace_id ||
                other.profiles_id != spec.profiles_id || other.conventions != spec.conventions ||
                other.parameters != spec.parameters)
                continue;
            const cl::Cluster cluster = cl::scenarioCluster(*m_store, spec);
            const cl::SimResult exclusive = m_store->loadRun(run, false);
            const cl::InterleavingEffect effect =
                cl::interleavingEffect(shared, exclusive, cluster.totalGpus());
            const int verdict = cl::interleavingVerdict(effect);
            m_interleavingNote->setText(tr("Why %1 %2 %3: %4")
                                            .arg(name,
                                                 verdict > 0   ? tr("beat")
                                                 : verdict < 0 ? tr("lost to")
                                                               : tr("matched"),
                                                 it.key(),
                                                 QString::fromStdString(cl::explainInterleaving(
                                                     effect, m_policyOf.value(name).toStdString(), policy))));
            m_interleavingNote->show();
            return;
        }
    }
}

QList<QPair<QString, qint64>> ResultsView::finishedRuns() const {
    QList<QPair<QString, qint64>> runs;
    const QStringList names = m_model->policies();
    for (int row = 0; row < names.size(); ++row)
        if (m_model->state(row) == SummaryTableModel::RowState::Done)
            runs.append({names[row], m_latestRun.value(names[row], 0)});
    return runs;
}

bool ResultsView::exportCsv(const QString& path, QString* error) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error) *error = file.errorString();
        return false;
    }
    QTextStream out(&file);
    // The new figures take the planning targets' names (docs/architecture.md 7.7), with the unit.
    out << "scenario,policy,run_id,jobs,avg_jct_s,median_jct_s,p95_jct_s,p99_jct_s,makespan_s,avg_queueing_"
           "s,p95_queueing_s,small:p95_jct_s,small:p99_jct_s,large:p95_jct_s,large:p99_jct_s,span_cost_usd,"
           "cost_per_month_usd\n";
    // NaN (no such job, no price) is an empty field.
    const auto field = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 10); };
    const QStringList names = m_model->policies();
    for (int row = 0; row < names.size(); ++row) {
        const auto summary = m_model->summary(row);
        QString name = names[row];
        name.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        out << '"' << name << "\"," << m_policyOf.value(names[row]) << ','
            << m_latestRun.value(names[row], 0);
        if (summary)
            out << ',' << summary->jobs << ',' << QString::number(summary->avg_jct, 'g', 10) << ','
                << QString::number(summary->median_jct, 'g', 10) << ','
                << QString::number(summary->p95_jct, 'g', 10) << ','
                << QString::number(summary->p99_jct, 'g', 10) << ','
                << QString::number(summary->makespan, 'g', 10) << ','
                << QString::number(summary->avg_queueing_delay, 'g', 10) << ','
                << field(summary->p95_queueing_delay) << ',' << field(summary->small.p95_jct) << ','
                << field(summary->small.p99_jct) << ',' << field(summary->large.p95_jct) << ','
                << field(summary->large.p99_jct) << ','
                << field(m_model->cost(row, SummaryTableModel::CostColumn)) << ','
                << field(m_model->cost(row, SummaryTableModel::CostPerMonthColumn));
        else
            out << ",,,,,,,,,,,,,,";
        out << '\n';
    }
    if (!file.commit()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

}  // namespace cl::views
