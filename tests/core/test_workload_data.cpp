// The built-in data files (data/profiles/muri.json, data/clusters/*.json) parse and state
// the published figures (data/README.md, docs/architecture.md section 4.5, the papers' cluster
// descriptions). Parsed with nlohmann directly so that these checks do not depend on the readers
// in core/io.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json readJson(const fs::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    return json::parse(in);
}

const fs::path kData = CLUSTERLOOM_SOURCE_DATA_DIR;

const json& model(const json& profiles, const std::string& name) {
    for (const auto& m : profiles.at("models"))
        if (m.at("name") == name) return m;
    throw std::runtime_error("model " + name + " missing");
}

const json& row(const json& m, int gpus) {
    for (const auto& r : m.at("by_gpus"))
        if (r.at("gpus") == gpus) return r;
    throw std::runtime_error("GPU count missing");
}

struct Expanded {
    int servers = 0;
    int gpus = 0;
    std::set<std::string> names;
    std::map<std::string, int> servers_per_rack;
    std::set<std::string> gpu_types;
};

Expanded expand(const json& layout) {
    Expanded e;
    for (const auto& g : layout.at("server_groups")) {
        const int count = g.at("count").get<int>();
        for (int k = 0; k < count; ++k) {
            e.names.insert(g.at("name_prefix").get<std::string>() + std::to_string(k));
            ++e.servers_per_rack[g.value("rack", std::string())];
        }
        e.servers += count;
        e.gpus += count * g.at("gpus").get<int>();
        e.gpu_types.insert(g.at("gpu_type").get<std::string>());
    }
    return e;
}

}  // namespace

class TestWorkloadData : public QObject {
    Q_OBJECT

private slots:
    void muriProfilesHeader() {
        const json p = readJson(kData / "profiles" / "muri.json");
        QCOMPARE(p.at("format").get<std::string>(), std::string("clusterloom-profiles"));
        QCOMPARE(p.at("version").get<int>(), 1);
        QCOMPARE(p.at("name").get<std::string>(), std::string("muri"));
        QVERIFY(p.at("source").get<std::string>().find("SIGCOMM 2022") != std::string::npos);
        QCOMPARE(p.at("default_restart_overhead_s").get<double>(), 10.0);
        const json& speed = p.at("gpu_type_speed");
        const json& sources = p.at("gpu_type_speed_sources");
        for (const char* type : {"K80", "P100", "T4", "V100", "A100", "H100", "RTX2080Ti"}) {
            QVERIFY2(speed.contains(type) && speed.at(type).get<double>() > 0.0, type);
            QVERIFY2(sources.contains(type) && !sources.at(type).get<std::string>().empty(), type);
        }
        QCOMPARE(speed.at("V100").get<double>(), 1.0);
        QVERIFY(speed.at("K80").get<double>() < speed.at("P100").get<double>());
        QVERIFY(speed.at("P100").get<double>() < speed.at("V100").get<double>());
        QVERIFY(speed.at("V100").get<double>() < speed.at("A100").get<double>());
        QVERIFY(speed.at("A100").get<double>() < speed.at("H100").get<double>());
    }

