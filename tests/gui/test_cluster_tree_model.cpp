// The cluster tree: QAbstractItemModelTester on flat, racked and fat-tree clusters, exact
// node counts of the k=4 fat-tree with power8-4gpu servers (20 switches, 16 servers, 32
// sockets, 32 groups, 64 GPUs), its labels and columns, a server without an architecture
// (one socket, one group), a server's Slurm partitions, and the 2,000-server fat-tree built and
// walked without trouble.
#include <QAbstractItemModelTester>
#include <QLocale>
#include <QTest>

#include "core/model/server_architecture.h"
#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "views/cluster/cluster_tree_model.h"

using cl::views::ClusterTreeModel;
using Kind = ClusterTreeModel::NodeKind;

namespace {

QString cell(const QModelIndex& row, int column) {
    return row.siblingAtColumn(column).data().toString();
}

Kind kindOf(const QModelIndex& index) {
    return static_cast<Kind>(index.data(ClusterTreeModel::NodeKindRole).toInt());
}

cl::Cluster flatCluster(bool racks) {
    cl::Cluster c;
    c.name = "flat";
    for (int i = 0; i < 3; ++i) {
        cl::Server s;
        s.name = "node" + std::to_string(i);
        s.rack = racks ? (i < 2 ? "r0" : "r1") : "";
        s.gpus = 8;
        s.cpu_cores = 24;
        c.servers.push_back(s);
    }
    // The last one has its internals described.
    cl::applyArchitecture(c.servers[2], cl::architecturePreset("uneven-6gpu").architecture);
    return c;
}

// Every node reachable from `parent`, depth first.
int countKind(const QAbstractItemModel& m, Kind kind, const QModelIndex& parent = {}) {
    int n = 0;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex child = m.index(r, 0, parent);
        n += (kindOf(child) == kind ? 1 : 0) + countKind(m, kind, child);
    }
    return n;
}

}  // namespace

class TestClusterTreeModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void flatClusterWithoutRacks() {
        ClusterTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCluster(flatCluster(false));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 6);
        const QModelIndex node0 = model.index(0, 0);
        QCOMPARE(cell(node0, ClusterTreeModel::NameColumn), QString("node0"));
        QCOMPARE(cell(node0, ClusterTreeModel::KindColumn), QString("server"));
        QCOMPARE(cell(node0, ClusterTreeModel::GpusColumn), QString("8"));
        QCOMPARE(cell(node0, ClusterTreeModel::CoresColumn), QString("24"));
        QCOMPARE(cell(node0, ClusterTreeModel::BandwidthColumn), QString());
        // Not described: one socket with all cores, one group with all GPUs.
        QCOMPARE(model.rowCount(node0), 1);
        const QModelIndex socket = model.index(0, 0, node0);
        QCOMPARE(cell(socket, ClusterTreeModel::NameColumn), QString("Socket 0"));
        QCOMPARE(cell(socket, ClusterTreeModel::CoresColumn), QString("24"));
        QCOMPARE(cell(socket, ClusterTreeModel::GpusColumn), QString("8"));
        QCOMPARE(model.rowCount(socket), 1);
        const QModelIndex group = model.index(0, 0, socket);
        QCOMPARE(cell(group, ClusterTreeModel::NameColumn), QString("Group 0"));
        QCOMPARE(cell(group, ClusterTreeModel::GpusColumn), QString("8"));
        QCOMPARE(cell(group, ClusterTreeModel::BandwidthColumn), QString());
        QCOMPARE(model.rowCount(group), 8);
        QCOMPARE(cell(model.index(7, 0, group), ClusterTreeModel::NameColumn), QString("GPU 7"));
        QCOMPARE(cell(model.index(7, 0, group), ClusterTreeModel::KindColumn), QString("V100"));
        QVERIFY(node0.data(Qt::ToolTipRole).toString().contains("Architecture not described"));

        // Described (uneven-6gpu): 2 sockets, QPI on the server, PCIe on each group.
        const QModelIndex node2 = model.index(2, 0);
        QCOMPARE(cell(node2, ClusterTreeModel::GpusColumn), QString("6"));
        QCOMPARE(cell(node2, ClusterTreeModel::CoresColumn), QString("24"));
        QCOMPARE(cell(node2, ClusterTreeModel::BandwidthColumn), QString("300"));
        QCOMPARE(model.rowCount(node2), 2);
        const QModelIndex s1 = model.index(1, 0, node2);
        QCOMPARE(cell(s1, ClusterTreeModel::CoresColumn), QString("8"));
        QCOMPARE(cell(s1, ClusterTreeModel::GpusColumn), QString("2"));
        const QModelIndex g1 = model.index(0, 0, s1);
        QCOMPARE(cell(g1, ClusterTreeModel::NameColumn), QString("Group 1"));
        QCOMPARE(cell(g1, ClusterTreeModel::BandwidthColumn), QString("128"));
        QCOMPARE(cell(model.index(1, 0, g1), ClusterTreeModel::NameColumn), QString("GPU 5"));
        QCOMPARE(model.index(1, 0, g1).data(Qt::ToolTipRole).toString(),
                 QString("node2 · S1 · G1 · GPU 5 (V100)"));
        QCOMPARE(model.index(1, 0, g1).data(ClusterTreeModel::ServerIndexRole).toInt(), 2);
        QCOMPARE(model.nodeCount(Kind::Gpu), 22);
        QCOMPARE(model.nodeCount(Kind::Socket), 4);
        QCOMPARE(model.serverIndex(2), node2);
        QVERIFY(!model.serverIndex(3).isValid());
    }

    // A server's partitions in their column and its tooltip; nothing for servers in none and for
    // the rows under a server.
    void serverPartitionsColumn() {
        ClusterTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        cl::Cluster c = flatCluster(false);
        c.partitions = {{"gpu", 1, 0.0, true}, {"debug", 1, 3600.0, false}};
        c.servers[0].partitions = {"gpu", "debug"};
        model.setCluster(c);
        QCOMPARE(model.headerData(ClusterTreeModel::PartitionsColumn, Qt::Horizontal).toString(),
                 QString("Partitions"));
        QVERIFY(model.headerData(ClusterTreeModel::PartitionsColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("Slurm"));
        const QModelIndex node0 = model.index(0, 0);
        QCOMPARE(cell(node0, ClusterTreeModel::PartitionsColumn), QString("gpu, debug"));
        QVERIFY(node0.data(Qt::ToolTipRole).toString().contains("Partitions gpu, debug"));
        QCOMPARE(cell(model.index(1, 0), ClusterTreeModel::PartitionsColumn), QString());
        QVERIFY(!model.index(1, 0).data(Qt::ToolTipRole).toString().contains("Partitions"));
        QCOMPARE(cell(model.index(0, 0, node0), ClusterTreeModel::PartitionsColumn), QString());
    }

    void flatClusterGroupedByRack() {
        ClusterTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCluster(flatCluster(true));
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex r0 = model.index(0, 0);
        QCOMPARE(cell(r0, ClusterTreeModel::NameColumn), QString("r0"));
        QCOMPARE(cell(r0, ClusterTreeModel::KindColumn), QString("rack"));
        QCOMPARE(cell(r0, ClusterTreeModel::GpusColumn), QString("16"));
        QCOMPARE(cell(r0, ClusterTreeModel::CoresColumn), QString("48"));
        QCOMPARE(model.rowCount(r0), 2);
        QCOMPARE(cell(model.index(0, 0, model.index(1, 0)), ClusterTreeModel::NameColumn), QString("node2"));
        QCOMPARE(model.index(0, 0).data(ClusterTreeModel::ServerIndexRole).toInt(), -1);
        QCOMPARE(model.parent(model.serverIndex(2)), model.index(1, 0));
    }

    void fatTreeK4Power8() {
        ClusterTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const cl::Cluster c =
            cl::makeTopologyCluster("ft4", cl::fatTreeSpec(4), cl::architectureMix("power8"));
        model.setCluster(c);
        QCOMPARE(model.nodeCount(Kind::Switch), 20);
        QCOMPARE(model.nodeCount(Kind::Server), 16);
        QCOMPARE(model.nodeCount(Kind::Socket), 32);
        QCOMPARE(model.nodeCount(Kind::GpuGroup), 32);
        QCOMPARE(model.nodeCount(Kind::Gpu), 64);
        QCOMPARE(model.nodeCount(Kind::Pod), 4);
        QCOMPARE(model.nodeCount(Kind::Tier), 1);
        QCOMPARE(countKind(model, Kind::Gpu), 64);  // all reachable through index()/rowCount()
        QCOMPARE(countKind(model, Kind::Switch), 20);

        // Core tier first, then the pods.
        QCOMPARE(model.rowCount(), 5);
        const QModelIndex core = model.index(0, 0);
        QCOMPARE(cell(core, ClusterTreeModel::NameColumn), QString("Core switches"));
        QCOMPARE(cell(core, ClusterTreeModel::BandwidthColumn), QString("40"));
        QCOMPARE(model.rowCount(core), 4);
        QCOMPARE(cell(model.index(0, 0, core), ClusterTreeModel::KindColumn), QString("core switch"));
        const QModelIndex pod0 = model.index(1, 0);
        QCOMPARE(cell(pod0, ClusterTreeModel::NameColumn), QString("Pod 0"));
        QCOMPARE(cell(pod0, ClusterTreeModel::GpusColumn), QString("16"));
        QCOMPARE(cell(pod0, ClusterTreeModel::CoresColumn), QString("64"));
        // Aggregation switches, then edge switches holding their servers.
        QCOMPARE(model.rowCount(pod0), 4);
        QCOMPARE(cell(model.index(0, 0, pod0), ClusterTreeModel::KindColumn), QString("aggregation switch"));
        QCOMPARE(cell(model.index(0, 0, pod0), ClusterTreeModel::BandwidthColumn), QString("20"));
        const QModelIndex edge = model.index(2, 0, pod0);
        QCOMPARE(cell(edge, ClusterTreeModel::KindColumn), QString("edge switch"));
        QCOMPARE(cell(edge, ClusterTreeModel::BandwidthColumn), QString("10"));
        QCOMPARE(cell(edge, ClusterTreeModel::GpusColumn), QString("8"));
        QCOMPARE(model.rowCount(edge), 2);
        const QModelIndex server = model.index(0, 0, edge);
        QCOMPARE(cell(server, ClusterTreeModel::NameColumn), QString::fromStdString(c.servers[0].name));
        QCOMPARE(cell(server, ClusterTreeModel::GpusColumn), QString("4"));
        QCOMPARE(cell(server, ClusterTreeModel::CoresColumn), QString("16"));
        QCOMPARE(cell(server, ClusterTreeModel::BandwidthColumn), QString("300"));
        QCOMPARE(model.serverIndex(0), server);
        const QModelIndex group1 = model.index(0, 0, model.index(1, 0, server));
        QCOMPARE(cell(group1, ClusterTreeModel::NameColumn), QString("Group 1"));
        QCOMPARE(cell(model.index(1, 0, group1), ClusterTreeModel::NameColumn), QString("GPU 3"));
    }

    void serversAddedByHandShowFlat() {
        cl::Cluster c = cl::makeTopologyCluster("ft4", cl::fatTreeSpec(4), cl::architectureMix("power8"));
        c.servers.pop_back();
        ClusterTreeModel model;
        model.setCluster(c);
        QCOMPARE(model.nodeCount(Kind::Switch), 0);
        QCOMPARE(model.nodeCount(Kind::Server), 15);
        QCOMPARE(model.nodeCount(Kind::Rack), 8);  // the edge switch names are the racks
    }

    void paperFatTreeStaysLight() {
        const cl::Cluster c =
            cl::makeTopologyCluster("ft20", cl::fatTreeSpec(20), cl::architectureMix("mixed"));
        ClusterTreeModel model;
        model.setCluster(c);
        QCOMPARE(model.nodeCount(Kind::Server), 2000);
        QCOMPARE(model.nodeCount(Kind::Switch), 500);
        QCOMPARE(model.nodeCount(Kind::Gpu), c.totalGpus());
        QCOMPARE(model.rowCount(), 21);  // core tier + 20 pods
    }
};

QTEST_MAIN(TestClusterTreeModel)
#include "test_cluster_tree_model.moc"
