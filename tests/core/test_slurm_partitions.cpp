// Slurm partitions: scontrol show partition (oneliner and multi-line) read into partitions with
// their PriorityTier, MaxTime (every time form of Slurm's time_str2secs) and Default, hostlists
// expanded, the file laid over the layout of the node list (its members win), and refused files
// naming file, line and field (core/io/slurm_partitions.h; the fixtures follow scontrol(1) output
// of Slurm 22.05 and the same cluster as scontrol_nodes_oneliner.txt).
#include <QtTest>

#include <string>
#include <vector>

#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_nodes.h"
#include "core/io/slurm_partitions.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;
using cl::test::parseError;

namespace {

using Names = std::vector<std::string>;

std::string fixture(const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/slurm/" + name;
}

const Server& server(const Cluster& c, const std::string& name) {
    for (const Server& s : c.servers)
        if (s.name == name) return s;
    throw std::runtime_error("no server " + name);
}

void expectPartition(const SlurmPartition& p, const std::string& name, int line, int tier, double max_time,
                     bool is_default, const Names& nodes) {
    QCOMPARE(p.name, name);
    QCOMPARE(p.line, line);
    QCOMPARE(p.priority_tier, tier);
    QVERIFY2(p.max_time == max_time, name.c_str());
    QCOMPARE(p.is_default, is_default);
    QCOMPARE(p.nodes, nodes);
}

SlurmLayout siteLayout() {
    return clusterFromSlurmNodes(readSlurmNodes(fixture("scontrol_nodes_oneliner.txt")));
}

}  // namespace

class TestSlurmPartitions : public QObject {
    Q_OBJECT

private slots:
    void expandsHostlists() {
        QCOMPARE(expandSlurmHostlist("node[01-04,07],gpu5"),
                 (Names{"node01", "node02", "node03", "node04", "node07", "gpu5"}));
        QCOMPARE(expandSlurmHostlist("gpu03"), (Names{"gpu03"}));
        QCOMPARE(expandSlurmHostlist("n[8-10]"), (Names{"n8", "n9", "n10"}));
        QCOMPARE(expandSlurmHostlist("n[08-10]"), (Names{"n08", "n09", "n10"}));  // the low bound's width
        QCOMPARE(expandSlurmHostlist("n[098-100]"), (Names{"n098", "n099", "n100"}));
        QCOMPARE(expandSlurmHostlist("r[1-2]n[1-2]"), (Names{"r1n1", "r1n2", "r2n1", "r2n2"}));
        QCOMPARE(expandSlurmHostlist("a[1-2]-ib,b1"), (Names{"a1-ib", "a2-ib", "b1"}));
        QCOMPARE(expandSlurmHostlist("a[1-2],a2"), (Names{"a1", "a2"}));  // each host once
        QCOMPARE(expandSlurmHostlist("x[5]"), (Names{"x5"}));
        for (const char* bad : {"n[1-", "n1-2]", "n[a-b]", "n[3-1]", "n[[1]]", "a,,b", "", "n[1-200000]",
                                "n[]", "n[1,]", "a b"})
            QVERIFY2(!invalidArgument([&] { expandSlurmHostlist(bad); }).isEmpty(), bad);
    }

    void readsEveryTimeForm() {
        QCOMPARE(parseSlurmTimeLimit("30"), 1800.0);            // minutes
        QCOMPARE(parseSlurmTimeLimit("30:15"), 1815.0);         // minutes:seconds
        QCOMPARE(parseSlurmTimeLimit("12:00:00"), 43200.0);     // hours:minutes:seconds
        QCOMPARE(parseSlurmTimeLimit("2-00:00:00"), 172800.0);  // days-hours:minutes:seconds
        QCOMPARE(parseSlurmTimeLimit("1-12"), 129600.0);        // days-hours
        QCOMPARE(parseSlurmTimeLimit("1-12:30"), 131400.0);     // days-hours:minutes
        QCOMPARE(parseSlurmTimeLimit("7-00:00:01"), 604801.0);
        QCOMPARE(parseSlurmTimeLimit(" 00:30:00 "), 1800.0);
        for (const char* none : {"UNLIMITED", "INFINITE", "unlimited", "-1"})
            QCOMPARE(parseSlurmTimeLimit(none), 0.0);
        for (const char* bad :
             {"", "NONE", "1:2:3:4", "1-2-3", "a", "-5", "1.5", "1-", "12:", "40000-00:00:00"})
            QVERIFY2(!invalidArgument([&] { parseSlurmTimeLimit(bad); }).isEmpty(), bad);
    }

