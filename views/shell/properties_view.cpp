#include "views/shell/properties_view.h"

#include <exception>

#include <QLocale>

#include "core/store/scenario_store.h"
#include "views/common/describe.h"
#include "views/common/format.h"

namespace cl::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString storedName(const std::vector<cl::StoredItem>& items, std::int64_t id) {
    for (const auto& item : items)
        if (item.id == id) return QStringLiteral("%1 (#%2)").arg(qs(item.name)).arg(id);
    return QStringLiteral("#%1").arg(id);
}

}  // namespace

PropertiesView::PropertiesView(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setToolTip(tr("Details of the item selected in the workspace"));
    showNothing();
}

void PropertiesView::setStore(cl::ScenarioStore* store) {
    m_store = store;
    showNothing();
}

void PropertiesView::refresh() {
    switch (m_subject) {
        case Subject::Nothing:
            return showNothing();
        case Subject::Scenario:
            return showScenario(m_name);
        case Subject::Cluster:
            return showCluster(m_id);
        case Subject::Trace:
            return showTrace(m_id);
        case Subject::Run:
            return showRun(m_id);
    }
}

void PropertiesView::showNothing() {
    m_subject = Subject::Nothing;
    setHtml(QStringLiteral("<p style='color:gray'>%1</p>")
                .arg(tr("Select a cluster, trace, scenario or run in the workspace.")));
}

void PropertiesView::showTable(const QString& title, const QList<QPair<QString, QString>>& rows) {
    QString html =
        QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='3'>").arg(title.toHtmlEscaped());
    for (const auto& [key, value] : rows)
        html += QStringLiteral("<tr><td style='color:gray; padding-right:12px'>%1</td><td>%2</td></tr>")
                    .arg(key.toHtmlEscaped(), value.toHtmlEscaped());
    html += QStringLiteral("</table>");
    setHtml(html);
}

void PropertiesView::showError(const QString& what, const QString& message) {
    setHtml(QStringLiteral("<h3>%1</h3><p>%2</p>").arg(what.toHtmlEscaped(), message.toHtmlEscaped()));
}

void PropertiesView::showScenario(const QString& name) {
    m_subject = Subject::Scenario;
    m_name = name;
    if (!m_store) return showNothing();
    try {
        const cl::ScenarioInfo info = m_store->scenario(name.toStdString());
        const cl::ScenarioSpec& s = info.spec;
        QStringList transforms;
        for (const auto& t : s.parameters.transforms) transforms << qs(t);
        const QLocale locale;
        showTable(
            tr("Scenario %1").arg(name),
            {{tr("Policy"), qs(s.policy)},
             {tr("Conventions"), qs(s.conventions)},
             {tr("Cluster"), storedName(m_store->clusters(), s.cluster_id)},
             {tr("Trace"), storedName(m_store->traces(), s.trace_id)},
             {tr("Profiles"), storedName(m_store->profileSets(), s.profiles_id)},
             {tr("Load factor"), locale.toString(s.parameters.load_factor)},
             {tr("Servers"),
              s.parameters.server_count == 0 ? tr("as stored") : locale.toString(s.parameters.server_count)},
             {tr("Max group size"), s.parameters.max_group_size == 0
                                        ? tr("policy default")
                                        : locale.toString(s.parameters.max_group_size)},
             {tr("Interference ratio \u03be"),
              s.parameters.interference == 0
                  ? tr("the profile's (sharing policies only)")
                  : QStringLiteral("%1 \u00d7").arg(locale.toString(s.parameters.interference))},
             {tr("Models reassigned"), s.parameters.reassign_models ? tr("yes") : tr("no")},
             {tr("Transforms"), transforms.isEmpty() ? tr("none") : transforms.join(QStringLiteral(", "))},
             {tr("Seed"), QString::number(s.seed)},
             {tr("Runs"), locale.toString(info.runs)},
             {tr("Created"), qs(info.created)},
             {tr("Modified"), qs(info.modified)},
             {tr("Content hash"), qs(info.content_hash)},
             {tr("Notes"), qs(s.notes)}});
    } catch (const std::exception& e) {
        showError(tr("Scenario %1").arg(name), qs(e.what()));
    }
}

