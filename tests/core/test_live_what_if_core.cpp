// The core of the cluster editor's live what-if (docs/architecture.md section 1.8): a run's
// figures, the cache key that ignores only what never reaches the simulator, the LRU cache,
// the scenario read with its stored run, and a cluster simulated in the scenario's place
// (equal to the engine's own result, cancellable, refused clusters reported).
#include <QtTest>

#include <cmath>

#include "core/io/builtin_data.h"
#include "core/metrics/gpu_utilization.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/live_what_if.h"
#include "core/runs/live_what_if_cache.h"
#include "core/runs/scenario_runner.h"

using namespace cl;

class TestLiveWhatIfCore : public QObject {
    Q_OBJECT

private slots:
    void meanUtilizationIntegratesSteps() {
        std::vector<TimeSample> s(3);
        s[0].t = 0, s[0].gpu_utilization = 1.0;
        s[1].t = 10, s[1].gpu_utilization = 0.5;
        s[2].t = 40, s[2].gpu_utilization = 0.0;
        // 1.0 for 10 s, then 0.5 for 30 s, over 40 s.
        QCOMPARE(meanGpuUtilization(s), 25.0 / 40.0);
        QVERIFY(std::isnan(meanGpuUtilization({})));
        QCOMPARE(meanGpuUtilization({s[1]}), 0.5);
    }

    void cacheKeepsTheMostRecentlyUsed() {
        WhatIfCache cache(2);
        WhatIfFigures a, b, c;
        a.avg_jct = 1;
        b.avg_jct = 2;
        c.avg_jct = 3;
        cache.put("a", a);
        cache.put("b", b);
        QVERIFY(cache.find("a"));  // a is now the most recent
        cache.put("c", c);
        QCOMPARE(cache.size(), std::size_t(2));
        QVERIFY(!cache.find("b"));
        QCOMPARE(cache.find("a")->avg_jct, 1.0);
        QCOMPARE(cache.find("c")->avg_jct, 3.0);
        c.avg_jct = 4;
        cache.put("c", c);  // replaces, no second entry
        QCOMPARE(cache.size(), std::size_t(2));
        QCOMPARE(cache.find("c")->avg_jct, 4.0);
        cache.clear();
        QVERIFY(!cache.find("a"));
    }

    void keyIgnoresNameAndPricesOnly() {
        const Cluster c = builtinCluster("muri-testbed-64");
        const std::string key = whatIfKey(c, "h", "v");
        Cluster renamed = c;
        renamed.name = "another";
        renamed.servers[0].price.basis = PriceBasis::Hourly;
        renamed.servers[0].price.per_hour = 12.5;
        QCOMPARE(whatIfKey(renamed, "h", "v"), key);
        Cluster smaller = c;
        smaller.servers.pop_back();
        QVERIFY(whatIfKey(smaller, "h", "v") != key);
        Cluster retyped = c;
        retyped.servers[0].gpu_type = "A100";
        QVERIFY(whatIfKey(retyped, "h", "v") != key);
        QVERIFY(whatIfKey(c, "other scenario", "v") != key);
        QVERIFY(whatIfKey(c, "h", "other engine") != key);
    }

    void baseHoldsTheStoredRunAndSimulationsMatchTheEngine() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);
        const WhatIfBase before = loadWhatIfBase(store, "demo/srtf");
        QVERIFY(!before.stored);  // not run yet
        QCOMPARE(before.run_id, std::int64_t(0));
        const RunOutcome run = runScenario(store, "demo/srtf");
        const WhatIfBase base = loadWhatIfBase(store, "demo/srtf");
        QCOMPARE(base.run_id, run.run_id);
        QVERIFY(base.stored);
        const SimResult stored = store.loadRun(run.run_id, false);
        QCOMPARE(base.stored->avg_jct, stored.summary.avg_jct);
        QCOMPARE(base.stored->p95_jct, stored.summary.p95_jct);
        QCOMPARE(base.stored->avg_queueing, stored.summary.avg_queueing_delay);
        QCOMPARE(base.stored->gpu_utilization, meanGpuUtilization(stored.series));
        QCOMPARE(base.key, whatIfKey(base.inputs.cluster, base.scenario_hash, base.engine_version));

        // The scenario's own cluster simulated again gives the stored figures exactly.
        const auto again = simulateWhatIf(base, base.inputs.cluster);
        QVERIFY(again && again->problem.empty());
        QCOMPARE(again->avg_jct, base.stored->avg_jct);
        QCOMPARE(again->gpu_utilization, base.stored->gpu_utilization);

        // Two servers fewer: what the engine computes, and worse.
        Cluster smaller = base.inputs.cluster;
        smaller.servers.resize(smaller.servers.size() - 2);
        const auto edited = simulateWhatIf(base, smaller);
        QVERIFY(edited && edited->problem.empty());
        const SimResult direct = simulatePolicy(smaller, base.inputs.trace, base.inputs.profiles,
                                                base.inputs.policy, base.inputs.options, base.inputs.tuning);
        QCOMPARE(edited->avg_jct, direct.summary.avg_jct);
        QCOMPARE(edited->p95_jct, direct.summary.p95_jct);
        QCOMPARE(edited->avg_queueing, direct.summary.avg_queueing_delay);
        QCOMPARE(edited->gpu_utilization, meanGpuUtilization(direct.series));
        QCOMPARE(edited->completed, 400);
        QVERIFY(edited->avg_jct > base.stored->avg_jct);
    }

    void cancelledAndRefusedClusters() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);
        const WhatIfBase base = loadWhatIfBase(store, "demo/srtf");
        QVERIFY(!simulateWhatIf(base, base.inputs.cluster, [](double) { return false; }));
        Cluster one = base.inputs.cluster;
        one.servers.resize(1);  // 8 GPUs; the demo trace has 16-GPU jobs
        const auto refused = simulateWhatIf(base, one);
        QVERIFY(refused);
        QVERIFY2(refused->problem.find("GPU") != std::string::npos, refused->problem.c_str());
        QVERIFY(std::isnan(refused->avg_jct));
        QCOMPARE(refused->jobs, 400);
    }

    void unknownScenarioIsNamed() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);
        try {
            loadWhatIfBase(store, "no/such");
            QFAIL("no error");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("no/such") != std::string::npos, e.what());
        }
    }
};

QTEST_MAIN(TestLiveWhatIfCore)
#include "test_live_what_if_core.moc"
