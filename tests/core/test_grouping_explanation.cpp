// Why this grouping (docs/architecture.md section 5.1): the explanation a Muri run records when
// asked names the groups that actually ran, with the group timer's gammas and exact matching
// weights, and asking for it changes nothing in the run.
#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/io/builtin_data.h"
#include "core/model/grouping_explanation.h"
#include "core/policies/muri_group_timer.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/job_resolution.h"
#include "core/sim/simulator.h"
#include "core/workload/trace_generator.h"

using namespace cl;

// The bigger run's size: a third under the sanitizers, where the exact alternative matchings
// run about ten times slower (the sanitizer run's time budget, docs/architecture.md 11).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLUSTERLOOM_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(CLUSTERLOOM_TEST_SANITIZED)
constexpr int kScaleJobs = 200;
#else
constexpr int kScaleJobs = 600;
#endif

namespace {

struct Case {
    Cluster cluster;
    Trace trace;
    ProfileSet profiles = builtinProfiles();
};

// A busy queue on a small cluster: Muri must group to fit its candidates.
Case smallScenario() {
    Case c;
    c.cluster = builtinCluster("muri-testbed-64");
    c.cluster = withServerCount(c.cluster, 2);
    GeneratorConfig g;
    g.jobs = 80;
    g.seed = 7;
    g.jobs_per_hour = 240;
    g.max_gpus = 4;
    c.trace = generate(g, &c.profiles);
    return c;
}

void compareResults(const SimResult& a, const SimResult& b) {
    QCOMPARE(a.jobs.size(), b.jobs.size());
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
        QCOMPARE(a.jobs[i].first_start, b.jobs[i].first_start);
        QCOMPARE(a.jobs[i].jct, b.jobs[i].jct);
        QCOMPARE(a.jobs[i].running_time, b.jobs[i].running_time);
        QCOMPARE(a.jobs[i].pending_time, b.jobs[i].pending_time);
        QCOMPARE(a.jobs[i].restarts, b.jobs[i].restarts);
        QCOMPARE(a.jobs[i].completed, b.jobs[i].completed);
    }
    QCOMPARE(a.segments.size(), b.segments.size());
    for (std::size_t i = 0; i < a.segments.size(); ++i) {
        QCOMPARE(a.segments[i].gpu, b.segments[i].gpu);
        QCOMPARE(a.segments[i].job, b.segments[i].job);
        QCOMPARE(a.segments[i].t0, b.segments[i].t0);
        QCOMPARE(a.segments[i].t1, b.segments[i].t1);
    }
    QCOMPARE(a.summary.avg_jct, b.summary.avg_jct);
    QCOMPARE(a.summary.makespan, b.summary.makespan);
    QCOMPARE(a.series.size(), b.series.size());
}

}  // namespace

