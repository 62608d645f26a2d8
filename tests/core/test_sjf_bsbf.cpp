// SJF-BSBF: Theorem 1's pair test, Algorithm 2's sub-batch search and the sharing mechanisms
// (docs/architecture.md section 4.7).
#include <QtTest>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "core/model/accumulation_speed.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/sharing_benefit.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"

using namespace cl;

namespace {

// A model with t_comp(b) = 10 ms + 1 ms b, no all-reduce, 1000 MB + 100 MB per sample.
ModelProfile acceleratedModel(const std::string& name, int default_batch, double m1 = 100.0) {
    ModelProfile m;
    m.name = name;
    m.batch_size = default_batch;
    m.by_gpus = {{1, 0.1, {}, 0.0}};
    m.extra.edit() = nlohmann::json::parse(R"({"sjf_bsbf": {"compute_ms": {"alpha": 10, "beta": 1},
        "allreduce_ms": {"intra_alpha": 5, "intra_beta": 0, "inter_alpha": 20, "inter_beta": 0},
        "gradient_mb": 100, "overlap_delta": 2, "memory_mb": {"m0": 1000, "m1": 100},
        "default_batch": 64}})");
    m.extra.edit()["sjf_bsbf"]["default_batch"] = default_batch;
    m.extra.edit()["sjf_bsbf"]["memory_mb"]["m1"] = m1;
    return m;
}

ProfileSet testProfiles() {
    ProfileSet p;
    p.name = "test";
    p.default_restart_overhead = 0.0;
    p.models["small"] = acceleratedModel("small", 32);
    p.models["big"] = acceleratedModel("big", 64, 150.0);
    return p;
}

Cluster servers(int count, int gpus = 4, double gpu_memory_gb = 11.0) {
    Cluster c;
    c.name = "test";
    for (int i = 0; i < count; ++i) {
        Server s;
        s.name = "s" + std::to_string(i);
        s.gpus = gpus;
        s.gpu_memory_gb = gpu_memory_gb;
        c.servers.push_back(s);
    }
    return c;
}

Job job(const std::string& id, double submit, int gpus, const std::string& model, double duration) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.model = model;
    j.duration = duration;
    return j;
}

// A trace's duration is then exactly the job's solo run time (clean conventions slow solo
// jobs by Muri's 1.015 otherwise).
SimOptions exactOptions() {
    SimOptions o;
    o.conventions.solo_factor = 1.0;
    return o;
}

SimResult run(const Cluster& c, const Trace& t, const std::string& policy, double xi = 0.0) {
    return simulatePolicy(c, t, testProfiles(), policy, exactOptions(), SchedulerTuning{.interference = xi});
}

Trace randomTrace(unsigned seed, int n, int max_gpus) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> gap(0, 300), len(100, 5000);
    std::uniform_int_distribution<int> pick(0, 3);
    const int sizes[] = {1, 1, 2, 4};
    Trace t;
    double now = 0;
    for (int i = 0; i < n; ++i) {
        now += gap(rng);
        int g = std::min(sizes[pick(rng)] * (pick(rng) == 3 ? 2 : 1), max_gpus);
        t.jobs.push_back(job("j" + std::to_string(i), now, g, i % 3 ? "small" : "big", len(rng)));
    }
    return t;
}

// Maximum number of jobs holding one GPU at the same time, from the recorded segments.
int maxJobsOnOneGpu(const SimResult& r) {
    std::map<int, std::vector<std::pair<double, int>>> edges;
    for (const GpuSegment& s : r.segments) {
        if (s.t1 <= s.t0) continue;
        edges[s.gpu].push_back({s.t0, +1});
        edges[s.gpu].push_back({s.t1, -1});
    }
    int worst = 0;
    for (auto& [gpu, e] : edges) {
        std::sort(e.begin(), e.end(), [](auto a, auto b) {
            return a.first < b.first || (a.first == b.first && a.second < b.second);
        });
        int now = 0;
        for (auto [t, d] : e) worst = std::max(worst, now += d);
    }
    return worst;
}

}  // namespace

