// Numbers at the edges, under every policy the registry can build: zero jobs, a job larger
// than the cluster, zero-length jobs, 1,024-GPU jobs, arrivals years apart, 10 million
// iterations; and absurd numbers in trace files. Each input runs to a sane result or is
// refused with an exception naming the job (or file, line and field) and the reason; none
// hangs: idle stretches and periodic rounds are skipped, not stepped through.
//
// Decision on a job larger than the cluster (docs/architecture.md 2.10): it is left out before
// the run and named with its reason in SimResult::left_out ("job 'ID' (#N) needs G GPUs but
// cluster 'C' has only T"), never silently; with SimOptions::strict the whole simulation is
// refused up front with that message instead.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/io/parse_error.h"
#include "core/io/trace_readers.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/workload/trace_generator.h"

using namespace cl;

namespace {

const std::string kEdge = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/edge/";
constexpr double kYear = 365.0 * 24 * 3600;

// Every name the registry accepts: presets, each order alone, each order with each mechanism
// and each placement it takes.
std::vector<std::string> allPolicies() {
    std::vector<std::string> names = presetNames();
    names.push_back("muri-l-noise=0.2");
    for (const auto& order : orderNames()) {
        names.push_back(order);
        for (const auto& mechanism : mechanismNames()) names.push_back(order + "+" + mechanism);
        for (const auto& placement : placementNames()) names.push_back(order + "+" + placement);
    }
    std::vector<std::string> valid;
    for (const auto& n : names) {
        try {
            makeScheduler(n, Conventions::clean());
            valid.push_back(n);
        } catch (const std::invalid_argument&) {
        }
    }
    return valid;
}

Job job(const std::string& id, double submit, int gpus, double iterations, double iteration_time = 1.0) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.iterations = iterations;
    j.solo_iteration_time = iteration_time;
    return j;
}

Cluster grid(int servers, int gpus_per_server) {
    Cluster c;
    c.name = std::to_string(servers) + "x" + std::to_string(gpus_per_server);
    for (int s = 0; s < servers; ++s) {
        Server v;
        v.name = "s" + std::to_string(s);
        v.gpus = gpus_per_server;
        v.cpu_cores = 3 * gpus_per_server;
        v.memory_gb = 62.5 * gpus_per_server;
        c.servers.push_back(v);
    }
    return c;
}

// Every job ended, after it arrived, no sooner than its solo length allows at the fastest
// sharing speed-up any mechanism grants (Synergy's tune: at most 3x), nothing NaN or infinite.
void checkSane(const Trace& t, const SimResult& r, const std::string& policy) {
    QVERIFY2(r.jobs.size() == t.jobs.size(), policy.c_str());
    for (const JobRecord& j : r.jobs) {
        const std::string where = policy + ": job " + j.id;
        QVERIFY2(j.completed, where.c_str());
        QVERIFY2(std::isfinite(j.end) && std::isfinite(j.jct) && std::isfinite(j.first_start), where.c_str());
        QVERIFY2(j.end >= j.submit && j.first_start >= j.submit && j.end >= j.first_start, where.c_str());
        QVERIFY2(j.jct >= j.iterations * j.solo_iteration_time / 3.0 - 1e-6, where.c_str());
    }
    if (!r.jobs.empty()) {
        const Summary& s = r.summary;
        QVERIFY2(std::isfinite(s.avg_jct) && std::isfinite(s.makespan) && std::isfinite(s.p99_jct),
                 policy.c_str());
        QCOMPARE(s.completed, static_cast<int>(t.jobs.size()));
    }
}

SimResult runQuietly(const Cluster& c, const Trace& t, const std::string& policy, bool strict = false) {
    static const ProfileSet profiles = builtinProfiles();
    SimOptions o;
    o.record_series = false;
    o.strict = strict;
    return simulatePolicy(c, t, profiles, policy, o);
}

// What a policy's periodic rounds may cost: one event per round while jobs run, unless its
// rounds only place waiting jobs (then the engine skips them).
double roundEvents(const std::string& policy, double span) {
    const auto s = makeScheduler(policy, Conventions::clean());
    if (s->roundInterval() <= 0 || s->roundsOnlyPlaceWaitingJobs() || s->roundsRepeatWhenUnchanged(2))
        return 0.0;
    return span / s->roundInterval();
}

}  // namespace

