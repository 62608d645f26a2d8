// The engine's guards on a scheduler's decision (docs/architecture.md section 2.4), driven by small
// fake schedulers that implement cl::Scheduler directly: every invalid decision is refused with a
// SimulationError naming the policy and the fault. Plus valid fake schedulers whose exact JCTs
// are computed by hand: strict FIFO, and a preemptive "newest first" order that preempts and
// resumes a job (the restart overhead is paid on every start and resume, section 2.5).
#include <QtTest>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "core/sim/scheduler.h"
#include "core/sim/simulator.h"
#include "error_capture.h"
#include "sim_test_support.h"

using namespace cl;
using cl::test::errorOf;
using cl::test::expectError;
using cl::test::job;
using cl::test::oneServer;

namespace {

Trace traceOf(std::vector<Job> jobs) {
    Trace t;
    t.name = "guards";
    t.jobs = std::move(jobs);
    return t;
}

ProfileSet overhead(double seconds) {
    ProfileSet p;
    p.default_restart_overhead = seconds;
    return p;
}

// Clean conventions without the solo factor, so that JCTs are whole seconds.
SimOptions exact() {
    SimOptions o;
    o.conventions.solo_factor = 1.0;
    return o;
}

Assignment assign(int job, std::vector<int> gpus) {
    Assignment a;
    a.job = job;
    a.gpus = std::move(gpus);
    return a;
}

// A scheduler whose decisions come from a function of the input and of the call number.
class ScriptedScheduler : public Scheduler {
public:
    using Script = std::function<Decision(const SchedulerInput&, int call)>;
    ScriptedScheduler(std::string name, Script script) : name_(std::move(name)), script_(std::move(script)) {}
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& in) override { return script_(in, calls_++); }

private:
    std::string name_;
    Script script_;
    int calls_ = 0;
};

// Keeps every running job on its GPUs and starts waiting jobs in the order given by `before`
// (a strict weak order on JobState) on the lowest free GPUs, while they fit; with `preempt`,
// running jobs are ranked too and those outside the admitted set are preempted. Without
// `backfill`, the first waiting job that does not fit blocks the ones after it.
class RankingScheduler : public Scheduler {
public:
    using Before = std::function<bool(const JobState&, const JobState&)>;
    RankingScheduler(std::string name, Before before, bool preempt, bool backfill)
        : name_(std::move(name)), before_(std::move(before)), preempt_(preempt), backfill_(backfill) {}
    std::string name() const override { return name_; }

    Decision schedule(const SchedulerInput& in) override {
        const int total = in.cluster->totalGpus();
        std::vector<const JobState*> ranked;
        for (const JobState& j : in.active) ranked.push_back(&j);
        std::stable_sort(ranked.begin(), ranked.end(),
                         [&](const JobState* a, const JobState* b) { return before_(*a, *b); });
        // Which jobs run after this decision.
        std::vector<const JobState*> admitted;
        int used = 0;
        if (!preempt_)
            for (const JobState* j : ranked)
                if (j->running) {
                    admitted.push_back(j);
                    used += j->gpus;
                }
        bool blocked = false;
        for (const JobState* j : ranked) {
            if (!preempt_ && j->running) continue;
            if (blocked) break;
            if (used + j->gpus <= total) {
                admitted.push_back(j);
                used += j->gpus;
            } else if (!backfill_) {
                blocked = true;
            }
        }
        std::vector<char> busy(static_cast<std::size_t>(total), 0);
        Decision d;
        for (const JobState* j : admitted)
            if (j->running) {
                d.keep.push_back(j->index);
                for (int g : j->held) busy[static_cast<std::size_t>(g)] = 1;
            }
        for (const JobState* j : admitted) {
            if (j->running) continue;
            Assignment a;
            a.job = j->index;
            for (int g = 0; g < total && static_cast<int>(a.gpus.size()) < j->gpus; ++g)
                if (!busy[static_cast<std::size_t>(g)]) {
                    busy[static_cast<std::size_t>(g)] = 1;
                    a.gpus.push_back(g);
                }
            d.start.push_back(a);
        }
        return d;
    }

private:
    std::string name_;
    Before before_;
    bool preempt_;
    bool backfill_;
};

