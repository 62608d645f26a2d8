// A sweep stores what direct simulations compute: 4 policies x 3 load factors x 2 seeds on
// trace3 with models reassigned by seed, and the comparison of the stored runs equals the
// comparison of the direct results to the last bit.
#include <QtTest>

#include "shared_data.h"

#include <filesystem>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/io/trace_readers.h"
#include "core/metrics/comparison.h"
#include "core/runs/scenario_runner.h"
#include "core/workload/model_assignment.h"
#include "core/workload/trace_transforms.h"

using namespace cl;

namespace {
const std::string kDir = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/muri-traces";
const std::vector<std::string> kPolicies = {"srtf", "tiresias", "muri-s", "muri-l"};
const std::vector<double> kLoads = {0.5, 1.0, 2.0};
const std::vector<std::uint64_t> kSeeds = {1, 2};
}  // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { REQUIRE_SHARED_DATA(kDir + "/trace3.csv"); }

    void sweepEqualsDirectRunsAndComparesExactly() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        const Cluster cluster = readMuriClusterSpecCsv(kDir + "/cluster_n8g8.csv");
        const Trace trace = readMuriTraceCsv(kDir + "/trace3.csv");
        const ProfileSet profiles = builtinProfiles();

        ScenarioSpec base;
        base.cluster_id = store.putCluster(cluster);
        base.trace_id = store.putTrace(trace);
        base.profiles_id = store.putProfiles(profiles);
        base.parameters.reassign_models = true;
        SweepAxes axes;
        axes.policies = kPolicies;
        axes.load_factors = kLoads;
        axes.seeds = kSeeds;
        const auto specs = expandSweep(store, "t3", base, axes);
        QCOMPARE(specs.size(), std::size_t{24});
        SweepOptions opts;
        opts.threads = 2;
        int progress_calls = 0;
        opts.progress = [&](const SweepProgress&) { ++progress_calls; };
        SweepReport report = runSweep(store, specs, opts);
        QVERIFY2(report.errors.empty(), report.errors.empty() ? "" : report.errors.front().c_str());
        QCOMPARE(report.failed, 0);
        QVERIFY(progress_calls > 0);

        std::vector<ComparisonGroup> stored_groups, direct_groups;
        for (const auto& policy : kPolicies)
            for (double load : kLoads) {
                ComparisonGroup stored, direct;
                stored.label = direct.label = policy + " x" + std::to_string(load);
                for (std::uint64_t seed : kSeeds) {
                    std::size_t i = 0;
                    while (!(specs[i].policy == policy && specs[i].parameters.load_factor == load &&
                             specs[i].seed == seed))
                        ++i;
                    QVERIFY(report.run_ids[i] != 0);
                    SimResult s = store.loadRun(report.run_ids[i], false);

                    Trace t = scaleLoad(trace, load);
                    assignModels(t, profiles.modelNames(), seed, false);
                    SimOptions o;
                    o.record_segments = false;
                    SimResult d =
                        simulatePolicy(cluster, t, profiles, policy, o, SchedulerTuning{.seed = seed});
                    QCOMPARE(s.summary.avg_jct, d.summary.avg_jct);
                    QCOMPARE(s.summary.makespan, d.summary.makespan);
                    QCOMPARE(s.summary.p99_jct, d.summary.p99_jct);
                    QCOMPARE(s.jobs.size(), d.jobs.size());
                    stored.seeds.push_back(seed);
                    stored.runs.push_back(std::move(s));
                    direct.seeds.push_back(seed);
                    direct.runs.push_back(std::move(d));
                }
                stored_groups.push_back(std::move(stored));
                direct_groups.push_back(std::move(direct));
            }
        const Comparison a = compareGroups(stored_groups), b = compareGroups(direct_groups);
        QCOMPARE(formatComparisonCsv(a), formatComparisonCsv(b));
        QCOMPARE(a.rows.size(), std::size_t{12});
        QVERIFY(a.rows[0].avg_jct.n == 2);

        // A second sweep reuses every identical run instead of simulating again.
        SweepReport again = runSweep(store, specs, opts);
        QCOMPARE(again.reused, 24);
        QCOMPARE(again.run_ids, report.run_ids);
    }

    void aBadSettingCreatesNothing() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        ScenarioSpec base;
        base.cluster_id = store.putCluster(readMuriClusterSpecCsv(kDir + "/cluster_n8g8.csv"));
        base.trace_id = store.putTrace(readMuriTraceCsv(kDir + "/trace3.csv"));
        base.profiles_id = store.putProfiles(builtinProfiles());
        SweepAxes axes;
        axes.group_sizes = {2, 3, 7};  // 7 is not a group size
        axes.policies = {"muri-l"};
        const auto specs = expandSweep(store, "bad", base, axes);
        QVERIFY_THROWS_EXCEPTION(StoreError, runSweep(store, specs, {}));
        QCOMPARE(store.scenarios().size(), std::size_t{0});  // the valid ones were rolled back too

        axes.group_sizes = {2, 2};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandSweep(store, "twice", base, axes));
        axes.group_sizes = {};
        axes.load_factors = {0.1234567, 0.1234568};  // distinct values, distinct names
        const auto close = expandSweep(store, "close", base, axes);
        QVERIFY(close[0].name != close[1].name);
    }

    void interruptedSweepKeepsFinishedRuns() {
        QTemporaryDir tmp;
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        ScenarioSpec base;
        base.cluster_id = store.putCluster(readMuriClusterSpecCsv(kDir + "/cluster_n8g8.csv"));
        base.trace_id = store.putTrace(readMuriTraceCsv(kDir + "/trace3.csv"));
        base.profiles_id = store.putProfiles(builtinProfiles());
        SweepAxes axes;
        axes.load_factors = {1, 2, 3, 4};
        const auto specs = expandSweep(store, "cut", base, axes);
        std::atomic<bool> stop{false};
        SweepOptions opts;
        opts.threads = 1;
        opts.stop = &stop;
        opts.progress = [&](const SweepProgress& p) {
            if (p.finished >= 2) stop = true;
        };
        SweepReport report = runSweep(store, specs, opts);
        int finished = 0;
        for (auto id : report.run_ids) finished += id != 0;
        QVERIFY(finished >= 2 && finished < 4);
        for (auto id : report.run_ids)
            if (id) QCOMPARE(store.runInfo(id).status, RunStatus::Finished);
        QCOMPARE(store.scenarios().size(), std::size_t{4});  // all created, the rest can run later
    }
};

QTEST_APPLESS_MAIN(TestSweep)
#include "test_sweep.moc"