class TestEdgeInputs : public QObject {
    Q_OBJECT

private slots:
    void registryHasManyPolicies() {
        const auto all = allPolicies();
        QVERIFY(all.size() > 60);
        for (const char* p : {"muri-s", "muri-l", "sjf-bsbf", "sjf-ffs", "tiresias", "fifo", "fifo+tune",
                              "las+opt", "themis", "antman"})
            QVERIFY2(std::find(all.begin(), all.end(), p) != all.end(), p);
    }

    void zeroJobsRunUnderEveryPolicy() {
        const Trace empty;
        const Cluster c = builtinCluster("muri-testbed-64");
        for (const auto& p : allPolicies()) {
            const SimResult r = runQuietly(c, empty, p);
            QVERIFY2(r.jobs.empty() && r.events == 0 && !r.cancelled, p.c_str());
            QCOMPARE(r.summary.jobs, 0);
            QCOMPARE(r.summary.completed, 0);
        }
    }

    void headerOnlyTraceIsZeroJobs() {
        const Trace t = readTrace(kEdge + "header_only.csv");
        QCOMPARE(t.jobs.size(), std::size_t(0));
        const SimResult r = runQuietly(builtinCluster("muri-testbed-64"), t, "srtf");
        QCOMPARE(r.summary.jobs, 0);
    }

    void jobLargerThanClusterIsLeftOutNamedByEveryPolicy() {
        Trace t;
        t.jobs = {job("small", 0, 4, 10), job("huge", 5, 65, 10)};
        const Cluster c = builtinCluster("muri-testbed-64");
        for (const auto& p : allPolicies()) {
            const SimResult r = runQuietly(c, t, p);
            QCOMPARE(r.left_out.size(), std::size_t(1));
            QCOMPARE(r.left_out[0].index, 1);
            QCOMPARE(r.left_out[0].reason,
                     std::string("job 'huge' (#1) needs 65 GPUs but cluster 'muri-testbed-64' has only 64"));
            QVERIFY2(r.jobs[0].completed && !r.jobs[1].completed && std::isnan(r.jobs[1].first_start),
                     p.c_str());
            QCOMPARE(r.summary.completed, 1);
        }
    }

    void jobLargerThanClusterIsRefusedByEveryPolicyWhenStrict() {
        Trace t;
        t.jobs = {job("small", 0, 4, 10), job("huge", 5, 65, 10)};
        const Cluster c = builtinCluster("muri-testbed-64");
        for (const auto& p : allPolicies()) {
            try {
                runQuietly(c, t, p, /*strict=*/true);
                QFAIL(("no error under " + p).c_str());
            } catch (const SimulationError& e) {
                QCOMPARE(
                    std::string(e.what()),
                    std::string("job 'huge' (#1) needs 65 GPUs but cluster 'muri-testbed-64' has only 64"));
            }
        }
    }

    void zeroLengthJobsEndOnArrival() {
        Trace t;
        t.jobs = {job("no-iterations", 0, 1, 0), job("real", 0, 2, 100), job("zero-seconds", 50, 8, 0)};
        Job by_duration = job("zero-duration", 70, 4, 0, 0.0);
        by_duration.duration = 0.0;
        t.jobs.push_back(by_duration);
        const Cluster c = builtinCluster("muri-testbed-64");
        for (const auto& p : allPolicies()) {
            const SimResult r = runQuietly(c, t, p);
            checkSane(t, r, p);
            QCOMPARE(r.jobs[0].jct, 0.0);
            QCOMPARE(r.jobs[2].end, 50.0);
            QCOMPARE(r.jobs[3].end, 70.0);
        }
    }

    void thousandGpuJobsRun() {
        // Two 1,024-GPU jobs and small ones on 2,048 GPUs (256 servers x 8).
        Trace t;
        t.jobs = {job("wide-a", 0, 1024, 3600), job("wide-b", 10, 1024, 1800), job("s1", 20, 8, 600),
                  job("wide-c", 30, 1024, 100), job("s2", 40, 1, 60)};
        const Cluster c = grid(256, 8);
        for (const auto& p : allPolicies()) {
            const SimResult r = runQuietly(c, t, p);
            checkSane(t, r, p);
            QVERIFY2(r.events < 1000, p.c_str());
        }
    }

