#pragma once
// The workspace as a tree (behind the scenario browser): three groups (clusters, traces,
// scenarios), each scenario holding its runs newest first. The model mirrors cl::ScenarioStore;
// refresh() re-reads it and applies the difference row by row, so a view keeps its expansion,
// selection and current item across creates, renames and deletes.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <QAbstractItemModel>
#include <QIcon>
#include <QString>

#include "core/store/scenario_store.h"

namespace cl::views {

class WorkspaceModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column { NameColumn = 0, DetailsColumn, AvgJctColumn, MakespanColumn, ColumnCount };

    enum class Kind { Group, Cluster, Trace, Scenario, Run };

    enum Role {
        KindRole = Qt::UserRole + 1,  // Kind as int
        IdRole,                       // qint64 store id (groups: their Group)
        NameRole,                     // the stored name (runs: their scenario's name)
        RunStatusRole,                // runs: "finished", "failed", "running" or "cancelled"
        RawValueRole,                 // metric columns: seconds as double, for sorting
        PlanPrefixRole,               // a capacity plan's folder: the plan's scenario prefix
    };

    // The top-level rows, always present in this order. A capacity plan's points sit in a folder
    // of their own at the end of Scenarios (a Group row whose PlanPrefixRole names the plan), and
    // the candidate clusters of every plan in a "Plan candidates" folder at the end of Clusters
    // (docs/architecture.md 7.9).
    enum Group { ClustersGroup = 0, TracesGroup, ScenariosGroup, GroupCount };

    // The store is not owned and may be null (an empty tree of three groups).
    explicit WorkspaceModel(cl::ScenarioStore* store, QObject* parent = nullptr);
    ~WorkspaceModel() override;

    // Replaces the store and rebuilds the tree (a model reset).
    void setStore(cl::ScenarioStore* store);
    cl::ScenarioStore* store() const { return m_store; }

    // Re-reads the store and applies the changes as row inserts, removes, moves and data
    // changes. A store error leaves the tree as it was and emits errorOccurred.
    void refresh();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // Scenario names are editable: a rename in the store, then a refresh.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QModelIndex groupIndex(Group group) const;
    // The folder of the plan with this scenario prefix; invalid if absent.
    QModelIndex indexForPlan(const QString& prefix) const;
    QModelIndex indexForScenario(const QString& name) const;  // invalid if absent (searches plan folders)
    QModelIndex indexForRun(qint64 id) const;                 // invalid if absent
    Kind kind(const QModelIndex& index) const;                // Group for an invalid index
    // The scenario an index belongs to (a scenario row or one of its runs); empty otherwise.
    QString scenarioName(const QModelIndex& index) const;
    int runCount(const QString& scenario) const;  // runs listed under it; 0 if absent

signals:
    void errorOccurred(const QString& message);
    void scenarioRenamed(const QString& old_name, const QString& new_name);

private:
    struct Node;

    Node* nodeOf(const QModelIndex& index) const;
    QModelIndex indexOf(const Node* node, int column = 0) const;
    int rowOf(const Node* node) const;
    // Reads the store into fresh group nodes; throws on store errors.
    std::vector<std::unique_ptr<Node>> load() const;
    // The Scenarios group's rows: scenarios, then a folder per capacity plan.
    void addScenarios(Node& group, const std::vector<cl::ScenarioInfo>& scenarios,
                      const std::vector<cl::RunInfo>& runs,
                      const std::map<std::int64_t, QString>& cluster_names,
                      const std::map<std::int64_t, QString>& trace_names) const;
    const Node* findScenario(const Node& parent, const QString& name) const;
    std::unique_ptr<Node> scenarioNode(const cl::ScenarioInfo& s,
                                       const std::map<std::int64_t, QString>& cluster_names,
                                       const std::map<std::int64_t, QString>& trace_names,
                                       const std::vector<const cl::RunInfo*>& mine) const;
    // A run row; a finished run also gives `scenario` its metrics if it has none yet.
    std::unique_ptr<Node> runNode(const cl::RunInfo& r, Node& scenario) const;
    void sync(Node* parent, std::vector<std::unique_ptr<Node>> fresh);

    cl::ScenarioStore* m_store = nullptr;
    std::unique_ptr<Node> m_root;
    std::vector<QIcon> m_statusIcons;  // by cl::RunStatus
};

}  // namespace cl::views