std::vector<double> jcts(const SimResult& r) {
    std::vector<double> v;
    for (const JobRecord& j : r.jobs) v.push_back(j.jct);
    return v;
}

// The message of the SimulationError that running `script` throws ("" if none).
QString refusal(const Cluster& c, const Trace& t, const std::string& name,
                const ScriptedScheduler::Script& script) {
    ScriptedScheduler s(name, script);
    const ProfileSet p = overhead(0);
    return errorOf<SimulationError>([&] { simulate(c, t, p, s, exact()); });
}

}  // namespace

class TestEngineGuards : public QObject {
    Q_OBJECT

private slots:
    void aGpuGivenTwiceToOneJob() {
        const QString msg = refusal(oneServer(4), traceOf({job("a", 0, 2, 10)}), "twice-to-one",
                                    [](const SchedulerInput&, int) {
                                        Decision d;
                                        d.start.push_back(assign(0, {1, 1}));
                                        return d;
                                    });
        expectError(
            msg, {"policy 'twice-to-one' returned an invalid decision", "job #0 given the same GPU twice"});
    }

    void aGpuGivenToTwoJobsAtOnce() {
        // Exclusive (one job per GPU): GPU 2 for both jobs in one decision.
        const QString msg = refusal(oneServer(4), traceOf({job("a", 0, 1, 10), job("b", 0, 2, 10)}),
                                    "double-booker", [](const SchedulerInput&, int) {
                                        Decision d;
                                        d.start.push_back(assign(0, {2}));
                                        d.start.push_back(assign(1, {2, 3}));
                                        return d;
                                    });
        expectError(msg, {"policy 'double-booker' returned an invalid decision", "job #1 given GPU 2",
                          "which is not free", "at most 1 job(s) per GPU"});
    }

    void aGpuStillHeldByARunningJob() {
        // The second job arrives later and is given the GPU the kept first job holds.
        const QString msg = refusal(oneServer(2), traceOf({job("a", 0, 1, 100), job("b", 5, 1, 10)}),
                                    "squatter", [](const SchedulerInput& in, int call) {
                                        Decision d;
                                        if (call == 0) {
                                            d.start.push_back(assign(0, {0}));
                                        } else {
                                            if (in.by_index[0] && in.by_index[0]->running)
                                                d.keep.push_back(0);
                                            d.start.push_back(assign(1, {0}));
                                        }
                                        return d;
                                    });
        expectError(msg, {"policy 'squatter' returned an invalid decision", "job #1 given GPU 0",
                          "which is not free"});
    }

    void startingAFinishedJob() {
        // "a" ends at 1; at b's arrival (10) the scheduler starts "a" again.
        const QString msg = refusal(oneServer(2), traceOf({job("a", 0, 1, 1), job("b", 10, 1, 5)}),
                                    "necromancer", [](const SchedulerInput& in, int) {
                                        Decision d;
                                        if (in.now == 0 || in.now == 10) d.start.push_back(assign(0, {0}));
                                        return d;
                                    });
        expectError(msg, {"policy 'necromancer' returned an invalid decision", "start of job #0"});
    }

    void keepingAJobThatIsNotRunning() {
        const QString msg = refusal(oneServer(2), traceOf({job("a", 0, 1, 10)}), "phantom-keeper",
                                    [](const SchedulerInput&, int) {
                                        Decision d;
                                        d.keep.push_back(0);  // waiting, never started
                                        return d;
                                    });
        expectError(msg, {"policy 'phantom-keeper' returned an invalid decision",
                          "keeps job #0 which is not running"});
    }

    void keepingAJobTwice() {
        const QString msg = refusal(oneServer(2), traceOf({job("a", 0, 1, 100), job("b", 5, 1, 10)}),
                                    "double-keeper", [](const SchedulerInput&, int call) {
                                        Decision d;
                                        if (call == 0) {
                                            d.start.push_back(assign(0, {0}));
                                        } else {
                                            d.keep = {0, 0};
                                        }
                                        return d;
                                    });
        expectError(msg, {"policy 'double-keeper' returned an invalid decision",
                          "keeps job #0 which is not running"});
    }

