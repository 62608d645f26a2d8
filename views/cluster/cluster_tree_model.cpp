#include "views/cluster/cluster_tree_model.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include <QLocale>
#include <QStringList>

#include "core/topology/network_topology.h"

namespace cl::views {

namespace {

QString gbpsText(double gbps) {
    return gbps > 0 ? QLocale().toString(gbps, 'g', 6) : QString();
}

QString switchKind(cl::TopologyKind kind, int tier) {
    switch (kind) {
        case cl::TopologyKind::FatTree:
            return tier == 1   ? ClusterTreeModel::tr("edge switch")
                   : tier == 2 ? ClusterTreeModel::tr("aggregation switch")
                               : ClusterTreeModel::tr("core switch");
        case cl::TopologyKind::VL2:
            return tier == 1   ? ClusterTreeModel::tr("ToR switch")
                   : tier == 2 ? ClusterTreeModel::tr("aggregation switch")
                               : ClusterTreeModel::tr("intermediate switch");
        case cl::TopologyKind::BCube:
            return ClusterTreeModel::tr("level-%1 switch").arg(tier - 1);
        case cl::TopologyKind::Flat:
            break;
    }
    return ClusterTreeModel::tr("switch");
}

QString tierTitle(cl::TopologyKind kind, int tier) {
    switch (kind) {
        case cl::TopologyKind::FatTree:
            return tier == 3 ? ClusterTreeModel::tr("Core switches")
                             : ClusterTreeModel::tr("Tier %1 switches").arg(tier);
        case cl::TopologyKind::VL2:
            return tier == 3   ? ClusterTreeModel::tr("Intermediate switches")
                   : tier == 2 ? ClusterTreeModel::tr("Aggregation switches")
                               : ClusterTreeModel::tr("Tier %1 switches").arg(tier);
        case cl::TopologyKind::BCube:
            return ClusterTreeModel::tr("Level-%1 switches").arg(tier - 1);
        case cl::TopologyKind::Flat:
            break;
    }
    return ClusterTreeModel::tr("Tier %1 switches").arg(tier);
}

double tierGbps(const cl::TopologySpec& spec, int link_tier) {
    if (link_tier < 0 || link_tier >= static_cast<int>(spec.tier_gbps.size())) return 0.0;
    return spec.tier_gbps[static_cast<std::size_t>(link_tier)];
}

}  // namespace

ClusterTreeModel::ClusterTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ClusterTreeModel::setCluster(const cl::Cluster& cluster) {
    beginResetModel();
    m_cluster = cluster;
    m_nodes.clear();
    m_top.clear();
    m_serverNode.assign(m_cluster.servers.size(), -1);
    bool topology = false;
    if (m_cluster.topology.kind != cl::TopologyKind::Flat) {
        try {
            addTopologyTree();
            topology = true;
        } catch (const std::exception&) {
            // A spec that no longer fits the servers: shown flat below.
        }
    }
    if (!topology) {
        m_nodes.clear();
        m_top.clear();
        m_serverNode.assign(m_cluster.servers.size(), -1);
        addFlatTree();
    }
    sumUp();
    endResetModel();
}

int ClusterTreeModel::addNode(Node node) {
    const int id = static_cast<int>(m_nodes.size());
    std::vector<int>& siblings =
        node.parent < 0 ? m_top : m_nodes[static_cast<std::size_t>(node.parent)].children;
    node.row = static_cast<int>(siblings.size());
    siblings.push_back(id);
    m_nodes.push_back(std::move(node));
    return id;
}

void ClusterTreeModel::addServerSubtree(int parent, int server) {
    const cl::Server& s = m_cluster.servers[static_cast<std::size_t>(server)];
    const QString name = QString::fromStdString(s.name);
    const bool described = s.architecture.described();
    Node sn;
    sn.kind = NodeKind::Server;
    sn.parent = parent;
    sn.server = server;
    sn.gpus = s.gpus;
    sn.cores = s.cpu_cores;
    sn.gbps = described && s.architecture.sockets.size() > 1 ? s.architecture.qpi_gbps : 0.0;
    sn.name = name;
    sn.kindText = s.unavailable ? tr("server (unavailable)") : tr("server");
    sn.tip = tr("%1: %2 × %3, %4 CPU cores")
                 .arg(name)
                 .arg(s.gpus)
                 .arg(QString::fromStdString(s.gpu_type))
                 .arg(s.cpu_cores);
    // Marks from a Slurm node import (docs/architecture.md 8.7); they do not change simulations.
    if (!s.state.empty())
        sn.tip += tr("\nSlurm state %1%2")
                      .arg(QString::fromStdString(s.state),
                           s.unavailable ? tr(": down, drained or failing when it was exported") : QString());
    if (!s.partitions.empty()) {
        QStringList parts;
        for (const std::string& p : s.partitions) parts << QString::fromStdString(p);
        sn.partitions = parts.join(QStringLiteral(", "));
        sn.tip += tr("\nPartitions %1").arg(sn.partitions);
    }
    if (!described)
        sn.tip += tr("\nArchitecture not described: one socket, one GPU group");
    else if (sn.gbps > 0)
        sn.tip += tr("\nSockets joined by QPI at %1 Gb/s").arg(gbpsText(sn.gbps));
    const int server_node = addNode(std::move(sn));
    m_serverNode[static_cast<std::size_t>(server)] = server_node;

    // A server without a described architecture is one socket holding one GPU group.
    std::vector<cl::CpuSocket> sockets = s.architecture.sockets;
    if (!described) {
        cl::CpuSocket only;
        only.cores = s.cpu_cores;
        cl::GpuGroup group;
        group.gpus = s.gpus;
        group.pcie_gbps = 0.0;
        only.gpu_groups.push_back(group);
        sockets.push_back(only);
    }
    int group_number = 0;
    int gpu_number = 0;
    for (std::size_t k = 0; k < sockets.size(); ++k) {
        const cl::CpuSocket& socket = sockets[k];
        Node so;
        so.kind = NodeKind::Socket;
        so.parent = server_node;
        so.server = server;
        so.cores = socket.cores;
        so.name = tr("Socket %1").arg(k);
        so.kindText = tr("CPU socket");
        so.tip = tr("%1, socket %2: %3 cores; its tasks share them").arg(name).arg(k).arg(socket.cores);
        const int socket_node = addNode(std::move(so));
        for (const cl::GpuGroup& group : socket.gpu_groups) {
            Node gn;
            gn.kind = NodeKind::GpuGroup;
            gn.parent = socket_node;
            gn.server = server;
            gn.gbps = group.pcie_gbps;
            gn.name = tr("Group %1").arg(group_number);
            gn.kindText = tr("GPU group");
            gn.tip = group.pcie_gbps > 0
                         ? tr("%1, GPU group %2: %3 GPUs behind one PCIe switch (%4 Gb/s uplink)")
                               .arg(name)
                               .arg(group_number)
                               .arg(group.gpus)
                               .arg(gbpsText(group.pcie_gbps))
                         : tr("%1: all %2 GPUs (architecture not described)").arg(name).arg(group.gpus);
            const int group_node = addNode(std::move(gn));
            for (int g = 0; g < group.gpus; ++g) {
                Node gpu;
                gpu.kind = NodeKind::Gpu;
                gpu.parent = group_node;
                gpu.server = server;
                gpu.gpus = 1;
                gpu.name = tr("GPU %1").arg(gpu_number);
                gpu.kindText = QString::fromStdString(s.gpu_type);
                gpu.tip = tr("%1 · S%2 · G%3 · GPU %4 (%5)")
                              .arg(name)
                              .arg(k)
                              .arg(group_number)
                              .arg(gpu_number)
                              .arg(gpu.kindText);
                addNode(std::move(gpu));
                ++gpu_number;
            }
            ++group_number;
        }
    }
}

void ClusterTreeModel::addFlatTree() {
    std::vector<std::pair<std::string, int>> racks;  // rack name -> node, first-seen order
    for (int i = 0; i < static_cast<int>(m_cluster.servers.size()); ++i) {
        const std::string& rack = m_cluster.servers[static_cast<std::size_t>(i)].rack;
        int parent = -1;
        if (!rack.empty()) {
            for (const auto& entry : racks)
                if (entry.first == rack) parent = entry.second;
            if (parent < 0) {
                Node rn;
                rn.kind = NodeKind::Rack;
                rn.name = QString::fromStdString(rack);
                rn.kindText = tr("rack");
                parent = addNode(std::move(rn));
                racks.emplace_back(rack, parent);
            }
        }
        addServerSubtree(parent, i);
    }
}

void ClusterTreeModel::addTopologyTree() {
    const cl::NetworkTopology net = cl::NetworkTopology::build(m_cluster.topology);
    const int servers = net.serverCount();
    if (servers != static_cast<int>(m_cluster.servers.size()))
        throw std::invalid_argument("server count differs from the topology");
    const cl::TopologySpec& spec = net.spec();
    const auto& nodes = net.nodes();
    const int node_count = static_cast<int>(nodes.size());
    // Each server hangs off its first tier-1 switch (edge, ToR or BCube level 0).
    std::vector<int> server_switch(static_cast<std::size_t>(servers), -1);
    for (const cl::NetworkLink& link : net.links())
        if (link.a >= 0 && link.a < servers && link.b >= servers && link.b < node_count &&
            nodes[static_cast<std::size_t>(link.b)].tier == 1 &&
            server_switch[static_cast<std::size_t>(link.a)] < 0)
            server_switch[static_cast<std::size_t>(link.a)] = link.b;

    // Switches above the pods, one group per tier, top tier first.
    int top_tier = 0;
    for (int n = servers; n < node_count; ++n)
        top_tier = std::max(top_tier, nodes[static_cast<std::size_t>(n)].tier);
    std::vector<int> tier_group(static_cast<std::size_t>(top_tier + 1), -1);
    for (int tier = top_tier; tier >= 1; --tier)
        for (int n = servers; n < node_count; ++n) {
            const cl::NetworkNode& sw = nodes[static_cast<std::size_t>(n)];
            if (sw.tier != tier || sw.pod >= 0) continue;
            if (tier_group[static_cast<std::size_t>(tier)] < 0) {
                Node tn;
                tn.kind = NodeKind::Tier;
                tn.name = tierTitle(spec.kind, tier);
                tn.kindText = tr("tier");
                tn.gbps = tierGbps(spec, tier - 1);
                tn.tip =
                    tr("Switches above the pods; links below them run at %1 Gb/s").arg(gbpsText(tn.gbps));
                tier_group[static_cast<std::size_t>(tier)] = addNode(std::move(tn));
            }
            Node s;
            s.kind = NodeKind::Switch;
            s.parent = tier_group[static_cast<std::size_t>(tier)];
            s.name = QString::fromStdString(sw.name);
            s.kindText = switchKind(spec.kind, tier);
            s.gbps = tierGbps(spec, tier - 1);
            s.tip = tr("%1 (%2): links below at %3 Gb/s").arg(s.name, s.kindText, gbpsText(s.gbps));
            addNode(std::move(s));
        }

    // Pods: their upper switches first (top tier down), then each tier-1 switch with its servers.
    std::vector<int> pod_node(static_cast<std::size_t>(std::max(net.podCount(), 0)), -1);
    auto podNode = [&](int pod) {
        if (pod < 0) return -1;
        if (pod >= static_cast<int>(pod_node.size())) pod_node.resize(static_cast<std::size_t>(pod) + 1, -1);
        int& id = pod_node[static_cast<std::size_t>(pod)];
        if (id < 0) {
            Node pn;
            pn.kind = NodeKind::Pod;
            pn.name = tr("Pod %1").arg(pod);
            pn.kindText = tr("pod");
            pn.tip = tr("Pod %1: the partition one scheduler manages").arg(pod);
            id = addNode(std::move(pn));
        }
        return id;
    };
    for (int p = 0; p < net.podCount(); ++p) podNode(p);
    std::vector<int> switch_node(static_cast<std::size_t>(node_count), -1);
    for (int tier = top_tier; tier >= 1; --tier)
        for (int n = servers; n < node_count; ++n) {
            const cl::NetworkNode& sw = nodes[static_cast<std::size_t>(n)];
            if (sw.tier != tier || sw.pod < 0) continue;
            Node s;
            s.kind = NodeKind::Switch;
            s.parent = podNode(sw.pod);
            s.name = QString::fromStdString(sw.name);
            s.kindText = switchKind(spec.kind, tier);
            s.gbps = tierGbps(spec, tier - 1);
            s.tip = tier == 1
                        ? tr("%1 (%2): links to its servers at %3 Gb/s, uplinks at %4 Gb/s")
                              .arg(s.name, s.kindText, gbpsText(s.gbps), gbpsText(tierGbps(spec, tier)))
                        : tr("%1 (%2): links below at %3 Gb/s").arg(s.name, s.kindText, gbpsText(s.gbps));
            switch_node[static_cast<std::size_t>(n)] = addNode(std::move(s));
        }
    for (int i = 0; i < servers; ++i) {
        const int sw = server_switch[static_cast<std::size_t>(i)];
        int parent = sw >= 0 ? switch_node[static_cast<std::size_t>(sw)] : -1;
        if (parent < 0) parent = podNode(nodes[static_cast<std::size_t>(i)].pod);
        addServerSubtree(parent, i);
    }
}

void ClusterTreeModel::sumUp() {
    // Children come after their parents, so one backward pass adds each node into its parent.
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it) {
        if (it->parent < 0) continue;
        Node& parent = m_nodes[static_cast<std::size_t>(it->parent)];
        if (parent.kind == NodeKind::Server) continue;  // a server's totals come from the layout
        parent.gpus += it->gpus;
        if (parent.kind != NodeKind::Socket) parent.cores += it->cores;  // a socket has its own
    }
}

