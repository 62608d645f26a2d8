// The Synergy, SJF-BSBF and AntMan mechanisms keep what a job asked for (docs/architecture.md
// 2.10): every GPU they give is on a server of the job's partitions with its GPU type. The
// packing on its own, hand-computed schedules per family on two servers in two partitions, and
// every mechanism of the three families on a generated trace with requests.
#include <QtTest>

#include <algorithm>

#include "core/io/builtin_data.h"
#include "core/policies/simulate_policy.h"
#include "core/policies/synergy_packing.h"
#include "core/sim/job_requests.h"
#include "core/sim/simulator.h"
#include "core/workload/trace_generator.h"
#include "request_test_support.h"

using namespace cl;
using namespace cl::test;

namespace {

// A job as an import gives it: a measured run time and a time limit, so it runs exactly that long
// alone (sharing slows it by the mechanism's factor).
Job measured(const std::string& id, double submit, int gpus, double duration, const std::string& partition,
             const std::string& gpu_type = {}) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.duration = duration;
    j.time_limit = 10 * duration;
    j.partition = partition;
    j.requested_gpu_type = gpu_type;
    return j;
}

SimResult run(const Cluster& c, const Trace& t, const std::string& policy) {
    static const ProfileSet profiles;
    SimOptions o;
    o.conventions = Conventions::clean();
    return simulatePolicy(c, t, profiles, policy, o);
}

// a-big holds a1 and v-big holds v1 from 0 to 100; x (gpu-v, 2 GPUs, 10 s) arrives at 1 when no
// GPU is free: a sharing mechanism may share only v-big's GPUs with it.
Trace twoBigOneSharer() {
    Trace t;
    t.name = "sharer";
    t.jobs = {measured("a-big", 0, 4, 100, "", "A100"), measured("v-big", 0, 4, 100, "gpu-v"),
              measured("x", 1, 2, 10, "gpu-v")};
    return t;
}

}  // namespace

class TestSharingRequests : public QObject {
    Q_OBJECT

private slots:
    // Server 0 fits the job better (it has just its GPUs), but the job may use only server 1.
    void packingSkipsExcludedServers() {
        Cluster c;
        c.servers = {server("s0", "V100", 2, {}), server("s1", "V100", 4, {})};
        AuxLedger ledger(c);
        const std::vector<char> only_s1 = {1, 0};
        for (const bool first_fit : {false, true}) {
            std::vector<PackJob> jobs(2);
            jobs[0].job = 0;
            jobs[0].gpus = 2;
            jobs[0].ask = {3, 62.5};
            jobs[0].excluded = only_s1;
            jobs[1].job = 1;
            jobs[1].gpus = 4;  // only s1 could hold it, and x took two of its GPUs
            jobs[1].ask = {3, 62.5};
            jobs[1].excluded = only_s1;
            PackingOptions o;
            o.first_fit = first_fit;
            ledger.reset();
            ledger.pack(jobs, o);
            QCOMPARE(jobs[0].grant, Grant::Ask);
            QCOMPARE(jobs[0].gpu_ids, (std::vector<int>{2, 3}));
            QCOMPARE(jobs[1].grant, Grant::None);  // s0's two free GPUs are not its to take
        }
    }

    // V1 (gpu-v, 4 GPUs, 100 s), V2 (gpu-v, 4 GPUs, 50 s) and A (A100, 4 GPUs, 50 s) arrive at 0.
    // Counting GPUs alone, V1 and V2 take the cluster's 8 and A is not considered; on each job's
    // own servers V2 finds none left on v1, so A runs on a1 from 0 and V2 after V1, 100-150.
    void synergyCountsGpusOnEachJobsServers() {
        const Cluster c = a100AndV100Partitions();
        Trace t;
        t.name = "synergy";
        t.jobs = {measured("V1", 0, 4, 100, "gpu-v"), measured("V2", 0, 4, 50, "gpu-v"),
                  measured("A", 0, 4, 50, "", "A100")};
        for (const std::string policy : {"fifo+tune", "fifo+proportional", "fifo+greedy", "fifo+opt"}) {
            const SimResult r = run(c, t, policy);
            expectRequestsKept(c, t, r);
            QCOMPARE(r.jobs[0].first_start, 0.0);
            QCOMPARE(r.jobs[0].end, 100.0);
            QCOMPARE(r.jobs[2].first_start, 0.0);
            QCOMPARE(r.jobs[2].end, 50.0);
            QCOMPARE(r.jobs[1].first_start, 100.0);
            QCOMPARE(r.jobs[1].end, 150.0);
            QCOMPARE(serversOf(c, r, 1), std::vector<int>{1});
            QCOMPARE(serversOf(c, r, 2), std::vector<int>{0});
        }
    }