class TestGroupingExplanation : public QObject {
    Q_OBJECT

private slots:
    void explanationMatchesTheRun_data() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("muri-s") << "muri-s";
        QTest::newRow("muri-l") << "muri-l";
        QTest::newRow("muri-l-k3") << "muri-l-k3";
    }

    void explanationMatchesTheRun() {
        QFETCH(QString, policy);
        const Case c = smallScenario();
        SimOptions plain;
        const SimResult without = simulatePolicy(c.cluster, c.trace, c.profiles, policy.toStdString(), plain);
        GroupingLog log;
        SimOptions asked;
        asked.grouping_log = &log;
        const SimResult with = simulatePolicy(c.cluster, c.trace, c.profiles, policy.toStdString(), asked);
        compareResults(without, with);
        QVERIFY2(!log.records.empty(), "the scenario groups jobs");

        // Records in time order, each of one GPU count, with the group timer's gamma.
        MuriGroupTimer timer{Contention{}};
        std::vector<int> type_of(c.trace.jobs.size());
        for (std::size_t j = 0; j < c.trace.jobs.size(); ++j) {
            const ResolvedJob r =
                resolveJob(c.trace.jobs[j], static_cast<int>(j), c.profiles, plain.conventions);
            type_of[j] = timer.typeOf(r.stage_times, r.solo_iteration_time);
        }
        bool any_alternative = false;
        for (std::size_t i = 0; i < log.records.size(); ++i) {
            const GroupingRecord& r = log.records[i];
            if (i > 0) QVERIFY(log.records[i - 1].time <= r.time);
            QVERIFY(r.jobs.size() >= 2);
            std::vector<int> types;
            for (int j : r.jobs) {
                QCOMPARE(with.jobs[static_cast<std::size_t>(j)].gpus, r.gpus);
                types.push_back(type_of[static_cast<std::size_t>(j)]);
            }
            QCOMPARE(r.gamma, timer.efficiency(types, false));
            QVERIFY(r.speedup > 0);
            QVERIFY(r.round >= 0);
            QVERIFY(r.alternatives.size() <= 2);
            for (std::size_t k = 0; k < r.alternatives.size(); ++k) {
                const GroupingAlternative& alt = r.alternatives[k];
                any_alternative = true;
                // The winning matching is maximum: no alternative does better.
                QVERIFY2(alt.matching_weight <= r.matching_weight,
                         qPrintable(QString("%1 > %2").arg(alt.matching_weight).arg(r.matching_weight)));
                if (k > 0) QVERIFY(r.alternatives[k - 1].gamma >= alt.gamma);
                std::vector<int> alt_types;
                for (int j : alt.jobs) alt_types.push_back(type_of[static_cast<std::size_t>(j)]);
                QCOMPARE(std::round(alt.gamma * 1e6), std::round(timer.efficiency(alt_types, false) * 1e6));
                std::multiset<int> mix(alt_types.begin(), alt_types.end());
                QVERIFY(mix != std::multiset<int>(types.begin(), types.end()));
            }
        }
        QVERIFY(any_alternative);

        // Every job that shares a GPU shares it with the mates its record names, and the
        // explanation's groups ran: each member has a segment on the same GPUs from the record on.
        std::size_t shared_segments = 0;
        for (const GpuSegment& s : with.segments) {
            for (const GpuSegment& o : with.segments) {
                if (o.gpu != s.gpu || o.job == s.job || !(o.t0 < s.t1 && s.t0 < o.t1)) continue;
                const GroupingRecord* g = log.groupOf(s.job, std::max(s.t0, o.t0));
                QVERIFY2(g, qPrintable(QString("job %1 shares at %2 unexplained").arg(s.job).arg(s.t0)));
                QVERIFY2(
                    std::find(g->jobs.begin(), g->jobs.end(), o.job) != g->jobs.end(),
                    qPrintable(
                        QString("job %1 shares with %2 at %3, not a mate").arg(s.job).arg(o.job).arg(s.t0)));
                ++shared_segments;
            }
        }
        QVERIFY(shared_segments > 0);
        // Conversely, a recorded group that ran from its decision on ran on one set of GPUs.
        std::size_t ran = 0;
        for (const GroupingRecord& r : log.records) {
            std::vector<std::set<int>> gpus(r.jobs.size());
            for (const GpuSegment& s : with.segments)
                for (std::size_t k = 0; k < r.jobs.size(); ++k)
                    if (s.job == r.jobs[k] && s.t0 <= r.time && r.time < s.t1) gpus[k].insert(s.gpu);
            if (std::any_of(gpus.begin(), gpus.end(), [](const std::set<int>& g) { return g.empty(); }))
                continue;
            ++ran;
            for (std::size_t k = 1; k < gpus.size(); ++k) QCOMPARE(gpus[k], gpus[0]);
            QCOMPARE(static_cast<int>(gpus[0].size()), r.gpus);
        }
        QVERIFY(ran > 0);
        qInfo("%s: %zu records, %zu ran from their decision, %zu shared segment pairs", qPrintable(policy),
              log.records.size(), ran, shared_segments);
    }

    // A bigger run (64 GPUs, up to 16 per job, deeper queues: rounds of the type-compressed
    // solver): the same results with the log, and what the log costs (printed, not asserted).
    void sameRunAtScaleAndWhatTheLogCosts() {
        Case c;
        c.cluster = builtinCluster("muri-testbed-64");
        GeneratorConfig g;
        g.jobs = kScaleJobs;
        g.seed = 3;
        g.jobs_per_hour = 120;
        g.max_gpus = 16;
        c.trace = generate(g, &c.profiles);
        QElapsedTimer clock;
        clock.start();
        const SimResult without = simulatePolicy(c.cluster, c.trace, c.profiles, "muri-l", {});
        const qint64 plain_ms = clock.restart();
        GroupingLog log;
        SimOptions asked;
        asked.grouping_log = &log;
        const SimResult with = simulatePolicy(c.cluster, c.trace, c.profiles, "muri-l", asked);
        const qint64 logged_ms = clock.elapsed();
        compareResults(without, with);
        QVERIFY(!log.records.empty());
        for (const GroupingRecord& r : log.records)
            for (const GroupingAlternative& alt : r.alternatives)
                QVERIFY(alt.matching_weight <= r.matching_weight);
        qInfo("muri-l, %d jobs on 64 GPUs: %lld ms without the log, %lld ms with it (%zu records)",
              kScaleJobs, plain_ms, logged_ms, log.records.size());
    }
};

QTEST_APPLESS_MAIN(TestGroupingExplanation)
#include "test_grouping_explanation.moc"