    void readsEveryFieldOfTheOneliner() {
        const SlurmPartitionList list = readSlurmPartitions(fixture("scontrol_partitions_oneliner.txt"));
        QCOMPARE(list.file, std::string("scontrol_partitions_oneliner.txt"));
        QCOMPARE(list.partitions.size(), std::size_t(6));
        expectPartition(list.partitions[0], "gpu", 1, 1, 172800, true, {"gpu01", "gpu02", "gpu05"});
        expectPartition(list.partitions[1], "gpu-old", 2, 1, 43200, false, {"gpu03"});
        expectPartition(list.partitions[2], "debug", 3, 10, 1800, false, {"gpu01", "gpu04", "gpu05"});
        expectPartition(list.partitions[3], "cpu", 4, 1, 0, false, {"cpu01"});
        expectPartition(list.partitions[4], "long", 5, 0, 604800, false, {"gpu01", "gpu02", "gpu07"});
        expectPartition(list.partitions[5], "amd", 6, 1, 129600, false, {"gpu06"});
        QCOMPARE(list.partitions[5].state, std::string("DOWN"));
        QCOMPARE(
            list.warnings,
            (Names{"scontrol_partitions_oneliner.txt:6: partition amd is DOWN in Slurm; the layout keeps "
                   "it like any other"}));
        QVERIFY(looksLikeSlurmPartitions("\n PartitionName=a Nodes=b\n"));
        QVERIFY(!looksLikeSlurmPartitions("NodeName=a CPUTot=4\n"));
    }

    void readsTheMultiLineFormToo() {
        const SlurmPartitionList list = readSlurmPartitions(fixture("scontrol_partitions_multiline.txt"));
        QCOMPARE(list.partitions.size(), std::size_t(2));
        expectPartition(list.partitions[0], "gpu", 1, 1, 172800, true, {"gpu01", "gpu02", "gpu05"});
        QCOMPARE(list.partitions[0].nodes_line, 6);
        expectPartition(list.partitions[1], "debug", 14, 10, 1800, false, {"gpu01", "gpu04", "gpu05"});
        QCOMPARE(list.partitions[1].nodes_line, 19);
        QVERIFY(list.warnings.empty());
    }

    void takesSlurmDefaultsForMissingFields() {
        const SlurmPartitionList list = parseSlurmPartitions(
            "PartitionName=a\nPartitionName=b Nodes=ALL\nPartitionName=c Nodes=(null)\n", "p.txt");
        expectPartition(list.partitions[0], "a", 1, 1, 0, false, {});
        QCOMPARE(list.partitions[0].nodes_line, 0);
        QVERIFY(list.partitions[1].all_nodes);
        QVERIFY(list.partitions[1].nodes.empty());
        QVERIFY(!list.partitions[2].all_nodes);
        QVERIFY(list.partitions[2].nodes.empty());
    }

    void refusesBadLinesNamingFileLineAndField() {
        auto error = [](const std::string& text) {
            return parseError([&] { parseSlurmPartitions(text, "p.txt"); });
        };
        expectError(error("PartitionName=a Nodes=n[1-2\n"), {"p.txt:1:", "field 'Nodes'", "n[1-2"});
        expectError(error("PartitionName=a\nPartitionName=b MaxTime=2-xx\n"),
                    {"p.txt:2:", "field 'MaxTime'", "'2-xx'"});
        expectError(error("PartitionName=a MaxTime=0\n"), {"p.txt:1:", "field 'MaxTime'", "UNLIMITED"});
        expectError(error("PartitionName=a PriorityTier=high\n"),
                    {"p.txt:1:", "field 'PriorityTier'", "'high'"});
        expectError(error("PartitionName=a PriorityTier=70000\n"), {"p.txt:1:", "field 'PriorityTier'"});
        expectError(error("PartitionName=a Default=maybe\n"), {"p.txt:1:", "field 'Default'", "YES or NO"});
        expectError(error("PartitionName=a Default=YES\nPartitionName=b Default=YES\n"),
                    {"p.txt:2:", "field 'Default'", "line 1"});
        expectError(error("PartitionName=a\nPartitionName=a\n"),
                    {"p.txt:2:", "field 'PartitionName'", "listed twice", "line 1"});
        expectError(error("PartitionName=a\nNodes=x\n"), {"p.txt:2:", "field 'PartitionName'", "missing"});
        expectError(error("Nodes=x\n"), {"p.txt:1:", "field 'PartitionName'"});
        expectError(error("PartitionName=a junk\n"), {"p.txt:1:", "Key=Value", "'junk'"});
        expectError(error("PartitionName=\n"), {"p.txt:1:", "field 'PartitionName'"});
        expectError(error("PartitionName=a\n   MaxTime=bad\n"), {"p.txt:2:", "field 'MaxTime'"});
        expectError(error(" \n"), {"p.txt:", "empty file"});
        expectError(error("{\"partitions\": []}"), {"p.txt:1:", "--oneliner"});
    }