    void yearsOfIdleTimeAreSkipped() {
        // Arrivals three years apart: the engine jumps over the idle years (a policy with
        // 60 s or 300 s rounds would otherwise step through ~1.6 million empty rounds).
        Trace t;
        t.jobs = {job("first", 0, 2, 600), job("later", 3 * kYear, 4, 600), job("last", 6 * kYear, 1, 30)};
        const Cluster c = builtinCluster("muri-testbed-64");
        for (const auto& p : allPolicies()) {
            const SimResult r = runQuietly(c, t, p);
            checkSane(t, r, p);
            QVERIFY2(r.events < 200, (p + ": " + std::to_string(r.events) + " events").c_str());
            QVERIFY2(r.jobs[2].end >= 6 * kYear + 30 - 1e-6, p.c_str());
        }
    }

    void yearsApartFileRuns() {
        const Trace t = readTrace(kEdge + "years_apart.csv");
        QCOMPARE(t.jobs.size(), std::size_t(3));
        const SimResult r = runQuietly(builtinCluster("muri-testbed-64"), t, "sjf-bsbf");
        checkSane(t, r, "sjf-bsbf");
    }

    void tenMillionIterationsStayBounded() {
        // 10^7 one-second iterations (116 days) beside a short job arriving later: the events
        // are the arrivals, completions and policy wake-ups, not one per iteration.
        Trace t;
        t.jobs = {job("long", 0, 4, 1e7), job("short", 1000, 4, 100), job("later", 2e6, 8, 1e7, 0.01)};
        const Cluster c = builtinCluster("muri-testbed-64");
        for (const auto& p : allPolicies()) {
            const SimResult r = runQuietly(c, t, p);
            checkSane(t, r, p);
            QVERIFY2(r.events < 1000 + roundEvents(p, r.summary.makespan),
                     (p + ": " + std::to_string(r.events) + " events").c_str());
            QVERIFY2(r.jobs[0].end >= 1e7 / 3, p.c_str());
        }
    }

    void decadesLongJobIsRefused() {
        // 1e300 s (a reader may let it through as a finite number) and 11 years: refused up
        // front by every policy instead of being simulated round after round.
        for (double seconds : {1e300, 11 * kYear}) {
            Trace t;
            t.jobs = {job("ok", 0, 1, 10), job("endless", 1, 2, seconds)};
            for (const auto& p : allPolicies()) {
                try {
                    runQuietly(builtinCluster("muri-testbed-64"), t, p);
                    QFAIL(("no error under " + p).c_str());
                } catch (const SimulationError& e) {
                    const std::string what = e.what();
                    QVERIFY2(what.rfind("job 'endless' (#1) would run ", 0) == 0, what.c_str());
                    QVERIFY2(what.find(" s alone, more than the 10 years (3.2e8 s) a simulation accepts") !=
                                 std::string::npos,
                             what.c_str());
                }
            }
        }
    }

    void submitTimeBeyondRoundPrecisionIsRefused() {
        // Past ~1e12 s a round number (time / interval) is no longer an exact double; such a
        // submit time is a unit mistake (milliseconds or a date read as seconds).
        Trace t;
        t.jobs = {job("ok", 0, 1, 10), job("far", 2e12, 1, 10)};
        for (const auto& p : allPolicies()) {
            try {
                runQuietly(builtinCluster("muri-testbed-64"), t, p);
                QFAIL(("no error under " + p).c_str());
            } catch (const SimulationError& e) {
                QCOMPARE(std::string(e.what()),
                         std::string(
                             "job 'far' (#1) is submitted at 2e+12 s, later than the 1e12 s (31,700 years) a "
                             "simulation accepts"));
            }
        }
    }

    void skippingIdleRoundsChangesNoResult_data() {
        QTest::addColumn<QString>("catalog");
        QTest::addColumn<QString>("cluster");
        QTest::addColumn<double>("rate");
        QTest::addColumn<QString>("conventions");
        QTest::newRow("muri") << "muri"
                              << "sjf-bsbf-16" << 200.0 << "clean";
        // The artifact charges the restart overhead in every interval between events, so each
        // round counts there and none may be skipped.
        QTest::newRow("muri, artifact conventions") << "muri"
                                                    << "sjf-bsbf-16" << 200.0 << "muri-artifact";
        QTest::newRow("synergy") << "synergy"
                                 << "synergy-128" << 200.0 << "clean";
    }

