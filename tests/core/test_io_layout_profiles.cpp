// Cluster layouts (JSON, Muri spec CSV) and profile sets (JSON): reading, validation,
// exact write-then-read round trips.
#include <QtTest>

#include "shared_data.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/layout_io.h"
#include "core/io/parse_error.h"
#include "core/io/profile_io.h"
#include "core/store/content_hash.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;
using cl::test::parseError;

namespace {

std::string fixture(const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/io/" + name;
}
// Inputs the fuzz targets once failed on (tests/fuzz/regressions/<target>/).
std::string fuzzRegression(const std::string& target, const std::string& name) {
    return std::string(CLUSTERLOOM_FIXTURES_DIR) + "/../fuzz/regressions/" + target + "/" + name;
}
std::string shared(const std::string& rel) {
    return std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/" + rel;
}

bool sameServer(const Server& a, const Server& b) {
    return a.name == b.name && a.rack == b.rack && a.gpu_type == b.gpu_type && a.gpus == b.gpus &&
           a.cpu_cores == b.cpu_cores && a.memory_gb == b.memory_gb && a.gpu_memory_gb == b.gpu_memory_gb &&
           a.network_gbps == b.network_gbps;
}

void expectSameProfiles(const ProfileSet& a, const ProfileSet& b) {
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.source, b.source);
    QVERIFY(a.default_restart_overhead == b.default_restart_overhead);
    QVERIFY(a.gpu_type_speed == b.gpu_type_speed);
    QCOMPARE(a.modelNames(), b.modelNames());
    for (const auto& [name, ma] : a.models) {
        const ModelProfile& mb = b.models.at(name);
        QCOMPARE(ma.name, mb.name);
        QCOMPARE(ma.batch_size, mb.batch_size);
        QVERIFY(ma.gpu_memory_mb == mb.gpu_memory_mb);
        QVERIFY(ma.speed_by_gpu_type == mb.speed_by_gpu_type);
        QVERIFY(ma.extra.get() == mb.extra.get());
        QCOMPARE(ma.by_gpus.size(), mb.by_gpus.size());
        for (std::size_t k = 0; k < ma.by_gpus.size(); ++k) {
            const auto& pa = ma.by_gpus[k];
            const auto& pb = mb.by_gpus[k];
            QCOMPARE(pa.gpus, pb.gpus);
            QVERIFY2(pa.solo_iteration_time == pb.solo_iteration_time,
                     qPrintable(QString::fromStdString(name)));
            QVERIFY2(pa.stage_times == pb.stage_times, qPrintable(QString::fromStdString(name)));
            QVERIFY(pa.restart_overhead == pb.restart_overhead);
        }
    }
}

}  // namespace

class TestIoLayoutProfiles : public QObject {
    Q_OBJECT

private slots:
    void layoutJsonServersAndGroups() {
        Cluster c = readLayoutJson(fixture("layout_small.json"));
        QCOMPARE(c.name, std::string("mixed-lab"));
        QCOMPARE(c.servers.size(), std::size_t(7));
        const Server& big0 = c.servers[0];
        QCOMPARE(big0.gpu_type, std::string("A100"));
        QCOMPARE(big0.cpu_cores, 128);
        QVERIFY(big0.gpu_memory_gb == 80.0 && big0.network_gbps == 200.0);
        // Missing fields take the Server defaults.
        const Server defaults;
        QCOMPARE(c.servers[1].cpu_cores, defaults.cpu_cores);
        QVERIFY(c.servers[1].memory_gb == defaults.memory_gb);
        // Groups expand in order, indexes from 0 per group.
        QCOMPARE(c.servers[2].name, std::string("node0"));
        QCOMPARE(c.servers[4].name, std::string("node2"));
        QCOMPARE(c.servers[4].rack, std::string("r1"));
        QVERIFY(c.servers[4].memory_gb == 520.0);
        QCOMPARE(c.servers[5].name, std::string("t4-0"));
        QCOMPARE(c.servers[6].gpus, 2);
        QVERIFY(c.servers[6].gpu_memory_gb == 16.0);
        QCOMPARE(c.totalGpus(), 8 + 4 + 3 * 8 + 2 * 2);
        QCOMPARE(readCluster(fixture("layout_small.json")).servers.size(), std::size_t(7));
    }

