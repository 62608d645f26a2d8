// Behaviour of the Muri paper's baselines: Themis-like finish-time fairness and AntMan-like
// FIFO GPU sharing (what we decided is documented in ftf_order.cpp / antman_mechanism.h).
#include <QtTest>

#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"

using namespace cl;

namespace {

Cluster oneGpu() {
    Cluster c;
    c.name = "1gpu";
    Server s;
    s.gpus = 1;
    c.servers.push_back(s);
    return c;
}

Job job(const std::string& id, double submit, double seconds) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = 1;
    j.iterations = seconds;
    j.solo_iteration_time = 1.0;
    return j;
}

SimResult run(const Trace& t, const std::string& policy) {
    ProfileSet none;
    none.default_restart_overhead = 0;
    SimOptions o;
    o.conventions.solo_factor = 1.0;
    return simulatePolicy(oneGpu(), t, none, policy, o);
}

}  // namespace

class TestBaselines : public QObject {
    Q_OBJECT

private slots:
    void themisServesTheJobTreatedLeastFairly() {
        // A and B (100 s) at 0, C (10 s) at 50. At 50, with 3 jobs on 1 GPU, B's finish-time
        // fairness (50 + 100) / (100 x 3) = 0.5 beats A's and C's 1/3: B preempts A. At 150,
        // C's (100 + 10) / (10 x 2) = 5.5 beats A's 1.0.
        Trace t;
        t.jobs = {job("A", 0, 100), job("B", 0, 100), job("C", 50, 10)};
        SimResult r = run(t, "themis");
        QCOMPARE(r.jobs[0].preemptions, 1);
        QCOMPARE(r.jobs[1].end, 150.0);
        QCOMPARE(r.jobs[2].end, 160.0);
        QCOMPARE(r.jobs[0].end, 210.0);
        // SRTF would have run C first at 50.
        QCOMPARE(run(t, "srtf").jobs[2].end, 60.0);
    }

    void antmanSharesGpusFifoWithoutPreemption() {
        // A holds the GPU (guaranteed, full speed). B shares it opportunistically at half speed;
        // C waits for the sharing slot; E shares until A ends, then runs alone at full speed.
        Trace t;
        t.jobs = {job("A", 0, 100), job("B", 10, 10), job("C", 15, 10), job("E", 60, 200)};
        SimResult r = run(t, "antman");
        QCOMPARE(r.jobs[0].jct, 100.0);  // never slowed, never preempted
        QCOMPARE(r.jobs[1].jct, 20.0);   // 10 s of work at half speed
        QCOMPARE(r.jobs[2].first_start, 30.0);
        QCOMPARE(r.jobs[2].jct, 35.0);
        QCOMPARE(r.jobs[3].end, 280.0);  // 20 iterations by 100, then 180 s alone
        for (const auto& j : r.jobs) QCOMPARE(j.preemptions, 0);
    }
};

QTEST_APPLESS_MAIN(TestBaselines)
#include "test_baselines.moc"
