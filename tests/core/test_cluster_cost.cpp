// Server prices and cluster cost (core/model/server_price.h, core/metrics/cluster_cost.h): the
// arithmetic of both price bases, prices in layout files (round trip, clear errors), the
// built-in server types file, and server types named by id or layout file.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/io/server_types_json.h"
#include "core/metrics/cluster_cost.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;
using cl::test::parseError;

namespace {

std::string layoutWithPrice(const std::string& price) {
    return R"({"format":"clusterloom-cluster","version":1,"name":"priced","servers":[
{"name":"a","gpu_type":"V100","gpus":8},
{"name":"b","gpu_type":"V100","gpus":8,
 "price":)" +
           price + "}]}";
}

}  // namespace

class TestClusterCost : public QObject {
    Q_OBJECT

private slots:
    void hourlyAndAmortizedPrices() {
        ServerPrice hourly;
        hourly.basis = PriceBasis::Hourly;
        hourly.per_hour = 31.212;
        QCOMPARE(pricePerHour(hourly), 31.212);
        ServerPrice owned;
        owned.basis = PriceBasis::Amortized;
        owned.purchase = 87600;  // 10 USD an hour over one 8,760-hour year
        owned.amortization_years = 1;
        owned.power_per_hour = 0.5;
        QCOMPARE(pricePerHour(owned), 10.5);
        owned.amortization_years = 4;
        QCOMPARE(pricePerHour(owned), 3.0);
        QCOMPARE(pricePerHour(ServerPrice{}), 0.0);
    }

    void clusterCostSumsServersAndCountsUnpriced() {
        Cluster c;
        Server s;
        s.price.basis = PriceBasis::Hourly;
        s.price.per_hour = 2.0;
        c.servers = {s, s, Server{}};
        const ClusterCost cost = clusterCost(c);
        QCOMPARE(cost.per_hour, 4.0);
        QCOMPARE(cost.per_month, 4.0 * 730.0);
        QCOMPARE(cost.unpriced_servers, 1);
        QVERIFY(cost.anyPriced(3));
        // A 36-hour run on 4 USD an hour.
        QCOMPARE(costForSpan(cost, 36 * 3600.0), 144.0);
        QCOMPARE(costForSpan(cost, std::nan("")), 0.0);
        QCOMPARE(costForSpan(cost, -1.0), 0.0);
    }

    void layoutPricesRoundTripAndUnpricedLayoutsKeepTheirText() {
        const Cluster c = parseLayoutJson(
            layoutWithPrice(
                R"({"purchase":149000,"amortization_years":4,"power_per_hour":0.63,"source":"vendor, 2017","approximate":true})"),
            "priced.json");
        QCOMPARE(c.servers[0].price.basis, PriceBasis::None);
        const ServerPrice& p = c.servers[1].price;
        QCOMPARE(p.basis, PriceBasis::Amortized);
        QCOMPARE(p.purchase, 149000.0);
        QCOMPARE(p.amortization_years, 4.0);
        QCOMPARE(p.power_per_hour, 0.63);
        QCOMPARE(p.source, std::string("vendor, 2017"));
        QVERIFY(p.approximate);
        const std::string text = layoutJsonText(c);
        QCOMPARE(parseLayoutJson(text, "again").servers, c.servers);
        // A layout without prices writes no "price", so its text and content hash stay as before.
        Cluster unpriced = c;
        unpriced.servers[1].price = {};
        QVERIFY(layoutJsonText(unpriced).find("\"price\"") == std::string::npos);
        const Cluster hourly = parseLayoutJson(layoutWithPrice(R"({"per_hour":3.912})"), "h.json");
        QCOMPARE(hourly.servers[1].price.basis, PriceBasis::Hourly);
        QCOMPARE(parseLayoutJson(layoutJsonText(hourly), "again").servers, hourly.servers);
    }