    void layoutBrokenInputs() {
        expectError(parseError([] { readLayoutJson(fixture("layout_bad_gpus.json")); }),
                    {"layout_bad_gpus.json:7", "field 'servers[1].gpus'", "between 1 and 64", "65"});
        expectError(parseError([] { readLayoutJson(fixture("layout_duplicate_names.json")); }),
                    {"layout_duplicate_names.json:5", "duplicate server name 'node0'"});
        expectError(parseError([] { readLayoutJson(fixture("trace_small.json")); }),
                    {"trace_small.json:2", "field 'format'", "clusterloom-cluster"});
    }

    void layoutRoundTripIsExact() {
        Cluster c = readLayoutJson(fixture("layout_small.json"));
        c.servers[3].memory_gb = 0.1 + 0.2;
        c.servers[3].network_gbps = 1.0 / 3.0;
        c.servers[0].rack = "rack \"quoted\", ✓";
        QTemporaryDir dir;
        const std::string out = dir.filePath("layout.json").toStdString();
        writeLayoutJson(c, out);
        Cluster back = readCluster(out);
        QCOMPARE(back.name, c.name);
        QCOMPARE(back.servers.size(), c.servers.size());
        for (std::size_t k = 0; k < c.servers.size(); ++k)
            QVERIFY2(sameServer(c.servers[k], back.servers[k]), c.servers[k].name.c_str());
    }