void PropertiesView::showCluster(qint64 id) {
    m_subject = Subject::Cluster;
    m_id = id;
    if (!m_store) return showNothing();
    try {
        const cl::Cluster cluster = m_store->cluster(id);
        const QLocale locale;
        const int gpus = cluster.totalGpus();
        showTable(tr("Cluster %1").arg(qs(cluster.name)),
                  {{tr("Summary"), describeCluster(cluster)},
                   {tr("Racks"), locale.toString(static_cast<int>(cluster.racks().size()))},
                   {tr("CPU cores"), locale.toString(cluster.totalCpuCores())},
                   {tr("CPU cores per GPU"),
                    gpus > 0 ? locale.toString(double(cluster.totalCpuCores()) / gpus, 'f', 1)
                             : QStringLiteral("\u2013")},
                   {tr("DRAM"), tr("%1 GB").arg(locale.toString(cluster.totalMemoryGb(), 'f', 0))},
                   {tr("DRAM per GPU"),
                    gpus > 0 ? tr("%1 GB").arg(locale.toString(cluster.totalMemoryGb() / gpus, 'f', 1))
                             : QStringLiteral("\u2013")},
                   {tr("Stored as"), QStringLiteral("#%1").arg(id)}});
    } catch (const std::exception& e) {
        showError(tr("Cluster #%1").arg(id), qs(e.what()));
    }
}

void PropertiesView::showTrace(qint64 id) {
    m_subject = Subject::Trace;
    m_id = id;
    if (!m_store) return showNothing();
    try {
        const cl::Trace trace = m_store->trace(id);
        QStringList provenance;
        for (const auto& line : trace.provenance) provenance << qs(line);
        showTable(tr("Trace %1").arg(qs(trace.name)),
                  {{tr("Summary"), describeTrace(trace)},
                   {tr("Provenance"),
                    provenance.isEmpty() ? tr("imported") : provenance.join(QStringLiteral("; "))},
                   {tr("Stored as"), QStringLiteral("#%1").arg(id)}});
    } catch (const std::exception& e) {
        showError(tr("Trace #%1").arg(id), qs(e.what()));
    }
}

void PropertiesView::showRun(qint64 id) {
    m_subject = Subject::Run;
    m_id = id;
    if (!m_store) return showNothing();
    try {
        const cl::RunInfo run = m_store->runInfo(id);
        QList<QPair<QString, QString>> rows{{tr("Scenario"), qs(run.scenario_name)},
                                            {tr("Policy"), qs(run.policy)},
                                            {tr("Status"), qs(cl::runStatusName(run.status))},
                                            {tr("Started"), qs(run.started)},
                                            {tr("Finished"), qs(run.finished)},
                                            {tr("Engine"), qs(run.engine_version)}};
        if (!run.message.empty()) rows.append({tr("Message"), qs(run.message)});
        if (run.status == cl::RunStatus::Finished) {
            const cl::Summary& s = run.summary;
            rows.append(
                {{tr("Jobs"), QLocale().toString(s.jobs)},
                 {tr("Average JCT"), formatDurationExact(s.avg_jct)},
                 {tr("Median JCT"), formatDurationExact(s.median_jct)},
                 {tr("99th percentile JCT"), formatDurationExact(s.p99_jct)},
                 {tr("Makespan"), formatDurationExact(s.makespan)},
                 {tr("Average queueing"), formatDurationExact(s.avg_queueing_delay)},
                 {tr("Simulation time"), tr("%1 s").arg(QLocale().toString(run.wall_seconds, 'f', 2))}});
        }
        showTable(tr("Run %1").arg(id), rows);
    } catch (const std::exception& e) {
        showError(tr("Run %1").arg(id), qs(e.what()));
    }
}

}  // namespace cl::views