    // A preemptive order: at 1 x (gpu-v, 2 GPUs, 10 s) ranks first under srtf and is counted on
    // v1, its only server; a-big keeps a1, and v-big, which would need v1 whole, waits: x runs
    // 1-11 on v1, a-big 0-100 untouched, v-big is preempted once.
    void synergyPreemptsWithinThePartition() {
        const Cluster c = a100AndV100Partitions();
        const Trace t = twoBigOneSharer();
        const SimResult r = run(c, t, "srtf+tune");
        expectRequestsKept(c, t, r);
        QCOMPARE(r.jobs[2].first_start, 1.0);
        QCOMPARE(r.jobs[2].end, 11.0);
        QCOMPARE(serversOf(c, r, 2), std::vector<int>{1});
        QCOMPARE(r.jobs[0].end, 100.0);
        QCOMPARE(r.jobs[0].preemptions, 0);
        QCOMPARE(r.jobs[1].preemptions, 1);
    }

    // x shares v-big's GPUs from 1: both at 1.8 times their solo time (the default interference).
    // x: 10 s of work in 18 s, 1-19. v-big: 1 s alone, 10 s of work while sharing, 89 s alone
    // from 19: ends at 108. a-big is untouched (0-100). Without requests x shares a-big's GPUs
    // instead (the partners tie on their JCT sum and a1 comes first).
    void sjfSharesOnlyWithPartnersOnItsServers() {
        const Cluster c = a100AndV100Partitions();
        const Trace t = twoBigOneSharer();
        for (const std::string policy : {"sjf-bsbf", "sjf-ffs"}) {
            const SimResult r = run(c, t, policy);
            expectRequestsKept(c, t, r);
            QCOMPARE(r.jobs[2].first_start, 1.0);
            QCOMPARE(r.jobs[2].end, 19.0);
            QCOMPARE(r.jobs[1].end, 108.0);
            QCOMPARE(r.jobs[0].end, 100.0);
            QCOMPARE(serversOf(c, r, 2), std::vector<int>{1});
            const SimResult before = run(withoutPartitions(c), withoutRequests(t), policy);
            QCOMPARE(serversOf(c, before, 2), std::vector<int>{0});
            QCOMPARE(before.jobs[0].end, 108.0);
        }
    }

    // a-small holds two GPUs of a1 and v-small two of v1 (0-100); x (gpu-v, 4 GPUs, 10 s) at 1
    // takes v1's two free GPUs and shares v-small's two, never a1's free ones: 1.8 times slower,
    // 1-19; v-small ends at 108 (as above).
    void sjfTakesFreeGpusOnlyOnItsServers() {
        const Cluster c = a100AndV100Partitions();
        Trace t;
        t.name = "free";
        t.jobs = {measured("a-small", 0, 2, 100, "", "A100"), measured("v-small", 0, 2, 100, "gpu-v"),
                  measured("x", 1, 4, 10, "gpu-v")};
        for (const std::string policy : {"sjf-bsbf", "sjf-ffs"}) {
            const SimResult r = run(c, t, policy);
            expectRequestsKept(c, t, r);
            QCOMPARE(serversOf(c, r, 2), std::vector<int>{1});
            QCOMPARE(r.jobs[2].first_start, 1.0);
            QCOMPARE(r.jobs[2].end, 19.0);
            QCOMPARE(r.jobs[1].end, 108.0);
            QCOMPARE(r.jobs[0].end, 100.0);
        }
    }

