#include "views/workspace/workspace_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include <QApplication>
#include <QColor>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QStyle>

#include "core/runs/plan_runner.h"
#include "views/common/format.h"
#include "views/common/plan_filter.h"

namespace cl::views {

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// "1 server", "8 servers": English plurals without a loaded translation.
QString counted(long long n, const QString& one, const QString& many) {
    return (n == 1 ? one : many).arg(n);
}

bool sameValue(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// A filled dot in the status colour; drawn at two sizes so high-DPI screens get a sharp one.
QIcon statusDot(const QColor& colour) {
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(colour.darker(130), size / 16.0));
        painter.setBrush(colour);
        const double margin = size * 0.22;
        painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

QIcon themed(const char* name, QStyle::StandardPixmap fallback) {
    return QIcon::fromTheme(QLatin1String(name), QApplication::style()->standardIcon(fallback));
}

QString loadText(double factor) {
    return QLocale().toString(factor, 'g', 4);
}

// Sub-folders are keyed by negative ids so that refresh() never matches one with a stored item.
constexpr qint64 kPlanCandidatesId = -1;
qint64 planFolderId(const QString& prefix) {
    return -2 - qint64(qHash(prefix) & 0x3fffffff);
}

}  // namespace

// One row of the tree. Display texts are computed when the store is read, so refresh() can
// tell a changed row from an unchanged one by comparing them.
struct WorkspaceModel::Node {
    Kind kind = Kind::Group;
    qint64 id = 0;  // the store id; a group's Group value
    QString name;   // the stored name (runs: their scenario's)
    QString display;
    QString details;
    QString tooltip;
    double avg_jct = kNoValue;
    double makespan = kNoValue;
    int status = -1;  // runs: cl::RunStatus
    QString status_name;
    QString plan_prefix;  // a capacity plan's folder: the plan's scenario prefix
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    bool sameContent(const Node& o) const {
        return name == o.name && display == o.display && details == o.details && tooltip == o.tooltip &&
               sameValue(avg_jct, o.avg_jct) && sameValue(makespan, o.makespan) && status == o.status &&
               plan_prefix == o.plan_prefix;
    }
    void takeContent(const Node& o) {
        name = o.name;
        display = o.display;
        details = o.details;
        tooltip = o.tooltip;
        avg_jct = o.avg_jct;
        makespan = o.makespan;
        status = o.status;
        status_name = o.status_name;
        plan_prefix = o.plan_prefix;
    }
    Node* add(std::unique_ptr<Node> child) {
        child->parent = this;
        children.push_back(std::move(child));
        return children.back().get();
    }
};

WorkspaceModel::WorkspaceModel(cl::ScenarioStore* store, QObject* parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<Node>()) {
    // Indexed by cl::RunStatus: running, finished, failed, cancelled.
    for (const QColor& c : {QColor(0x2f, 0x7f, 0xd8), QColor(0x2e, 0x9d, 0x4a), QColor(0xd0, 0x3b, 0x3b),
                            QColor(0x8a, 0x8a, 0x8a)})
        m_statusIcons.push_back(statusDot(c));
    setStore(store);
}

WorkspaceModel::~WorkspaceModel() = default;

void WorkspaceModel::setStore(cl::ScenarioStore* store) {
    beginResetModel();
    m_store = store;
    QString error;
    m_root->children.clear();
    try {
        for (auto& group : load()) m_root->add(std::move(group));
    } catch (const std::exception& e) {
        error = qs(e.what());
        m_store = nullptr;
        m_root->children.clear();
        for (auto& group : load()) m_root->add(std::move(group));
    }
    endResetModel();
    if (!error.isEmpty()) emit errorOccurred(error);
}

void WorkspaceModel::refresh() {
    std::vector<std::unique_ptr<Node>> fresh;
    try {
        fresh = load();
    } catch (const std::exception& e) {
        emit errorOccurred(qs(e.what()));
        return;
    }
    sync(m_root.get(), std::move(fresh));
}

std::vector<std::unique_ptr<WorkspaceModel::Node>> WorkspaceModel::load() const {
    std::vector<StoredItem> clusters, traces;
    std::vector<ScenarioInfo> scenarios;
    std::vector<RunInfo> runs;
    if (m_store) {
        clusters = m_store->clusters();
        traces = m_store->traces();
        scenarios = m_store->scenarios();
        runs = m_store->runs();
    }

    std::vector<std::unique_ptr<Node>> groups;
    auto group = [&](Group g, const QString& name, const QString& details, const QString& tooltip) {
        auto node = std::make_unique<Node>();
        node->kind = Kind::Group;
        node->id = g;
        node->name = node->display = name;
        node->details = details;
        node->tooltip = tooltip;
        groups.push_back(std::move(node));
        return groups.back().get();
    };

    const PlanFilter plans = PlanFilter::read(m_store);
    Node* cluster_group = group(ClustersGroup, tr("Clusters"),
                                counted(int(clusters.size()), tr("%1 cluster"), tr("%1 clusters")),
                                tr("Cluster layouts stored in the workspace"));
    // A capacity plan's candidate clusters go in a folder of their own (docs/architecture.md 7.9).
    auto candidates = std::make_unique<Node>();
    candidates->kind = Kind::Group;
    candidates->id = kPlanCandidatesId;
    candidates->name = candidates->display = tr("Plan candidates");
    candidates->tooltip =
        tr("Clusters a capacity plan stored for its candidates. Pickers do not offer "
           "them; Remove plan\u2026 on the plan's folder deletes them with its points.");
    std::map<std::int64_t, QString> cluster_names, trace_names;
    for (const StoredItem& c : clusters) {
        auto node = std::make_unique<Node>();
        node->kind = Kind::Cluster;
        node->id = c.id;
        node->name = node->display = qs(c.name);
        node->details = counted(int(c.size), tr("%1 server"), tr("%1 servers"));
        node->tooltip = tr("Cluster %1 (id %2), stored %3").arg(node->name).arg(c.id).arg(qs(c.created));
        cluster_names[c.id] = node->name;
        (plans.isCandidateCluster(c.id) ? candidates.get() : cluster_group)->add(std::move(node));
    }
    if (!candidates->children.empty()) {
        candidates->details = counted(int(candidates->children.size()), tr("%1 candidate cluster"),
                                      tr("%1 candidate clusters"));
        cluster_group->add(std::move(candidates));
    }

    Node* trace_group =
        group(TracesGroup, tr("Traces"), counted(int(traces.size()), tr("%1 trace"), tr("%1 traces")),
              tr("Job traces stored in the workspace"));
    for (const StoredItem& t : traces) {
        auto node = std::make_unique<Node>();
        node->kind = Kind::Trace;
        node->id = t.id;
        node->name = node->display = qs(t.name);
        node->details = counted(int(t.size), tr("%1 job"), tr("%1 jobs"));
        node->tooltip = tr("Trace %1 (id %2), stored %3").arg(node->name).arg(t.id).arg(qs(t.created));
        trace_names[t.id] = node->name;
        trace_group->add(std::move(node));
    }

    Node* scenario_group =
        group(ScenariosGroup, tr("Scenarios"),
              counted(int(scenarios.size()), tr("%1 scenario"), tr("%1 scenarios")),
              tr("Scenarios: a cluster, a trace, a policy and settings; each holds its runs"));
    addScenarios(*scenario_group, scenarios, runs, cluster_names, trace_names);
    return groups;
}

void WorkspaceModel::addScenarios(Node& group, const std::vector<ScenarioInfo>& scenarios,
                                  const std::vector<RunInfo>& runs,
                                  const std::map<std::int64_t, QString>& cluster_names,
                                  const std::map<std::int64_t, QString>& trace_names) const {
    std::map<std::int64_t, std::vector<const RunInfo*>> runs_of;
    for (const RunInfo& r : runs) runs_of[r.scenario_id].push_back(&r);
    const PlanFilter plans = PlanFilter::read(m_store);
    // A capacity plan's points (PREFIX/TYPE/POLICY/nN/xLOAD/sSEED) go in the plan's folder, named
    // without the prefix the folder shows (docs/architecture.md 7.9).
    std::map<std::string, std::vector<std::unique_ptr<Node>>> points;
    for (const ScenarioInfo& s : scenarios) {
        std::unique_ptr<Node> node = scenarioNode(s, cluster_names, trace_names, runs_of[s.id]);
        const std::string plan = plans.planOf(s.spec.name);
        if (plan.empty()) {
            group.add(std::move(node));
            continue;
        }
        node->display = node->name.mid(qsizetype(plan.size()) + 1);
        points[plan].push_back(std::move(node));
    }
    for (const std::string& prefix : plans.prefixes()) {
        auto folder = std::make_unique<Node>();
        folder->kind = Kind::Group;
        folder->plan_prefix = folder->name = qs(prefix);
        folder->id = planFolderId(folder->name);
        auto& mine = points[prefix];
        const int candidates = int(planCandidateClusters(*m_store, prefix).size());
        folder->display =
            tr("%1 (plan, %2)").arg(folder->name, counted(int(mine.size()), tr("%1 point"), tr("%1 points")));
        folder->details =
            tr("capacity plan \u00b7 %1")
                .arg(counted(candidates, tr("%1 candidate cluster"), tr("%1 candidate clusters")));
        folder->tooltip =
            tr("The points a capacity plan simulated, stored as scenarios named %1/\u2026, with "
               "their runs. Pickers do not offer them; right-click \u203a Remove plan\u2026 "
               "deletes them and the plan's candidate clusters.")
                .arg(folder->name);
        for (auto& node : mine) folder->add(std::move(node));
        group.add(std::move(folder));
    }
}

// A scenario row with its runs, newest first; its metrics are those of its latest finished run.
std::unique_ptr<WorkspaceModel::Node> WorkspaceModel::scenarioNode(
    const ScenarioInfo& s, const std::map<std::int64_t, QString>& cluster_names,
    const std::map<std::int64_t, QString>& trace_names, const std::vector<const RunInfo*>& mine) const {
    auto node = std::make_unique<Node>();
    node->kind = Kind::Scenario;
    node->id = s.id;
    node->name = node->display = qs(s.spec.name);
    const auto cluster = cluster_names.find(s.spec.cluster_id);
    const auto trace = trace_names.find(s.spec.trace_id);
    const QString dot = QStringLiteral(" \u00b7 ");
    node->details =
        qs(s.spec.policy) + dot +
        (cluster != cluster_names.end() ? cluster->second : tr("cluster %1").arg(s.spec.cluster_id)) + dot +
        (trace != trace_names.end() ? trace->second : tr("trace %1").arg(s.spec.trace_id)) + dot +
        tr("load \u00d7%1").arg(loadText(s.spec.parameters.load_factor));
    if (s.spec.parameters.server_count > 0)
        node->details += dot + counted(s.spec.parameters.server_count, tr("%1 server"), tr("%1 servers"));
    QStringList tip{tr("Scenario %1: %2, %3 conventions, seed %4")
                        .arg(node->name, qs(s.spec.policy), qs(s.spec.conventions))
                        .arg(s.spec.seed)};
    if (!s.spec.parameters.transforms.empty()) {
        QStringList transforms;
        for (const auto& t : s.spec.parameters.transforms) transforms << qs(t);
        tip << tr("Trace transforms: %1").arg(transforms.join(QLatin1Char(' ')));
    }
    if (!s.spec.notes.empty()) tip << qs(s.spec.notes);
    tip << tr("Modified %1").arg(qs(s.modified));

    // Newest first: the latest result is what the user looks for.
    for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
        node->add(runNode(**it, *node));
    }
    if (!std::isnan(node->avg_jct)) tip << tr("Metrics shown: its latest finished run");
    tip << counted(int(mine.size()), tr("%1 run"), tr("%1 runs"));
    node->tooltip = tip.join(QLatin1Char('\n'));
    return node;
}