    void skippingIdleRoundsChangesNoResult() {
        // Busy stretches (queues) and idle ones (nobody waits) under every policy whose rounds
        // the engine skips while nobody waits: every job ends at the same time either way.
        QFETCH(QString, catalog);
        QFETCH(QString, cluster);
        QFETCH(double, rate);
        QFETCH(QString, conventions);
        const Conventions conv = Conventions::byName(conventions.toStdString());
        const ProfileSet profiles = builtinProfiles(catalog.toStdString());
        GeneratorConfig g;
        g.jobs = 24;
        g.seed = 2;
        g.jobs_per_hour = rate;
        g.max_gpus = 8;
        g.task_catalog = catalog.toStdString();
        const Trace t = generate(g, &profiles);
        Cluster c = builtinCluster(cluster.toStdString());
        c.servers.resize(2);  // a small cluster, for queues
        int compared = 0, queued = 0;
        std::vector<std::string> differences;
        for (const auto& p : allPolicies()) {
            std::unique_ptr<Scheduler> s;
            try {
                s = makeScheduler(p, conv);
            } catch (const std::invalid_argument&) {
                continue;  // a policy these conventions do not support
            }
            if (s->roundInterval() <= 0 ||
                !(s->roundsOnlyPlaceWaitingJobs() || s->roundsRepeatWhenUnchanged(1)))
                continue;
            SimOptions o;
            o.conventions = conv;
            o.record_series = false;
            SimResult skipped, every;
            std::string skipped_error, every_error;
            try {
                skipped = simulatePolicy(c, t, profiles, p, o);
            } catch (const SimulationError& e) {
                skipped_error = e.what();
            }
            o.skip_idle_rounds = false;
            try {
                every = simulatePolicy(c, t, profiles, p, o);
            } catch (const SimulationError& e) {
                every_error = e.what();
            }
            ++compared;
            if (!skipped_error.empty() || !every_error.empty()) {
                // e.g. greedy never placing a job whose best-case ask fits no server: the same
                // refusal either way.
                if (skipped_error != every_error)
                    differences.push_back(p + ": " + skipped_error + " vs " + every_error);
                continue;
            }
            if (conv.overhead_every_interval ? skipped.events != every.events
                                             : skipped.events >= every.events)
                differences.push_back(
                    p + (conv.overhead_every_interval ? ": rounds skipped" : ": no round skipped"));
            for (std::size_t j = 0; j < t.jobs.size(); ++j) {
                if (std::abs(skipped.jobs[j].end - every.jobs[j].end) > 1e-6 * every.jobs[j].end ||
                    skipped.jobs[j].preemptions != every.jobs[j].preemptions) {
                    differences.push_back(p + ": job " + t.jobs[j].id + " ends at " +
                                          std::to_string(skipped.jobs[j].end) + " vs " +
                                          std::to_string(every.jobs[j].end));
                    break;
                }
            }
            for (const JobRecord& j : every.jobs) queued += j.queueing_delay > 0;
        }
        for (const auto& d : differences) qWarning("%s", d.c_str());
        QVERIFY2(differences.empty(), differences.empty() ? "" : differences.front().c_str());
        QVERIFY(compared > 20);
        QVERIFY2(queued > compared,
                 ("too few jobs waited (" + std::to_string(queued) + " in " + std::to_string(compared) +
                  " policies): the busy stretches were not tested")
                     .c_str());
    }

    void hugeDurationFromAFileIsRefusedBeforeRunning() {
        // The CSV reader takes 1e300 as a finite duration; the engine refuses the job.
        const Trace t = readTrace(kEdge + "huge_duration.csv");
        QVERIFY_THROWS_EXCEPTION(SimulationError,
                                 runQuietly(builtinCluster("muri-testbed-64"), t, "sjf-bsbf"));
    }

    void absurdNumbersInFilesNameFileLineAndField_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("field");
        QTest::newRow("negative duration") << "negative_duration.csv" << 3 << "duration";
        QTest::newRow("NaN duration") << "nan_duration.csv" << 3 << "duration";
        QTest::newRow("GPUs beyond int") << "gpus_beyond_int.csv" << 3 << "gpus";
        QTest::newRow("negative GPUs") << "negative_gpus.csv" << 3 << "gpus";
        QTest::newRow("zero GPUs") << "zero_gpus.csv" << 3 << "gpus";
        QTest::newRow("infinite submit time") << "inf_submit.csv" << 3 << "submit_time";
    }

    void absurdNumbersInFilesNameFileLineAndField() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, field);
        try {
            const Trace t = readTrace(kEdge + file.toStdString());
            QFAIL(("read without error: " + std::to_string(t.jobs.size()) + " jobs").c_str());
        } catch (const ParseError& e) {
            QVERIFY2(e.file().find(file.toStdString()) != std::string::npos, e.what());
            QCOMPARE(e.line(), line);
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }
};

QTEST_APPLESS_MAIN(TestEdgeInputs)
#include "test_edge_inputs.moc"