    void muriProfilesShape() {
        const json p = readJson(kData / "profiles" / "muri.json");
        const std::map<std::string, int> batch = {
            {"vgg16", 16}, {"vgg19", 16}, {"resnet18", 128}, {"shufflenet_v2_x1_0", 128},
            {"bert", 4},   {"gpt2", 4},   {"a2c", 64},       {"dqn", 128}};
        const std::map<std::string, int> memory = {{"resnet18", 6432}, {"shufflenet_v2_x1_0", 5252},
                                                   {"vgg19", 4304},    {"vgg16", 4224},
                                                   {"dqn", 2230},      {"a2c", 2094},
                                                   {"bert", 8058},     {"gpt2", 10532}};
        QCOMPARE(p.at("models").size(), std::size_t{8});
        for (const auto& m : p.at("models")) {
            const std::string name = m.at("name");
            QVERIFY2(batch.count(name), name.c_str());
            QCOMPARE(m.at("batch_size").get<int>(), batch.at(name));
            QCOMPARE(m.at("gpu_memory_mb").get<int>(), memory.at(name));
            std::vector<int> counts;
            for (const auto& r : m.at("by_gpus")) {
                counts.push_back(r.at("gpus").get<int>());
                QCOMPARE(r.at("stages_ms").size(), std::size_t{3});
                QVERIFY(r.at("iteration_ms").get<double>() > 0.0);
                QVERIFY(r.at("restart_s").get<double>() > 0.0);
                for (const auto& s : r.at("stages_ms")) QVERIFY(s.get<double>() >= 0.0);
            }
            QCOMPARE(counts, (std::vector<int>{1, 2, 4, 8, 16, 32}));
            QCOMPARE(row(m, 1).at("stages_ms")[2].get<double>(), 0.0);  // no gradient sync on one GPU
        }
    }

    void muriProfilesFigures() {
        const json p = readJson(kData / "profiles" / "muri.json");
        auto check = [&](const char* name, int gpus, double it, double s0, double s1, double s2,
                         double restart) {
            const json& r = row(model(p, name), gpus);
            const std::string where = std::string(name) + "@" + std::to_string(gpus);
            QVERIFY2(r.at("iteration_ms").get<double>() == it, where.c_str());
            QVERIFY2(r.at("stages_ms")[0].get<double>() == s0, where.c_str());
            QVERIFY2(r.at("stages_ms")[1].get<double>() == s1, where.c_str());
            QVERIFY2(r.at("stages_ms")[2].get<double>() == s2, where.c_str());
            QVERIFY2(r.at("restart_s").get<double>() == restart, where.c_str());
        };
        check("vgg16", 16, 332, 83, 68, 110, 9);
        check("vgg16", 1, 107, 117, 68, 0, 7);
        check("vgg19", 32, 356, 89, 79, 141, 10);
        check("resnet18", 1, 779, 711, 110, 0, 4);
        check("resnet18", 8, 1010, 784, 117, 77, 7);
        check("shufflenet_v2_x1_0", 32, 1019, 799, 56, 24, 8);
        check("bert", 32, 260, 0.5, 166, 133, 10);
        check("gpt2", 2, 464, 0.7, 416, 40, 10);
        check("a2c", 8, 555, 502, 14, 0.4, 46);
        check("a2c", 1, 517, 514, 14, 0, 38);
        check("dqn", 16, 525, 438, 8, 1.2, 8);
        // Restart overheads by GPU count (profiled by the Muri authors, data/README.md).
        const std::map<std::string, std::vector<double>> restart = {
            {"vgg16", {7, 7, 8, 9, 9, 10}},     {"vgg19", {7, 7, 8, 9, 10, 10}},
            {"resnet18", {4, 5, 5, 7, 7, 7}},   {"shufflenet_v2_x1_0", {4, 4, 5, 5, 7, 8}},
            {"bert", {10, 10, 10, 10, 10, 10}}, {"gpt2", {10, 10, 10, 10, 10, 10}},
            {"a2c", {38, 39, 39, 46, 46, 46}},  {"dqn", {5, 5, 6, 6, 8, 8}}};
        for (const auto& [name, values] : restart) {
            std::vector<double> got;
            for (const auto& r : model(p, name).at("by_gpus")) got.push_back(r.at("restart_s").get<double>());
            QVERIFY2(got == values, name.c_str());
        }
    }

