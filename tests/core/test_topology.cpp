// Network topologies (fat-tree, VL2, BCube, flat), topology clusters and their layout JSON:
// textbook counts, routes and bottlenecks worked out by hand, pods, errors, round trips.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;
using cl::test::parseError;

namespace {

using Path = std::vector<int>;

// The links of path(a, b) form a chain from node a to node b.
bool connected(const NetworkTopology& t, int a, int b) {
    int at = a;
    for (int l : t.path(a, b)) {
        const NetworkLink& link = t.links()[static_cast<std::size_t>(l)];
        if (link.a == at)
            at = link.b;
        else if (link.b == at)
            at = link.a;
        else
            return false;
    }
    return at == b;
}

bool oneOf(const Path& p, const std::vector<Path>& choices) {
    return std::find(choices.begin(), choices.end(), p) != choices.end();
}

QString show(const Path& p) {
    QString s;
    for (int l : p) s += QString::number(l) + " ";
    return s;
}

std::string fixture(const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/topology/" + name;
}
std::string dataCluster(const std::string& name) {
    return std::string(CLUSTERLOOM_SOURCE_DATA_DIR) + "/clusters/" + name;
}

void expectSameCluster(const Cluster& a, const Cluster& b) {
    QCOMPARE(a.name, b.name);
    QVERIFY(a.topology == b.topology);
    QCOMPARE(a.servers.size(), b.servers.size());
    for (std::size_t i = 0; i < a.servers.size(); ++i) {
        const Server& x = a.servers[i];
        const Server& y = b.servers[i];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.rack, y.rack);
        QCOMPARE(x.gpu_type, y.gpu_type);
        QCOMPARE(x.gpus, y.gpus);
        QCOMPARE(x.cpu_cores, y.cpu_cores);
        QVERIFY(x.memory_gb == y.memory_gb);
        QVERIFY(x.gpu_memory_gb == y.gpu_memory_gb);
        QVERIFY(x.network_gbps == y.network_gbps);
        QVERIFY2(x.architecture == y.architecture, x.name.c_str());
    }
}

const char* kHeader = "{\n\"format\": \"clusterloom-cluster\",\n\"version\": 1,\n";

}  // namespace

class TestTopology : public QObject {
    Q_OBJECT
private slots:
    void fatTreeCounts() {
        const NetworkTopology t4 = NetworkTopology::build(fatTreeSpec(4));
        QCOMPARE(t4.serverCount(), 16);
        QCOMPARE(t4.switchCount(), 20);
        QCOMPARE(t4.switchCount(1), 8);
        QCOMPARE(t4.switchCount(2), 8);
        QCOMPARE(t4.switchCount(3), 4);
        QCOMPARE(t4.links().size(), std::size_t(48));
        QCOMPARE(t4.tierCount(), 3);
        QCOMPARE(t4.podCount(), 4);

        const NetworkTopology t = NetworkTopology::build(fatTreeSpec());
        QCOMPARE(t.serverCount(), 2000);
        QCOMPARE(t.switchCount(), 500);
        QCOMPARE(t.switchCount(1), 200);
        QCOMPARE(t.switchCount(2), 200);
        QCOMPARE(t.switchCount(3), 100);
        QCOMPARE(t.links().size(), std::size_t(6000));
        QCOMPARE(NetworkTopology::serverCount(fatTreeSpec()), 2000);
        QCOMPARE(t.podCount(), 20);
        QCOMPARE(t.serversOfPod(3).size(), std::size_t(100));
        QCOMPARE(t.serversOfPod(3).front(), 300);
        QCOMPARE(t.podOf(371), 3);
        QCOMPARE(t.nodes()[371].name, std::string("p03-e07-h1"));
        QCOMPARE(t.nodes()[2000 + 3 * 20 + 7].name, std::string("p03-edge-7"));
        QCOMPARE(t.nodes()[2000 + 3 * 20 + 10 + 1].name, std::string("p03-agg-1"));
        QCOMPARE(t.nodes()[2000 + 400 + 12].name, std::string("core-12"));
        QCOMPARE(t.nodes()[2000 + 400 + 12].pod, -1);
        QCOMPARE(t.links()[371].gbps, 10.0);
        QCOMPARE(t.nodes()[static_cast<std::size_t>(t.links()[371].b)].name, std::string("p03-edge-7"));
        int per_tier[3] = {0, 0, 0};
        for (const NetworkLink& l : t.links()) {
            ++per_tier[l.tier];
            QCOMPARE(l.gbps, (std::vector<double>{10, 20, 40})[static_cast<std::size_t>(l.tier)]);
            QCOMPARE(t.nodes()[static_cast<std::size_t>(l.b)].tier, l.tier + 1);
            QCOMPARE(t.nodes()[static_cast<std::size_t>(l.a)].tier, l.tier);
        }
        QCOMPARE(per_tier[0], 2000);
        QCOMPARE(per_tier[1], 2000);
        QCOMPARE(per_tier[2], 2000);
    }