class TestSjfBsbf : public QObject {
    Q_OBJECT

private slots:
    // Theorem 1, docs/architecture.md section 4.7: sequential = 2 P_R + P_N; shared = 2 xi_N P_N + P_R -
    // xi_N P_N / xi_R when N finishes first, else 2 xi_R P_R + P_N - xi_R P_R / xi_N.
    void theoremStartNow() {
        PairTimes p{100.0, 50.0, 1.8, 1.8};  // N first: 90 <= 180
        QCOMPARE(sequentialJctSum(p), 250.0);
        QCOMPARE(sharedJctSum(p), 230.0);  // 180 + 100 - 50
        QVERIFY(shareBeatsWaiting(p));

        PairTimes q{200.0, 40.0, 1.2, 2.0};  // N first: 80 <= 240
        QCOMPARE(sequentialJctSum(q), 440.0);
        QVERIFY(std::abs(sharedJctSum(q) - (160.0 + 200.0 - 80.0 / 1.2)) < 1e-9);
        QVERIFY(shareBeatsWaiting(q));
    }

    void theoremWait() {
        PairTimes p{100.0, 100.0, 1.8, 1.8};  // both 180: N "first"
        QCOMPARE(sequentialJctSum(p), 300.0);
        QCOMPARE(sharedJctSum(p), 360.0);  // 360 + 100 - 100
        QVERIFY(!shareBeatsWaiting(p));

        PairTimes q{50.0, 400.0, 2.0, 1.5};  // R first: 100 < 600
        QCOMPARE(sequentialJctSum(q), 500.0);
        QCOMPARE(sharedJctSum(q), 200.0 + 400.0 - 100.0 / 1.5);
        QVERIFY(!shareBeatsWaiting(q));  // 533.3 > 500
    }

    // With equal xi = 1.5 and a new job at least as long as the running one, the two sums are
    // exactly equal, and a tie waits.
    void theoremTieWaits() {
        for (double pn : {100.0, 120.0, 400.0}) {
            PairTimes p{100.0, pn, 1.5, 1.5};
            QCOMPARE(sharedJctSum(p), sequentialJctSum(p));
            QVERIFY(!shareBeatsWaiting(p));
        }
        // A shorter new job does gain at 1.5: 150 + 100 - 50 = 200 < 250.
        QVERIFY(shareBeatsWaiting({100.0, 50.0, 1.5, 1.5}));
    }