    void clusterPresetsParse() {
        std::set<std::string> found;
        for (const auto& entry : fs::directory_iterator(kData / "clusters")) {
            if (entry.path().extension() != ".json") continue;
            const std::string stem = entry.path().stem().string();
            found.insert(stem);
            const json c = readJson(entry.path());
            QCOMPARE(c.at("format").get<std::string>(), std::string("clusterloom-cluster"));
            QCOMPARE(c.at("version").get<int>(), 1);
            QCOMPARE(c.at("name").get<std::string>(), stem);
            QVERIFY2(!c.value("source", std::string()).empty(), stem.c_str());
            QVERIFY2(!c.value("description", std::string()).empty(), stem.c_str());
            // Topology layouts list or generate their servers; test_topology checks them.
            if (c.contains("topology")) continue;
            QVERIFY(!c.at("server_groups").empty());
            for (const auto& g : c.at("server_groups")) {
                QVERIFY(g.at("count").get<int>() > 0);
                QVERIFY(g.at("gpus").get<int>() > 0);
                QVERIFY(g.at("cpu_cores").get<int>() > 0);
                QVERIFY(g.at("memory_gb").get<double>() > 0);
                QVERIFY(g.at("gpu_memory_gb").get<double>() > 0);
                QVERIFY(g.at("network_gbps").get<double>() > 0);
                QVERIFY(!g.at("name_prefix").get<std::string>().empty());
            }
            const Expanded e = expand(c);
            QCOMPARE(static_cast<int>(e.names.size()), e.servers);  // unique server names
        }
        for (const char* name :
             {"muri-testbed-64", "synergy-128", "synergy-512", "sjf-bsbf-16", "sjf-bsbf-64", "large-2048"})
            QVERIFY2(found.count(name), name);
    }

    void clusterPresetFigures() {
        auto load = [](const char* name) {
            return readJson(kData / "clusters" / (std::string(name) + ".json"));
        };
        struct Expect {
            const char* name;
            int servers, gpus, cpu;
            double memory;
            const char* gpu_type;
        };
        for (const Expect& x : {Expect{"muri-testbed-64", 8, 64, 92, 520, "V100"},
                                Expect{"synergy-128", 16, 128, 24, 500, "V100"},
                                Expect{"synergy-512", 64, 512, 24, 500, "V100"},
                                Expect{"sjf-bsbf-16", 4, 16, 8, 64, "RTX2080Ti"},
                                Expect{"sjf-bsbf-64", 16, 64, 8, 64, "RTX2080Ti"},
                                Expect{"large-2048", 256, 2048, 24, 500, "V100"}}) {
            const json c = load(x.name);
            const Expanded e = expand(c);
            QVERIFY2(e.servers == x.servers, x.name);
            QVERIFY2(e.gpus == x.gpus, x.name);
            QVERIFY2(e.gpu_types == std::set<std::string>{x.gpu_type}, x.name);
            for (const auto& g : c.at("server_groups")) {
                QVERIFY2(g.at("cpu_cores").get<int>() == x.cpu, x.name);
                QVERIFY2(g.at("memory_gb").get<double>() == x.memory, x.name);
            }
        }
        for (const char* name : {"sjf-bsbf-16", "sjf-bsbf-64"}) {
            const json c = load(name);
            const json& g = c.at("server_groups")[0];
            QCOMPARE(g.at("gpus").get<int>(), 4);
            QCOMPARE(g.at("gpu_memory_gb").get<double>(), 11.0);
            QCOMPARE(g.at("network_gbps").get<double>(), 10.0);
        }
        QCOMPARE(expand(load("muri-testbed-64")).servers_per_rack.size(), std::size_t{1});  // one switch
        const Expanded big = expand(load("large-2048"));
        QCOMPARE(big.servers_per_rack.size(), std::size_t{16});
        for (int r = 0; r < 16; ++r) QCOMPARE(big.servers_per_rack.at("rack" + std::to_string(r)), 16);
        QVERIFY(big.names.count("rack15-node15"));
    }

    void readmeListsEveryFile() {
        std::ifstream in(kData / "README.md");
        QVERIFY(in.good());
        const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (const auto& dir : {"profiles", "clusters"})
            for (const auto& entry : fs::directory_iterator(kData / dir))
                if (entry.path().extension() == ".json")
                    QVERIFY2(readme.find(entry.path().filename().string()) != std::string::npos,
                             entry.path().filename().string().c_str());
    }
};

QTEST_APPLESS_MAIN(TestWorkloadData)
#include "test_workload_data.moc"