    // k=4: servers 0..15 (pod s/4, edge (s/2)%2); links 0..15 server-edge, 16 + 4p + 2e + j
    // edge-aggregation, 32 + 4p + 2j + i aggregation-core (core 2j + i).
    void fatTreePathsByHand() {
        const NetworkTopology t = NetworkTopology::build(fatTreeSpec(4, {40, 20, 5}));
        QCOMPARE(t.path(0, 1), (Path{0, 1}));
        QCOMPARE(t.bottleneckGbps(0, 1), 40.0);
        QVERIFY2(oneOf(t.path(0, 2), {{0, 16, 18, 2}, {0, 17, 19, 2}}), qPrintable(show(t.path(0, 2))));
        QCOMPARE(t.bottleneckGbps(0, 2), 20.0);
        // Pod 0 edge 0 host 0 to pod 3 edge 1 host 1 through aggregation j, core 2j + i.
        QVERIFY2(oneOf(t.path(0, 15), {{0, 16, 32, 44, 30, 15},
                                       {0, 16, 33, 45, 30, 15},
                                       {0, 17, 34, 46, 31, 15},
                                       {0, 17, 35, 47, 31, 15}}),
                 qPrintable(show(t.path(0, 15))));
        QCOMPARE(t.bottleneckGbps(0, 15), 5.0);
        QVERIFY(std::isinf(t.bottleneckGbps(7, 7)));
        QVERIFY(t.path(7, 7).empty());
        std::vector<int> out{99};
        t.appendPath(0, 1, out);
        QCOMPARE(out, (Path{99, 0, 1}));
        // Every pair: a connected chain, 2/4/6 links, the reverse route on the same links.
        int used_cores = 0;
        std::vector<bool> core_used(4, false);
        for (int a = 0; a < 16; ++a)
            for (int b = 0; b < 16; ++b) {
                if (a == b) continue;
                QVERIFY(connected(t, a, b));
                Path ab = t.path(a, b), ba = t.path(b, a);
                std::reverse(ba.begin(), ba.end());
                QCOMPARE(ab, ba);
                const std::size_t want = a / 2 == b / 2 ? 2 : a / 4 == b / 4 ? 4 : 6;
                QCOMPARE(ab.size(), want);
                if (want == 6)
                    core_used[static_cast<std::size_t>(t.links()[static_cast<std::size_t>(ab[2])].b - 32)] =
                        true;
            }
        for (bool u : core_used) used_cores += u ? 1 : 0;
        QCOMPARE(used_cores, 4);  // the hash spreads cross-pod routes over every core
    }

    void vl2Counts() {
        const NetworkTopology t = NetworkTopology::build(vl2Spec());
        QCOMPARE(t.serverCount(), 2000);
        QCOMPARE(t.switchCount(), 130);
        QCOMPARE(t.switchCount(1), 100);
        QCOMPARE(t.switchCount(2), 20);
        QCOMPARE(t.switchCount(3), 10);
        QCOMPARE(t.links().size(), std::size_t(2000 + 200 + 200));
        QCOMPARE(t.podCount(), 20);
        for (int p = 0; p < 20; ++p) QCOMPARE(t.serversOfPod(p).size(), std::size_t(100));
        QCOMPARE(t.nodes()[2000 + 42].name, std::string("tor-42"));
        QCOMPARE(t.nodes()[2000 + 100 + 3].name, std::string("agg-3"));
        QCOMPARE(t.nodes()[2000 + 120 + 4].name, std::string("int-4"));
        QCOMPARE(t.nodes()[42 * 20 + 7].name, std::string("t42-h07"));
        // Every aggregation switch has 10 ToRs and all 10 intermediate switches.
        std::vector<int> degree(2130, 0);
        for (const NetworkLink& l : t.links()) {
            ++degree[static_cast<std::size_t>(l.a)];
            ++degree[static_cast<std::size_t>(l.b)];
        }
        for (int g = 0; g < 20; ++g) QCOMPARE(degree[2100 + g], 20);
        for (int i = 0; i < 10; ++i) QCOMPARE(degree[2120 + i], 20);
        for (int r = 0; r < 100; ++r) QCOMPARE(degree[2000 + r], 22);
    }

