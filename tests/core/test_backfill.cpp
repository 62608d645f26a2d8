// Backfill and the `slurm` scheduler (docs/architecture.md 4.8), time limits and what jobs ask
// for (section 2.10), each on a hand-made case whose schedule is worked out in the comments.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/io/parse_error.h"
#include "core/metrics/replay_check.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/policies/slurm_config.h"
#include "core/sim/recorded_gpu_types.h"
#include "core/sim/simulator.h"
#include "core/workload/model_assignment.h"
#include "request_test_support.h"

using namespace cl;
using cl::test::server;

namespace {

// A job as a Slurm import gives it: a measured run time and a time limit (so it runs exactly
// that long: no solo factor, no start-up overhead).
Job job(const std::string& id, double submit, int gpus, double duration, double limit) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.duration = duration;
    j.time_limit = limit;
    return j;
}

SimResult run(const Cluster& c, const Trace& t, const std::string& policy, const SlurmConfig& config = {}) {
    static const ProfileSet profiles;
    SchedulerTuning tuning;
    tuning.slurm = config;
    auto scheduler = makeScheduler(policy, Conventions::clean(), tuning);
    SimOptions o;
    o.record_series = false;
    return simulate(c, t, profiles, *scheduler, o);
}

std::vector<double> starts(const SimResult& r) {
    std::vector<double> s;
    for (const auto& j : r.jobs) s.push_back(j.first_start);
    return s;
}

// Slurm acting on every event at once (its agent's one-second latency off), so that the
// schedules below are the textbook's at Slurm's intervals.
SlurmConfig textbookTiming() {
    SlurmConfig config;
    config.event_latency = 0;
    return config;
}

Cluster oneServer(int gpus) {
    Cluster c;
    c.name = "one";
    c.servers = {server("n1", "A100", gpus)};
    return c;
}

// A: 2 of 4 GPUs for 100 s. B wants all 4 at t=1: it can start when A ends (100) and is
// expected to run 50 s. C (2 GPUs, 50 s) fits beside A at once and ends at 52, before B's start:
// backfilling it delays nobody. D (2 GPUs, 200 s) would fit at 52, but would hold 2 GPUs over
// B's start: with reservations it waits for B (150); without (fifo's skip-unfit) it starts at
// 52 and B waits until D ends at 252.
Trace fourJobs() {
    Trace t;
    t.name = "four";
    t.jobs = {job("A", 0, 2, 100, 100), job("B", 1, 4, 50, 50), job("C", 2, 2, 50, 50),
              job("D", 3, 2, 200, 200)};
    return t;
}

}  // namespace