std::unique_ptr<WorkspaceModel::Node> WorkspaceModel::runNode(const RunInfo& r, Node& scenario) const {
    auto run = std::make_unique<Node>();
    run->kind = Kind::Run;
    run->id = r.id;
    run->name = scenario.name;
    run->display = tr("Run %1 \u00b7 %2").arg(r.id).arg(qs(r.policy));
    run->status = int(r.status);
    run->status_name = qs(runStatusName(r.status));
    switch (r.status) {
        case RunStatus::Finished:
            run->details = tr("finished in %1").arg(formatDuration(r.wall_seconds));
            run->avg_jct = r.summary.avg_jct;
            run->makespan = r.summary.makespan;
            run->tooltip = tr("Run %1 of %2: %3, started %4, finished %5, engine %6")
                               .arg(r.id)
                               .arg(scenario.name, counted(r.summary.jobs, tr("%1 job"), tr("%1 jobs")),
                                    qs(r.started), qs(r.finished), qs(r.engine_version));
            if (std::isnan(scenario.avg_jct)) {
                scenario.avg_jct = r.summary.avg_jct;
                scenario.makespan = r.summary.makespan;
            }
            break;
        case RunStatus::Failed:
            run->details = tr("failed");
            run->tooltip = r.message.empty() ? tr("Run %1 failed").arg(r.id) : qs(r.message);
            break;
        case RunStatus::Running:
            run->details = tr("running\u2026");
            run->tooltip = tr("Run %1 started %2").arg(r.id).arg(qs(r.started));
            break;
        case RunStatus::Cancelled:
            run->details = tr("cancelled");
            run->tooltip = r.message.empty() ? tr("Run %1 was cancelled").arg(r.id) : qs(r.message);
            break;
    }
    return run;
}

