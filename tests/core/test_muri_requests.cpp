// The Muri mechanism keeps what a job asked for (docs/architecture.md 2.10): jobs share GPUs only
// with jobs of the same GPU count and the same request, every GPU they get is on a server of
// their partitions with their GPU type, and a request whose candidates need more GPUs than its
// servers have groups them as the cluster's rule does. Hand-computed schedules on two one-GPU
// servers, and both presets on a generated trace with requests.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "core/io/builtin_data.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/job_requests.h"
#include "core/sim/simulator.h"
#include "core/workload/trace_generator.h"
#include "request_test_support.h"

using namespace cl;
using namespace cl::test;

namespace {

// a: one GPU in partition pa (the default); b: one GPU in pb. GPU 0 is a's, GPU 1 b's.
Cluster twoPartitions() {
    Cluster c;
    c.name = "two";
    c.servers = {server("a", "V100", 1, {"pa"}), server("b", "V100", 1, {"pb"})};
    c.partitions = {{"pa", 1, 0.0, true}, {"pb", 1, 0.0, false}};
    return c;
}

// A one-GPU job that loads for 0.5 s and computes for 0.5 s per iteration, 1 s per iteration
// alone: two of them interleave at 1.0 x 1.33 / 1.015 s per iteration (test_muri.cpp).
Job halfAndHalf(const std::string& id, double submit, double iterations, const std::string& partition = {}) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = 1;
    j.iterations = iterations;
    j.solo_iteration_time = 1.0;
    j.stage_times = {0.5, 0.5, 0.0};
    j.partition = partition;
    return j;
}

const double kPair = 1.33 / 1.015;  // a pair's seconds per iteration

// Clean conventions without the solo factor and no restart overhead: a job alone takes exactly
// 1 s per iteration, and (re)starting costs nothing.
SimResult run(const Cluster& c, const Trace& t, const std::string& policy) {
    ProfileSet p;
    p.default_restart_overhead = 0;
    SimOptions o;
    o.conventions.solo_factor = 1.0;
    return simulatePolicy(c, t, p, policy, o);
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// The GPUs job j ever ran on, sorted without repeats.
std::vector<int> gpusOf(const SimResult& r, int j) {
    std::vector<int> g;
    for (const GpuSegment& s : r.segments)
        if (s.job == j) g.push_back(s.gpu);
    std::sort(g.begin(), g.end());
    g.erase(std::unique(g.begin(), g.end()), g.end());
    return g;
}

// Whether jobs i and k ever ran on one GPU at the same time.
bool shared(const SimResult& r, int i, int k) {
    for (const GpuSegment& a : r.segments)
        for (const GpuSegment& b : r.segments)
            if (a.job == i && b.job == k && a.gpu == b.gpu && a.t0 < b.t1 && b.t0 < a.t1) return true;
    return false;
}

}  // namespace

class TestMuriRequests : public QObject {
    Q_OBJECT

private slots:
    // Muri-S (SRSF). x (pb, 100 iterations) runs alone on b from 0. At 5, y (pb, 10 iterations)
    // ranks first (10 left against 95) and may use only b: x and y are candidates of one request
    // and need 2 GPUs where pb has 1, so they pair on b (a stays idle) from 5 to
    // 5 + 10 x kPair; x then runs its last 95 - 10 = 85 iterations alone.
    // Without partitions the two fit the cluster: y runs on a from 5 to 15, x ends at 100.
    void jobsOfAFullPartitionShareItsServer() {
        const Cluster c = twoPartitions();
        Trace t;
        t.jobs = {halfAndHalf("x", 0, 100, "pb"), halfAndHalf("y", 5, 10, "pb")};
        const SimResult r = run(c, t, "muri-s");
        const double pair_end = 5 + 10 * kPair;
        QCOMPARE(r.jobs[0].first_start, 0.0);
        QCOMPARE(r.jobs[1].first_start, 5.0);
        QVERIFY2(near(r.jobs[1].end, pair_end), qPrintable(QString::number(r.jobs[1].end, 'g', 17)));
        QVERIFY2(near(r.jobs[0].end, pair_end + 85), qPrintable(QString::number(r.jobs[0].end, 'g', 17)));
        QCOMPARE(gpusOf(r, 0), std::vector<int>{1});
        QCOMPARE(gpusOf(r, 1), std::vector<int>{1});
        QVERIFY(shared(r, 0, 1));
        expectRequestsKept(c, t, r);

        const SimResult free = run(withoutPartitions(c), withoutRequests(t), "muri-s");
        QCOMPARE(free.jobs[1].first_start, 5.0);
        QVERIFY(near(free.jobs[1].end, 15.0));
        QVERIFY(near(free.jobs[0].end, 100.0));
        QVERIFY(!shared(free, 0, 1));
    }

