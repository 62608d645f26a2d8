#pragma once
// The cluster as a tree for a QTreeView: switch tiers -> pods -> switches -> servers ->
// sockets -> GPU groups -> GPUs for a topology cluster, racks -> servers -> ... for a flat
// one. The whole tree is a flat node array rebuilt on each cluster change (about nine nodes
// per server: 18,500 for the 2,000-server fat-tree, a few milliseconds), so the view asks for
// nothing it has to wait for and no widget exists per node.
#include <QAbstractItemModel>
#include <QString>
#include <vector>

#include "core/model/cluster.h"

namespace cl::views {

class ClusterTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    // PartitionsColumn: a server's Slurm partitions, "gpu, debug" (docs/architecture.md 2.10).
    enum Column {
        NameColumn,
        KindColumn,
        GpusColumn,
        CoresColumn,
        BandwidthColumn,
        PartitionsColumn,
        ColumnCount
    };
    enum class NodeKind { Tier, Pod, Switch, Rack, Server, Socket, GpuGroup, Gpu };
    enum Role {
        NodeKindRole = Qt::UserRole + 1,  // int(NodeKind)
        ServerIndexRole,                  // index into Cluster::servers, -1 above servers
    };

    explicit ClusterTreeModel(QObject* parent = nullptr);

    // Rebuilds the tree (a model reset). A topology cluster whose server count does not match
    // its spec (servers added or removed by hand) is shown as a flat cluster.
    void setCluster(const cl::Cluster& cluster);
    const cl::Cluster& cluster() const { return m_cluster; }
    // Nodes of each kind in the whole tree (for tests and the status line).
    int nodeCount(NodeKind kind) const;
    // The index of a server's row (column 0), invalid if out of range.
    QModelIndex serverIndex(int server) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node {
        NodeKind kind = NodeKind::Server;
        int parent = -1;    // node index, -1 = top level
        int row = 0;        // among its parent's children
        int server = -1;    // Cluster::servers index (servers and below)
        int gpus = 0;       // GPUs under the node
        int cores = 0;      // CPU cores under the node
        double gbps = 0.0;  // links (switch, tier), PCIe (group) or QPI (server); 0 = none
        QString name;
        QString kindText;
        QString tip;
        QString partitions;  // a server's, as a comma list
        std::vector<int> children;
    };

    int addNode(Node node);
    void addServerSubtree(int parent, int server);
    void addTopologyTree();
    void addFlatTree();
    void sumUp();
    const Node* nodeOf(const QModelIndex& index) const;

    cl::Cluster m_cluster;
    std::vector<Node> m_nodes;
    std::vector<int> m_top;         // top-level nodes
    std::vector<int> m_serverNode;  // node of each server
};

}  // namespace cl::views