int ClusterTreeModel::nodeCount(NodeKind kind) const {
    int count = 0;
    for (const Node& n : m_nodes) count += n.kind == kind ? 1 : 0;
    return count;
}

QModelIndex ClusterTreeModel::serverIndex(int server) const {
    if (server < 0 || server >= static_cast<int>(m_serverNode.size())) return {};
    const int id = m_serverNode[static_cast<std::size_t>(server)];
    return createIndex(m_nodes[static_cast<std::size_t>(id)].row, 0, static_cast<quintptr>(id));
}

const ClusterTreeModel::Node* ClusterTreeModel::nodeOf(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) return nullptr;
    const quintptr id = index.internalId();
    return id < m_nodes.size() ? &m_nodes[id] : nullptr;
}

QModelIndex ClusterTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    const std::vector<int>* children = &m_top;
    if (parent.isValid()) {
        const Node* p = nodeOf(parent);
        if (!p || parent.column() != 0) return {};
        children = &p->children;
    }
    if (row >= static_cast<int>(children->size())) return {};
    return createIndex(row, column, static_cast<quintptr>((*children)[static_cast<std::size_t>(row)]));
}

QModelIndex ClusterTreeModel::parent(const QModelIndex& child) const {
    const Node* n = nodeOf(child);
    if (!n || n->parent < 0) return {};
    return createIndex(m_nodes[static_cast<std::size_t>(n->parent)].row, 0, static_cast<quintptr>(n->parent));
}

int ClusterTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(m_top.size());
    if (parent.column() != 0) return 0;
    const Node* n = nodeOf(parent);
    return n ? static_cast<int>(n->children.size()) : 0;
}

int ClusterTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ClusterTreeModel::data(const QModelIndex& index, int role) const {
    const Node* n = nodeOf(index);
    if (!n) return {};
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return n->name;
                case KindColumn:
                    return n->kindText;
                case GpusColumn:
                    return n->gpus > 0 && n->kind != NodeKind::Gpu ? QVariant(n->gpus) : QVariant();
                case CoresColumn:
                    return n->cores > 0 ? QVariant(n->cores) : QVariant();
                case BandwidthColumn:
                    return gbpsText(n->gbps);
                case PartitionsColumn:
                    return n->partitions;
            }
            return {};
        case Qt::ToolTipRole:
            return n->tip.isEmpty() ? n->name : n->tip;
        case Qt::TextAlignmentRole:
            return index.column() >= GpusColumn && index.column() <= BandwidthColumn
                       ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                       : QVariant();
        case NodeKindRole:
            return static_cast<int>(n->kind);
        case ServerIndexRole:
            return n->server;
        default:
            return {};
    }
}

QVariant ClusterTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case NameColumn:
                return tr("Name");
            case KindColumn:
                return tr("Kind");
            case GpusColumn:
                return tr("GPUs");
            case CoresColumn:
                return tr("Cores");
            case BandwidthColumn:
                return tr("Gb/s");
            case PartitionsColumn:
                return tr("Partitions");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case GpusColumn:
                return tr("GPUs under this node");
            case CoresColumn:
                return tr("CPU cores under this node");
            case BandwidthColumn:
                return tr(
                    "Link bandwidth below a switch or tier, PCIe uplink of a GPU group, QPI between a "
                    "server's sockets");
            case PartitionsColumn:
                return tr(
                    "The Slurm partitions a server is in (its node's Partitions=); edit them in the "
                    "server's properties");
            default:
                break;
        }
    }
    return {};
}

}  // namespace cl::views