// Makes parent's children equal to fresh, keyed by id: removes what went, moves what changed
// place, inserts what is new and updates the rest, recursively.
void WorkspaceModel::sync(Node* parent, std::vector<std::unique_ptr<Node>> fresh) {
    const QModelIndex parent_index = indexOf(parent);
    auto& children = parent->children;

    std::set<qint64> kept;
    for (const auto& f : fresh) kept.insert(f->id);
    for (int last = int(children.size()) - 1; last >= 0; --last) {
        if (kept.count(children[std::size_t(last)]->id)) continue;
        int first = last;
        while (first > 0 && !kept.count(children[std::size_t(first - 1)]->id)) --first;
        beginRemoveRows(parent_index, first, last);
        children.erase(children.begin() + first, children.begin() + last + 1);
        endRemoveRows();
        last = first;
    }

    for (int i = 0; i < int(fresh.size()); ++i) {
        std::unique_ptr<Node>& f = fresh[std::size_t(i)];
        int j = i;
        while (j < int(children.size()) && children[std::size_t(j)]->id != f->id) ++j;
        if (j == int(children.size())) {
            beginInsertRows(parent_index, i, i);
            f->parent = parent;
            children.insert(children.begin() + i, std::move(f));
            endInsertRows();
            continue;
        }
        if (j != i) {
            beginMoveRows(parent_index, j, j, parent_index, i);
            std::unique_ptr<Node> moved = std::move(children[std::size_t(j)]);
            children.erase(children.begin() + j);
            children.insert(children.begin() + i, std::move(moved));
            endMoveRows();
        }
        Node* node = children[std::size_t(i)].get();
        if (!node->sameContent(*f)) {
            node->takeContent(*f);
            emit dataChanged(index(i, 0, parent_index), index(i, ColumnCount - 1, parent_index));
        }
        sync(node, std::move(f->children));
    }
}