    void layoutPartitionsRoundTrip() {
        // docs/architecture.md 8.1: the cluster's partitions and each server's, groups included.
        const Cluster c = parseLayoutJson(R"({"format": "clusterloom-cluster", "version": 1, "name": "p",
 "partitions": [{"name": "gpu", "priority_tier": 2, "max_time": 86400.5, "default": true},
                {"name": "debug"}],
 "servers": [{"name": "a", "partitions": ["gpu", "debug"]}, {"name": "b"}],
 "server_groups": [{"count": 2, "name_prefix": "g", "partitions": ["debug"]}]})",
                                          "p.json");
        QCOMPARE(c.partitions.size(), std::size_t(2));
        QVERIFY((c.partitions[0] == Partition{"gpu", 2, 86400.5, true}));
        QVERIFY((c.partitions[1] == Partition{"debug", 1, 0.0, false}));  // the Partition defaults
        QCOMPARE(c.servers[0].partitions, (std::vector<std::string>{"gpu", "debug"}));
        QVERIFY(c.servers[1].partitions.empty());
        QCOMPARE(c.servers[3].partitions, (std::vector<std::string>{"debug"}));
        const std::string text = layoutJsonText(c);
        QVERIFY(
            text.find("  \"partitions\": [\n    {\"name\":\"gpu\",\"priority_tier\":2,\"max_time\":86400.5,"
                      "\"default\":true},\n    {\"name\":\"debug\",\"priority_tier\":1,\"max_time\":0,"
                      "\"default\":false}\n  ],\n  \"servers\"") != std::string::npos);
        QVERIFY(text.find("\"partitions\":[\"gpu\",\"debug\"]}") != std::string::npos);
        const Cluster back = parseLayoutJson(text, "back.json");
        QVERIFY(back.partitions == c.partitions);
        for (std::size_t k = 0; k < c.servers.size(); ++k) QVERIFY(back.servers[k] == c.servers[k]);
        QCOMPARE(layoutJsonText(back), text);
        // Server partitions without a cluster list are kept as they are (nothing declared).
        const Cluster loose = parseLayoutJson(
            R"({"format": "clusterloom-cluster", "version": 1, "servers": [{"name": "a", "partitions": ["x"]}]})",
            "loose.json");
        QVERIFY(loose.partitions.empty());
        QCOMPARE(loose.servers[0].partitions, (std::vector<std::string>{"x"}));
        QCOMPARE(layoutJsonText(parseLayoutJson(layoutJsonText(loose), "l")), layoutJsonText(loose));
    }

    void layoutPartitionsRefused() {
        auto error = [](const std::string& body) {
            return parseError([&] {
                parseLayoutJson("{\"format\": \"clusterloom-cluster\", \"version\": 1,\n" + body + "}",
                                "q.json");
            });
        };
        const std::string servers = ",\n\"servers\": [{\"name\": \"a\"}]";
        expectError(error("\"partitions\": [{\"name\": \"gpu\"}],\n\"servers\": [{\"name\": \"a\",\n"
                          "\"partitions\": [\"gpu\", \"cpu\"]}]"),
                    {"q.json:4:", "field 'servers[0].partitions[1]'", "'cpu'", "not in the layout"});
        expectError(error("\"partitions\": [{\"name\": \"gpu\"}],\n\"server_groups\": [{\"count\": 1, "
                          "\"name_prefix\": \"g\", \"partitions\": [\"cpu\"]}]"),
                    {"q.json:3:", "field 'server_groups[0].partitions[0]'", "'cpu'"});
        expectError(error("\"partitions\": [{\"name\": \"gpu\"},\n{\"name\": \"gpu\"}]" + servers),
                    {"q.json:3:", "field 'partitions[1].name'", "duplicate partition 'gpu'"});
        expectError(error("\"servers\": [{\"name\": \"a\", \"partitions\": [\"x\", \"x\"]}]"),
                    {"q.json:2:", "field 'servers[0].partitions[1]'", "twice"});
        expectError(error("\"partitions\": [{\"name\": \"a\", \"default\": true},\n{\"name\": \"b\", "
                          "\"default\": true}]" +
                          servers),
                    {"q.json:3:", "field 'partitions[1].default'", "second default"});
        expectError(error("\"partitions\": [{\"name\": \"a,b\"}]" + servers),
                    {"q.json:2:", "field 'partitions[0].name'", "comma"});
        expectError(error("\"partitions\": [{\"name\": \"a\", \"tier\": 1}]" + servers),
                    {"q.json:2:", "partitions[0]", "tier"});
        expectError(error("\"partitions\": [{\"name\": \"a\", \"max_time\": -1}]" + servers),
                    {"q.json:2:", "field 'partitions[0].max_time'"});
        expectError(error("\"partitions\": [{\"name\": \"a\", \"priority_tier\": 70000}]" + servers),
                    {"q.json:2:", "field 'partitions[0].priority_tier'"});
        expectError(error("\"partitions\": [{\"name\": \"\"}]" + servers),
                    {"q.json:2:", "partitions[0].name"});
        expectError(error("\"partitions\": {}" + servers), {"q.json:2:", "field 'partitions'"});
        expectError(error("\"servers\": [{\"name\": \"a\", \"partitions\": \"gpu\"}]"),
                    {"q.json:2:", "field 'servers[0].partitions'"});
    }

    void layoutsWithoutPartitionsKeepTheirTextAndHash() {
        // The content hash of each layout's text as written before partitions existed
        // (docs/architecture.md 9.3): stored clusters and emitted run specs keep their ids.
        const std::vector<std::pair<std::string, std::string>> pinned = {
            {"fat-tree-k4-power8.json", "9b00f718c4996877"}, {"large-2048.json", "f6ee781083503f17"},
            {"muri-testbed-64.json", "134b11a27fe93c0f"},    {"sjf-bsbf-16.json", "1ec16e96f35e1804"},
            {"sjf-bsbf-64.json", "778775fee9abd099"},        {"synergy-128.json", "483850881b213178"},
            {"synergy-512.json", "527b2bdbae10953d"}};
        for (const auto& [file, hash] : pinned) {
            const std::string text =
                layoutJsonText(readCluster(std::string(CLUSTERLOOM_SOURCE_DATA_DIR) + "/clusters/" + file));
            QVERIFY2(text.find("partitions") == std::string::npos, file.c_str());
            QCOMPARE(ContentHasher().add(text).hex(), hash);
        }
        QCOMPARE(ContentHasher().add(layoutJsonText(readLayoutJson(fixture("layout_small.json")))).hex(),
                 std::string("f1303d79edde9d89"));
    }

    void muriClusterSpec() {
        Cluster c = readMuriClusterSpecCsv(fixture("cluster_spec.csv"));
        QCOMPARE(c.servers.size(), std::size_t(6));
        QCOMPARE(c.servers[0].name, std::string("s0-n0"));
        QCOMPARE(c.servers[4].name, std::string("s1-n1"));
        QCOMPARE(c.servers[4].rack, std::string("switch1"));
        QCOMPARE(c.servers[4].gpus, 4);
        QCOMPARE(c.servers[4].cpu_cores, 32);
        QVERIFY(c.servers[4].memory_gb == 256.0);
        QCOMPARE(c.servers[4].gpu_type, std::string("V100"));
        QCOMPARE(c.racks().size(), std::size_t(2));

        const std::string real = shared("muri-traces/cluster_n8g8.csv");
        REQUIRE_SHARED_DATA(real);
        Cluster n8g8 = readCluster(real);
        QCOMPARE(n8g8.servers.size(), std::size_t(8));
        QCOMPARE(n8g8.totalGpus(), 64);
        QCOMPARE(n8g8.totalCpuCores(), 8 * 92);
        QVERIFY(n8g8.totalMemoryGb() == 8 * 520.0);
    }

    void muriClusterSpecMissingColumn() {
        // A trace is no cluster spec: the missing column is named.
        expectError(parseError([] { readMuriClusterSpecCsv(fixture("trace_small.csv")); }),
                    {"trace_small.csv:1", "'num_switch'", "missing column"});
    }

    void profilesJson() {
        ProfileSet ps = readProfilesJson(fixture("profiles_small.json"));
        QCOMPARE(ps.name, std::string("tiny"));
        QVERIFY(ps.default_restart_overhead == 12.0);
        QVERIFY(ps.gpu_type_speed.at("A100") == 2.1);
        QCOMPARE(ps.models.size(), std::size_t(2));
        const ModelProfile& r = ps.models.at("resnet18");
        QCOMPARE(r.batch_size, 128);
        QVERIFY(r.gpu_memory_mb == 6432.0);
        QCOMPARE(r.by_gpus.size(), std::size_t(2));
        QCOMPARE(r.by_gpus[0].gpus, 1);  // sorted by GPU count after reading
        QVERIFY(r.by_gpus[0].solo_iteration_time == 779 / 1000.0);
        QVERIFY(r.by_gpus[0].stage_times == std::vector<double>({0.711, 0.110, 0.0}));
        QVERIFY(r.by_gpus[0].restart_overhead == 12.0);  // the file's default
        QVERIFY(r.by_gpus[1].restart_overhead == 5.0);
        const ModelProfile& b = ps.models.at("bert");
        QVERIFY(b.speed_by_gpu_type.at("A100") == 2.5);
        QVERIFY(b.by_gpus[0].stage_times[0] == 0.5 / 1000.0);
        QCOMPARE(b.extra.get().at("note").get<std::string>(), std::string("kept verbatim"));
        QCOMPARE(ps.speedFactor("resnet18", "A100"), 2.1);
        QCOMPARE(ps.speedFactor("bert", "A100"), 2.5);
    }

    void profilesBrokenInputs() {
        expectError(parseError([] { readProfilesJson(fixture("profiles_bad_stage.json")); }),
                    {"profiles_bad_stage.json:6", "field 'models[0].by_gpus[0].stages_ms[1]'", "negative"});
    }

    void profilesRoundTripIsExact() {
        ProfileSet ps = readProfilesJson(fixture("profiles_small.json"));
        // Seconds that are not an exact number of milliseconds must survive ms in the file.
        auto& p = ps.models.at("resnet18").by_gpus[0];
        p.solo_iteration_time = 0.1 + 0.2;
        p.stage_times = {1.0 / 3.0, 1e-7, 0.123456789012345, 7.0};
        p.restart_overhead = 0.3;
        QTemporaryDir dir;
        const std::string out = dir.filePath("profiles.json").toStdString();
        writeProfilesJson(ps, out);
        expectSameProfiles(ps, readProfilesJson(out));
    }

    void profilesRoundTripManyValues() {
        // Many seconds values, each written as milliseconds and read back.
        ProfileSet ps;
        ps.name = "sweep";
        ModelProfile m;
        m.name = "m";
        GpuCountProfile g;
        for (int k = 1; k <= 5000; ++k) g.stage_times.push_back(k * 0.000137 + 1.0 / (k + 2));
        for (double v : {1e-300, 5e-324, 1e300, 0.1 + 0.2, 123456.789, 1e21, 7e-5, 0.0006, 2.0 / 3.0})
            g.stage_times.push_back(v);
        m.by_gpus.push_back(g);
        ps.models["m"] = m;
        QTemporaryDir dir;
        const std::string out = dir.filePath("sweep.json").toStdString();
        writeProfilesJson(ps, out);
        expectSameProfiles(ps, readProfilesJson(out));
    }

    // --- Found by the fuzz targets (tests/fuzz) ---------------------------------------
    void profilesMillisecondsWithExtremeExponents() {
        // JSON numbers whose exponent does not fit an int: "0e-2147483648" overflowed while
        // moving the decimal point, "1e-2147483649" (0 as JSON reads it) became 1 ms.
        ProfileSet ps = readProfilesJson(fuzzRegression("profiles_json", "ms_exponent_int_min.json"));
        QVERIFY(ps.models.at("m").by_gpus[0].solo_iteration_time == 0.0);
        ps = parseProfilesJson(
            R"({"format":"clusterloom-profiles","version":1,"name":"x","models":[{"name":"m","by_gpus":)"
            R"([{"gpus":1,"iteration_ms":2.5e+0003,"stages_ms":[1e-2147483649,7E-2]}]}]})",
            "exponents.json");
        const GpuCountProfile& g = ps.models.at("m").by_gpus[0];
        QVERIFY(g.solo_iteration_time == 2.5);
        QVERIFY(g.stage_times == std::vector<double>({0.0, 0.00007}));
    }

    void profilesMillisecondsTextOfTheRightValue() {
        // The exact decimal text of a value must be the one the DOM kept: with a key given
        // twice the last one counts, and a key that looks like a path is just a key.
        const std::string head =
            R"({"format":"clusterloom-profiles","version":1,"name":"x","models":[{"name":"m","by_gpus":)";
        ProfileSet ps =
            parseProfilesJson(head + R"([{"gpus":1,"iteration_ms":1.5,"iteration_ms":7}]}]})", "dup.json");
        QVERIFY(ps.models.at("m").by_gpus[0].solo_iteration_time == 0.007);
        ps = parseProfilesJson(
            head + R"([{"gpus":1,"iteration_ms":7}]}], "models[0].by_gpus[0].iteration_ms": 2.5})",
            "lookalike.json");
        QVERIFY(ps.models.at("m").by_gpus[0].solo_iteration_time == 0.007);
    }

    void jsonNumberBeyondDouble() {
        // nlohmann refuses 1e400 with its own exception type; it must still name file and line.
        QCOMPARE(parseError([] {
                     parseProfilesJson("{\"format\": \"clusterloom-profiles\",\n\"version\": 1e400}",
                                       "big.json");
                 }),
                 QString("big.json:2: invalid JSON: number overflow parsing '1e400'"));
        QCOMPARE(parseError([] { parseLayoutJson("[\n\n-1E+999]", "big.json"); }),
                 QString("big.json:3: invalid JSON: number overflow parsing '-1E+999'"));
    }
};

QTEST_APPLESS_MAIN(TestIoLayoutProfiles)
#include "test_io_layout_profiles.moc"