    void theNodeListGivesEachServerItsPartitions() {
        const SlurmLayout layout = siteLayout();
        const Cluster& c = layout.cluster;
        QCOMPARE(server(c, "gpu01").partitions, (Names{"gpu", "debug"}));
        QCOMPARE(server(c, "gpu03").partitions, (Names{"gpu-old"}));
        QCOMPARE(server(c, "gpu07").partitions, Names{});
        // Declared with default attributes, in first-seen order; "cpu" has no GPU server.
        QCOMPARE(c.partitions.size(), std::size_t(4));
        const Names declared = {"gpu", "debug", "gpu-old", "amd"};
        for (std::size_t i = 0; i < declared.size(); ++i)
            QCOMPARE(c.partitions[i], (Partition{declared[i], 1, 0.0, false}));
        // Down and drained nodes stay marked.
        QVERIFY(server(c, "gpu03").unavailable);
        QVERIFY(server(c, "gpu04").unavailable);
        // A node listed twice in one partition keeps it once.
        const SlurmNodeInventory twice =
            parseSlurmNodes("NodeName=a CPUTot=4 Gres=gpu:1 Partitions=x,y,x\n", "t");
        QCOMPARE(twice.nodes[0].partitions, (Names{"x", "y"}));
        expectError(parseError([] { parseSlurmNodes("NodeName=a CPUTot=4 Partitions=x,\x01y\n", "t.txt"); }),
                    {"t.txt:1:", "field 'Partitions'", "printable ASCII"});
    }

    void thePartitionFileWinsOverTheNodeList() {
        SlurmLayout layout = siteLayout();
        const SlurmNodeInventory inventory = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        const SlurmPartitionList list = readSlurmPartitions(fixture("scontrol_partitions_oneliner.txt"));
        const SlurmPartitionsApplied applied = applySlurmPartitions(layout.cluster, list, &inventory);
        const Cluster& c = layout.cluster;
        QCOMPARE(c.partitions, (std::vector<Partition>{{"gpu", 1, 172800, true},
                                                       {"gpu-old", 1, 43200, false},
                                                       {"debug", 10, 1800, false},
                                                       {"cpu", 1, 0, false},
                                                       {"long", 0, 604800, false},
                                                       {"amd", 1, 129600, false}}));
        QCOMPARE(server(c, "gpu01").partitions, (Names{"gpu", "debug", "long"}));
        QCOMPARE(server(c, "gpu02").partitions, (Names{"gpu", "long"}));
        QCOMPARE(server(c, "gpu03").partitions, (Names{"gpu-old"}));
        QCOMPARE(server(c, "gpu04").partitions, (Names{"debug"}));
        // gpu05 has L40S and A100 GPUs: both of its servers join its partitions.
        QCOMPARE(server(c, "gpu05:l40s").partitions, (Names{"gpu", "debug"}));
        QCOMPARE(server(c, "gpu05:a100").partitions, (Names{"gpu", "debug"}));
        QCOMPARE(server(c, "gpu06").partitions, (Names{"amd"}));
        QCOMPARE(server(c, "gpu07").partitions, (Names{"long"}));
        QCOMPARE(server(c, "gpu01").rack, std::string("gpu"));  // the group stays the node list's
        QVERIFY(server(c, "gpu04").unavailable);
        QCOMPARE(applied.memberships, 13);
        QCOMPARE(applied.left_out_nodes, (Names{"cpu01"}));  // CPU-only: in the node list, not a server
        QVERIFY(applied.undeclared.empty());
        QCOMPARE(applied.changed_servers, (Names{"gpu01", "gpu02", "gpu07"}));
        QCOMPARE(c.partition("debug")->priority_tier, 10);
        QVERIFY(c.partition("gpu")->is_default);
        QVERIFY(c.partition("nope") == nullptr);
    }

