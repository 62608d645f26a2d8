// Slurm node inventory read into nodes and turned into a layout: scontrol show node (oneliner
// and multi-line), sinfo --json of Slurm 22.05 and scontrol --json of 23.02, GPU types mapped by
// the table, partitions as groups, unavailable nodes marked or left out, CPU-only nodes reported,
// bad lines refused with file, line and field (core/io/slurm_nodes.h, slurm_node_layout.h; the
// fixtures follow scontrol(1), sinfo(1) and Slurm's openapi v0.0.38 / data_parser v0.0.39 output).
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/io/profile_io.h"
#include "core/io/slurm_node_layout.h"
#include "core/io/slurm_nodes.h"
#include "core/model/gpu_type_table.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::parseError;

namespace {

std::string fixture(const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/slurm/" + name;
}

const SlurmNode& node(const SlurmNodeInventory& inv, const std::string& name) {
    for (const SlurmNode& n : inv.nodes)
        if (n.name == name) return n;
    throw std::runtime_error("no node " + name);
}

const Server* server(const Cluster& c, const std::string& name) {
    for (const Server& s : c.servers)
        if (s.name == name) return &s;
    return nullptr;
}

void expectNode(const SlurmNode& n, int line, int cpus, int sockets, int cores, double memory_gb, int gpus,
                const std::string& type, const std::vector<std::string>& partitions, const std::string& state,
                bool unavailable) {
    QCOMPARE(n.line, line);
    QCOMPARE(n.cpus, cpus);
    QCOMPARE(n.sockets, sockets);
    QCOMPARE(n.cores_per_socket, cores);
    QVERIFY2(n.memory_gb == memory_gb, qPrintable(QString::number(n.memory_gb, 'g', 17)));
    QCOMPARE(n.gpus, gpus);
    QCOMPARE(n.gpu_type, type);
    QCOMPARE(n.partitions, partitions);
    QCOMPARE(n.state, state);
    QCOMPARE(n.unavailable, unavailable);
}

void expectServer(const Cluster& c, const std::string& name, const std::string& rack, const std::string& type,
                  int gpus, int cpus, double memory_gb, double gpu_memory_gb, const std::string& state,
                  bool unavailable) {
    const Server* s = server(c, name);
    QVERIFY2(s, name.c_str());
    QCOMPARE(s->rack, rack);
    QCOMPARE(s->gpu_type, type);
    QCOMPARE(s->gpus, gpus);
    QCOMPARE(s->cpu_cores, cpus);
    QVERIFY2(s->memory_gb == memory_gb, qPrintable(QString::number(s->memory_gb, 'g', 17)));
    QVERIFY(s->gpu_memory_gb == gpu_memory_gb);
    QCOMPARE(s->state, state);
    QCOMPARE(s->unavailable, unavailable);
    QCOMPARE(s->network_gbps, Server().network_gbps);  // Slurm does not say; the default stays
}

std::vector<std::string> names(const Cluster& c) {
    std::vector<std::string> out;
    for (const Server& s : c.servers) out.push_back(s.name);
    return out;
}

}  // namespace

