// What the desktop's run control relies on: the demo workspace, what-if variants named like a
// sweep, and runs that store nothing until they have finished (Stop leaves no trace).
#include <QtTest>

#include <stdexcept>

#include "core/model/server_architecture.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/scenario_runner.h"
#include "core/runs/what_if_variants.h"

using namespace cl;

class TestWhatIfRuns : public QObject {
    Q_OBJECT

private slots:
    void demoWorkspaceIsCreatedOnce() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        const auto names = populateDemoWorkspace(store);
        QCOMPARE(names, demoScenarioNames());
        QCOMPARE(store.scenarios().size(), names.size());
        QCOMPARE(store.scenario("demo/muri-s").spec.policy, std::string("muri-s"));
        // A renamed demo scenario is left alone; the missing name comes back.
        store.renameScenario("demo/fifo", "mine");
        QCOMPARE(populateDemoWorkspace(store), names);
        QCOMPARE(store.scenarios().size(), names.size() + 1);
        // Each workload is its own family: demo/ holds only the demo trace's scenarios.
        for (const ScenarioInfo& s : store.scenarios())
            if (s.spec.name.rfind("demo/", 0) == 0)
                QCOMPARE(s.spec.trace_id, store.scenario("demo/muri-s").spec.trace_id);
        // A workspace of an older version had SJF-BSBF's and Synergy's demos in demo/: they are
        // renamed into their families, their runs kept.
        store.renameScenario("demo-sjf/sjf-bsbf", "demo/sjf-bsbf");
        store.renameScenario("demo-synergy/tune", "demo/synergy-tune");
        const std::int64_t run = runScenario(store, "demo/sjf-bsbf").run_id;
        QCOMPARE(populateDemoWorkspace(store), names);
        QCOMPARE(store.scenarios().size(), names.size() + 1);
        QVERIFY(!store.findScenario("demo/sjf-bsbf") && !store.findScenario("demo/synergy-tune"));
        QCOMPARE(store.runInfo(run).scenario_name, std::string("demo-sjf/sjf-bsbf"));
        // The Muri, Synergy and SJF-BSBF demos: one cluster and one trace each, stored once;
        // the backlog demo adds its trace on the Muri cluster; the fat-tree demo adds its
        // cluster and reuses the demo trace.
        QCOMPARE(store.clusters().size(), std::size_t{4});
        QCOMPARE(store.traces().size(), std::size_t{4});
        QCOMPARE(store.scenario("demo-backlog/muri-l").spec.cluster_id,
                 store.scenario("demo/fifo").spec.cluster_id);
        QCOMPARE(store.scenario("demo-synergy/tune").spec.policy, std::string("fifo+tune"));
        QCOMPARE(store.scenario("demo-synergy/tune").spec.parameters.server_count, 4);
        QCOMPARE(store.scenario("demo-sjf/sjf-bsbf").spec.policy, std::string("sjf-bsbf"));
        QCOMPARE(store.scenario("demo-sjf/sjf-ffs").spec.policy, std::string("sjf-ffs"));
        const ScenarioInfo sjf = store.scenario("demo-sjf/sjf-bsbf");
        QCOMPARE(store.cluster(sjf.spec.cluster_id).totalGpus(), 16);
        const Trace trace = store.trace(sjf.spec.trace_id);
        QCOMPARE(trace.jobs.size(), std::size_t{60});
        QVERIFY(trace.jobs.back().submit_time <= 7200.0);
        for (const Job& j : trace.jobs) QVERIFY(j.gpus >= 1 && j.gpus <= 8 && j.batch_size > 0);