    void partitionsOnlyTheNodeListNamesGetDefaults() {
        SlurmLayout layout = siteLayout();
        const SlurmNodeInventory inventory = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        const SlurmPartitionList list = parseSlurmPartitions(
            "PartitionName=gpu Default=YES MaxTime=1-00:00:00 PriorityTier=5 Nodes=gpu[01-02]\n", "p.txt");
        const SlurmPartitionsApplied applied = applySlurmPartitions(layout.cluster, list, &inventory);
        const Cluster& c = layout.cluster;
        QCOMPARE(c.partitions, (std::vector<Partition>{{"gpu", 5, 86400, true},
                                                       {"debug", 1, 0, false},
                                                       {"gpu-old", 1, 0, false},
                                                       {"amd", 1, 0, false}}));
        QCOMPARE(server(c, "gpu01").partitions, (Names{"gpu", "debug"}));
        QCOMPARE(server(c, "gpu05:l40s").partitions, (Names{"debug"}));  // the file's gpu members win
        QCOMPARE(server(c, "gpu05:a100").partitions, (Names{"debug"}));
        QCOMPARE(applied.undeclared, (Names{"debug", "gpu-old", "amd"}));
        QCOMPARE(applied.changed_servers, (Names{"gpu05:l40s", "gpu05:a100"}));
        QCOMPARE(applied.warnings.size(), std::size_t(2));

        // Nodes=ALL: every server of the cluster.
        SlurmLayout all = siteLayout();
        applySlurmPartitions(all.cluster,
                             parseSlurmPartitions("PartitionName=everything Nodes=ALL\n", "a.txt"));
        for (const Server& s : all.cluster.servers) QCOMPARE(s.partitions.front(), std::string("everything"));
    }

    void refusesNodesTheClusterLacks() {
        SlurmLayout layout = siteLayout();
        const std::string before = layoutJsonText(layout.cluster);
        const SlurmNodeInventory inventory = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        const SlurmPartitionList list = parseSlurmPartitions(
            "PartitionName=gpu Nodes=gpu01\nPartitionName=big\n   MaxTime=10\n   Nodes=gpu[01-02],gpu99\n",
            "p.txt");
        expectError(parseError([&] { applySlurmPartitions(layout.cluster, list, &inventory); }),
                    {"p.txt:4:", "field 'Nodes'", "big", "'gpu99'"});
        QCOMPARE(layoutJsonText(layout.cluster), before);  // nothing changed
        // Without the node list, a node outside the cluster is unknown too (cpu01 is CPU-only).
        expectError(parseError([&] {
                        applySlurmPartitions(layout.cluster,
                                             parseSlurmPartitions("PartitionName=c Nodes=cpu01\n", "c.txt"));
                    }),
                    {"c.txt:1:", "field 'Nodes'", "'cpu01'"});
        QCOMPARE(layoutJsonText(layout.cluster), before);
    }

    void partitionsRoundTripThroughTheLayout() {
        SlurmLayout layout = siteLayout();
        const SlurmNodeInventory inventory = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        applySlurmPartitions(layout.cluster, readSlurmPartitions(fixture("scontrol_partitions_oneliner.txt")),
                             &inventory);
        const std::string text = layoutJsonText(layout.cluster);
        QVERIFY(
            text.find("  \"partitions\": [\n    {\"name\":\"gpu\",\"priority_tier\":1,\"max_time\":172800,"
                      "\"default\":true},\n") != std::string::npos);
        QVERIFY(text.find("\"partitions\":[\"gpu\",\"debug\",\"long\"]") != std::string::npos);
        const Cluster back = parseLayoutJson(text, "back");
        QVERIFY(back.partitions == layout.cluster.partitions);
        QCOMPARE(back.servers.size(), layout.cluster.servers.size());
        for (std::size_t i = 0; i < back.servers.size(); ++i)
            QVERIFY(back.servers[i] == layout.cluster.servers[i]);
        QCOMPARE(layoutJsonText(back), text);
        // readCluster on the node list alone declares what the servers name.
        const Cluster plain = readCluster(fixture("scontrol_nodes_oneliner.txt"));
        QCOMPARE(plain.partitions.size(), std::size_t(4));
        QCOMPARE(layoutJsonText(parseLayoutJson(layoutJsonText(plain), "p")), layoutJsonText(plain));
        // The partition list is no cluster: the message says what to give instead.
        expectError(parseError([] { readCluster(fixture("scontrol_partitions_oneliner.txt")); }),
                    {"scontrol_partitions_oneliner.txt:1:", "field 'PartitionName'", "--partitions"});
    }
};

QTEST_GUILESS_MAIN(TestSlurmPartitions)
#include "test_slurm_partitions.moc"