class TestSlurmNodes : public QObject {
    Q_OBJECT

private slots:
    void readsEveryFieldOfTheOneliner() {
        const SlurmNodeInventory inv = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        QCOMPARE(inv.format, std::string("scontrol"));
        std::vector<std::string> order;
        for (const SlurmNode& n : inv.nodes) order.push_back(n.name);
        QCOMPARE(order, (std::vector<std::string>{"gpu01", "gpu02", "gpu03", "gpu04", "cpu01", "gpu05",
                                                  "gpu06", "gpu07"}));
        expectNode(node(inv, "gpu01"), 1, 64, 2, 16, 502.9296875, 4, "a100", {"gpu", "debug"}, "IDLE", false);
        // shard entries share the GPUs; only gres "gpu" counts
        expectNode(node(inv, "gpu02"), 2, 128, 2, 64, 1006.8359375, 8, "nvidia_a100-sxm4-80gb", {"gpu"},
                   "MIXED", false);
        // "gpu=3" inside the Reason is text, not a key
        expectNode(node(inv, "gpu03"), 3, 48, 2, 12, 375.9765625, 8, "v100", {"gpu-old"}, "IDLE+DRAIN", true);
        expectNode(node(inv, "gpu04"), 4, 32, 2, 8, 187.5, 2, "", {"debug"}, "DOWN*", true);
        expectNode(node(inv, "cpu01"), 5, 96, 2, 24, 375.9765625, 0, "", {"cpu"}, "ALLOCATED", false);
        expectNode(node(inv, "gpu05"), 7, 64, 2, 32, 250.9765625, 6, "l40s", {"gpu", "debug"}, "IDLE", false);
        expectNode(node(inv, "gpu06"), 8, 32, 2, 16, 1.0 / 1024, 4, "mi50", {"amd"}, "IDLE", false);
        expectNode(node(inv, "gpu07"), 9, 16, 2, 8, 125, 4, "tesla_t4", {}, "ALLOCATED+FAIL", true);
        QCOMPARE(
            inv.warnings,
            (std::vector<std::string>{
                "scontrol_nodes_oneliner.txt:7: node gpu05 has GPUs of several types (l40s, "
                "a100); the layout makes one server of each, named gpu05:TYPE (docs/architecture.md 8.7)"}));
    }

    void readsTheMultiLineFormToo() {
        const SlurmNodeInventory inv = readSlurmNodes(fixture("scontrol_nodes_multiline.txt"));
        QCOMPARE(inv.format, std::string("scontrol"));
        QCOMPARE(inv.nodes.size(), std::size_t(2));
        expectNode(node(inv, "gpu01"), 1, 64, 2, 16, 502.9296875, 4, "a100", {"gpu", "debug"}, "IDLE", false);
        expectNode(node(inv, "gpu03"), 19, 48, 2, 12, 375.9765625, 8, "v100", {"gpu-old"}, "IDLE+DRAIN",
                   true);
    }

    void readsSinfoJsonOfSlurm2205() {
        const SlurmNodeInventory inv = readSlurmNodes(fixture("sinfo_nodes_22.05.json"));
        QCOMPARE(inv.format, std::string("sinfo-json"));
        QCOMPARE(inv.nodes.size(), std::size_t(3));
        expectNode(node(inv, "gpu01"), 19, 64, 2, 16, 502.9296875, 4, "a100", {"gpu", "debug"}, "IDLE",
                   false);
        // "state": "down" plus "state_flags": ["DRAIN", "NOT_RESPONDING"]
        expectNode(node(inv, "gpu03"), 71, 48, 2, 12, 375.9765625, 8, "v100", {"gpu-old"},
                   "DOWN+DRAIN+NOT_RESPONDING", true);
        expectNode(node(inv, "cpu01"), 124, 96, 2, 24, 375.9765625, 0, "", {"cpu"}, "ALLOCATED", false);
        QVERIFY(inv.warnings.empty());
    }

    void readsScontrolJsonOfSlurm2302() {
        const SlurmNodeInventory inv = readSlurmNodes(fixture("scontrol_nodes_23.02.json"));
        QCOMPARE(inv.format, std::string("scontrol-json"));
        QCOMPARE(inv.nodes.size(), std::size_t(3));
        expectNode(node(inv, "hgx01"), 21, 112, 2, 32, 2014.6484375, 8, "h100", {"train", "interactive"},
                   "MIXED", false);
        // two entries of the same type, one per socket: one type, no warning
        expectNode(node(inv, "l40s01"), 72, 64, 2, 32, 502.9296875, 8, "l40s", {"inference"}, "IDLE+DRAIN",
                   true);
        expectNode(node(inv, "ws01"), 123, 32, 2, 16, 250.9765625, 2, "nvidia_rtx_a6000", {"interactive"},
                   "IDLE", false);
        QVERIFY(inv.warnings.empty());
    }

