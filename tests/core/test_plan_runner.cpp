// The store-backed plan (core/runs/plan_runner.h): a plan refused because its prefix holds another
// plan leaves the workspace as it found it, whether it is refused before its first point (another
// trace) or at it (other prices of a server type, known only once its candidate is built).
#include <QtTest>

#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/metrics/plan_target.h"
#include "core/runs/plan_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"

using namespace cl;

namespace {

Trace smallTrace(std::uint64_t seed, const ProfileSet& profiles) {
    GeneratorConfig g;
    g.jobs = 30;
    g.seed = seed;
    g.jobs_per_hour = 6.0;
    g.gpu_weights = parseGpuWeights("1:0.6,2:0.3,4:0.1");
    return generate(g, &profiles);
}

std::vector<std::int64_t> clusterIds(ScenarioStore& store) {
    std::vector<std::int64_t> ids;
    for (const StoredItem& c : store.clusters()) ids.push_back(c.id);
    return ids;
}

}  // namespace

class TestPlanRunner : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void aRefusedPlanLeavesTheWorkspaceAsItWas() {
        ScenarioStore store(dir_.filePath(QStringLiteral("refused.sqlite")).toStdString());
        const ProfileSet profiles = builtinProfiles("muri");
        PlanRequest request;
        request.base = builtinCluster("sjf-bsbf-16");
        request.server_types = {*findServerType("v100x8")};
        request.policies = {"fifo"};
        request.targets = {parsePlanTarget("p95_jct<=2d")};
        request.max_servers = 4;
        ScenarioSpec base;
        base.trace_id = store.putTrace(smallTrace(3, profiles));
        base.profiles_id = store.putProfiles(profiles);
        base.cluster_id = store.putCluster(request.base);
        PlanRunOptions options;
        options.prefix = "p";
        options.threads = 2;
        const PlanReport first = runPlan(store, request, base, options);
        QVERIFY2(first.error.empty(), first.error.c_str());
        QVERIFY(first.simulations > 0);

        const std::vector<std::int64_t> clusters = clusterIds(store);
        const std::vector<std::string> prefixes = planPrefixes(store);
        const std::vector<std::int64_t> candidates = planCandidateClusters(store, "p");
        const std::size_t scenarios = store.scenarios().size();
        const auto unchanged = [&] {
            QCOMPARE(clusterIds(store), clusters);
            QCOMPARE(planPrefixes(store), prefixes);
            QCOMPARE(planCandidateClusters(store, "p"), candidates);
            QCOMPARE(store.scenarios().size(), scenarios);
        };

        // Another trace under the same prefix: refused before anything is stored.
        ScenarioSpec other = base;
        other.trace_id = store.putTrace(smallTrace(4, profiles));
        try {
            runPlan(store, request, other, options);
            QFAIL("a plan of another trace was not refused");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("the prefix 'p' holds a plan with another trace") !=
                         std::string::npos,
                     e.what());
        }
        unchanged();

        // The same type at another price: its candidate cluster is new, and refused at the first
        // point; the cluster stored for it goes again.
        PlanRequest repriced = request;
        repriced.server_types[0].server.price.per_hour += 1.0;
        try {
            runPlan(store, repriced, base, options);
            QFAIL("a plan at other prices was not refused");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("another candidate cluster (server type or prices)") !=
                         std::string::npos,
                     e.what());
        }
        unchanged();

        // Under a new prefix the same plan runs, and records that prefix.
        options.prefix = "q";
        const PlanReport again = runPlan(store, repriced, base, options);
        QVERIFY2(again.error.empty(), again.error.c_str());
        QCOMPARE(planPrefixes(store).size(), prefixes.size() + 1);
    }
};

QTEST_APPLESS_MAIN(TestPlanRunner)
#include "test_plan_runner.moc"