class TestBackfill : public QObject {
    Q_OBJECT
private slots:
    void withoutReservationsTheLargeJobStarves() {
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "fifo")), (std::vector<double>{0, 252, 2, 52}));
    }

    void conservativeAndEasyKeepTheReservation() {
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "fifo+conservative")),
                 (std::vector<double>{0, 100, 2, 150}));
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "fifo+easy")), (std::vector<double>{0, 100, 2, 150}));
    }

    // EASY reserves for the first waiting job only. 8 GPUs. A holds 4 for 100 s. B (6 GPUs,
    // 100 s) is reserved over [100, 200). C (8 GPUs, 50 s): conservative reserves [200, 250),
    // EASY nothing. E (2 GPUs, 250 s, t=3) fits now beside A and leaves B its 6 GPUs at 100,
    // but would hold 2 GPUs over C's reservation: EASY starts it at 3 (C then waits for it, until
    // 253); conservative reserves it after C (250).
    void easyReservesOnlyTheFirstWaitingJob() {
        Trace t;
        t.jobs = {job("A", 0, 4, 100, 100), job("B", 1, 6, 100, 100), job("C", 2, 8, 50, 50),
                  job("E", 3, 2, 250, 250)};
        QCOMPARE(starts(run(oneServer(8), t, "fifo+conservative")), (std::vector<double>{0, 100, 200, 250}));
        QCOMPARE(starts(run(oneServer(8), t, "fifo+easy")), (std::vector<double>{0, 100, 253, 3}));
    }

    // Slurm with bf_interval = bf_resolution = 1: the main scheduler blocks the partition at B
    // (t=1) and at C's arrival (t=2); the backfill pass at t=2 reserves the whole server for B
    // over [100, 150) and starts C (ends 52 <= 100). D (t=3) could start at 52, but its 200 s
    // would overlap B's reservation, so it is reserved after B and started by the main scheduler
    // when B ends at 150.
    void slurmBackfillsAtItsTicks() {
        SlurmConfig config = textbookTiming();
        config.bf_interval = 1;
        config.bf_resolution = 1;
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "slurm", config)),
                 (std::vector<double>{0, 100, 2, 150}));
    }

    // With Slurm's defaults (bf_interval 30 s, bf_resolution 60 s) the first backfill pass is at
    // t=30: B's reservation [100, 150) is kept on the 60-s grid as [60, 120), which C's [30, 80)
    // overlaps, so C is not backfilled. B starts when A ends (100); C and D start when B ends (150).
    void slurmDefaultsReserveOnTheirGrid() {
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "slurm", textbookTiming())),
                 (std::vector<double>{0, 100, 150, 150}));
    }

    // slurmctld acts on a submission or completion at its agent's next one-second tick: the same
    // schedule, each start one second after the event that allows it (A at 1, so B at 102).
    void slurmActsOnEventsAtItsNextTick() {
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "slurm")), (std::vector<double>{1, 102, 153, 153}));
    }

    // sched/builtin: the main scheduler only, strict order: C waits behind B.
    void slurmBuiltinIsStrictPriorityOrder() {
        SlurmConfig config = textbookTiming();
        config.backfill = false;
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "slurm", config)),
                 (std::vector<double>{0, 100, 150, 150}));
    }

    // bf_max_job_test = 1: the backfill pass tests B only (reserved), so C is not backfilled.
    void slurmTestsAtMostBfMaxJobTestJobs() {
        SlurmConfig config = textbookTiming();
        config.bf_interval = 1;
        config.bf_resolution = 1;
        config.bf_max_job_test = 1;
        QCOMPARE(starts(run(oneServer(4), fourJobs(), "slurm", config)),
                 (std::vector<double>{0, 100, 150, 150}));
    }

    // priority/multifactor with fair-share: account a has used the whole server for 100 s when
    // it frees, b nothing, so b's job (submitted after a's second job) starts first; with
    // priority/basic submit order wins.
    void multifactorFairShareFavoursTheAccountThatUsedLess() {
        Trace t;
        t.jobs = {job("a1", 0, 4, 100, 100), job("a2", 10, 4, 10, 10), job("b1", 11, 4, 10, 10)};
        t.jobs[0].account = t.jobs[1].account = "a";
        t.jobs[2].account = "b";
        SlurmConfig config = textbookTiming();
        config.bf_interval = 1;
        config.bf_resolution = 1;
        QCOMPARE(starts(run(oneServer(4), t, "slurm", config)), (std::vector<double>{0, 100, 110}));
        config.multifactor = true;
        config.weight_fairshare = 1000;
        config.priority_calc_period = 1;
        QCOMPARE(starts(run(oneServer(4), t, "slurm", config)), (std::vector<double>{0, 110, 100}));
    }

    // A job still running at its limit ends there: its remaining work is lost, it is not
    // completed, and the GPUs go to the next job at once.
    void aJobEndsAtItsTimeLimit() {
        Trace t;
        t.jobs = {job("long", 0, 4, 100, 60), job("next", 1, 4, 10, 20)};
        const SimResult r = run(oneServer(4), t, "fifo");
        QCOMPARE(r.jobs[0].end, 60.0);
        QVERIFY(r.jobs[0].timed_out && !r.jobs[0].completed);
        QCOMPARE(r.jobs[1].first_start, 60.0);
        QVERIFY(r.jobs[1].completed && !r.jobs[1].timed_out);
        QCOMPARE(r.summary.timed_out, 1);
        QCOMPARE(r.summary.completed, 1);
    }

    // Partitions and GPU types: V100 jobs wait for the V100 server although the A100 one is
    // free; a job asking for A100 goes to the default partition's A100 server; a job larger
    // than its partition is left out, named.
    void jobsKeepTheirPartitionsAndGpuTypes() {
        Cluster c;
        c.name = "two";
        c.servers = {server("a1", "A100", 4, {"gpu-a"}), server("v1", "V100", 4, {"gpu-v"})};
        c.partitions = {{"gpu-a", 1, 0.0, true}, {"gpu-v", 1, 0.0, false}};
        Trace t;
        t.jobs = {job("v-big", 0, 4, 100, 200), job("v-small", 1, 2, 10, 20), job("a", 2, 2, 10, 20),
                  job("v-huge", 3, 8, 10, 20)};
        t.jobs[0].partition = "gpu-v";
        t.jobs[1].partition = "gpu-v";
        t.jobs[2].requested_gpu_type = "A100";
        t.jobs[3].partition = "gpu-v";
        SlurmConfig config = textbookTiming();
        config.bf_interval = 1;
        config.bf_resolution = 1;
        const SimResult r = run(c, t, "slurm", config);
        QCOMPARE(r.jobs[0].first_start, 0.0);
        QCOMPARE(r.jobs[1].first_start, 100.0);
        QCOMPARE(r.jobs[2].first_start, 2.0);
        QCOMPARE(r.left_out.size(), std::size_t(1));
        QCOMPARE(r.left_out[0].reason,
                 std::string("job 'v-huge' (#3) needs 8 GPUs but the servers of partition(s) "
                             "'gpu-v' on cluster 'two' have only 4"));
        // The GPUs each job got are on its servers (GPUs 0-3 are a1's, 4-7 v1's).
        QCOMPARE(r.jobs[2].gpus, 2);
    }

    // The live typed-GRES case of slurm_fidelity (tests/slurm/fidelity_typed_workload.txt) by
    // hand: node n1 with 8 A100 and 8 V100 is the servers n1:a100 (GPUs 0-7) and n1:v100
    // (8-15), in partitions a100q (tier 1, default) and v100q (tier 2). Backfill alone, once a
    // second from t=1. At t=1 the tier puts v100x4 and both_parts first: v100x4 takes 4 V100s;
    // both_parts (untyped) takes 2 A100s, the node's first GPUs, though n1:v100 is the fuller
    // server. a100x8 (6 A100s free) reserves the node from 7 s, so untyped6 (one node) cannot
    // start on the 4 free V100s either; both start at 7 s, a100x8 on the A100s and untyped6 on the
    // V100s. (Slurm started them at 1 and 8 s: its agent acts on the end a second later.)
    void aSlurmNodeWithTwoGpuTypesIsOneNode() {
        Cluster c;
        c.name = "typed";
        c.servers = {server("n1:a100", "A100", 8, {"a100q", "v100q"}),
                     server("n1:v100", "V100", 8, {"a100q", "v100q"})};
        c.partitions = {{"a100q", 1, 0.0, true}, {"v100q", 2, 0.0, false}};
        Trace t;
        t.jobs = {job("a100x8", 0, 8, 6, 60), job("v100x4", 0, 4, 6, 60), job("untyped6", 0, 6, 6, 60),
                  job("both_parts", 0, 2, 6, 60)};
        for (Job& j : t.jobs) j.nodes = 1;
        t.jobs[0].requested_gpu_type = "A100";
        t.jobs[0].partition = "a100q";
        t.jobs[1].requested_gpu_type = "V100";
        t.jobs[1].partition = "v100q";
        t.jobs[2].partition = "a100q";
        t.jobs[3].partition = "v100q,a100q";
        SlurmConfig config = textbookTiming();
        config.bf_interval = 1;
        config.bf_resolution = 1;
        config.main_scheduler = false;  // sched_interval=-1, as in the live case
        SimOptions o;
        o.record_series = false;
        o.record_segments = true;
        auto scheduler = makeScheduler("slurm", Conventions::clean(), SchedulerTuning{.slurm = config});
        const SimResult r = simulate(c, t, ProfileSet{}, *scheduler, o);
        QCOMPARE(starts(r), (std::vector<double>{7, 1, 7, 1}));
        std::vector<std::pair<int, int>> lowest_highest(4, {16, -1});
        for (const GpuSegment& g : r.segments) {
            auto& [low, high] = lowest_highest[static_cast<std::size_t>(g.job)];
            low = std::min(low, g.gpu);
            high = std::max(high, g.gpu);
        }
        QCOMPARE(lowest_highest, (std::vector<std::pair<int, int>>{{0, 7}, {8, 11}, {8, 13}, {0, 1}}));
    }

    // A job from accounting that failed as it started (0 s measured) keeps its 0 s: it never
    // gets a random model.
    void aJobThatFailedAtItsStartKeepsItsZeroRunTime() {
        Job failed = job("failed", 5, 2, 0, 60);
        failed.recorded_start = 5;
        QVERIFY(keepsMeasuredRunTime(failed));
        Trace t;
        t.jobs = {failed};
        QCOMPARE(assignModels(t, std::vector<std::string>{"resnet50"}, 1), std::size_t(0));
        QVERIFY(t.jobs[0].model.empty());
        const SimResult r = run(oneServer(4), t, "fifo");
        QCOMPARE(r.jobs[0].first_start, 5.0);
        QCOMPARE(r.jobs[0].end, 5.0);
    }

    // Accounting that names no GPU type: the type holding most GPUs on the job's servers (two
    // A100 servers against one V100 in partition a; V100 alone in b). A rule-matched job's
    // iterations, counted at the reference GPU, scale by the type's speed; a job with a type, and
    // a generated job (no recorded start, no limit), keep theirs.
    void aJobWithoutARecordedGpuTypeRanOnItsServersType() {
        Cluster c;
        c.name = "site";
        c.servers = {server("a1", "A100", 4, {"a"}), server("a2", "A100", 4, {"a"}),
                     server("v1", "V100", 4, {"a", "b"})};
        c.partitions = {{"a", 1, 0.0, true}, {"b", 1, 0.0, false}};
        ProfileSet profiles;
        profiles.gpu_type_speed["A100"] = 1.6;
        Trace t;
        t.jobs = {job("in-a", 0, 1, 100, 200), job("in-b", 0, 1, 100, 200), job("typed", 0, 1, 100, 200),
                  job("generated", 0, 1, 100, 0), job("matched", 0, 1, 100, 200)};
        t.jobs[1].partition = "b";
        t.jobs[2].gpu_type = "T4";
        t.jobs[4].model = "m";
        t.jobs[4].iterations = 50;
        const RecordedGpuTypes types = inferRecordedGpuTypes(t, c, profiles);
        QCOMPARE(types.inferred, (std::map<std::string, std::size_t>{{"A100", 2}, {"V100", 1}}));
        QCOMPARE(t.jobs[0].gpu_type, std::string("A100"));
        QCOMPARE(t.jobs[1].gpu_type, std::string("V100"));
        QCOMPARE(t.jobs[2].gpu_type, std::string("T4"));
        QVERIFY(t.jobs[3].gpu_type.empty());
        QCOMPARE(t.jobs[4].gpu_type, std::string("A100"));
        QCOMPARE(t.jobs[4].iterations, 80.0);
    }

    // A measured run time is kept on the GPU type it was measured on, and scaled by the speed
    // ratio on another (A100 1.6x the reference V100 here): 20 s on A100 is 32 s on V100.
    void aMeasuredJobRunsItsMeasuredTimeOnItsOwnGpuType() {
        ProfileSet profiles;
        profiles.gpu_type_speed["A100"] = 1.6;
        Trace t;
        t.jobs = {job("m", 0, 1, 20, 60)};
        t.jobs[0].gpu_type = "A100";
        for (const auto& [type, expected] : {std::pair<std::string, double>{"A100", 20.0}, {"V100", 32.0}}) {
            Cluster c;
            c.name = type;
            c.servers = {server("n1", type, 4)};
            auto scheduler = makeScheduler("fifo", Conventions::clean());
            const SimResult r = simulate(c, t, profiles, *scheduler);
            QCOMPARE(r.jobs[0].end, expected);
        }
    }

    // A job a rule matched to a model: the import turned its measured 100 s into 50 iterations of
    // the model's 2 s. It runs exactly those 100 s (no solo factor, no start-up overhead), so its
    // 120 s limit does not end it; a generated job of the same model pays both.
    void aRuleMatchedJobRunsItsMeasuredTime() {
        ProfileSet profiles;
        ModelProfile m;
        m.name = "m";
        GpuCountProfile one;
        one.gpus = 1;
        one.solo_iteration_time = 2.0;
        one.restart_overhead = 10.0;
        m.by_gpus = {one};
        profiles.models["m"] = m;
        Trace t;
        t.jobs = {job("matched", 0, 1, 100, 120)};
        t.jobs[0].model = "m";
        t.jobs[0].iterations = 50;
        auto scheduler = makeScheduler("fifo", Conventions::clean());
        const SimResult r = simulate(oneServer(4), t, profiles, *scheduler);
        QCOMPARE(r.jobs[0].end, 100.0);
        QVERIFY(r.jobs[0].completed);
        Trace generated = t;
        generated.jobs[0].time_limit = 0;
        auto again = makeScheduler("fifo", Conventions::clean());
        const SimResult g = simulate(oneServer(4), generated, profiles, *again);
        QCOMPARE(g.jobs[0].end, 10.0 + 100.0 * Conventions::clean().solo_factor);
    }

    void anUnknownPartitionIsRefusedByName() {
        Cluster c = oneServer(4);
        c.servers[0].partitions = {"gpu"};
        Trace t;
        t.jobs = {job("x", 0, 1, 10, 20)};
        t.jobs[0].partition = "cpu";
        try {
            run(c, t, "slurm");
            QFAIL("no error");
        } catch (const SimulationError& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("job 'x' (#0) asks for partition 'cpu', which cluster 'one' "
                                 "does not have"));
        }
    }

    void slurmConfigIsReadFromScontrolShowConfig() {
        const std::string text =
            "Configuration data as of 2026-11-28T16:00:00\n"
            "PriorityType            = priority/multifactor\n"
            "PriorityMaxAge          = 1-00:00:00\n"
            "PriorityWeightAge       = 1000\n"
            "SchedulerParameters     = bf_interval=2,bf_resolution=1,bf_window=60,bf_continue\n"
            "SchedulerType           = sched/backfill\n"
            "SlurmctldPort           = 6817\n";
        const SlurmConfig c = parseSlurmConfig(text, "config.txt");
        QVERIFY(c.multifactor && c.backfill && c.bf_continue);
        QCOMPARE(c.max_age, 86400.0);
        QCOMPARE(c.weight_age, 1000.0);
        QCOMPARE(c.bf_interval, 2.0);
        QCOMPARE(c.bf_resolution, 1.0);
        QCOMPARE(c.bf_window, 3600.0);
        // What a scenario keeps of it: the settings that differ from the defaults, which give the
        // same configuration back.
        QCOMPARE(slurmParameters(c),
                 (std::vector<std::string>{"bf_interval=2", "bf_window=60", "bf_resolution=1",
                                           "bf_continue=yes", "PriorityType=priority/multifactor",
                                           "PriorityWeightAge=1000", "PriorityMaxAge=1-00:00:00"}));
        SlurmConfig again;
        applySlurmParameters(again, slurmParameters(c));
        QVERIFY(again == c);
        QVERIFY(slurmParameters(SlurmConfig{}).empty());
        SlurmConfig off = c;
        off.main_scheduler = false;
        off.sched_interval = std::numeric_limits<double>::infinity();
        off.backfill = false;
        off.decay_half_life = 90.5;
        SlurmConfig off_again;
        applySlurmParameters(off_again, slurmParameters(off));
        QVERIFY(off_again == off);
        try {
            parseSlurmConfig("SchedulerType = sched/backfill\nPriorityWeightAge = lots\n", "bad.txt");
            QFAIL("no error");
        } catch (const ParseError& e) {
            QCOMPARE(e.line(), 2);
            QCOMPARE(e.field(), std::string("PriorityWeightAge"));
        }
    }

    void replayCheckComparesRecordedStarts() {
        Trace t = fourJobs();
        const std::vector<double> recorded = {0, 100, 2, 150};
        for (std::size_t i = 0; i < t.jobs.size(); ++i) t.jobs[i].recorded_start = recorded[i];
        const ReplayCheck exact = checkReplay(t, run(oneServer(4), t, "fifo+conservative"));
        QCOMPARE(exact.all.jobs, 4);
        QCOMPARE(exact.all.median_difference, 0.0);
        QCOMPARE(exact.all.kendall_tau, 1.0);
        QVERIFY(exact.verdict.rfind("close", 0) == 0);
        // fifo: B 152 s late, D 98 s early; waits 0, 251, 0, 49 against 0, 99, 0, 147.
        const ReplayCheck fifo = checkReplay(t, run(oneServer(4), t, "fifo"));
        QCOMPARE(fifo.all.max_difference, 152.0);
        QCOMPARE(fifo.all.mean_wait_simulated, 75.0);
        QCOMPARE(fifo.all.mean_wait_recorded, 61.5);
        QCOMPARE(fifo.jobs.front().id, std::string("B"));
        // Recorded order A C B D, simulated A C D B: one discordant pair of six.
        QCOMPARE(fifo.all.kendall_tau, 1.0 - 2.0 / 6.0);
    }
};

QTEST_GUILESS_MAIN(TestBackfill)
#include "test_backfill.moc"
