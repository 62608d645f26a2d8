// What the desktop's run control relies on: the demo workspace, what-if variants named like a
// sweep, and runs that store nothing until they have finished (Stop leaves no trace).
#include <QtTest>

#include <stdexcept>

#include "core/store/demo_workspace.h"
#include "core/store/scenario_runner.h"
#include "core/store/what_if_variants.h"

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
        // The Muri demo and the Synergy demo: one cluster and one trace each, stored once.
        QCOMPARE(store.clusters().size(), std::size_t{2});
        QCOMPARE(store.traces().size(), std::size_t{2});
        QCOMPARE(store.scenario("demo/synergy-tune").spec.policy, std::string("fifo+tune"));
        QCOMPARE(store.scenario("demo/synergy-tune").spec.parameters.server_count, 4);
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

    void runsAreStoredOnlyWhenTheyEnd() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        populateDemoWorkspace(store);

        // Cancelled at the first progress check: nothing in the store.
        const RunOutcome stopped = runScenarioStoringOnlyOutcomes(store, "demo/fifo", false, [](double) { return false; });
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
