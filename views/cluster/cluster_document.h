#pragma once
// The cluster being edited, its undo history and the current server selection. Every change
// to the cluster goes through a QUndoCommand pushed on undoStack(); views listen to changed().
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QList>
#include <QObject>
#include <QString>

#include "core/model/cluster.h"

class QUndoStack;

namespace cl::views {

// The accepted ranges of server properties (the editor refuses values outside them).
struct ServerLimits {
    static constexpr int kMinGpus = 1;
    static constexpr int kMaxGpus = 64;  // the layout reader's limit
    static constexpr int kMinCpuCores = 1;
    static constexpr int kMaxCpuCores = 1024;
    static constexpr double kMaxMemoryGb = 65536.0;
    static constexpr double kMaxGpuMemoryGb = 1024.0;
    static constexpr double kMaxNetworkGbps = 10000.0;
    static constexpr double kMaxPricePerHour = 1e6;   // USD
    static constexpr double kMaxPurchasePrice = 1e9;  // USD
    static constexpr double kMaxAmortizationYears = 50.0;
};

// What a multi-server edit changes; unset fields keep each server's value.
struct ServerChanges {
    std::optional<std::string> name;  // only for a single server
    std::optional<std::string> rack;
    std::optional<std::string> gpu_type;
    std::optional<int> gpus;
    std::optional<double> gpu_memory_gb;
    std::optional<int> cpu_cores;
    std::optional<double> memory_gb;
    std::optional<double> network_gbps;
    // Sets the server internals and makes gpus / cpu_cores agree with them (a described
    // architecture wins over gpus / cpu_cores in the same change). A gpus or cpu_cores change
    // alone that no longer fits a described architecture drops it to "not described".
    std::optional<cl::ServerArchitecture> architecture;
    // The price (docs/architecture.md 7.8), field by field so that a multi-server edit keeps
    // what it does not set. Setting the basis to None clears the whole price.
    std::optional<cl::PriceBasis> price_basis;
    std::optional<double> price_per_hour;
    std::optional<double> purchase_price;
    std::optional<double> amortization_years;
    std::optional<double> power_per_hour;
    std::optional<std::string> price_source;
    std::optional<bool> price_approximate;
    // The partitions the servers are in (Slurm's Partitions= of a node); empty = in none. A name
    // the cluster does not declare is declared with the defaults in the same undo step.
    std::optional<std::vector<std::string>> partitions;

    bool isEmpty() const;
    bool changesPrice() const;
    int fieldCount() const;
    void applyTo(cl::Server& server) const;
};

// The first problem with a server's values (ranges and non-empty fields), or empty.
QString serverProblem(const cl::Server& server);

// Why `name` cannot name a partition, or empty. The layout JSON refuses an empty name and one
// with a comma, a space or a control character (names end up in comma lists).
QString partitionNameProblem(const QString& name);
// A comma list of partition names ("gpu, debug"): trimmed, empty entries and repeats dropped.
// nullopt (with the reason in *error) when a name is not valid, e.g. "gpu long".
std::optional<std::vector<std::string>> parsePartitionList(const QString& text, QString* error = nullptr);
// The names joined as the editor shows them: "gpu, debug".
QString partitionListText(const std::vector<std::string>& names);

class ClusterDocument : public QObject {
    Q_OBJECT

public:
    explicit ClusterDocument(QObject* parent = nullptr);
    ~ClusterDocument() override;

    const cl::Cluster& cluster() const { return m_cluster; }
    QUndoStack* undoStack() const { return m_undo; }
    int serverCount() const { return static_cast<int>(m_cluster.servers.size()); }
    const cl::Server& server(int index) const {
        return m_cluster.servers.at(static_cast<std::size_t>(index));
    }
    int indexOfServer(const QString& name) const;  // -1 if none
    // Distinct rack names in diagram order (servers without a rack are not a rack).
    QStringList rackNames() const;

    // Replaces the whole cluster without undo: clears the history and marks it clean.
    void setCluster(const cl::Cluster& cluster);
    // Empty if the cluster can be saved: at least one server, unique non-empty names and
    // every server's values in range; otherwise the first problem, naming the server.
    QString validationError() const;

    // Selection (server indices, ascending). Commands keep it meaningful across edits.
    const QList<int>& selection() const { return m_selection; }
    void setSelection(const QList<int>& indices);

    // Undoable edits. Each pushes one command; invalid requests do nothing and return false.
    // New servers go after the last server of the rack of the first selected server (else
    // after the last server) and take names following that server's pattern ("node7" ->
    // "node8"); they become the selection.
    bool addServers(const cl::Server& prototype, int count = 1);
    bool addRack();                                    // "rackN" with one default server
    bool duplicateServers(const QList<int>& indices);  // each copy right after its original
    bool removeServers(const QList<int>& indices);
    bool removeRack(const QString& rack);
    // Refuses (returning the reason in *error) values that serverProblem() rejects, a name
    // for several servers, or a name that is empty or already used.
    bool setServerProperties(const QList<int>& indices, const ServerChanges& changes,
                             QString* error = nullptr);
    bool renameServer(int index, const QString& name, QString* error = nullptr);
    bool renameCluster(const QString& name);

    // Partition edits (docs/architecture.md 2.10, 8.7), each one undo step; refused (with the
    // reason in *error) for a bad or taken name, a PriorityTier outside 0..65535 or a negative
    // MaxTime. A new partition gets a fresh name and the defaults and is the last one. Setting
    // a partition renames it in every server that lists it and, when it becomes the default,
    // makes the others not the default. Removing one takes it off every server.
    int partitionCount() const { return static_cast<int>(m_cluster.partitions.size()); }
    bool addPartition(QString* error = nullptr);
    bool setPartition(int index, const cl::Partition& partition, QString* error = nullptr);
    bool removePartition(int index);
    QString uniquePartitionName() const;
    // Loads another cluster as one undoable step ("Load preset 'muri-testbed-64'").
    bool replaceCluster(const cl::Cluster& cluster, const QString& undo_text);

    // A name not used in the cluster nor in `taken`, continuing the pattern of `pattern`:
    // "node7" -> "node8" (one past the highest number used with that prefix), "gpu" -> "gpu-1".
    QString uniqueServerName(const QString& pattern, const QStringList& taken = {}) const;
    QString nextRackName() const;

    // Low-level mutations for the commands in cluster_edit_commands.h; each emits changed().
    // `servers` holds (final index, server) pairs in ascending index order.
    void insertServers(const std::vector<std::pair<int, cl::Server>>& servers);
    void eraseServers(const std::vector<std::pair<int, cl::Server>>& servers);
    void replaceServers(const std::vector<std::pair<int, cl::Server>>& servers);
    // The partition list and the given servers in one change (one changed()).
    void replacePartitions(const std::vector<cl::Partition>& partitions,
                           const std::vector<std::pair<int, cl::Server>>& servers);
    void replaceAll(const cl::Cluster& cluster);

signals:
    // The cluster's content changed (any edit, undo, redo or setCluster).
    void changed();
    void selectionChanged();

private:
    void syncTopologyWithServers();
    // Pushes a partition edit: the new list (with every partition a server names declared) and
    // the servers it changes.
    bool pushPartitions(std::vector<cl::Partition> partitions,
                        const std::vector<std::pair<int, cl::Server>>& servers, const QString& text);

    cl::Cluster m_cluster;
    cl::TopologySpec m_detachedTopology;  // set aside while the server count does not fit it
    QUndoStack* m_undo = nullptr;
    QList<int> m_selection;
};

}  // namespace cl::views