        const ScenarioInfo fat_tree = store.scenario("demo/fat-tree-fifo");
        QCOMPARE(fat_tree.spec.policy, std::string("fifo"));
        QCOMPARE(fat_tree.spec.trace_id, store.scenario("demo/fifo").spec.trace_id);
        const Cluster ft = store.cluster(fat_tree.spec.cluster_id);
        QCOMPARE(ft.servers.size(), std::size_t{16});
        QCOMPARE(ft.totalGpus(), 64);
        QVERIFY(ft.topology.kind == TopologyKind::FatTree);
        QCOMPARE(ft.servers[0].architecture, architecturePreset("power8-4gpu").architecture);
    }

    void variantsAreNamedLikeASweep() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);
        const ScenarioInfo base = store.scenario("demo/srtf");

        auto same = whatIfVariants(store, base, {"srtf", "fifo", "srtf"}, 1.0, 0);
        QCOMPARE(same.size(), std::size_t{2});
        QCOMPARE(same[0].name, std::string("demo/srtf"));
        QCOMPARE(same[1].name, std::string("demo/srtf/fifo"));
        QCOMPARE(same[1].policy, std::string("fifo"));

        auto bigger = whatIfVariants(store, base, {"srtf"}, 2.0, 16);
        QCOMPARE(bigger.size(), std::size_t{1});
        QCOMPARE(bigger[0].name, std::string("demo/srtf/n16/x2/srtf"));
        QCOMPARE(bigger[0].parameters.load_factor, 2.0);
        QCOMPARE(bigger[0].parameters.server_count, 16);

        const auto created = createSweepScenarios(store, bigger);
        QCOMPARE(created.size(), std::size_t{1});
        QVERIFY(store.findScenario("demo/srtf/n16/x2/srtf").has_value());
        // Asking again finds the same scenario instead of failing.
        QCOMPARE(createSweepScenarios(store, bigger).front().id, created.front().id);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, whatIfVariants(store, base, {}, 1.0, 0));
    }

    void interferenceVariantsOnlyForSharingPolicies() {
        QVERIFY(policyUsesInterference("sjf-bsbf"));
        QVERIFY(policyUsesInterference("sjf-ffs"));
        QVERIFY(policyUsesInterference("fifo+bsbf"));
        QVERIFY(policyUsesInterference("srtf+ffs+firstfit"));
        QVERIFY(!policyUsesInterference("fifo"));
        QVERIFY(!policyUsesInterference("muri-s"));
        QVERIFY(!policyUsesInterference("fifo+tune"));

        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);
        const ScenarioInfo base = store.scenario("demo-sjf/sjf-bsbf");
        // The base's own ratio (0 = the profile's) is the base scenario itself.
        QCOMPARE(whatIfVariants(store, base, {"sjf-bsbf"}, 1.0, 0, 0.0).front().name,
                 std::string("demo-sjf/sjf-bsbf"));
        auto xi = whatIfVariants(store, base, {"sjf-bsbf", "sjf-ffs", "fifo"}, 1.0, 0, 1.2);
        QCOMPARE(xi.size(), std::size_t{3});
        QCOMPARE(xi[0].name, std::string("demo-sjf/sjf-bsbf/sjf-bsbf/xi1.2"));
        QCOMPARE(xi[0].parameters.interference, 1.2);
        QCOMPARE(xi[1].name, std::string("demo-sjf/sjf-bsbf/sjf-ffs/xi1.2"));
        QCOMPARE(xi[2].name, std::string("demo-sjf/sjf-bsbf/fifo"));
        QCOMPARE(xi[2].parameters.interference, 0.0);
        QCOMPARE(createSweepScenarios(store, xi).size(), std::size_t{3});
    }

    void runsAreStoredOnlyWhenTheyEnd() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);

        // Cancelled at the first progress check: nothing in the store.
        const RunOutcome stopped =
            runScenarioStoringOnlyOutcomes(store, "demo/fifo", false, [](double) { return false; });
        QCOMPARE(stopped.run_id, std::int64_t{0});
        QVERIFY(store.runs().empty());

        const RunOutcome done = runScenarioStoringOnlyOutcomes(store, "demo/fifo");
        QVERIFY(done.run_id > 0);
        QVERIFY(!done.reused);
        QCOMPARE(done.info.status, RunStatus::Finished);
        QCOMPARE(store.runs().size(), std::size_t{1});
        QVERIFY(runScenarioStoringOnlyOutcomes(store, "demo/fifo").reused);
    }
};

QTEST_MAIN(TestWhatIfRuns)
#include "test_what_if_runs.moc"