    void toleratesNewerJsonShapes() {
        // data_parser v0.0.40+ writes some counts as {"set", "infinite", "number"}; some versions
        // give partitions as one comma-separated string.
        const std::string text = R"json({"nodes": [
  {"hostname": "n1", "cpus": {"set": true, "infinite": false, "number": 8}, "sockets": 1, "cores": 8,
   "real_memory": {"set": true, "infinite": false, "number": 2048}, "gres": "gpu:h100:8(S:0)",
   "partitions": "a,b", "state": ["IDLE"], "free_mem": {"set": false, "infinite": false, "number": 0}}
]})json";
        const SlurmNodeInventory inv = parseSlurmNodes(text, "new.json");
        QCOMPARE(inv.format, std::string("scontrol-json"));
        expectNode(inv.nodes.at(0), 2, 8, 1, 8, 2, 8, "h100", {"a", "b"}, "IDLE", false);
    }

    void refusesBadLinesNamingFileLineAndField() {
        expectError(parseError([] { readSlurmNodes(fixture("scontrol_bad_cputot.txt")); }),
                    {"scontrol_bad_cputot.txt:2:", "field 'CPUTot'", "not a whole number", "'sixty-four'"});
        expectError(parseError([] { readSlurmNodes(fixture("scontrol_missing_nodename.txt")); }),
                    {"scontrol_missing_nodename.txt:2:", "field 'NodeName'", "missing", "Arch=x86_64"});
        expectError(parseError([] { readSlurmNodes(fixture("scontrol_bad_gres.txt")); }),
                    {"scontrol_bad_gres.txt:3:", "field 'Gres'", "gpu:a100:four"});
        expectError(parseError([] { parseSlurmNodes("NodeName=a State=IDLE\n", "x.txt"); }),
                    {"x.txt:1:", "field 'CPUTot'", "missing"});
        expectError(
            parseError([] { parseSlurmNodes("NodeName=a CPUTot=4\nNodeName=a CPUTot=4\n", "x.txt"); }),
            {"x.txt:2:", "field 'NodeName'", "listed twice", "line 1"});
        expectError(parseError([] { parseSlurmNodes("NodeName=a CPUTot=4 Sockets=-2\n", "x.txt"); }),
                    {"x.txt:1:", "field 'Sockets'", "'-2'"});
        expectError(parseError([] { parseSlurmNodes(" \n\n", "x.txt"); }), {"x.txt:", "empty file"});
        expectError(parseError([] { parseSlurmNodes("NodeName=g\xC3\xA9 CPUTot=4\n", "x.txt"); }),
                    {"x.txt:1:", "field 'NodeName'", "host name"});
    }

    void refusesBadJsonNamingFileLineAndField() {
        expectError(parseError([] {
                        parseSlurmNodes("{\"nodes\": [\n {\"name\": \"a\",\n  \"cpus\": \"64\"}]}", "j.json");
                    }),
                    {"j.json:3:", "nodes[0].cpus"});
        expectError(parseError([] { parseSlurmNodes("{\"nodes\": [\n {\"cpus\": 4}]}", "j.json"); }),
                    {"j.json:2:", "nodes[0].name"});
        expectError(parseError([] { parseSlurmNodes("{\"nodes\": []}", "j.json"); }),
                    {"j.json:1:", "no nodes"});
        expectError(
            parseError([] { parseSlurmNodes("{\"nodes\": [{\"name\": \"a b\", \"cpus\": 1}]}", "j.json"); }),
            {"j.json:1:", "nodes[0].name", "host name"});
        expectError(parseError([] {
                        parseSlurmNodes(
                            "{\"nodes\": [{\"name\": \"a\", \"cpus\": 1},\n{\"name\": \"a\", \"cpus\": 1}]}",
                            "j.json");
                    }),
                    {"j.json:2:", "nodes[1].name", "listed twice"});
        expectError(parseError([] {
                        parseSlurmNodes(
                            "{\"nodes\": [{\"name\": \"a\", \"cpus\": 1,\n \"gres\": \"gpu:x:y:z\"}]}",
                            "j.json");
                    }),
                    {"j.json:2:", "nodes[0].gres", "gpu:x:y:z"});
        // sinfo --json of 23.02+ groups nodes; the message says what to export instead
        expectError(parseError([] { parseSlurmNodes("{\"sinfo\": [{\"nodes\": {}}]}", "s.json"); }),
                    {"s.json:1:", "scontrol show node --json"});
        expectError(parseError([] { parseSlurmNodes("{\"nodes\": [", "t.json"); }),
                    {"t.json:1:", "invalid JSON"});
    }

    void readsGresInEveryForm() {
        auto g = parseSlurmGres("gpu:a100:4(S:0-1),shard:a100:16(S:0-1)");
        QCOMPARE(g.gpus, 4);
        QCOMPARE(g.type, std::string("a100"));
        g = parseSlurmGres("gpu:2");
        QCOMPARE(g.gpus, 2);
        QCOMPARE(g.type, std::string());
        g = parseSlurmGres("gpu:v100:no_consume:2");
        QCOMPARE(g.gpus, 2);
        QCOMPARE(g.type, std::string("v100"));
        g = parseSlurmGres("gpu:a100:2(S:0,2),gpu:a100:2(S:1)");  // a comma inside the socket list
        QCOMPARE(g.gpus, 4);
        QVERIFY(g.others.empty());
        g = parseSlurmGres("gpu:a100:2,gpu:v100:1,gpu:a100:1");
        QCOMPARE(g.gpus, 4);
        QCOMPARE(g.others, (std::vector<std::string>{"v100"}));
        QCOMPARE(parseSlurmGres("gpu").gpus, 1);
        QCOMPARE(parseSlurmGres("(null)").gpus, 0);
        QCOMPARE(parseSlurmGres("").gpus, 0);
        QCOMPARE(parseSlurmGres("mps:400,nic:1").gpus, 0);
        for (const char* bad : {"gpu:a:b:3", "gpu:a100:4(S:0-1", "gpu:-1", "gpu:a100:x", "gpu::2"})
            QVERIFY2(!cl::test::invalidArgument([&] { parseSlurmGres(bad); }).isEmpty(), bad);
    }

    void tellsUnavailableStates() {
        for (const char* s :
             {"IDLE+DRAIN", "MIXED+DRAIN", "ALLOCATED+DRAIN", "DRAINED", "DRAINING", "DOWN", "DOWN*", "IDLE*",
              "IDLE+NOT_RESPONDING", "ALLOCATED+FAIL", "FAILING", "FUTURE", "down", "IDLE+INVALID_REG"})
            QVERIFY2(slurmStateUnavailable(s), s);
        for (const char* s : {"IDLE", "MIXED", "ALLOCATED", "COMPLETING", "IDLE+CLOUD+POWERED_DOWN", "IDLE~",
                              "MIXED+RESERVED", "IDLE+MAINTENANCE", "", "UNKNOWN"})
            QVERIFY2(!slurmStateUnavailable(s), s);
    }

    void mapsGpuTypesByTheTable() {
        const std::vector<std::pair<std::string, std::pair<std::string, double>>> cases = {
            {"a100", {"A100", 40}},
            {"nvidia_a100-sxm4-80gb", {"A100", 80}},
            {"NVIDIA A100 80GB PCIe", {"A100", 80}},
            {"nvidia_a100_80gb_pcie", {"A100", 80}},
            {"A100-SXM4-40GB", {"A100", 40}},
            {"v100", {"V100", 32}},
            {"tesla_v100-sxm2-16gb", {"V100", 16}},
            {"v100s", {"V100", 32}},
            {"h100", {"H100", 80}},
            {"nvidia_h100_80gb_hbm3", {"H100", 80}},
            {"h100_nvl", {"H100", 94}},
            {"h200", {"H200", 141}},
            {"t4", {"T4", 16}},
            {"tesla_t4", {"T4", 16}},
            {"l4", {"L4", 24}},
            {"l40", {"L40", 48}},
            {"l40s", {"L40S", 48}},
            {"nvidia_l40s", {"L40S", 48}},
            {"a10", {"A10", 24}},
            {"a10g", {"A10", 24}},
            {"a30", {"A30", 24}},
            {"a40", {"A40", 48}},
            {"a4000", {"RTXA4000", 16}},  // not A40
            {"rtx_a6000", {"RTXA6000", 48}},
            {"nvidia_rtx_a6000", {"RTXA6000", 48}},
            {"quadro_rtx_6000", {"RTX6000", 24}},
            {"rtx_6000_ada", {"RTX6000Ada", 48}},
            {"rtx2080ti", {"RTX2080Ti", 11}},
            {"geforce_rtx_2080_ti", {"RTX2080Ti", 11}},
            {"2080ti", {"RTX2080Ti", 11}},
            {"nvidia_geforce_rtx_3090", {"RTX3090", 24}},
            {"rtx4090", {"RTX4090", 24}},
            {"gtx1080ti", {"GTX1080Ti", 11}},
            {"k80", {"K80", 12}},
            {"p100", {"P100", 16}},
            {"mi250x", {"MI250X", 128}},
            {"amd_instinct_mi300x", {"MI300X", 192}},
        };
        for (const auto& [slurm, expected] : cases) {
            const auto m = matchGpuType(slurm);
            QVERIFY2(m.has_value(), slurm.c_str());
            QCOMPARE(m->name, expected.first);
            QVERIFY2(m->memory_gb == expected.second, slurm.c_str());
            QCOMPARE(gpuTypeFromSlurm(slurm), expected.first);
        }
        // Unknown names and MIG slices (part of a GPU) stay as Slurm names them.
        for (const char* unknown :
             {"mi50", "gpu", "", "a1000", "nvidia_a100_3g.20gb", "1g.10gb", "rtx2080"}) {
            QVERIFY2(!matchGpuType(unknown).has_value(), unknown);
            QCOMPARE(gpuTypeFromSlurm(unknown), std::string(unknown));
        }
    }

    void gpuTypeTableIsConsistent() {
        std::set<std::string> keys;
        for (const GpuTypeEntry& e : gpuTypeTable()) {
            QVERIFY(!e.name.empty());
            QVERIFY(e.memory_gb > 0);
            QVERIFY(!e.source.empty());
            for (const std::string& k : e.keys)
                QVERIFY2(keys.insert(k).second, k.c_str());  // one entry per key
        }
        // Every GPU type the built-in profile sets give a speed for is reachable from its Slurm name.
        const ProfileSet muri =
            readProfilesJson(std::string(CLUSTERLOOM_SOURCE_DATA_DIR) + "/profiles/muri.json");
        QVERIFY(muri.gpu_type_speed.size() >= 7);
        for (const auto& [type, speed] : muri.gpu_type_speed) {
            std::string lower = type;
            for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            QCOMPARE(gpuTypeFromSlurm(lower), type);
        }
        // A type the table maps but no profile set knows runs at 1.0 (ProfileSet::speedFactor).
        QCOMPARE(muri.speedFactor("resnet50", "L40S"), 1.0);
        QCOMPARE(muri.speedFactor("resnet50", "mi50"), 1.0);
    }

    void buildsTheLayoutByPartition() {
        const SlurmNodeInventory inv = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        SlurmLayoutOptions options;
        options.name = "site";
        const SlurmLayout layout = clusterFromSlurmNodes(inv, options);
        const Cluster& c = layout.cluster;
        QCOMPARE(c.name, std::string("site"));
        QCOMPARE(names(c), (std::vector<std::string>{"gpu01", "gpu02", "gpu03", "gpu04", "gpu05:l40s",
                                                     "gpu05:a100", "gpu06", "gpu07"}));
        expectServer(c, "gpu01", "gpu", "A100", 4, 64, 502.9296875, 40, "IDLE", false);
        expectServer(c, "gpu02", "gpu", "A100", 8, 128, 1006.8359375, 80, "MIXED", false);
        expectServer(c, "gpu03", "gpu-old", "V100", 8, 48, 375.9765625, 32, "IDLE+DRAIN", true);
        expectServer(c, "gpu04", "debug", "gpu", 2, 32, 187.5, Server().gpu_memory_gb, "DOWN*", true);
        // gpu05 (gpu:l40s:4, gpu:a100:2, 64 CPUs): a server per type, CPUs and memory by GPU count.
        expectServer(c, "gpu05:l40s", "gpu", "L40S", 4, 42, 250.9765625 * 4 / 6, 48, "IDLE", false);
        expectServer(c, "gpu05:a100", "gpu", "A100", 2, 21, 250.9765625 * 2 / 6, 40, "IDLE", false);
        expectServer(c, "gpu06", "amd", "mi50", 4, 32, Server().memory_gb, Server().gpu_memory_gb, "IDLE",
                     false);
        expectServer(c, "gpu07", "", "T4", 4, 16, 125, 16, "ALLOCATED+FAIL", true);
        QCOMPARE(c.racks(), (std::vector<std::string>{"gpu", "gpu-old", "debug", "amd"}));
        QCOMPARE(c.totalGpus(), 36);
        QCOMPARE(layout.cpu_only_nodes, 1);
        QCOMPARE(layout.excluded_unavailable, 0);
        QCOMPARE(layout.unknown_gpu_types, (std::map<std::string, int>{{"gpu", 2}, {"mi50", 4}}));
        QCOMPARE(layout.warnings,
                 (std::vector<std::string>{
                     "scontrol_nodes_oneliner.txt:8: node gpu06 states no memory (RealMemory 1 MB); it keeps "
                     "the default 500 GB",
                     "1 CPU-only node left out: cpu01",
                     "GPUs without a type (gres gpu:N) on gpu04: kept as 'gpu' with speed 1.0 and 32 GB per "
                     "GPU until "
                     "you set them",
                     "unknown GPU type 'mi50' on gpu06: kept as 'mi50' with speed 1.0 and 32 GB per GPU "
                     "until you set "
                     "them"}));
    }

    void leavesOutUnavailableNodesOnRequest() {
        const SlurmNodeInventory inv = readSlurmNodes(fixture("scontrol_nodes_oneliner.txt"));
        SlurmLayoutOptions options;
        options.exclude_unavailable = true;
        const SlurmLayout layout = clusterFromSlurmNodes(inv, options);
        QCOMPARE(layout.cluster.name, std::string("slurm"));
        QCOMPARE(names(layout.cluster),
                 (std::vector<std::string>{"gpu01", "gpu02", "gpu05:l40s", "gpu05:a100", "gpu06"}));
        QCOMPARE(layout.excluded_unavailable, 3);
        QCOMPARE(layout.cpu_only_nodes, 1);
        QCOMPARE(layout.unknown_gpu_types, (std::map<std::string, int>{{"mi50", 4}}));
        QVERIFY(
            std::find(
                layout.warnings.begin(), layout.warnings.end(),
                "3 unavailable nodes left out: gpu03 (IDLE+DRAIN), gpu04 (DOWN*), gpu07 (ALLOCATED+FAIL)") !=
            layout.warnings.end());
        for (const Server& s : layout.cluster.servers) QVERIFY(!s.unavailable);
    }

    void jsonFormsGiveTheSameLayoutAsScontrol() {
        const SlurmLayout from_json =
            clusterFromSlurmNodes(readSlurmNodes(fixture("sinfo_nodes_22.05.json")));
        QCOMPARE(names(from_json.cluster), (std::vector<std::string>{"gpu01", "gpu03"}));
        expectServer(from_json.cluster, "gpu01", "gpu", "A100", 4, 64, 502.9296875, 40, "IDLE", false);
        expectServer(from_json.cluster, "gpu03", "gpu-old", "V100", 8, 48, 375.9765625, 32,
                     "DOWN+DRAIN+NOT_RESPONDING", true);
        QCOMPARE(from_json.cpu_only_nodes, 1);
        const SlurmLayout newer = clusterFromSlurmNodes(readSlurmNodes(fixture("scontrol_nodes_23.02.json")));
        expectServer(newer.cluster, "hgx01", "train", "H100", 8, 112, 2014.6484375, 80, "MIXED", false);
        expectServer(newer.cluster, "l40s01", "inference", "L40S", 8, 64, 502.9296875, 48, "IDLE+DRAIN",
                     true);
        expectServer(newer.cluster, "ws01", "interactive", "RTXA6000", 2, 32, 250.9765625, 48, "IDLE", false);
        // Every partition of a node, not only its group (docs/architecture.md 8.7).
        QCOMPARE(server(newer.cluster, "hgx01")->partitions,
                 (std::vector<std::string>{"train", "interactive"}));
        QCOMPARE(newer.cluster.partitions.size(), std::size_t(3));
        QVERIFY(newer.unknown_gpu_types.empty());
        QVERIFY(newer.warnings.empty());
    }

    void serverMarksRoundTripOnlyWhenSet() {
        const SlurmLayout layout =
            clusterFromSlurmNodes(readSlurmNodes(fixture("scontrol_nodes_oneliner.txt")));
        const std::string text = layoutJsonText(layout.cluster);
        QVERIFY(text.find("\"state\":\"IDLE+DRAIN\"") != std::string::npos);
        QVERIFY(text.find("\"unavailable\":true") != std::string::npos);
        const Cluster back = parseLayoutJson(text, "back");
        QCOMPARE(back.servers.size(), layout.cluster.servers.size());
        for (std::size_t i = 0; i < back.servers.size(); ++i) {
            QCOMPARE(back.servers[i].state, layout.cluster.servers[i].state);
            QCOMPARE(back.servers[i].unavailable, layout.cluster.servers[i].unavailable);
            QCOMPARE(back.servers[i].gpu_type, layout.cluster.servers[i].gpu_type);
            QCOMPARE(back.servers[i].rack, layout.cluster.servers[i].rack);
        }
        QCOMPARE(layoutJsonText(back), text);
        // A server without marks writes neither key, so existing layouts keep their text and hash.
        Cluster plain;
        plain.name = "plain";
        plain.servers.push_back(Server{});
        plain.servers.back().name = "s0";
        const std::string plain_text = layoutJsonText(plain);
        QVERIFY(plain_text.find("state") == std::string::npos);
        QVERIFY(plain_text.find("unavailable") == std::string::npos);
        expectError(parseError([] {
                        parseLayoutJson(R"({"format": "clusterloom-cluster", "version": 1,
 "servers": [{"name": "a", "unavailable": "yes"}]})",
                                        "m.json");
                    }),
                    {"m.json:2:", "servers[0].unavailable", "true or false"});
    }

    void readClusterDetectsNodeListsByContent() {
        const Cluster oneliner = readCluster(fixture("scontrol_nodes_oneliner.txt"));
        QCOMPARE(oneliner.name, std::string("scontrol_nodes_oneliner"));
        QCOMPARE(oneliner.servers.size(),
                 std::size_t(8));  // every GPU node (gpu05 twice), unavailable ones marked
        const Cluster json = readCluster(fixture("sinfo_nodes_22.05.json"));  // .json, yet not our layout
        QCOMPARE(names(json), (std::vector<std::string>{"gpu01", "gpu03"}));
        QCOMPARE(readCluster(fixture("scontrol_nodes_23.02.json")).servers.size(), std::size_t(3));
        // Our layouts still read as before.
        const Cluster layout =
            readCluster(std::string(CLUSTERLOOM_SOURCE_DATA_DIR) + "/clusters/sjf-bsbf-16.json");
        QVERIFY(!layout.servers.empty());

        QTemporaryDir dir;
        const std::string cpu_only = dir.filePath("cpu.txt").toStdString();
        std::ofstream(cpu_only) << "NodeName=c1 CPUTot=8 Gres=(null) State=IDLE\n";
        expectError(parseError([&] { readCluster(cpu_only); }), {"cpu.txt", "no GPU node", "1 CPU-only"});
        const std::string bad = dir.filePath("bad_nodes").toStdString();
        std::ofstream(bad) << "NodeName=g1 CPUTot=many Gres=gpu:2\n";
        expectError(parseError([&] { readCluster(bad); }), {"bad_nodes:1:", "field 'CPUTot'"});
    }
};

QTEST_GUILESS_MAIN(TestSlurmNodes)
#include "test_slurm_nodes.moc"