    // Muri-L. x (pa), y (pb) and w (pa), 100 iterations each, at 0: three one-GPU jobs on two
    // GPUs, so one pair forms. Without requests the matching pairs the first two nodes, x and
    // y. With them x and y are in different buckets and never group: x and w pair on a (both end
    // at 100 x kPair), y runs alone on b (ends at 100).
    void jobsOfDifferentPartitionsNeverGroup() {
        const Cluster c = twoPartitions();
        Trace t;
        t.jobs = {halfAndHalf("x", 0, 100, "pa"), halfAndHalf("y", 0, 100, "pb"),
                  halfAndHalf("w", 0, 100, "pa")};
        const SimResult free = run(withoutPartitions(c), withoutRequests(t), "muri-l");
        QVERIFY(shared(free, 0, 1));

        const SimResult r = run(c, t, "muri-l");
        QVERIFY(!shared(r, 0, 1));
        QVERIFY(!shared(r, 2, 1));
        QVERIFY(shared(r, 0, 2));
        for (int j = 0; j < 3; ++j) QCOMPARE(r.jobs[j].first_start, 0.0);
        QVERIFY(near(r.jobs[0].end, 100 * kPair));
        QVERIFY(near(r.jobs[2].end, 100 * kPair));
        QVERIFY(near(r.jobs[1].end, 100.0));
        QCOMPARE(gpusOf(r, 0), std::vector<int>{0});
        QCOMPARE(gpusOf(r, 1), std::vector<int>{1});
        QCOMPARE(gpusOf(r, 2), std::vector<int>{0});
        expectRequestsKept(c, t, r);
    }

    // A GPU type is a request too. a has an A100, b a V100, no partitions. Best fit takes the
    // lowest-index server on ties, a, for any job; v asks for a V100 and runs on b (0 to 100),
    // and u (no request, at 1) then gets a (1 to 51).
    void aGpuTypeRequestPicksItsServer() {
        Cluster c;
        c.name = "types";
        c.servers = {server("a", "A100", 1, {}), server("b", "V100", 1, {})};
        Trace t;
        t.jobs = {halfAndHalf("v", 0, 100), halfAndHalf("u", 1, 50)};
        t.jobs[0].requested_gpu_type = "V100";
        for (const char* policy : {"muri-s", "muri-l"}) {
            const SimResult r = run(c, t, policy);
            QCOMPARE(gpusOf(r, 0), std::vector<int>{1});
            QCOMPARE(gpusOf(r, 1), std::vector<int>{0});
            QCOMPARE(r.jobs[0].first_start, 0.0);
            QCOMPARE(r.jobs[1].first_start, 1.0);
            QVERIFY(near(r.jobs[0].end, 100.0));
            QVERIFY(near(r.jobs[1].end, 51.0));
            expectRequestsKept(c, t, r);
        }
        QCOMPARE(gpusOf(run(c, withoutRequests(t), "muri-s"), 0), std::vector<int>{0});
    }

    // Both presets and their variants on a generated trace where jobs ask for one of two
    // partitions (the default one when they name none), some of them for an A100: the engine accepts every
    // decision, every GPU is on an allowed server, every job completes, and groups never mix GPU counts.
    void presetsKeepRequestsOnAGeneratedTrace() {
        const ProfileSet profiles = builtinProfiles();
        const Cluster c = partitionedTestbed();
        const Trace t = traceWithRequests(profiles, 200, 5, 120, 6, 4);
        int shared_segments = 0;  // the trace queues: groups do form
        for (const char* policy :
             {"muri-s", "muri-l", "muri-l-no-blossom", "muri-l-k2", "muri-l-worst-order"}) {
            const SimResult r = runOrFail(c, t, profiles, policy);
            expectRequestsKept(c, t, r);
            const JobRequests requests(c, t);
            for (const JobRecord& j : r.jobs)
                QVERIFY2(j.completed, qPrintable(QString::fromStdString(std::string(policy) + ": " + j.id)));
            // Jobs sharing a GPU at one time have the same GPU count and the same request.
            for (const GpuSegment& a : r.segments)
                for (const GpuSegment& b : r.segments)
                    if (a.job < b.job && a.gpu == b.gpu && a.t0 < b.t1 && b.t0 < a.t1) {
                        ++shared_segments;
                        QCOMPARE(r.jobs[a.job].gpus, r.jobs[b.job].gpus);
                        QVERIFY(requests.excludedServers(a.job).data() ==
                                requests.excludedServers(b.job).data());
                    }
        }
        QVERIFY(shared_segments > 0);
    }
};

QTEST_MAIN(TestMuriRequests)
#include "test_muri_requests.moc"