WorkspaceModel::Node* WorkspaceModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

int WorkspaceModel::rowOf(const Node* node) const {
    const auto& siblings = node->parent->children;
    for (std::size_t i = 0; i < siblings.size(); ++i)
        if (siblings[i].get() == node) return int(i);
    return -1;
}

QModelIndex WorkspaceModel::indexOf(const Node* node, int column) const {
    if (!node || node == m_root.get()) return {};
    return createIndex(rowOf(node), column, const_cast<Node*>(node));
}

QModelIndex WorkspaceModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    return createIndex(row, column, nodeOf(parent)->children[std::size_t(row)].get());
}

QModelIndex WorkspaceModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    return indexOf(nodeOf(child)->parent);
}

int WorkspaceModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != NameColumn) return 0;
    return int(nodeOf(parent)->children.size());
}

int WorkspaceModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant WorkspaceModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Node& n = *nodeOf(index);
    const int column = index.column();
    switch (role) {
        case KindRole:
            return int(n.kind);
        case IdRole:
            return n.id;
        case NameRole:
            return n.name;
        case RunStatusRole:
            return n.kind == Kind::Run ? QVariant(n.status_name) : QVariant();
        case PlanPrefixRole:
            return n.plan_prefix.isEmpty() ? QVariant() : QVariant(n.plan_prefix);
        case Qt::EditRole:
            if (column == NameColumn && n.kind == Kind::Scenario) return n.name;
            [[fallthrough]];
        case Qt::DisplayRole:
            switch (column) {
                case NameColumn:
                    return n.display;
                case DetailsColumn:
                    return n.details;
                case AvgJctColumn:
                case MakespanColumn: {
                    if (n.kind != Kind::Scenario && n.kind != Kind::Run) return {};
                    return formatDuration(column == AvgJctColumn ? n.avg_jct : n.makespan);
                }
            }
            return {};
        case RawValueRole:
            if (column == AvgJctColumn && !std::isnan(n.avg_jct)) return n.avg_jct;
            if (column == MakespanColumn && !std::isnan(n.makespan)) return n.makespan;
            return {};
        case Qt::ToolTipRole:
            if ((column == AvgJctColumn || column == MakespanColumn) && n.status != int(RunStatus::Failed)) {
                const double v = column == AvgJctColumn ? n.avg_jct : n.makespan;
                if (!std::isnan(v)) return formatDurationExact(v);
            }
            return n.tooltip;
        case Qt::DecorationRole: {
            if (n.kind == Kind::Run && column == DetailsColumn) return m_statusIcons[std::size_t(n.status)];
            if (column != NameColumn) return {};
            switch (n.kind) {
                case Kind::Group:
                    return themed("folder", QStyle::SP_DirIcon);
                case Kind::Cluster:
                    return themed("network-server", QStyle::SP_ComputerIcon);
                case Kind::Trace:
                    return themed("text-x-generic", QStyle::SP_FileIcon);
                case Kind::Scenario:
                    return themed("document-properties", QStyle::SP_FileDialogDetailedView);
                case Kind::Run:
                    return {};
            }
            return {};
        }
        case Qt::TextAlignmentRole:
            if (column == AvgJctColumn || column == MakespanColumn)
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case Qt::ForegroundRole:
            if ((column == AvgJctColumn || column == MakespanColumn) && std::isnan(n.avg_jct))
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            return {};
        default:
            return {};
    }
}