    // D_A=4, D_I=4, 2 per ToR: servers 0..7 on ToRs 0..3; ToR r's first aggregation switch is
    // r, its second r^1; links 0..7 server-ToR, 8 + 2r + u ToR-aggregation (u=1 the second),
    // 16 + 2g + i aggregation-intermediate.
    void vl2PathsByHand() {
        const NetworkTopology t = NetworkTopology::build(vl2Spec(4, 4, 2, {10, 5, 2}));
        QCOMPARE(t.serverCount(), 8);
        QCOMPARE(t.switchCount(), 4 + 4 + 2);
        QCOMPARE(t.links().size(), std::size_t(24));
        QCOMPARE(t.podCount(), 4);
        QCOMPARE(t.podOf(5), 2);
        QCOMPARE(t.serversOfPod(1), (std::vector<int>{2, 3}));
        QCOMPARE(t.path(0, 1), (Path{0, 1}));
        QCOMPARE(t.bottleneckGbps(0, 1), 10.0);
        // ToRs 0 and 1 share aggregation switches 0 and 1: turn around at one of them.
        QVERIFY2(oneOf(t.path(0, 2), {{0, 8, 11, 2}, {0, 9, 10, 2}}), qPrintable(show(t.path(0, 2))));
        QCOMPARE(t.bottleneckGbps(0, 2), 5.0);
        // ToR 0 to ToR 2 bounces off an intermediate switch.
        QVERIFY2(oneOf(t.path(0, 4), {{0, 8, 16, 20, 12, 4},
                                      {0, 8, 17, 21, 12, 4},
                                      {0, 8, 16, 22, 13, 4},
                                      {0, 8, 17, 23, 13, 4},
                                      {0, 9, 18, 20, 12, 4},
                                      {0, 9, 19, 21, 12, 4},
                                      {0, 9, 18, 22, 13, 4},
                                      {0, 9, 19, 23, 13, 4}}),
                 qPrintable(show(t.path(0, 4))));
        QCOMPARE(t.bottleneckGbps(0, 4), 2.0);
        for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 8; ++b) {
                if (a == b) continue;
                QVERIFY(connected(t, a, b));
                Path ab = t.path(a, b), ba = t.path(b, a);
                std::reverse(ba.begin(), ba.end());
                QCOMPARE(ab, ba);
            }
        // Paper defaults: the 1 Gbps server links are the bottleneck everywhere.
        const NetworkTopology d = NetworkTopology::build(vl2Spec());
        QCOMPARE(d.bottleneckGbps(0, 1999), 1.0);
        QVERIFY(connected(d, 0, 1999));
        QCOMPARE(d.path(0, 1999).size(), std::size_t(6));
    }

    void bcubeCountsAndPods() {
        const NetworkTopology t = NetworkTopology::build(bcubeSpec(4, 1));
        QCOMPARE(t.serverCount(), 16);
        QCOMPARE(t.switchCount(), 8);
        QCOMPARE(t.switchCount(1), 4);
        QCOMPARE(t.switchCount(2), 4);
        QCOMPARE(t.links().size(), std::size_t(32));
        QCOMPARE(t.podCount(), 2);
        QCOMPARE(t.serversOfPod(1), (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
        QCOMPARE(t.nodes()[16].pod, 0);   // level-0 switch of servers 0..3
        QCOMPARE(t.nodes()[19].pod, 1);   // of servers 12..15
        QCOMPARE(t.nodes()[20].pod, -1);  // level 1 spans both pods
        QCOMPARE(t.nodes()[6].name, std::string("h1-2"));

        const NetworkTopology big = NetworkTopology::build(bcubeSpec());
        QCOMPARE(big.serverCount(), 1296);
        QCOMPARE(big.switchCount(), 72);
        QCOMPARE(big.podCount(), 18);
        QCOMPARE(big.serversOfPod(17).size(), std::size_t(72));
        QCOMPARE(big.nodes()[5 * 36 + 12].name, std::string("h05-12"));
        QCOMPARE(big.nodes()[1296 + 36 + 5].name, std::string("bcube-l1-s05"));

        TopologySpec s = bcubeSpec(4, 1);
        s.servers_per_pod = 5;  // the last pod keeps the remainder
        const NetworkTopology odd = NetworkTopology::build(s);
        QCOMPARE(odd.podCount(), 4);
        QCOMPARE(odd.serversOfPod(3), (std::vector<int>{15}));
    }

    // BCube(4,1): server 4*a1 + a0; link s joins s to level-0 switch a1, link 16 + s to
    // level-1 switch a0. BCube(2,2): server 4*a2 + 2*a1 + a0, link 8l + s at level l.
    void bcubePathsByHand() {
        const NetworkTopology t = NetworkTopology::build(bcubeSpec(4, 1, {10, 20}));
        QCOMPARE(t.path(0, 1), (Path{0, 1}));
        QCOMPARE(t.bottleneckGbps(0, 1), 10.0);
        QCOMPARE(t.path(0, 4), (Path{16, 20}));
        QCOMPARE(t.bottleneckGbps(0, 4), 20.0);
        QCOMPARE(t.path(0, 5), (Path{16, 20, 4, 5}));  // relay through server 4
        QCOMPARE(t.path(5, 0), (Path{21, 17, 1, 0}));  // relay through server 1
        QCOMPARE(t.bottleneckGbps(0, 5), 10.0);

        const NetworkTopology c = NetworkTopology::build(bcubeSpec(2, 2, {1, 2, 3}));
        QCOMPARE(c.serverCount(), 8);
        QCOMPARE(c.switchCount(), 12);
        QCOMPARE(c.path(0, 7), (Path{16, 20, 12, 14, 6, 7}));
        QCOMPARE(c.bottleneckGbps(0, 7), 1.0);
        QCOMPARE(c.path(0, 6), (Path{16, 20, 12, 14}));
        QCOMPARE(c.bottleneckGbps(0, 6), 2.0);
        QCOMPARE(c.bottleneckGbps(1, 5), 3.0);
        for (const NetworkTopology* x : {&t, &c})
            for (int a = 0; a < x->serverCount(); ++a)
                for (int b = 0; b < x->serverCount(); ++b) {
                    QVERIFY(connected(*x, a, b));
                    QCOMPARE(x->path(a, b).size(), x->path(b, a).size());
                }
    }

    void flat() {
        const NetworkTopology t = NetworkTopology::build(TopologySpec{});
        QCOMPARE(t.serverCount(), 0);
        QCOMPARE(t.switchCount(), 0);
        QCOMPARE(t.podCount(), 1);
        TopologySpec s;
        s.k = 3;  // flat: k = server count
        const NetworkTopology f = NetworkTopology::build(s);
        QCOMPARE(f.serverCount(), 3);
        QCOMPARE(f.links().size(), std::size_t(0));
        QCOMPARE(f.podOf(2), 0);
        QVERIFY(f.path(0, 2).empty());
        QVERIFY(std::isinf(f.bottleneckGbps(0, 2)));
    }

    void errors() {
        QCOMPARE(invalidArgument([] { NetworkTopology::build(fatTreeSpec(5)); }),
                 QString("fat-tree k must be an even number of at least 2 (got 5)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::build(fatTreeSpec(0)); }),
                 QString("fat-tree k must be an even number of at least 2 (got 0)"));
        QCOMPARE(invalidArgument([] {
                     NetworkTopology::build(fatTreeSpec(4, {10, 20}));
                 }),
                 QString("tier_gbps has 2 entries; fat-tree needs 3 (server-edge, edge-aggregation, "
                         "aggregation-core)"));
        QCOMPARE(invalidArgument([] {
                     NetworkTopology::build(fatTreeSpec(4, {10, 0, 40}));
                 }),
                 QString("tier_gbps[1] must be a positive number of Gbit/s (got 0)"));
        QCOMPARE(invalidArgument([] {
                     NetworkTopology::build(fatTreeSpec(4, {10, 20, NAN}));
                 }),
                 QString("tier_gbps[2] must be a positive number of Gbit/s (got nan)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::serverCount(fatTreeSpec(74)); }),
                 QString("the topology has 101306 servers, more than 100000"));
        QCOMPARE(invalidArgument([] { NetworkTopology::serverCount(fatTreeSpec(2000000)); }),
                 QString("the topology has more than 100000 servers"));
        QCOMPARE(NetworkTopology::serverCount(fatTreeSpec(72)), 93312);
        QCOMPARE(invalidArgument([] { NetworkTopology::build(vl2Spec(6, 3)); }),
                 QString("vl2 d_i (intermediate switch ports) must be an even number of at least 2 (got 3)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::build(vl2Spec(2, 4)); }),
                 QString("vl2 d_a (aggregation switch ports) must be an even number of at least 4 (got 2)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::build(vl2Spec(4, 4, 0)); }),
                 QString("vl2 servers_per_tor must be at least 1 (got 0)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::build(bcubeSpec(1, 1)); }),
                 QString("bcube n (switch ports) must be at least 2 (got 1)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::build(bcubeSpec(2, 2)); }),
                 QString("tier_gbps has 2 entries; bcube needs 3 (one per level, level 0 first)"));
        QCOMPARE(invalidArgument([] { NetworkTopology::build(bcubeSpec(10, 1000, {})); }),
                 QString("the topology has more than 100000 servers"));
        QCOMPARE(invalidArgument([] { topologyKindFromName("torus"); }),
                 QString("unknown topology kind 'torus' (valid: flat, fat-tree, vl2, bcube)"));
        QCOMPARE(topologyKindFromName("vl2"), TopologyKind::VL2);
        QCOMPARE(topologyKindName(TopologyKind::BCube), std::string("bcube"));
    }

    void topologyClusters() {
        Cluster c = makeTopologyCluster("ft", fatTreeSpec(), architectureMix("power8"));
        QCOMPARE(c.servers.size(), std::size_t(2000));
        QCOMPARE(c.totalGpus(), 8000);
        QVERIFY(c.topology == fatTreeSpec());
        const Server& s = c.servers[371];
        QCOMPARE(s.name, std::string("p03-e07-h1"));
        QCOMPARE(s.rack, std::string("p03-edge-7"));
        QCOMPARE(s.gpus, 4);
        QCOMPARE(s.cpu_cores, 16);
        QCOMPARE(s.memory_gb, 256.0);
        QCOMPARE(s.gpu_memory_gb, 32.0);
        QCOMPARE(s.network_gbps, 10.0);
        QCOMPARE(s.gpu_type, std::string("V100"));
        QVERIFY(s.architecture == architecturePreset("power8-4gpu").architecture);
        QCOMPARE(c.racks().size(), std::size_t(200));

        // Mixed: per pod of 100, 20 small, 40 Power8-like, 40 DGX-1-like, in that order.
        Cluster m = makeTopologyCluster("mixed", fatTreeSpec(), architectureMix("mixed"), "A100");
        QCOMPARE(m.totalGpus(), 20 * (20 * 2 + 40 * 4 + 40 * 8));
        for (int pod = 0; pod < 20; ++pod) {
            int small = 0, power8 = 0, dgx = 0;
            for (int i = 0; i < 100; ++i) {
                const Server& x = m.servers[static_cast<std::size_t>(pod * 100 + i)];
                small += x.gpus == 2 ? 1 : 0;
                power8 += x.gpus == 4 ? 1 : 0;
                dgx += x.gpus == 8 ? 1 : 0;
            }
            QCOMPARE(small, 20);
            QCOMPARE(power8, 40);
            QCOMPARE(dgx, 40);
        }
        QCOMPARE(m.servers[19].gpus, 2);
        QCOMPARE(m.servers[20].gpus, 4);
        QCOMPARE(m.servers[60].gpus, 8);
        QCOMPARE(m.servers[60].memory_gb, 512.0);
        QCOMPARE(m.servers[60].gpu_type, std::string("A100"));
        // Pods of 4: 0.8 / 1.6 / 1.6 by largest remainder -> 1 / 2 / 1.
        Cluster k4 = makeTopologyCluster("k4", fatTreeSpec(4), architectureMix("mixed"));
        std::vector<int> gpus;
        for (int i = 0; i < 4; ++i) gpus.push_back(k4.servers[static_cast<std::size_t>(i)].gpus);
        QCOMPARE(gpus, (std::vector<int>{2, 4, 4, 8}));

        Cluster v = makeTopologyCluster("vl2", vl2Spec(), architectureMix("dgx1"));
        QCOMPARE(v.servers[42 * 20 + 7].rack, std::string("tor-42"));
        QCOMPARE(v.servers[0].network_gbps, 1.0);
        Cluster b = makeTopologyCluster("bc", bcubeSpec(4, 1), architectureMix("uneven"));
        QCOMPARE(b.servers[6].rack, std::string("bcube-l0-s01"));
        QCOMPARE(b.totalGpus(), 16 * 6);

        QCOMPARE(invalidArgument([] { architectureMix("bogus"); }),
                 QString("unknown architecture mix 'bogus' (valid: power8, dgx1, uneven, mixed)"));
        QCOMPARE(invalidArgument([] { makeTopologyCluster("x", fatTreeSpec(4), {}); }),
                 QString("the architecture mix is empty"));
        QCOMPARE(invalidArgument([] {
                     makeTopologyCluster("x", fatTreeSpec(4), {{"power8-4gpu", 0.0}});
                 }),
                 QString("architecture mix fraction of 'power8-4gpu' must be positive (got 0)"));
        QVERIFY(invalidArgument([] {
                    makeTopologyCluster("x", fatTreeSpec(4), {{"nope", 1.0}});
                }).contains("nope"));

        Server plain;
        applyArchitecture(plain, ServerArchitecture{});
        QCOMPARE(plain.gpus, 8);
        applyArchitecture(plain, architecturePreset("small-2gpu").architecture);
        QCOMPARE(plain.gpus, 2);
        QCOMPARE(plain.cpu_cores, 8);
    }

    void layoutRoundTripExplicit() {
        Cluster c = makeTopologyCluster("k4 mixed", fatTreeSpec(4, {10, 25.5, 40}), architectureMix("mixed"));
        // A hand-described server: odd QPI, a socket without GPUs, two groups on one socket.
        ServerArchitecture odd;
        odd.qpi_gbps = 199.75;
        odd.sockets.push_back({12, {GpuGroup{3, 64.5}, GpuGroup{1}}});
        odd.sockets.push_back({4, {}});
        applyArchitecture(c.servers[5], odd);
        c.servers[6].architecture = ServerArchitecture{};  // not described: counts stay free
        c.servers[6].gpus = 3;
        c.servers[6].cpu_cores = 7;
        const std::string text = layoutJsonText(c);
        QVERIFY(text.find("\"topology\": {\"kind\":\"fat-tree\",\"k\":4,\"tier_gbps\":[10,25.5,40]},") !=
                std::string::npos);
        const Cluster back = parseLayoutJson(text, "mem.json");
        expectSameCluster(back, c);
        QCOMPARE(back.servers[5].gpus, 4);
        QCOMPARE(back.servers[5].cpu_cores, 16);
        QCOMPARE(layoutJsonText(back), text);

        for (const TopologySpec& spec : {vl2Spec(8, 4, 5), bcubeSpec(3, 2, {10, 20, 40})}) {
            Cluster v = makeTopologyCluster("x", spec, architectureMix("uneven"), "H100");
            const Cluster vb = parseLayoutJson(layoutJsonText(v), "x.json");
            expectSameCluster(vb, v);
        }
        TopologySpec b = bcubeSpec(3, 1);
        b.servers_per_pod = 4;
        const Cluster bc = makeTopologyCluster("bc", b, architectureMix("power8"));
        QCOMPARE(parseLayoutJson(layoutJsonText(bc), "bc.json").topology.servers_per_pod, 4);

        // A layout without topology or architectures still reads and writes as before.
        const Cluster old = parseLayoutJson(
            std::string(kHeader) + "\"server_groups\": [{\"count\": 2, \"name_prefix\": \"n\"}]}",
            "old.json");
        QVERIFY(old.topology == TopologySpec{});
        QVERIFY(!old.servers[0].architecture.described());
        QCOMPARE(old.servers[0].gpus, 8);
        QVERIFY(layoutJsonText(old).find("topology") == std::string::npos);
        QVERIFY(layoutJsonText(old).find("architecture") == std::string::npos);
    }

    void layoutGenerateForm() {
        const Cluster v = readLayoutJson(fixture("vl2_mixed_generated.json"));
        QCOMPARE(v.name, std::string("vl2-small"));
        QCOMPARE(v.servers.size(), std::size_t(40));
        QCOMPARE(v.totalGpus(), 4 * (2 * 2 + 4 * 4 + 4 * 8));
        QCOMPARE(v.servers[0].gpu_type, std::string("A100"));
        QCOMPARE(v.servers[0].rack, std::string("tor-0"));
        QVERIFY(v.topology == vl2Spec(8, 4, 5, {1, 10, 10}));
        expectSameCluster(
            v, makeTopologyCluster("vl2-small", vl2Spec(8, 4, 5), architectureMix("mixed"), "A100"));
        // Written back, the servers are explicit and read the same.
        expectSameCluster(parseLayoutJson(layoutJsonText(v), "v.json"), v);

        // Defaults: paper parameters, the power8 mix, V100.
        const Cluster d =
            parseLayoutJson(std::string(kHeader) + "\"topology\": {\"kind\": \"bcube\"}}", "d.json");
        QCOMPARE(d.name, std::string("d.json"));
        QCOMPARE(d.servers.size(), std::size_t(1296));
        QVERIFY(d.topology == bcubeSpec());
        QCOMPARE(d.totalGpus(), 1296 * 4);
        QCOMPARE(d.servers[0].gpu_type, std::string("V100"));
    }

    void layoutArchitectures() {
        const Cluster c = parseLayoutJson(
            std::string(kHeader) +
                "\"servers\": [\n"
                "{\"name\": \"a\", \"architecture\": \"dgx1-8gpu\"},\n"
                "{\"name\": \"b\", \"gpus\": 3, \"architecture\": {\"sockets\": [{\"cores\": 6, "
                "\"gpu_groups\": [{\"gpus\": 3}]}]}, \"cpu_cores\": 6}\n]}",
            "arch.json");
        QCOMPARE(c.servers[0].gpus, 8);
        QCOMPARE(c.servers[0].cpu_cores, 32);
        QVERIFY(c.servers[0].architecture == architecturePreset("dgx1-8gpu").architecture);
        QCOMPARE(c.servers[1].gpus, 3);
        QCOMPARE(c.servers[1].architecture.qpi_gbps, 300.0);
        QCOMPARE(c.servers[1].architecture.sockets[0].gpu_groups[0].pcie_gbps, 128.0);
    }

    void layoutErrors() {
        expectError(parseError([] { readLayoutJson(fixture("arch_mismatch.json")); }),
                    {"arch_mismatch.json:7: field 'servers[1].gpus': gpus 8 disagrees with the "
                     "architecture's 4 GPUs"});
        expectError(parseError([] { readLayoutJson(fixture("unknown_preset.json")); }),
                    {"unknown_preset.json:6: field 'server_groups[0].architecture':", "power9-6gpu",
                     "power8-4gpu", "dgx1-8gpu"});
        expectError(parseError([] { readLayoutJson(fixture("bad_kind.json")); }),
                    {"bad_kind.json:5: field 'topology.kind': unknown topology kind 'torus' (valid: flat, "
                     "fat-tree, vl2, bcube)"});
        expectError(parseError([] { readLayoutJson(fixture("count_mismatch.json")); }),
                    {"count_mismatch.json:5: field 'server_groups': the topology has 16 servers but the "
                     "layout lists 15"});
        auto text = [](const std::string& body) { return std::string(kHeader) + body; };
        expectError(
            parseError([&] {
                parseLayoutJson(text("\"topology\": {\"kind\": \"fat-tree\",\n\"k\": 5}}"), "k.json");
            }),
            {"k.json:5: field 'topology.k': fat-tree k must be an even number of at least 2 (got 5)"});
        expectError(parseError([&] {
                        parseLayoutJson(text("\"topology\": {\"kind\": \"vl2\",\n\"tier_gbps\": [1, 10]}}"),
                                        "t.json");
                    }),
                    {"t.json:5: field 'topology.tier_gbps': tier_gbps has 2 entries; vl2 needs 3"});
        expectError(parseError([&] {
                        parseLayoutJson(text("\"topology\": {\"kind\": \"fat-tree\", \"d_a\": 4}}"),
                                        "u.json");
                    }),
                    {"u.json:4: field 'topology.d_a'"});
        expectError(parseError([&] {
                        parseLayoutJson(text("\"topology\": {\"kind\": \"fat-tree\", \"k\": 74}}"),
                                        "big.json");
                    }),
                    {"big.json:4: field 'topology': the topology has 101306 servers, more than 100000"});
        expectError(
            parseError([&] {
                parseLayoutJson(text("\"topology\": {\"kind\": \"fat-tree\", \"k\": 4},\n"
                                     "\"architecture_mix\": \"best\"}"),
                                "m.json");
            }),
            {"m.json:5: field 'architecture_mix': unknown architecture mix 'best' (valid: power8, dgx1, "
             "uneven, mixed)"});
        expectError(
            parseError([&] {
                parseLayoutJson(text("\"gpu_type\": \"A100\",\n\"servers\": [{\"name\": \"a\"}]}"), "g.json");
            }),
            {"g.json:4: field 'gpu_type': \"gpu_type\" only applies when the servers are generated from "
             "\"topology\""});
        expectError(
            parseError([&] {
                parseLayoutJson(
                    text("\"servers\": [{\"name\": \"a\",\n\"architecture\": {\"sockets\": []}}]}"),
                    "s.json");
            }),
            {"s.json:5: field 'servers[0].architecture.sockets': an architecture needs at least one socket"});
        expectError(parseError([&] {
                        parseLayoutJson(
                            text("\"servers\": [{\"name\": \"a\", \"architecture\": {\"sockets\": "
                                 "[{\"cores\": 4}]}}]}"),
                            "z.json");
                    }),
                    {"z.json:4: field 'servers[0].architecture': the architecture has 0 GPUs; a server holds "
                     "1 to 64"});
        expectError(parseError([&] {
                        parseLayoutJson(text("\"servers\": [{\"name\": \"a\", \"architecture\": 4}]}"),
                                        "n.json");
                    }),
                    {"n.json:4: field 'servers[0].architecture': expected a preset name or an object"});
        expectError(parseError([&] {
                        parseLayoutJson(
                            text("\"servers\": [{\"name\": \"a\", \"cpu_cores\": 9, \"architecture\": "
                                 "\"small-2gpu\"}]}"),
                            "c.json");
                    }),
                    {"c.json:4: field 'servers[0].cpu_cores': cpu_cores 9 disagrees with the architecture's "
                     "8 cores"});
    }

    void dataLayoutsLoad() {
        const Cluster k4 = readLayoutJson(dataCluster("fat-tree-k4-power8.json"));
        QCOMPARE(k4.totalGpus(), 64);
        expectSameCluster(
            k4, makeTopologyCluster("fat-tree-k4-power8", fatTreeSpec(4), architectureMix("power8")));
        const Cluster k20 = readLayoutJson(dataCluster("fat-tree-k20-power8.json"));
        QCOMPARE(k20.servers.size(), std::size_t(2000));
        QCOMPARE(k20.totalGpus(), 8000);
        expectSameCluster(
            k20, makeTopologyCluster("fat-tree-k20-power8", fatTreeSpec(), architectureMix("power8")));
        QCOMPARE(NetworkTopology::build(k20.topology).switchCount(), 500);
    }
};

QTEST_APPLESS_MAIN(TestTopology)
#include "test_topology.moc"