    // Equal xi < 1.5: sharing always beats waiting, so BSBF takes every chance FFS takes.
    void equalSmallRatioAlwaysShares() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> len(1, 10000), ratio(1.0, 1.499);
        for (int i = 0; i < 2000; ++i) {
            double xi = ratio(rng);
            QVERIFY(shareBeatsWaiting({len(rng), len(rng), xi, xi}));
        }
    }

    void halvingTriesEveryPowerStep() {
        QCOMPARE(halvingSubBatches(96), (std::vector<int>{96, 48, 24, 12, 6, 3, 2, 1}));
        QCOMPARE(halvingSubBatches(1), (std::vector<int>{1}));
        QCOMPARE(halvingSubBatches(5), (std::vector<int>{5, 3, 2, 1}));
    }

    // Algorithm 2 returns the best memory-feasible sub-batch (brute force over the halving
    // list), ties to the larger one, and never one that does not fit.
    void subBatchSearchIsBestFeasible() {
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> u(0, 1);
        for (int trial = 0; trial < 500; ++trial) {
            const int local = 1 + static_cast<int>(u(rng) * 200);
            const double alpha = 0.01 + u(rng) * 0.2, beta = 0.001 + u(rng) * 0.01,
                         iters = 100 + u(rng) * 1000;
            const int limit = static_cast<int>(u(rng) * local);  // sub-batches above this don't fit
            auto solo = [&](int b) {
                const int steps = (local + b - 1) / b;
                return iters * steps * (alpha + beta * b);
            };
            auto fits = [&](int b) { return b <= limit; };
            const double pr = 10 + u(rng) * 5000, xr = 1 + u(rng), xn = 1 + u(rng);
            SubBatchChoice c = bestSubBatch(local, pr, xr, xn, solo, fits);
            double best = std::numeric_limits<double>::infinity();
            int best_b = 0;
            for (int b : halvingSubBatches(local)) {
                if (!fits(b)) continue;
                PairTimes p{pr, solo(b), xr, xn};
                double t = std::min(sharedJctSum(p), sequentialJctSum(p));
                if (!shareBeatsWaiting(p)) t = sequentialJctSum(p);
                if (t < best) best = t, best_b = b;
            }
            QCOMPARE(c.sub_batch, best_b);
            if (best_b == 0) {
                QVERIFY(!c.share);
                continue;
            }
            QVERIFY(fits(c.sub_batch));
            QCOMPARE(c.jct_sum, best);
            // The table shortcut the mechanism uses picks the same sub-batch.
            std::vector<int> subs = halvingSubBatches(local);
            std::vector<double> times;
            for (int b : subs) times.push_back(solo(b));
            std::size_t first = 0;
            while (!fits(subs[first])) ++first;
            QCOMPARE(subs[fastestFrom(times)[first]], c.sub_batch);
        }
    }

    void speedModelEquation7() {
        ModelProfile m = acceleratedModel("small", 32);
        AccumulationProfile p = *accumulationProfileOf(m);
        QCOMPARE(computeTime(p, 8), 0.018);
        QCOMPARE(allReduceTime(p, 1, 1), 0.0);
        QCOMPARE(allReduceTime(p, 4, 1), 0.005);
        QCOMPARE(allReduceTime(p, 8, 2), 0.020);
        // 1 GPU, batch 32 in 4 steps of 8: 4 x 18 ms.
        QVERIFY(std::abs(accumulatedIterationTime(p, 1, 1, 32, 8) - 0.072) < 1e-12);
        // 4 GPUs, batch 128 -> local 32, one step: sqrt(42^2 + 5^2) ms.
        QVERIFY(std::abs(accumulatedIterationTime(p, 4, 1, 128, 32) - std::hypot(0.042, 0.005)) < 1e-12);
        QCOMPARE(workerMemoryMb(p, 32), 4200.0);
        QCOMPARE(largestFittingSubBatch(p, 96, 5000.0), 24);  // 96 -> 10600, 48 -> 5800, 24 -> 3400
        QCOMPARE(largestFittingSubBatch(p, 96, 1000.0), 0);
    }

    void malformedSectionNamesField() {
        ModelProfile m = acceleratedModel("bad", 32);
        m.extra.edit()["sjf_bsbf"]["memory_mb"]["m1"] = -3;
        try {
            accumulationProfileOf(m);
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("'bad'") && QString(e.what()).contains("m1"), e.what());
        }
    }

    // One server of 4 GPUs full with a long 4-GPU job; a short 4-GPU job arrives. Sharing
    // wins (xi 1.8, P_N << P_R): it starts at once on the same GPUs, and the long one is
    // slowed by 1.8 while they share and back to full speed after.
    void bsbfSharesWhenItPays() {
        Trace t;
        t.jobs = {job("long", 0, 4, "small", 10000), job("short", 10, 4, "small", 500)};
        SimResult r = run(servers(1), t, "sjf-bsbf");
        QCOMPARE(r.jobs[1].first_start, 10.0);
        QVERIFY(std::abs(r.jobs[1].jct - 500 * 1.8) < 1e-6);
        // long: 10 s alone, 900 s at 1/1.8 speed, then alone: 10000 + 900 - 500 = 10400.
        QVERIFY(std::abs(r.jobs[0].end - 10400.0) < 1e-6);
        QCOMPARE(maxJobsOnOneGpu(r), 2);
        // Sub-batches are recorded: each job starts alone at full batch (32), the short one
        // shares at full batch with xi 1.8 and the long one is slowed, then recovers.
        bool short_shared = false, long_recovered = false;
        for (const BatchChange& b : r.batches) {
            if (b.job == 1 && b.interference == 1.8) short_shared = true;
            if (b.job == 0 && b.interference == 1.0 && b.t > 900) long_recovered = true;
        }
        QVERIFY(short_shared);
        QVERIFY(long_recovered);
    }

    // The same pair at equal length waits under BSBF (sharing would cost more) but shares
    // under FFS.
    void bsbfWaitsWhereFfsShares() {
        Trace t;
        t.jobs = {job("a", 0, 4, "small", 1000), job("b", 0.5, 4, "small", 1000)};
        SimResult bsbf = run(servers(1), t, "sjf-bsbf");
        SimResult ffs = run(servers(1), t, "sjf-ffs");
        QCOMPARE(bsbf.jobs[1].first_start, 1000.0);
        QCOMPARE(ffs.jobs[1].first_start, 0.5);
        QVERIFY(bsbf.summary.avg_jct < ffs.summary.avg_jct);
    }

    // At equal xi < 1.5 every sharing chance FFS takes, BSBF takes too.
    void smallRatioBsbfMatchesFfsStarts() {
        Trace t;
        t.jobs = {job("a", 0, 4, "small", 1000), job("b", 0.5, 4, "small", 1000),
                  job("c", 1, 2, "small", 3000)};
        SimResult bsbf = run(servers(1), t, "sjf-bsbf", 1.25);
        SimResult ffs = run(servers(1), t, "sjf-ffs", 1.25);
        for (int j = 0; j < 3; ++j) QCOMPARE(bsbf.jobs[j].first_start, ffs.jobs[j].first_start);
    }

    // A sharer trains with accumulation when its full batch does not fit next to its partner,
    // and no GPU ever holds more than its memory. big: 1000 + 150 b MB, batch 64; small:
    // 1000 + 100 b MB, batch 32.
    void sharedSubBatchFitsMemory() {
        Trace t;
        t.jobs = {job("big", 0, 1, "big", 20000), job("small", 1, 1, "small", 200)};
        // 11 GB: big alone at 64 takes 10600 MB; 664 MB left is less than small's m0: it waits.
        SimResult r = run(servers(1, 1, 11.0), t, "sjf-bsbf");
        QCOMPARE(r.jobs[1].first_start, r.jobs[0].end);
        // 14 GB: 3736 MB left; small's 32 (4200 MB) does not fit, 16 (2600 MB) does: it
        // shares at once with sub-batch 16 in 2 steps.
        SimResult r2 = run(servers(1, 1, 14.0), t, "sjf-bsbf");
        QCOMPARE(r2.jobs[1].first_start, 1.0);
        bool accumulated = false;
        for (const BatchChange& b : r2.batches) {
            if (b.job == 1 && b.t == 1.0) {
                QCOMPARE(b.sub_batch, 16);
                QCOMPARE(b.accumulation_steps, 2);
                accumulated = true;
            }
            const double mb = b.job == 0 ? 1000 + 150.0 * b.sub_batch : 1000 + 100.0 * b.sub_batch;
            QVERIFY(mb <= 14 * 1024.0);
        }
        QVERIFY(accumulated);
        // 4 GB: big alone must accumulate (16 = 3400 MB, 4 steps).
        SimResult r3 = run(servers(1, 1, 4.0), t, "sjf-bsbf");
        QCOMPARE(r3.batches.front().sub_batch, 16);
        QCOMPARE(r3.batches.front().accumulation_steps, 4);
    }

    void neverMoreThanTwoJobsPerGpu() {
        for (unsigned seed = 1; seed <= 20; ++seed) {
            Trace t = randomTrace(seed, 60, 8);
            for (const char* policy : {"sjf-bsbf", "sjf-ffs", "fifo+bsbf", "fifo+ffs"}) {
                SimResult r = run(servers(2), t, policy);
                QVERIFY2(maxJobsOnOneGpu(r) <= 2, policy);
                QCOMPARE(r.summary.completed, 60);
            }
        }
    }

    // Non-preemptive: every job starts once and is never stopped.
    void nonPreemptive() {
        Trace t = randomTrace(11, 80, 8);
        for (const char* policy : {"sjf-bsbf", "sjf-ffs"}) {
            SimResult r = run(servers(2), t, policy);
            for (const JobRecord& j : r.jobs) {
                QCOMPARE(j.preemptions, 0);
                QCOMPARE(j.restarts, 1);
            }
        }
    }

    void interferenceMatrixFromProfile() {
        ProfileSet p = testProfiles();
        p.models["small"].extra.edit()["sjf_bsbf"]["interference"] = {{"small", 1.2}};
        Trace t;
        t.jobs = {job("long", 0, 4, "small", 10000), job("short", 10, 4, "small", 500)};
        SimResult r = simulatePolicy(servers(1), t, p, "sjf-bsbf", exactOptions());
        QVERIFY(std::abs(r.jobs[1].jct - 500 * 1.2) < 1e-6);
        // A constant ratio overrides the matrix.
        SimResult c = simulatePolicy(servers(1), t, p, "sjf-bsbf", exactOptions(),
                                     SchedulerTuning{.interference = 2.0});
        QVERIFY(std::abs(c.jobs[1].jct - 500 * 2.0) < 1e-6);
    }

    void badRatioIsRefused() {
        Trace t;
        t.jobs = {job("a", 0, 1, "small", 10)};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 simulatePolicy(servers(1), t, testProfiles(), "sjf-bsbf", {},
                                                SchedulerTuning{.interference = 0.5}));
    }
};

QTEST_APPLESS_MAIN(TestSjfBsbf)
#include "test_sjf_bsbf.moc"