    void moreOrFewerGpusThanAsked_data() {
        QTest::addColumn<int>("given");
        QTest::newRow("fewer") << 1;
        QTest::newRow("more") << 3;
        QTest::newRow("none") << 0;
    }
    void moreOrFewerGpusThanAsked() {
        QFETCH(int, given);
        const QString msg = refusal(oneServer(4), traceOf({job("a", 0, 2, 10)}), "miscounter",
                                    [given](const SchedulerInput&, int) {
                                        Decision d;
                                        Assignment a;
                                        a.job = 0;
                                        for (int g = 0; g < given; ++g) a.gpus.push_back(g);
                                        d.start.push_back(a);
                                        return d;
                                    });
        expectError(msg, {"policy 'miscounter' returned an invalid decision", "start of job #0"});
    }

    void aGpuIdOutOfRange_data() {
        QTest::addColumn<int>("gpu");
        QTest::newRow("past the end") << 4;
        QTest::newRow("far past the end") << 1000;
        QTest::newRow("negative") << -1;
    }
    void aGpuIdOutOfRange() {
        QFETCH(int, gpu);
        const QString msg = refusal(oneServer(4), traceOf({job("a", 0, 1, 10)}), "off-the-map",
                                    [gpu](const SchedulerInput&, int) {
                                        Decision d;
                                        d.start.push_back(assign(0, {gpu}));
                                        return d;
                                    });
        expectError(msg, {"policy 'off-the-map' returned an invalid decision",
                          QStringLiteral("GPU id %1 out of range").arg(gpu)});
    }

    void aJobThatDoesNotExist() {
        const QString msg =
            refusal(oneServer(2), traceOf({job("a", 0, 1, 10)}), "inventor", [](const SchedulerInput&, int) {
                Decision d;
                d.start.push_back(assign(7, {0}));
                return d;
            });
        expectError(msg, {"policy 'inventor' returned an invalid decision", "start of job #7"});
    }

    void aJobStartedTwiceInOneDecision() {
        const QString msg =
            refusal(oneServer(4), traceOf({job("a", 0, 1, 10)}), "stutter", [](const SchedulerInput&, int) {
                Decision d;
                d.start.push_back(assign(0, {0}));
                d.start.push_back(assign(0, {1}));
                return d;
            });
        expectError(msg, {"policy 'stutter' returned an invalid decision", "start of job #0"});
    }

    // A scheduler that never starts a waiting job: the run fails naming the job and the policy.
    void aSchedulerThatNeverStartsAnything() {
        const QString msg = refusal(oneServer(2), traceOf({job("lonely", 0, 1, 10)}), "idler",
                                    [](const SchedulerInput&, int) { return Decision{}; });
        expectError(msg, {"lonely", "idler"});
    }

    // Strict FIFO (no backfill) on one 4-GPU server, no restart overhead:
    // A (t=0, 2 GPUs, 10 s) 0-10; B (t=1, 4 GPUs, 5 s) waits for A: 10-15; C (t=2, 1 GPU, 3 s)
    // is behind B although a GPU is free: 15-18; D (t=20, 3 GPUs, 4 s) 20-24 and E (t=21, 1 GPU,
    // 2 s) beside it 21-23.
    void validFifoHasExactJcts() {
        const Trace t = traceOf({job("A", 0, 2, 10), job("B", 1, 4, 5), job("C", 2, 1, 3), job("D", 20, 3, 4),
                                 job("E", 21, 1, 2)});
        RankingScheduler fifo(
            "fake-fifo", [](const JobState& a, const JobState& b) { return a.submit < b.submit; }, false,
            false);
        const SimResult r = simulate(oneServer(4), t, overhead(0), fifo, exact());
        QCOMPARE(r.policy, std::string("fake-fifo"));
        QCOMPARE(r.summary.completed, 5);
        QCOMPARE(jcts(r), (std::vector<double>{10, 14, 16, 4, 2}));
        QCOMPARE(r.jobs[1].first_start, 10.0);
        QCOMPARE(r.jobs[2].first_start, 15.0);
        QCOMPARE(r.jobs[2].queueing_delay, 13.0);
        for (const JobRecord& j : r.jobs) {
            QCOMPARE(j.preemptions, 0);
            QCOMPARE(j.restarts, 1);
            QCOMPARE(j.running_time, j.iterations);
        }
        QCOMPARE(r.summary.avg_jct, 46.0 / 5);
        QCOMPARE(r.summary.makespan, 24.0);
        QCOMPARE(r.summary.avg_queueing_delay, (0 + 9 + 13 + 0 + 0) / 5.0);
    }

