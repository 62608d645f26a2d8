// Engine behaviour: hand-computed scenarios with exact JCTs per order, the two convention
// sets, and invariants checked on every run of every policy.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <tuple>

#include "core/io/builtin_data.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/workload/trace_generator.h"
#include "sim_test_support.h"

using namespace cl;
using cl::test::job;
using cl::test::oneServer;

namespace {

ProfileSet noProfiles(double restart_overhead) {
    ProfileSet p;
    p.default_restart_overhead = restart_overhead;
    return p;
}

SimOptions exact(const std::string& conventions) {
    SimOptions o;
    o.conventions = Conventions::byName(conventions);
    o.conventions.solo_factor = 1.0;
    return o;
}

std::vector<double> jcts(const SimResult& r) {
    std::vector<double> v;
    for (const auto& j : r.jobs) v.push_back(j.jct);
    return v;
}

// 2 GPUs: J0 (t=0, 2 GPUs, 4 s), J1 (t=1, 2 GPUs, 5 s), J2 (t=2, 1 GPU, 3 s); no restart cost.
Trace threeJobs() {
    Trace t;
    t.name = "three";
    t.jobs = {job("J0", 0, 2, 4), job("J1", 1, 2, 5), job("J2", 2, 1, 3)};
    return t;
}

void checkInvariants(const Cluster& cluster, const Trace& trace, const SimResult& r,
                     const ProfileSet& profiles, bool clean) {
    const QString what = QString::fromStdString(r.policy + " / " + r.conventions);
    QVERIFY2(r.summary.completed == static_cast<int>(trace.jobs.size()), qPrintable(what));
    std::map<int, double> gpu_seconds;
    std::vector<std::vector<std::pair<double, double>>> per_gpu(cluster.totalGpus());
    for (const auto& s : r.segments) {
        QVERIFY2(s.t1 > s.t0, qPrintable(what));
        const JobRecord& j = r.jobs[s.job];
        QVERIFY2(s.t0 >= j.submit && s.t1 <= j.end + 1e-9,
                 qPrintable(what + ": segment outside the job's life"));
        gpu_seconds[s.job] += s.t1 - s.t0;
        per_gpu[s.gpu].push_back({s.t0, s.t1});
    }
    for (auto& segs : per_gpu) {  // no GPU over-committed
        std::sort(segs.begin(), segs.end());
        for (std::size_t i = 1; i < segs.size(); ++i)
            QVERIFY2(segs[i].first >= segs[i - 1].second - 1e-9, qPrintable(what + ": GPU over-committed"));
    }
    for (const auto& j : r.jobs) {
        QVERIFY2(j.completed, qPrintable(what));
        QVERIFY2(j.first_start >= j.submit, qPrintable(what + ": job starts before it is submitted"));
        QVERIFY2(j.end >= j.first_start, qPrintable(what));
        QCOMPARE(j.jct, j.end - j.submit);
        // Totals conserved: the GPU time the segments show is the job's running time x GPUs.
        QVERIFY2(
            std::fabs(gpu_seconds[j.index] - j.running_time * j.gpus) <= 1e-6 * (1 + j.running_time * j.gpus),
            qPrintable(what + ": GPU-seconds not conserved for job " + QString::fromStdString(j.id)));
        // Every job computes exactly its iterations: running time = work + restart overhead paid.
        double work = j.iterations * j.solo_iteration_time;
        const ModelProfile* m = profiles.find(j.model);
        double overhead =
            m && m->at(j.gpus) ? m->at(j.gpus)->restart_overhead : profiles.default_restart_overhead;
        if (clean) {
            QVERIFY2(j.running_time >= work * (1 - 1e-9) - 1e-6, qPrintable(what + ": finished early"));
            QVERIFY2(j.running_time <= work * (1 + 1e-9) + j.restarts * overhead + 1e-6,
                     qPrintable(what + ": ran longer than its work plus overheads"));
        }
        QVERIFY2(j.preemptions <= j.restarts, qPrintable(what));
    }
}

// A SJF-BSBF model (docs/architecture.md section 4.7): t_comp(b) = 10 ms + 1 ms x b, default
// batch 32, 1,000 MB + 100 MB per sample of GPU memory (two fit on an 11 GB GPU).
ProfileSet accumulationProfiles() {
    ModelProfile m;
    m.name = "small";
    m.batch_size = 32;
    m.by_gpus = {{1, 0.1, {}, 0.0}};
    m.extra.edit() = nlohmann::json::parse(R"({"sjf_bsbf": {"compute_ms": {"alpha": 10, "beta": 1},
        "allreduce_ms": {"intra_alpha": 5, "intra_beta": 0, "inter_alpha": 20, "inter_beta": 0},
        "gradient_mb": 100, "overlap_delta": 2, "memory_mb": {"m0": 1000, "m1": 100},
        "default_batch": 32}})");
    ProfileSet p;
    p.name = "accumulation";
    p.default_restart_overhead = 0.0;
    p.models[m.name] = m;
    return p;
}

}  // namespace

