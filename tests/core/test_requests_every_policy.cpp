// Every policy keeps what a job asked for (docs/architecture.md 2.10): the servers of its
// partitions with its GPU type. The pool's restriction on its own, hand-made schedules under the
// exclusive mechanism, and a sweep of every order and mechanism over a generated trace with
// requests (the engine refuses a decision that breaks one; the test checks every GPU segment).
#include <QtTest>

#include <set>

#include "core/io/builtin_data.h"
#include "core/policies/gpu_pool.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/job_requests.h"
#include "core/sim/simulator.h"
#include "core/workload/trace_generator.h"
#include "request_test_support.h"

using namespace cl;
using namespace cl::test;

namespace {

// A job as an import gives it: a measured run time and a time limit, so it runs exactly that long.
Job measured(const std::string& id, double submit, int gpus, double duration) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.duration = duration;
    j.time_limit = 10 * duration;
    return j;
}

// v-big holds v1 from 0 to 100; v-small (gpu-v, 2 GPUs, 10 s) arrives at 1; a (A100, 2 GPUs) at 2.
Trace vBigVSmallA() {
    Trace t;
    t.name = "requests";
    t.jobs = {measured("v-big", 0, 4, 100), measured("v-small", 1, 2, 10), measured("a", 2, 2, 10)};
    t.jobs[0].partition = "gpu-v";
    t.jobs[1].partition = "gpu-v";
    t.jobs[2].requested_gpu_type = "A100";
    return t;
}

SimResult run(const Cluster& c, const Trace& t, const std::string& policy) {
    static const ProfileSet profiles;
    auto scheduler = makeScheduler(policy, Conventions::clean());
    return simulate(c, t, profiles, *scheduler);
}

}  // namespace

class TestRequestsEveryPolicy : public QObject {
    Q_OBJECT

private slots:
    // Servers of 2, 4 and 4 GPUs; the restriction allows the first and the last.
    void theRestrictedPoolOffersOnlyAllowedServers() {
        Cluster c;
        c.servers = {server("s0", "V100", 2, {}), server("s1", "V100", 4, {}), server("s2", "V100", 4, {})};
        GpuPool pool(c);
        const std::vector<char> excluded = {0, 1, 0};
        std::vector<int> got;
        pool.takeOnServer(2, 1, got);  // s2: 3 free
        {
            const GpuPool::Restriction only_s0_s2(pool, excluded);
            QCOMPARE(pool.totalFree(), 2 + 3);
            QCOMPARE(pool.serverFree(1), 0);
            QVERIFY(!pool.fullyFree(1));
            QCOMPARE(pool.bestFitServer(3), 2);  // s1 would fit best, but may not be used
            QCOMPARE(pool.firstServerWithFree(3), 2);
            QCOMPARE(pool.bestFitServer(4), -1);  // only s1 has 4 free
            pool.takeOnServer(0, 2, got);
            QCOMPARE(pool.totalFree(), 3);
            pool.release(got.back());
            QCOMPARE(pool.totalFree(), 4);
        }
        QCOMPARE(pool.totalFree(), 1 + 4 + 3);
        QCOMPARE(pool.bestFitServer(4), 1);
    }

    // fifo: v-small waits for v1 although a1 is free (v-big ends at 100, v-small runs 100-110);
    // a starts at once on a1. Without requests v-small would start at 1 on a1.
    void fifoWaitsForThePartitionsServers() {
        const Cluster c = a100AndV100Partitions();
        const Trace t = vBigVSmallA();
        const SimResult r = run(c, t, "fifo");
        QCOMPARE(r.jobs[0].first_start, 0.0);
        QCOMPARE(r.jobs[1].first_start, 100.0);
        QCOMPARE(r.jobs[2].first_start, 2.0);
        expectRequestsKept(c, t, r);
        QCOMPARE(run(withoutPartitions(c), withoutRequests(t), "fifo").jobs[1].first_start, 1.0);
    }

    // A drained v1 is no capacity: the gpu-v jobs can never fit and are left out, named; a keeps
    // a1. Kept (--keep-unavailable), v1 runs them as in fifoWaitsForThePartitionsServers.
    void unavailableServersAreNoCapacity() {
        Cluster c = a100AndV100Partitions();
        c.servers[1].unavailable = true;
        const Trace t = vBigVSmallA();
        static const ProfileSet profiles;
        auto scheduler = makeScheduler("fifo", Conventions::clean());
        SimOptions o;
        const SimResult r = simulate(c, t, profiles, *scheduler, o);
        QCOMPARE(r.left_out.size(), std::size_t(2));
        QCOMPARE(r.left_out[0].reason,
                 std::string("job 'v-big' (#0) needs 4 GPUs but the servers of partition(s) "
                             "'gpu-v' on cluster 'two' (without its 1 unavailable server) "
                             "have only 0"));
        QCOMPARE(r.jobs[2].first_start, 2.0);
        expectRequestsKept(c, t, r);
        o.keep_unavailable = true;
        auto fresh = makeScheduler("fifo", Conventions::clean());
        const SimResult kept = simulate(c, t, profiles, *fresh, o);
        QVERIFY(kept.left_out.empty());
        QCOMPARE(kept.jobs[1].first_start, 100.0);
    }