    // The same FIFO with a 3 s restart overhead: every job pays it once, at its start.
    // A 0-13; B 13-21; at 20 D is behind C, which does not fit beside B; at 21 C (21-27) and
    // D (21-28) start, E (t=21) finds no GPU left and waits for C: 27-32.
    void validFifoPaysTheOverheadOnce() {
        const Trace t = traceOf({job("A", 0, 2, 10), job("B", 1, 4, 5), job("C", 2, 1, 3), job("D", 20, 3, 4),
                                 job("E", 21, 1, 2)});
        RankingScheduler fifo(
            "fake-fifo", [](const JobState& a, const JobState& b) { return a.submit < b.submit; }, false,
            false);
        const SimResult r = simulate(oneServer(4), t, overhead(3), fifo, exact());
        QCOMPARE(jcts(r), (std::vector<double>{13, 20, 25, 8, 11}));
        QCOMPARE(r.jobs[3].first_start, 21.0);
        QCOMPARE(r.jobs[4].first_start, 27.0);
        for (const JobRecord& j : r.jobs) QCOMPARE(j.running_time, j.iterations + 3);
    }

    // Newest first, preemptive, 1 GPU, 5 s restart overhead. "old" (t=0, 100 s) runs 0-5
    // (overhead) and 5-30 (25 s of work); "new" (t=30, 20 s) preempts it: 30-35 overhead, 35-55;
    // "old" resumes at 55 and pays the overhead again: 55-60, then its last 75 s: 60-135.
    void preemptedJobPaysTheOverheadAgainOnResume() {
        const Trace t = traceOf({job("old", 0, 1, 100), job("new", 30, 1, 20)});
        RankingScheduler newest(
            "newest-first", [](const JobState& a, const JobState& b) { return a.submit > b.submit; }, true,
            true);
        const SimResult r = simulate(oneServer(1), t, overhead(5), newest, exact());
        QCOMPARE(jcts(r), (std::vector<double>{135, 25}));
        QCOMPARE(r.jobs[0].preemptions, 1);
        QCOMPARE(r.jobs[0].restarts, 2);
        QCOMPARE(r.jobs[0].running_time, 25.0 + 5 + 80);  // 0-30 and 55-135
        QCOMPARE(r.jobs[0].pending_time, 25.0);
        QCOMPARE(r.jobs[1].running_time, 25.0);
    }

    // Two preemptions of the same job: it pays the overhead on each of its three starts.
    // "old" (t=0, 60 s): 0-2 overhead, 2-10 work (52 left); "mid" (t=10, 10 s) 10-22;
    // "old" resumes 22-24, works 24-30 (46 left); "new" (t=30, 5 s) 30-37; "old" 37-39 + 46 s:
    // ends at 85.
    void everyResumePaysTheOverhead() {
        const Trace t = traceOf({job("old", 0, 1, 60), job("mid", 10, 1, 10), job("new", 30, 1, 5)});
        RankingScheduler newest(
            "newest-first", [](const JobState& a, const JobState& b) { return a.submit > b.submit; }, true,
            true);
        const SimResult r = simulate(oneServer(1), t, overhead(2), newest, exact());
        QCOMPARE(jcts(r), (std::vector<double>{85, 12, 7}));
        QCOMPARE(r.jobs[0].preemptions, 2);
        QCOMPARE(r.jobs[0].restarts, 3);
        QCOMPARE(r.jobs[0].running_time, 60.0 + 3 * 2);
    }
};

QTEST_APPLESS_MAIN(TestEngineGuards)
#include "test_engine_guards.moc"