class TestSimulator : public QObject {
    Q_OBJECT

private slots:
    // Hand-computed (see the comments) on the three-job scenario; exact values.
    void fifoBackfillsButNeverPreempts() {
        // J0 0-4; J1 4-9 (first in line); J2 9-12.
        auto r = simulatePolicy(oneServer(2), threeJobs(), noProfiles(0), "fifo", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{4, 8, 10}));
    }
    void sjfTakesTheShortestWaitingJob() {
        // At 4: J2 (3 s) before J1 (5 s): J2 4-7, J1 7-12.
        auto r = simulatePolicy(oneServer(2), threeJobs(), noProfiles(0), "sjf", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{4, 11, 5}));
    }
    void srtfKeepsTheJobWithLessTimeLeft() {
        // At 2: J0 has 2 s left < J2's 3 s, so J0 keeps its GPUs; then J2 4-7, J1 7-12.
        auto r = simulatePolicy(oneServer(2), threeJobs(), noProfiles(0), "srtf", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{4, 11, 5}));
    }
    void srsfWeighsRemainingTimeByGpus() {
        // At 2: J2's service 3 < J0's 2 s x 2 GPUs = 4: J0 is preempted, J2 2-5, J0 5-7, J1 7-12.
        auto r = simulatePolicy(oneServer(2), threeJobs(), noProfiles(0), "srsf", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{7, 11, 3}));
        QCOMPARE(r.jobs[0].preemptions, 1);
    }
    void lasRunsTheLeastServedJob() {
        // At 1: J1 (0 s served) preempts J0; at 2: J2 preempts J1 and runs 2-5; the tie J1/J0
        // (1 s each) keeps the previous order: J1 5-9, J0 9-12.
        auto r = simulatePolicy(oneServer(2), threeJobs(), noProfiles(0), "las", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{12, 8, 3}));
    }
    void las2dRunsTheLeastGpuServedJob() {
        // Same choices as LAS here (served GPU-seconds 2 vs 0 at 1; 2, 2, 0 at 2).
        auto r = simulatePolicy(oneServer(2), threeJobs(), noProfiles(0), "las2d", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{12, 8, 3}));
    }
    void tiresiasDemotesAt3250GpuSeconds() {
        // 1 GPU. J0 0-3250 (demoted to queue 1), J1 3250-4250 (queue 0 first), J2 4250-7500
        // (demoted to queue 1). The artifact appends J2 behind the waiting J0, which takes
        // over: J0 7500-9250, J2 9250-10000. Clean: J2 was running, so it stays ahead of the
        // waiting J0 (no preemption among peers, architecture.md 4.2): J2 7500-8250, J0 8250-10000.
        Trace t;
        t.jobs = {job("J0", 0, 1, 5000), job("J1", 100, 1, 1000), job("J2", 200, 1, 4000)};
        auto artifact = simulatePolicy(oneServer(1), t, noProfiles(0), "tiresias", exact("muri-artifact"));
        QCOMPARE(jcts(artifact), (std::vector<double>{9250, 4150, 9800}));
        auto clean = simulatePolicy(oneServer(1), t, noProfiles(0), "tiresias", exact("clean"));
        QCOMPARE(jcts(clean), (std::vector<double>{10000, 4150, 8050}));
        QCOMPARE(clean.jobs[2].preemptions, 0);
    }
    void tiresiasStarvationGuardPromotesWaitingJobs() {
        // Clean only: "long" served 3250 GPU-s in queue 0, then waits behind a stream of short
        // jobs; after 10 x 3250 s of waiting (at 35,750) it goes back to the end of queue 0 and
        // runs when the short job then running ends (36,250), finishing at 38,000.
        Trace t;
        t.jobs.push_back(job("long", 0, 1, 5000));
        for (int i = 0; i < 40; ++i)
            t.jobs.push_back(job("s" + std::to_string(i), 3000 + 1000.0 * i, 1, 1000));
        auto clean = simulatePolicy(oneServer(1), t, noProfiles(0), "tiresias", exact("clean"));
        auto artifact = simulatePolicy(oneServer(1), t, noProfiles(0), "tiresias", exact("muri-artifact"));
        QVERIFY(clean.jobs[0].end < artifact.jobs[0].end);
        QCOMPARE(artifact.jobs[0].end, 3250.0 + 40 * 1000.0 + 1750.0);
        QCOMPARE(clean.jobs[0].end, 38000.0);
    }

    void tiresiasStarvationWaitGrowsWithAllServiceReceived() {
        // Clean: the wait is measured against all the service a job received, not the service
        // since its last promotion (architecture.md 4.2). "long" (10,000 s) runs 0-3250, is
        // promoted after 32,500 s of waiting, runs a full queue-0 quantum 36,250-39,500 and is
        // preempted by the short jobs waiting in queue 0. It has now received 6,500 s, so it is
        // promoted after 65,000 s of waiting (at 104,500, not at 72,000 as with the service
        // since the promotion), joins the end of queue 0 behind the four short jobs waiting
        // there, and gets its next full quantum at 108,500.
        Trace t;
        t.jobs.push_back(job("long", 0, 1, 10000));
        for (int i = 0; i < 150; ++i)
            t.jobs.push_back(job("s" + std::to_string(i), 3000 + 1000.0 * i, 1, 1000));
        const SimResult r = simulatePolicy(oneServer(1), t, noProfiles(0), "tiresias", exact("clean"));
        std::vector<std::pair<double, double>> runs;
        for (const GpuSegment& g : r.segments)
            if (g.job == 0) runs.push_back({g.t0, g.t1});
        std::sort(runs.begin(), runs.end());
        QCOMPARE(runs.size(), std::size_t(4));
        QCOMPARE(runs[0], std::make_pair(0.0, 3250.0));
        QCOMPARE(runs[1], std::make_pair(36250.0, 39500.0));
        QCOMPARE(runs[2], std::make_pair(108500.0, 111750.0));
        QCOMPARE(r.jobs[0].preemptions, 3);
    }

    void seriesKeepsChangePointsOnly() {
        // One job alone under Tiresias: events at 0 (start), 3,250 (demotion: nothing visible
        // changes) and 5,000 (end). The series keeps the two change points (section 2.8).
        Trace t;
        t.jobs = {job("J0", 0, 1, 5000)};
        const SimResult r = simulatePolicy(oneServer(1), t, noProfiles(0), "tiresias", exact("clean"));
        QCOMPARE(r.events, 3LL);
        QCOMPARE(r.series.size(), std::size_t(2));
        QCOMPARE(r.series[0].t, 0.0);
        QCOMPARE(r.series[0].running_jobs, 1);
        QCOMPARE(r.series[1].t, 5000.0);
        QCOMPARE(r.series[1].running_jobs, 0);
    }

    void tiresiasDemotesAtFractionalTimes() {
        // 3 GPUs: J0's 3,250 GPU-seconds are reached after 1,083.33 s, a time that rounding can
        // leave a hair short of the limit; J1 (queue 0) must take over right then.
        Cluster c = oneServer(3);
        Trace t;
        t.jobs = {job("J0", 1000, 3, 3250), job("J1", 1000.5, 3, 10)};
        auto r = simulatePolicy(c, t, noProfiles(0), "tiresias", exact("clean"));
        QCOMPARE(r.jobs[0].preemptions, 1);
        QVERIFY(std::fabs(r.jobs[1].first_start - (1000 + 3250.0 / 3)) < 1e-6);
    }

    void fallbackPlacementMovesAsFewJobsAsPossible() {
        // 2 servers x 4 GPUs. At 7, C (4 GPUs) needs a whole server: X is done, B and Y hold two
        // GPUs on different servers. Only B has to move; Y keeps its GPUs.
        Cluster c;
        c.name = "2x4";
        for (int i = 0; i < 2; ++i) c.servers.push_back(oneServer(4).servers[0]);
        Trace t;
        t.jobs = {job("X", 0, 2, 5), job("B", 0, 2, 1000), job("Y", 0, 2, 1000), job("C", 7, 4, 10)};
        auto r = simulatePolicy(c, t, noProfiles(1), "srtf", exact("clean"));
        int moves = r.jobs[1].restarts + r.jobs[2].restarts - 2;  // beyond the first start
        QCOMPARE(moves, 1);
        QCOMPARE(r.jobs[3].queueing_delay, 0.0);
    }

    // Consolidated placement picks the best-fitting server (docs/architecture.md section 4.4).
    // Servers of 4 and 3 GPUs; A (t=0, 3 GPUs, 100 s), B (t=1, 2 GPUs, 100 s), C (t=2, 2 GPUs,
    // 50 s). Best fit: A on the 3-GPU server, B and C side by side on the 4-GPU one, C at once.
    // First fit by index ("yarn"), FIFO: A on the 4-GPU server, B on the other, and C finds one
    // free GPU on each: it waits for A (100-150). (Preemptive orders would move A and B instead.)
    void bestFitStartsWhatFirstFitFragments() {
        Cluster c;
        c.name = "4+3";
        c.servers.push_back(oneServer(4).servers[0]);
        c.servers.push_back(oneServer(3).servers[0]);
        c.servers[1].name = "s1";
        Trace t;
        t.jobs = {job("A", 0, 3, 100), job("B", 1, 2, 100), job("C", 2, 2, 50)};
        for (const char* policy : {"fifo", "srtf", "sjf", "las", "srsf"}) {
            const SimResult best = simulatePolicy(c, t, noProfiles(0), policy, exact("clean"));
            QCOMPARE(jcts(best), (std::vector<double>{100, 100, 50}));
            for (const JobRecord& j : best.jobs) QCOMPARE(j.restarts, 1);  // nobody had to move
        }
        SimOptions yarn = exact("clean");
        yarn.conventions.first_fit_servers = true;
        const SimResult first = simulatePolicy(c, t, noProfiles(0), "fifo", yarn);
        QCOMPARE(jcts(first), (std::vector<double>{100, 100, 148}));
        // Where A went: the 3-GPU server (GPUs 4-6) under best fit.
        const SimResult best = simulatePolicy(c, t, noProfiles(0), "fifo", exact("clean"));
        std::vector<int> a_gpus;
        for (const GpuSegment& s : best.segments)
            if (s.job == 0) a_gpus.push_back(s.gpu);
        std::sort(a_gpus.begin(), a_gpus.end());
        QCOMPARE(a_gpus, (std::vector<int>{4, 5, 6}));
    }

    // Restart overhead is paid again on every resume (clean conventions, section 2.5), here
    // under Tiresias with 10 s of overhead on one GPU. J0 (t=0, 5,000 s) pays 0-10 and has done
    // 3,240 s of work when its 3,250 GPU-seconds of service demote it at 3,250; J1 (t=100,
    // 1,000 s, queue 0) waited behind the running J0 and runs 3,250-4,260 (10 s overhead);
    // J0 resumes at 4,260, pays 10 s again and ends at 4,260 + 10 + 1,760 = 6,030.
    void tiresiasResumePaysTheOverheadAgain() {
        Trace t;
        t.jobs = {job("J0", 0, 1, 5000), job("J1", 100, 1, 1000)};
        const SimResult r = simulatePolicy(oneServer(1), t, noProfiles(10), "tiresias", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{6030, 4160}));
        QCOMPARE(r.jobs[0].preemptions, 1);
        QCOMPARE(r.jobs[0].restarts, 2);
        QCOMPARE(r.jobs[0].running_time, 5020.0);
    }

    // SRTF on two GPUs, 5 s overhead: L (t=0, 2 GPUs, 100 s) is preempted twice by shorter
    // 2-GPU jobs and pays the overhead three times. L: 0-5 + 5-20 (15 s done); S1 (t=20, 10 s)
    // 20-35; L 35-40 + 40-50 (25 done); S2 (t=50, 20 s) 50-75; L 75-80 + 75 s: ends at 155.
    void srtfPaysTheOverheadOnEveryResume() {
        Trace t;
        t.jobs = {job("L", 0, 2, 100), job("S1", 20, 2, 10), job("S2", 50, 2, 20)};
        const SimResult r = simulatePolicy(oneServer(2), t, noProfiles(5), "srtf", exact("clean"));
        QCOMPARE(jcts(r), (std::vector<double>{155, 15, 25}));
        QCOMPARE(r.jobs[0].restarts, 3);
        QCOMPARE(r.jobs[0].running_time, 115.0);
        QCOMPARE(r.jobs[0].pending_time, 40.0);
    }

    // Theorem 1 of the SJF-BSBF paper with one interference ratio xi = 1.5 for both jobs: when
    // the new job is at least as long as the running one, sharing and waiting give the same
    // JCT sum (2 xi P_R + P_N - P_R = 2 P_R + P_N), and a tie waits (section 4.7). One 11 GB GPU;
    // R (t=0, 100 s alone), N (t=10, 200 s alone). At 10 (P_R = 90) and at the 60 s round
    // (P_R = 40) the sums tie: N waits for R and runs 100-300. SJF-FFS shares at once: both run
    // 1.5 times slower, R ends at 10 + 1.5 x 90 = 145, N has done 90 s of work by then and ends
    // at 145 + 110 = 255.
    void sjfBsbfWaitsOnATie() {
        Cluster c = oneServer(1);
        c.servers[0].gpu_memory_gb = 11.0;
        Trace t;
        for (const auto& [id, submit, seconds] :
             {std::tuple{"R", 0.0, 100.0}, std::tuple{"N", 10.0, 200.0}}) {
            Job j;
            j.id = id;
            j.submit_time = submit;
            j.gpus = 1;
            j.model = "small";
            j.duration = seconds;
            t.jobs.push_back(j);
        }
        SchedulerTuning xi;
        xi.interference = 1.5;
        const auto near = [](double a, double b) {
            return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b));
        };
        const SimResult bsbf = simulatePolicy(c, t, accumulationProfiles(), "sjf-bsbf", exact("clean"), xi);
        QVERIFY2(near(bsbf.jobs[0].jct, 100.0), qPrintable(QString::number(bsbf.jobs[0].jct, 'g', 17)));
        QVERIFY2(near(bsbf.jobs[1].first_start, 100.0),
                 qPrintable(QString::number(bsbf.jobs[1].first_start, 'g', 17)));
        QVERIFY2(near(bsbf.jobs[1].jct, 290.0), qPrintable(QString::number(bsbf.jobs[1].jct, 'g', 17)));
        const SimResult ffs = simulatePolicy(c, t, accumulationProfiles(), "sjf-ffs", exact("clean"), xi);
        QVERIFY2(near(ffs.jobs[0].jct, 145.0), qPrintable(QString::number(ffs.jobs[0].jct, 'g', 17)));
        QVERIFY2(near(ffs.jobs[1].first_start, 10.0),
                 qPrintable(QString::number(ffs.jobs[1].first_start, 'g', 17)));
        QVERIFY2(near(ffs.jobs[1].jct, 245.0), qPrintable(QString::number(ffs.jobs[1].jct, 'g', 17)));
    }

    void medianAveragesTheMiddlePair() {
        Trace t;
        t.jobs = {job("a", 0, 1, 10), job("b", 0, 1, 990)};
        Cluster c = oneServer(2);
        auto r = simulatePolicy(c, t, noProfiles(0), "fifo", exact("clean"));
        QCOMPARE(r.summary.median_jct, 500.0);
    }

    void rejectsNonFiniteJobs() {
        Trace t;
        t.jobs = {job("bad", 0, 1, 10)};
        t.jobs[0].solo_iteration_time = std::numeric_limits<double>::quiet_NaN();
        try {
            simulatePolicy(oneServer(1), t, noProfiles(0), "srtf");
            QFAIL("expected SimulationError");
        } catch (const SimulationError& e) {
            QVERIFY(QString(e.what()).contains("bad"));
        }
        t.jobs[0] = job("neg", 0, 1, -5);
        QVERIFY_THROWS_EXCEPTION(SimulationError, simulatePolicy(oneServer(1), t, noProfiles(0), "srtf"));
    }

    // The two convention sets differ in how restart overhead is paid (10 s here, SRTF, 1 GPU):
    // clean pays it at each start/resume; the artifact loses it in every interval between
    // events but predicts completions without it.
    void conventionsGiveDifferentExactJcts() {
        Trace t;
        t.jobs = {job("J0", 0, 1, 100), job("J1", 10, 1, 20), job("J2", 20, 1, 50)};
        auto clean = simulatePolicy(oneServer(1), t, noProfiles(10), "srtf", exact("clean"));
        auto artifact = simulatePolicy(oneServer(1), t, noProfiles(10), "srtf", exact("muri-artifact"));
        // clean: J1 10-40 (10 s restart), J2 40-100, J0 resumes 100-210.
        QCOMPARE(jcts(clean), (std::vector<double>{210, 30, 80}));
        // artifact: J1 10-40 (the arrival at 20 costs it 10 s), J2 40-90, J0 90-190.
        QCOMPARE(jcts(artifact), (std::vector<double>{190, 30, 70}));
    }

    void soloFactorScalesIterationTime() {
        Trace t;
        t.jobs = {job("J0", 0, 1, 1000)};
        SimOptions o = exact("clean");
        o.conventions.solo_factor = 1.015;
        auto r = simulatePolicy(oneServer(1), t, noProfiles(0), "fifo", o);
        QCOMPARE(r.jobs[0].jct, 1015.0);
    }

    void zeroLengthJobsFinishOnArrival() {
        Trace t;
        t.jobs = {job("empty", 5, 1, 0), job("J", 0, 1, 10)};
        auto r = simulatePolicy(oneServer(1), t, noProfiles(0), "fifo", exact("clean"));
        QCOMPARE(r.jobs[0].jct, 0.0);
        QCOMPARE(r.jobs[1].jct, 10.0);
    }

    // docs/architecture.md 2.7: left out, named, by default; the whole run refused when strict.
    void leavesOutJobsLargerThanTheCluster() {
        Trace t;
        t.jobs = {job("huge", 0, 16, 10), job("fits", 0, 8, 10)};
        const SimResult r = simulatePolicy(oneServer(8), t, noProfiles(0), "fifo");
        QCOMPARE(r.left_out.size(), std::size_t(1));
        QCOMPARE(r.left_out[0].id, std::string("huge"));
        QVERIFY(!r.jobs[0].completed && r.jobs[1].completed);
    }

    void rejectsJobsLargerThanTheClusterWhenStrict() {
        Trace t;
        t.jobs = {job("huge", 0, 16, 10)};
        try {
            SimOptions strict;
            strict.strict = true;
            simulatePolicy(oneServer(8), t, noProfiles(0), "fifo", strict);
            QFAIL("expected SimulationError");
        } catch (const SimulationError& e) {
            QVERIFY(QString(e.what()).contains("huge"));
            QVERIFY(QString(e.what()).contains("16 GPUs"));
        }
    }

    void rejectsUnknownPolicyListingValidOnes() {
        try {
            simulatePolicy(oneServer(1), threeJobs(), noProfiles(0), "srtff");
            QFAIL("expected invalid_argument");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("srtff"));
            QVERIFY(QString(e.what()).contains("tiresias"));
        }
    }

    void resourceSeriesFollowTheStages() {
        // One 8-GPU resnet18 job alone on the 64-GPU testbed: each resource is busy for its
        // stage's share of the iteration, on 8 of 64 GPUs (Muri's 3-stage profile: loading with
        // preprocessing keeps storage and CPU busy, then GPU, then network).
        const ProfileSet profiles = builtinProfiles();
        const Cluster cluster = builtinCluster("muri-testbed-64");
        Trace t;
        Job j = job("J0", 0, 8, 3600);
        j.model = "resnet18";
        j.solo_iteration_time = 0.0;  // the profile's iteration and stage times
        t.jobs = {j};
        const SimResult r = simulatePolicy(cluster, t, profiles, "fifo", SimOptions{});
        QVERIFY(!r.series.empty());
        const TimeSample& s = r.series.front();
        const GpuCountProfile* p = profiles.find("resnet18")->at(8);
        const double iteration =
            r.jobs[0].solo_iteration_time;  // as simulated (the conventions' solo factor)
        QVERIFY(iteration >= p->solo_iteration_time);
        const double share = 8.0 / 64.0;
        QCOMPARE(s.gpu_utilization, share);
        QVERIFY(std::abs(s.storage_utilization - p->stage_times[0] / iteration * share) < 1e-12);
        QCOMPARE(s.cpu_utilization, s.storage_utilization);
        QVERIFY(std::abs(s.gpu_compute_utilization - p->stage_times[1] / iteration * share) < 1e-12);
        QVERIFY(std::abs(s.network_utilization - p->stage_times[2] / iteration * share) < 1e-12);
    }

    void sharedGpusCountOnceAndAtMostFullyBusy() {
        // Under Muri, jobs interleave on the same GPUs: a GPU is busy once, and no resource of
        // it is more than fully used.
        const ProfileSet profiles = builtinProfiles();
        const Cluster cluster = builtinCluster("muri-testbed-64");
        const Trace trace = demoTrace();
        for (const char* policy : {"muri-s", "muri-l", "srtf"}) {
            const SimResult r = simulatePolicy(cluster, trace, profiles, policy, SimOptions{});
            double most = 0.0;
            for (const TimeSample& s : r.series) {
                most = std::max(most, s.gpu_utilization);
                for (double u : {s.gpu_utilization, s.storage_utilization, s.cpu_utilization,
                                 s.gpu_compute_utilization, s.network_utilization})
                    QVERIFY2(u >= 0.0 && u <= 1.0 + 1e-12, policy);
                QVERIFY2(s.gpu_compute_utilization <= s.gpu_utilization + 1e-12, policy);
            }
            QVERIFY2(most > 0.5, policy);
        }
    }

    void isDeterministic() {
        ProfileSet profiles = builtinProfiles();
        GeneratorConfig g;
        g.jobs = 300;
        g.seed = 7;
        g.jobs_per_hour = 40;
        g.max_gpus = 16;
        Trace t = generate(g, &profiles);
        Cluster c = builtinCluster("muri-testbed-64");
        auto a = simulatePolicy(c, t, profiles, "srtf");
        auto b = simulatePolicy(c, t, profiles, "srtf");
        QCOMPARE(jcts(a), jcts(b));
        QCOMPARE(a.segments.size(), b.segments.size());
    }

    // SimOptions::segment_sink (architecture.md section 2.9): the segments handed over while
    // the run goes are exactly the ones a run without it keeps, in the same order, merged ones
    // included (Muri regroups and moves jobs at every event), and the result keeps none.
    void streamedSegmentsAreTheKeptSegments_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("conventions");
        for (const char* conv : {"clean", "muri-artifact"})
            for (const char* policy : {"srtf", "tiresias", "muri-s", "muri-l"})
                QTest::newRow((std::string(policy) + " " + conv).c_str()) << policy << conv;
        QTest::newRow("fifo+antman clean") << "fifo+antman"
                                           << "clean";
    }
    void streamedSegmentsAreTheKeptSegments() {
        QFETCH(QString, policy);
        QFETCH(QString, conventions);
        ProfileSet profiles = builtinProfiles();
        GeneratorConfig g;
        g.jobs = 600;
        g.seed = 5;
        g.jobs_per_hour = 120;  // jobs queue on 64 GPUs
        g.max_gpus = 16;
        Trace t = generate(g, &profiles);
        Cluster c = builtinCluster("muri-testbed-64");
        SimOptions kept;
        kept.conventions = Conventions::byName(conventions.toStdString());
        SimResult a = simulatePolicy(c, t, profiles, policy.toStdString(), kept);
        std::vector<GpuSegment> streamed;
        std::size_t calls = 0;
        SimOptions streaming = kept;
        streaming.segment_sink = [&](std::span<const GpuSegment> s) {
            ++calls;
            streamed.insert(streamed.end(), s.begin(), s.end());
        };
        SimResult b = simulatePolicy(c, t, profiles, policy.toStdString(), streaming);
        QVERIFY(b.segments.empty());
        QVERIFY(calls > 0);
        QCOMPARE(streamed.size(), a.segments.size());
        for (std::size_t i = 0; i < streamed.size(); ++i) {
            const GpuSegment &x = streamed[i], &y = a.segments[i];
            QVERIFY2(x.gpu == y.gpu && x.t0 == y.t0 && x.t1 == y.t1 && x.job == y.job,
                     qPrintable(QString("segment %1 differs").arg(i)));
        }
        QCOMPARE(jcts(b), jcts(a));
    }

    void invariantsHoldForEveryPolicyAndConvention() {
        ProfileSet profiles = builtinProfiles();
        GeneratorConfig g;
        g.jobs = 250;
        g.seed = 11;
        g.jobs_per_hour = 30;
        g.max_gpus = 16;
        Trace t = generate(g, &profiles);
        Cluster c;  // 4 servers x 4 reference GPUs: fragmentation matters
        c.name = "4x4";
        for (int i = 0; i < 4; ++i) c.servers.push_back(oneServer(4).servers[0]);
        for (const std::string conv : {"clean", "muri-artifact"}) {
            for (const std::string& order : orderNames()) {
                for (const std::string placement : {"", "+firstfit", "+count"}) {
                    auto r = simulatePolicy(c, t, profiles, order + placement, exact(conv));
                    checkInvariants(c, t, r, profiles, conv == "clean");
                }
            }
        }
    }

    void progressCanCancel() {
        ProfileSet profiles = builtinProfiles();
        GeneratorConfig g;
        g.jobs = 2000;
        g.seed = 3;
        g.jobs_per_hour = 200;
        g.max_gpus = 8;
        Trace t = generate(g, &profiles);
        SimOptions o;
        int calls = 0;
        o.progress = [&](double) { return ++calls < 2; };
        auto r = simulatePolicy(builtinCluster("muri-testbed-64"), t, profiles, "srtf", o);
        QVERIFY(r.cancelled);
        QVERIFY(r.summary.completed < static_cast<int>(t.jobs.size()));
    }
};

QTEST_APPLESS_MAIN(TestSimulator)
#include "test_simulator.moc"