    // AntMan: no idle GPU at 1, so x runs opportunistically next to a guaranteed job, at half
    // speed: 10 s of work in 20 s, 1-21; the guaranteed jobs keep their speed (both end at 100).
    // It may only join v-big on v1; without requests the placement picks a1 (first best fit).
    void antmanSharesOnlyOnItsServers() {
        const Cluster c = a100AndV100Partitions();
        const Trace t = twoBigOneSharer();
        const SimResult r = run(c, t, "antman");
        expectRequestsKept(c, t, r);
        QCOMPARE(r.jobs[2].first_start, 1.0);
        QCOMPARE(r.jobs[2].end, 21.0);
        QCOMPARE(r.jobs[0].end, 100.0);
        QCOMPARE(r.jobs[1].end, 100.0);
        QCOMPARE(serversOf(c, r, 2), std::vector<int>{1});
        const SimResult before = run(withoutPartitions(c), withoutRequests(t), "antman");
        QCOMPARE(serversOf(c, before, 2), std::vector<int>{0});
    }

    // AntMan places on idle GPUs of its own servers: x (A100, 2 GPUs) at 1 finds v1 idle but
    // may not use it, and a1 is held by a-big: it joins a-big (1-21), while v-only y (2 GPUs,
    // 10 s) at 2 takes idle v1 GPUs, guaranteed, 2-12.
    void antmanIdleOnlyOnItsServers() {
        const Cluster c = a100AndV100Partitions();
        Trace t;
        t.name = "idle";
        t.jobs = {measured("a-big", 0, 4, 100, "", "A100"), measured("x", 1, 2, 10, "", "A100"),
                  measured("y", 2, 2, 10, "gpu-v")};
        const SimResult r = run(c, t, "antman");
        expectRequestsKept(c, t, r);
        QCOMPARE(serversOf(c, r, 1), std::vector<int>{0});
        QCOMPARE(r.jobs[1].end, 21.0);
        QCOMPARE(r.jobs[2].first_start, 2.0);
        QCOMPARE(r.jobs[2].end, 12.0);
    }

    // Every order under the three families' mechanisms, on a generated trace where jobs ask for
    // one of two partitions (one of them with an A100 pair) or an A100: no job runs outside its
    // servers (the engine would refuse the decision), and every job completes.
    void everySharingMechanismKeepsRequests() {
        const ProfileSet profiles = builtinProfiles();
        const Cluster c = partitionedTestbed();
        const Trace t = traceWithRequests(profiles, 80, 5, 80, 5, 2);
        const std::vector<std::string> policies = {"fifo+proportional", "srtf+proportional",
                                                   "fifo+greedy",       "las+greedy",
                                                   "fifo+tune",         "srtf+tune",
                                                   "fifo+opt",          "sjf-bsbf",
                                                   "sjf-ffs",           "antman",
                                                   "srtf+bsbf",         "fifo+ffs+count",
                                                   "srtf+antman",       "fifo+antman+firstfit"};
        // The Synergy mechanisms under the authors' conventions too (first fit, re-packed from an
        // empty cluster every round, OPT's asks granted without packing CPU and memory).
        std::vector<std::pair<std::string, Conventions>> runs;
        for (const std::string& policy : policies) runs.emplace_back(policy, Conventions::clean());
        for (const std::string policy : {"fifo+proportional", "fifo+greedy", "fifo+tune", "fifo+opt"})
            runs.emplace_back(policy, Conventions::synergyArtifact());
        for (const auto& [policy, conventions] : runs) {
            const SimResult r = runOrFail(c, t, profiles, policy, conventions);
            expectRequestsKept(c, t, r);
            expectEveryJobRan(r);
        }
    }
};

QTEST_MAIN(TestSharingRequests)
#include "test_sharing_requests.moc"