bool WorkspaceModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || index.column() != NameColumn) return false;
    Node* node = nodeOf(index);
    if (node->kind != Kind::Scenario || !m_store) return false;
    const QString old_name = node->name;
    const QString new_name = value.toString().trimmed();
    if (new_name == old_name) return true;
    if (new_name.isEmpty()) {
        emit errorOccurred(tr("A scenario needs a name; '%1' keeps its name.").arg(old_name));
        return false;
    }
    try {
        m_store->renameScenario(old_name.toStdString(), new_name.toStdString());
    } catch (const std::exception& e) {
        emit errorOccurred(tr("Cannot rename scenario '%1': %2").arg(old_name, qs(e.what())));
        return false;
    }
    refresh();  // the new name may sort elsewhere
    emit scenarioRenamed(old_name, new_name);
    return true;
}

Qt::ItemFlags WorkspaceModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == NameColumn && nodeOf(index)->kind == Kind::Scenario) f |= Qt::ItemIsEditable;
    const Kind k = nodeOf(index)->kind;
    if (k == Kind::Cluster || k == Kind::Trace || k == Kind::Run) f |= Qt::ItemNeverHasChildren;
    return f;
}

QVariant WorkspaceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const titles[] = {QT_TR_NOOP("Name"), QT_TR_NOOP("Status / details"),
                                         QT_TR_NOOP("Avg JCT"), QT_TR_NOOP("Makespan")};
    static const char* const tips[] = {
        QT_TR_NOOP("Stored item; scenario names can be edited (F2)"),
        QT_TR_NOOP("Size of an input, settings of a scenario, or status and wall time of a run"),
        QT_TR_NOOP("Average job completion time (a scenario shows its latest finished run)"),
        QT_TR_NOOP("Last job end minus first submission (a scenario shows its latest finished run)")};
    switch (role) {
        case Qt::DisplayRole:
            return tr(titles[section]);
        case Qt::ToolTipRole:
            return tr(tips[section]);
        case Qt::TextAlignmentRole:
            return QVariant::fromValue((section >= AvgJctColumn ? Qt::AlignRight : Qt::AlignLeft) |
                                       Qt::AlignVCenter);
        default:
            return {};
    }
}