    void badPricesNameFileLineAndField() {
        auto fails = [](const std::string& price) {
            return parseError([&] { parseLayoutJson(layoutWithPrice(price), "bad.json"); });
        };
        expectError(fails(R"({"per_hour":-1})"), {"bad.json", ":4", "servers[1].price.per_hour"});
        expectError(fails(R"({"purchase":1000})"), {"bad.json", "servers[1].price", "amortization_years"});
        expectError(fails(R"({"per_hour":1,"purchase":1000})"), {"servers[1].price", "not both"});
        expectError(fails(R"({"per_hour":1,"power_per_hour":1})"), {"servers[1].price.power_per_hour"});
        expectError(fails(R"({"per_hr":1})"), {"servers[1].price", "per_hr"});
        expectError(fails(R"({})"), {"servers[1].price", "per_hour"});
        expectError(fails(R"({"per_hour":1,"approximate":"yes"})"), {"servers[1].price.approximate"});
    }

    void builtInPresetsArePricedWithSources() {
        const std::vector<ServerType>& presets = builtinServerTypes();
        std::vector<std::string> ids;
        for (const ServerType& p : presets) {
            ids.push_back(p.id);
            QVERIFY2(p.server.price.stated(), p.id.c_str());
            QVERIFY2(!p.server.price.source.empty(), p.id.c_str());
            QVERIFY2(pricePerHour(p.server.price) > 0, p.id.c_str());
        }
        QCOMPARE(ids, (std::vector<std::string>{"v100x8", "dgx-1", "dgx-2", "t4x4", "dgx-a100", "dgx-h100"}));
        const ServerType* dgx1 = findServerType("dgx-1");
        QVERIFY(dgx1);
        QCOMPARE(dgx1->server.gpus, 8);
        QCOMPARE(dgx1->server.cpu_cores, 40);
        // 149,000 USD over four years plus 0.63 USD an hour of power.
        QCOMPARE(pricePerHour(dgx1->server.price), 149000.0 / (4 * 8760.0) + 0.63);
        QCOMPARE(findServerType("v100x8")->server.price.per_hour, 31.212);
        QVERIFY(findServerType("dgx-9") == nullptr);
    }

    void presetFileErrorsNameTheField() {
        const std::string head = R"({"format":"clusterloom-server-presets","version":1,"presets":[)";
        expectError(parseError([&] {
                        parseServerTypesJson(head + R"({"id":"a","label":"A","server":{"gpus":8}},
{"id":"a","label":"B","server":{"gpus":4}}]})",
                                             "p.json");
                    }),
                    {"p.json", ":2", "presets[1].id", "duplicate"});
        expectError(parseError([&] {
                        parseServerTypesJson(
                            head + R"({"id":"a","label":"A","server":{"gpus":8,"name":"x"}}]})", "p.json");
                    }),
                    {"p.json", "presets[0].server", "name"});
        expectError(parseError([&] { parseServerTypesJson(head + "]}", "p.json"); }),
                    {"p.json", "no presets"});
    }

    void serverTypesByPresetOrLayoutFile() {
        QCOMPARE(resolveServerType("t4x4").server.gpu_type, std::string("T4"));
        QTemporaryDir dir;
        const std::string one = (dir.path() + "/one.json").toStdString();
        std::ofstream(one) << layoutWithPrice(R"({"per_hour":7})");
        // Two servers that differ (only the second has a price) are not one server type.
        expectError(invalidArgument([&] { resolveServerType(one); }),
                    {one.c_str(), "'b'", "one kind of server"});
        const std::string group = (dir.path() + "/group.json").toStdString();
        std::ofstream(group)
            << R"({"format":"clusterloom-cluster","version":1,"name":"A40 box","server_groups":[
{"count":3,"name_prefix":"n","rack":"r","gpu_type":"A40","gpus":4,"price":{"per_hour":5}}]})";
        const ServerType type = resolveServerType(group);
        QCOMPARE(type.id, group);
        QCOMPARE(type.label, std::string("A40 box"));
        QCOMPARE(type.server.gpus, 4);
        QVERIFY(type.server.name.empty() && type.server.rack.empty());
        QCOMPARE(type.server.price.per_hour, 5.0);
        expectError(invalidArgument([&] { resolveServerType("dgx-9"); }), {"dgx-9", "v100x8", "dgx-h100"});
    }
};

QTEST_GUILESS_MAIN(TestClusterCost)
#include "test_cluster_cost.moc"