    // srtf: at 1 v-small (10 s left) ranks before v-big (99 s left) and may use only v1, where
    // v-big holds every GPU: v-big is preempted, v-small runs 1-11 on v1, and a runs on a1 from 2.
    void srtfPreemptsWithinThePartition() {
        const Cluster c = a100AndV100Partitions();
        const Trace t = vBigVSmallA();
        const SimResult r = run(c, t, "srtf");
        QCOMPARE(r.jobs[1].first_start, 1.0);
        QCOMPARE(r.jobs[1].end, 11.0);
        QCOMPARE(r.jobs[2].first_start, 2.0);
        QCOMPARE(r.jobs[0].preemptions, 1);
        expectRequestsKept(c, t, r);
    }

    // Every order under every mechanism, every placement and every preset, on a generated trace where jobs
    // ask for one of two partitions (one of them with an A100 pair) or an A100: no job ever runs outside its
    // servers, and every job that fits its servers completes.
    void everyPolicyKeepsPartitionsAndGpuTypes() {
        const ProfileSet profiles = builtinProfiles();
        const Cluster c = partitionedTestbed();
        const Trace t = traceWithRequests(profiles, 120, 11, 60, 5, 2);
        std::vector<std::string> policies = presetNames();
        for (const std::string& order : orderNames())
            for (const std::string& mechanism : mechanismNames()) policies.push_back(order + "+" + mechanism);
        for (const std::string& placement : placementNames())
            policies.push_back("srtf+exclusive+" + placement);
        int ran = 0;
        for (const std::string& policy : policies) {
            if (policy.find("noise=N") != std::string::npos) continue;
            if (!policyProblem(policy, Conventions::clean()).empty()) continue;
            const SimResult r = runOrFail(c, t, profiles, policy);
            expectRequestsKept(c, t, r);
            expectEveryJobRan(r);
            ++ran;
        }
        QVERIFY(ran > 40);
    }

    // A node count (docs/architecture.md 2.10): a 2-GPU job on 2 nodes gets one GPU on each of
    // the two servers, though consolidated placement would put both on one; a 4-GPU job on 1
    // node waits for a whole server rather than take 2 + 2.
    void fifoKeepsNodeCounts() {
        Cluster c;
        c.name = "two";
        c.servers = {server("n1", "V100", 4), server("n2", "V100", 4)};
        Trace t;
        t.jobs = {measured("spread", 0, 2, 10), measured("half", 1, 2, 100), measured("one-node", 2, 4, 10)};
        t.jobs[0].nodes = 2;
        t.jobs[2].nodes = 1;
        const SimResult r = run(c, t, "fifo");
        QCOMPARE(serversOf(c, r, 0), (std::vector<int>{0, 1}));
        // half (no count) takes 2 GPUs of one server at 1; one-node then fits on the other
        // server only once spread has left it at 10.
        QCOMPARE(r.jobs[2].first_start, 10.0);
        QCOMPARE(serversOf(c, r, 2).size(), std::size_t(1));
    }

    // Every policy places a job with a node count on exactly that many servers, whenever it runs.
    void everyPolicyKeepsNodeCounts() {
        const ProfileSet profiles = builtinProfiles();
        const Cluster c = partitionedTestbed();
        Trace t = traceWithRequests(profiles, 120, 11, 60, 5, 2);
        for (std::size_t i = 0; i < t.jobs.size(); ++i) {
            Job& j = t.jobs[i];
            if (i % 4 == 0 && j.gpus <= 8) j.nodes = 1;
            if (i % 4 == 2 && j.gpus >= 2) j.nodes = 2;
        }
        const std::vector<int> server_of = serverOfGpu(c);
        int ran = 0;
        for (const std::string& policy : presetNames()) {
            if (policy.find("noise=N") != std::string::npos) continue;
            if (!policyProblem(policy, Conventions::clean()).empty()) continue;
            const SimResult r = runOrFail(c, t, profiles, policy);
            expectEveryJobRan(r);
            for (const GpuSegment& at : r.segments) {
                const int nodes = t.jobs[static_cast<std::size_t>(at.job)].nodes;
                if (nodes <= 0) continue;
                std::set<int> servers;  // the job's servers at this segment's start
                for (const GpuSegment& g : r.segments)
                    if (g.job == at.job && g.t0 <= at.t0 && at.t0 < g.t1)
                        servers.insert(server_of[static_cast<std::size_t>(g.gpu)]);
                QVERIFY2(static_cast<int>(servers.size()) == nodes,
                         qPrintable(QString::fromStdString(policy + ": job '" + r.jobs[at.job].id + "' on " +
                                                           std::to_string(servers.size()) +
                                                           " servers, asked " + std::to_string(nodes))));
            }
            ++ran;
        }
        QVERIFY(ran > 10);
    }
};

QTEST_MAIN(TestRequestsEveryPolicy)
#include "test_requests_every_policy.moc"