QModelIndex WorkspaceModel::groupIndex(Group group) const {
    return index(int(group), 0);
}

const WorkspaceModel::Node* WorkspaceModel::findScenario(const Node& parent, const QString& name) const {
    for (const auto& child : parent.children) {
        if (child->kind == Kind::Scenario && child->name == name) return child.get();
        if (child->kind == Kind::Group)
            if (const Node* found = findScenario(*child, name)) return found;
    }
    return nullptr;
}

QModelIndex WorkspaceModel::indexForPlan(const QString& prefix) const {
    for (const auto& child : m_root->children[ScenariosGroup]->children)
        if (child->kind == Kind::Group && child->plan_prefix == prefix) return indexOf(child.get());
    return {};
}

QModelIndex WorkspaceModel::indexForScenario(const QString& name) const {
    return indexOf(findScenario(*m_root->children[ScenariosGroup], name));
}

QModelIndex WorkspaceModel::indexForRun(qint64 id) const {
    std::function<QModelIndex(const Node&)> find = [&](const Node& parent) -> QModelIndex {
        for (const auto& child : parent.children) {
            if (child->kind == Kind::Run && child->id == id) return indexOf(child.get());
            if (child->kind != Kind::Run)
                if (QModelIndex found = find(*child); found.isValid()) return found;
        }
        return {};
    };
    return find(*m_root->children[ScenariosGroup]);
}

WorkspaceModel::Kind WorkspaceModel::kind(const QModelIndex& index) const {
    return nodeOf(index)->kind;
}

QString WorkspaceModel::scenarioName(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    const Node* n = nodeOf(index);
    return n->kind == Kind::Scenario || n->kind == Kind::Run ? n->name : QString();
}

int WorkspaceModel::runCount(const QString& scenario) const {
    const QModelIndex i = indexForScenario(scenario);
    return i.isValid() ? int(nodeOf(i)->children.size()) : 0;
}

}  // namespace cl::views
