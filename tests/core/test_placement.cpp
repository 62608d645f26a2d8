// Topology-aware placement of data-parallel jobs (docs/architecture.md section 6): the workload
// generator, the four placement policies at server and device level, per-pod forwarding, and step
// times from interference and bottleneck bandwidths computed by hand on a fat-tree(4) of
// Power8-like servers (2 sockets x 8 cores, one GPU group of 2 GPUs per socket, PCIe 128 Gbps).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "core/topology_placement/placement_simulator.h"

using namespace cl;

namespace {

struct FatTree4 {
    Cluster cluster = makeTopologyCluster("ft4", fatTreeSpec(4), architectureMix("power8"));
    NetworkTopology topology = NetworkTopology::build(cluster.topology);
};

int modelIndex(const std::string& name) {
    const auto& types = distributedModelTypes();
    for (std::size_t i = 0; i < types.size(); ++i)
        if (types[i].name == name) return static_cast<int>(i);
    return -1;
}

DistributedJob job(int id, const std::string& model, int workers, double steps, double submit = 0,
                   int pod = 0, int ps = 0) {
    DistributedJob j;
    j.id = id;
    j.name = "j" + std::to_string(id);
    j.model = modelIndex(model);
    j.workers = workers;
    j.parameter_servers = ps;
    j.steps = steps;
    j.submit = submit;
    j.pod = pod;
    return j;
}

PlacementRunResult run(const FatTree4& ft, const std::vector<DistributedJob>& jobs,
                       const std::string& policy) {
    PlacementSimOptions opt;
    opt.policy = placementPolicyFromName(policy);
    return simulatePlacement(ft.cluster, ft.topology, jobs, distributedModelTypes(), opt);
}

std::vector<double> stepSeconds() {
    std::vector<double> s;
    for (const auto& m : distributedModelTypes()) s.push_back(m.step_seconds);
    return s;
}

double gigabits(const std::string& model) {
    return distributedModelType(model).gradient_mb * 8.0 / 1000.0;
}

}  // namespace

class TestPlacement : public QObject {
    Q_OBJECT

private slots:
    void eightModelTypes() {
        QCOMPARE(distributedModelTypes().size(), std::size_t(8));
        QCOMPARE(distributedModelType("vgg16").gradient_mb, 553.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, distributedModelType("alexnet"));
        for (const auto& m : distributedModelTypes()) {
            QVERIFY(m.step_seconds > 0 && m.worker_cpu_cores > 0 && m.worker_pcie_gbps > 0 &&
                    m.gradient_mb > 0);
        }
    }

    void uniformArrivalsAreWithinTwiceTheRate() {
        DistributedWorkloadSpec s;
        s.intervals = 2000;
        s.jobs_per_interval = 15;
        s.pods = 1;
        const auto jobs = generateDistributedWorkload(s, stepSeconds());
        std::map<double, int> per_interval;
        for (const auto& j : jobs) {
            ++per_interval[j.submit];
            QCOMPARE(std::fmod(j.submit, 1800.0), 0.0);
            QVERIFY(j.workers >= 1 && j.workers <= 4);
            QVERIFY(j.parameter_servers >= 0 && j.parameter_servers <= 2);
            const double hours = j.steps * stepSeconds()[static_cast<std::size_t>(j.model)] / 3600.0;
            QVERIFY(hours >= 0.25 - 1e-3 && hours <= 4.0 + 1e-3);
        }
        for (const auto& [t, n] : per_interval) QVERIFY(n <= 30);
        const double mean = double(jobs.size()) / s.intervals;
        QVERIFY2(std::abs(mean - 15.0) < 0.5, qPrintable(QString::number(mean)));
        // Deterministic per seed, different across seeds.
        const auto again = generateDistributedWorkload(s, stepSeconds());
        QCOMPARE(again.size(), jobs.size());
        QCOMPARE(again.back().steps, jobs.back().steps);
        s.seed = 2;
        QVERIFY(generateDistributedWorkload(s, stepSeconds()).size() != jobs.size());
    }

    void fractionalUniformRatesKeepTheirMean() {
        DistributedWorkloadSpec s;
        s.intervals = 4000;
        s.jobs_per_interval = 0.4;
        const double mean = double(generateDistributedWorkload(s, stepSeconds()).size()) / s.intervals;
        QVERIFY2(std::abs(mean - 0.4) < 0.05, qPrintable(QString::number(mean)));
        s.jobs_per_interval = 1e6;
        s.intervals = 100;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDistributedWorkload(s, stepSeconds()));
    }

    void poissonArrivalsHaveTheirMeanAndVariance() {
        DistributedWorkloadSpec s;
        s.pattern = ArrivalPattern::Poisson;
        s.intervals = 4000;
        s.jobs_per_interval = 15;
        const auto jobs = generateDistributedWorkload(s, stepSeconds());
        std::vector<double> counts(static_cast<std::size_t>(s.intervals), 0.0);
        for (const auto& j : jobs) counts[static_cast<std::size_t>(j.submit / 1800.0)] += 1;
        double mean = 0, var = 0;
        for (double c : counts) mean += c;
        mean /= counts.size();
        for (double c : counts) var += (c - mean) * (c - mean);
        var /= counts.size() - 1;
        QVERIFY2(std::abs(mean - 15) < 0.3, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(var - 15) < 1.5, qPrintable(QString::number(var)));
    }

    void traceArrivalsFollowTheTraceShape() {
        Trace t;
        for (double submit : {0.0, 100.0, 1800.0, 5400.0, 5401.0, 5402.0, 5403.0}) {
            Job j;
            j.submit_time = submit + 600;
            t.jobs.push_back(j);
        }
        QCOMPARE(arrivalCountsPerInterval(t, 1800.0), (std::vector<double>{2, 1, 0, 4}));
        DistributedWorkloadSpec s;
        s.pattern = ArrivalPattern::Trace;
        s.trace_counts = {2, 0, 6};  // mean 8/3, scaled to 4 per interval: 3, 0, 9
        s.jobs_per_interval = 4;
        s.intervals = 0;  // the trace's length
        s.pods = 2;
        const auto jobs = generateDistributedWorkload(s, stepSeconds());
        std::map<std::pair<double, int>, int> n;
        for (const auto& j : jobs) ++n[{j.submit, j.pod}];
        QCOMPARE(jobs.size(), std::size_t(24));
        QCOMPARE((n[{0.0, 0}]), 3);
        QCOMPARE((n[{0.0, 1}]), 3);
        QCOMPARE((n[{1800.0, 1}]), 0);
        QCOMPARE((n[{3600.0, 0}]), 9);
        s.max_jobs = 5;
        QCOMPARE(generateDistributedWorkload(s, stepSeconds()).size(), std::size_t(5));
    }

    void badWorkloadSpecsAreRefused() {
        DistributedWorkloadSpec s;
        s.max_workers = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDistributedWorkload(s, stepSeconds()));
        s = {};
        s.pattern = ArrivalPattern::Trace;
        try {
            generateDistributedWorkload(s, stepSeconds());
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("trace pattern needs arrival counts") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, arrivalPatternFromName("bursty"));
    }

    void policyNames() {
        QCOMPARE(allPlacementPolicies().size(), std::size_t(8));
        QCOMPARE(placementPolicyFromName("least-interference@device").name(), std::string("lif@device"));
        QCOMPARE(placementPolicyFromName("k8s").name(), std::string("k8s"));
        try {
            placementPolicyFromName("random");
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("valid: tetris, lb, lif, k8s") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, placementPolicyFromName("lb@rack"));
    }

    void aJobAloneRunsAtItsComputeSpeed() {
        const FatTree4 ft;
        for (const auto& p : allPlacementPolicies()) {
            const auto r = run(ft, {job(1, "resnet50", 1, 1000, 3600)}, p.name());
            QCOMPARE(r.jobs[0].start, 3600.0);
            QCOMPARE(r.jobs[0].end, 3600.0 + 250.0);
            QCOMPARE(r.jobs[0].slowdown(), 1.0);
            QCOMPARE(r.average_jct, 250.0);
            QCOMPARE(r.tier_utilization, (std::vector<double>{0, 0, 0}));
        }
    }

    void ringInsideOneGpuGroupCrossesPcieOnly() {
        // Tetris at device level packs both workers into GPU group 0 of server 0. A job's own
        // workers do not interfere with it (its time alone includes them); ring all-reduce of
        // 2: each sends 2 (W-1)/W = 1 gradient to the other over the group's PCIe switch.
        const FatTree4 ft;
        const auto r = run(ft, {job(1, "resnet50", 2, 1000)}, "tetris@device");
        QCOMPARE(r.jobs[0].servers, 1);
        const double step = 0.25 + gigabits("resnet50") / 128.0;
        QVERIFY(std::abs(r.jobs[0].end - 1000 * step) < 1e-9 * r.jobs[0].end);
        // A second such job in the other group of that socket... there is none: group 0 is
        // socket 0's only group, so the second job shares socket 1 with nobody (device level)
        // or is packed next to the first in group 1 (other socket): no interference either.
        const auto two = run(ft, {job(1, "resnet50", 2, 1000), job(2, "resnet50", 2, 1000)}, "tetris@device");
        QCOMPARE(two.jobs[1].end, two.jobs[0].end);
    }

    void ringAcrossServersOfOneEdgeSwitch() {
        // Load balancing spreads the two workers over servers 0 and 1 (one edge switch): each
        // direction of the two 10 Gbps server links carries one flow.
        const FatTree4 ft;
        const auto r = run(ft, {job(1, "resnet50", 2, 1000)}, "lb");
        QCOMPARE(r.jobs[0].servers, 2);
        const double gb = gigabits("resnet50");
        const double step = 0.25 + gb / 10.0;
        QVERIFY(std::abs(r.jobs[0].end - 1000 * step) < 1e-9 * r.jobs[0].end);
        // Tier 0: 16 links x 2 directions x 10 Gbps; the two flows load 4 directed links with
        // gb / step each for the whole makespan.
        QVERIFY(std::abs(r.tier_utilization[0] - 4 * gb / step / 320.0) < 1e-12);
        QCOMPARE(r.tier_utilization[1], 0.0);
    }

    void parameterServerFlowsShareItsLink() {
        // k8s spreads 3 workers and 1 parameter server over servers 0..3 (pod 0): three flows
        // into the server's link towards the parameter server share its 10 Gbps.
        const FatTree4 ft;
        const auto r = run(ft, {job(1, "vgg16", 3, 100, 0, 0, 1)}, "k8s");
        QCOMPARE(r.jobs[0].servers, 4);
        const double per_pair = 2.0 * gigabits("vgg16");
        const double step = 0.35 + per_pair / (10.0 / 3.0);
        QVERIFY2(std::abs(r.jobs[0].end - 100 * step) < 1e-9 * r.jobs[0].end,
                 qPrintable(QString::number(r.jobs[0].end, 'g', 17)));
    }

    void tetrisPacksWhileLoadBalancingSpreads() {
        const FatTree4 ft;
        const std::vector<DistributedJob> jobs = {job(1, "wlm", 1, 100), job(2, "wlm", 1, 100)};
        auto servers_of = [&](const std::string& policy) {
            return run(ft, jobs, policy).jobs[0].servers +
                   run(ft, {job(1, "wlm", 2, 100)}, policy).jobs[0].servers;
        };
        QCOMPARE(servers_of("tetris"), 2);  // one server for each single-task job and the pair
        // A job's first worker goes where the whole job fits, not into the fullest server.
        const auto r = run(ft, {job(1, "wlm", 1, 100), job(2, "wlm", 4, 100)}, "tetris");
        QCOMPARE(r.jobs[1].servers, 1);
        QCOMPARE(r.multi_server_jobs, 0);
        QCOMPARE(servers_of("lb"), 3);
        QCOMPARE(servers_of("k8s"), 3);
    }

    void leastInterferenceUsesTheQuietSocket() {
        // Two CPU-heavy CTC jobs (8 cores each): LIF at device level puts the second on the
        // other socket of server 0, where nothing interferes; sharing socket 0 would.
        const FatTree4 ft;
        ClusterOccupancy o(ft.cluster, defaultInterferenceCoefficients());
        o.add({1, {0, 0, 0}, true, 8, 2});
        PortableRng rng(1);
        const std::vector<int> pod0 = ft.topology.serversOfPod(0);
        const DeviceSlot lif =
            chooseSlot(placementPolicyFromName("lif@device"), o, pod0, {2, true, 8, 2}, {}, rng);
        QCOMPARE(lif.server, 0);
        QCOMPARE(lif.socket, 1);
        QCOMPARE(lif.group, 1);
        const PlacedTask same{2, {0, 0, 0}, true, 8, 2};
        const PlacedTask other{2, {0, 1, 1}, true, 8, 2};
        QVERIFY(o.serverInterference(0, &same) > o.serverInterference(0, &other));
        QCOMPARE(o.serverInterference(0, &other), 0.0);
        QCOMPARE(o.serverInterference(0, nullptr), 0.0);
        // Tetris at device level packs it next to the first (fuller group first).
        const DeviceSlot tetris =
            chooseSlot(placementPolicyFromName("tetris@device"), o, pod0, {2, true, 8, 2}, {}, rng);
        QCOMPARE(tetris.group, 0);
    }

    void aJobsOwnTasksDoNotInterfere() {
        const FatTree4 ft;
        ClusterOccupancy o(ft.cluster, defaultInterferenceCoefficients());
        const int a = o.add({1, {0, 0, 0}, true, 6, 60});
        const int b = o.add({1, {0, 0, 0}, true, 6, 60});
        o.add({1, {0, 1, -1}, false, 8, 0});
        QCOMPARE(o.slowdown(a), 1.0);
        QCOMPARE(o.slowdown(b), 1.0);
        QCOMPARE(o.serverInterference(0, nullptr), 0.0);
        // Another job's task on socket 1 and job 1's parameter server there slow each other;
        // job 1's 12 cores on socket 0 spill 4 onto socket 1 as well (8 + 4 for the newcomer).
        const PlacedTask other{2, {0, 1, 1}, true, 4, 10};
        const TaskInterferenceInput worker{4, 12, 8, 10, 0, 128}, ps{8, 4, 8, 0, 0, 128};
        const auto c = defaultInterferenceCoefficients();
        QCOMPARE(o.serverInterference(0, &other),
                 (interferenceSlowdown(c, worker) - 1.0) + (interferenceSlowdown(c, ps) - 1.0));
        // Loads that do not sum to zero exactly never go negative when tasks leave.
        std::vector<int> added;
        for (double cpu : {0.1, 0.3}) added.push_back(o.add({3, {0, 1, 1}, true, cpu, cpu}));
        added.push_back(o.add({4, {0, 0, -1}, false, 1.1, 0}));
        for (int id : added) o.remove(id);
        QVERIFY(o.socketCpu(0) >= 12.0 - 1e-12);
        QVERIFY(o.groupPcie(1) >= 0.0);
        QCOMPARE(o.slowdown(a), 1.0);
    }

    void occupancySlowdownMatchesTheModel() {
        const FatTree4 ft;
        ClusterOccupancy o(ft.cluster, defaultInterferenceCoefficients());
        const int a = o.add({1, {0, 0, 0}, true, 6, 12});
        QCOMPARE(o.slowdown(a), 1.0);
        const int b = o.add({2, {0, 0, 0}, true, 4, 20});
        TaskInterferenceInput in{6, 4, 8, 12, 20, 128};
        QCOMPARE(o.slowdown(a), interferenceSlowdown(defaultInterferenceCoefficients(), in));
        const int ps = o.add({2, {0, 0, -1}, false, 2, 0});
        in.other_cpu_cores = 6;
        QCOMPARE(o.slowdown(a), interferenceSlowdown(defaultInterferenceCoefficients(), in));
        o.remove(b);
        o.remove(ps);
        QCOMPARE(o.slowdown(a), 1.0);
        QCOMPARE(o.freeGpus(0), 3);
        QCOMPARE(o.groupFreeGpus(0), 1);
        QCOMPARE(o.usedGpus(), 1);
    }

    void aFullPodForwardsToTheNext() {
        // Pod 0 has 4 servers x 4 GPUs; the fifth 4-worker job goes to pod 1.
        const FatTree4 ft;
        std::vector<DistributedJob> jobs;
        for (int i = 1; i <= 5; ++i) jobs.push_back(job(i, "resnext110", 4, 1000));
        const auto r = run(ft, jobs, "tetris");
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(r.jobs[static_cast<std::size_t>(i)].pod_placed, 0);
            QCOMPARE(r.jobs[static_cast<std::size_t>(i)].servers, 1);
        }
        QCOMPARE(r.jobs[4].pod_placed, 1);
        QCOMPARE(r.jobs[4].forwards, 1);
        QCOMPARE(r.forwarded_jobs, 1);
    }

    void jobsWaitForTheNextIntervalWhenTheClusterIsFull() {
        const FatTree4 ft;
        std::vector<DistributedJob> jobs;
        for (int i = 1; i <= 17; ++i) jobs.push_back(job(i, "resnext110", 4, 1000, 0, i % 4));
        const auto r = run(ft, jobs, "tetris");
        const double run_time = r.jobs[0].end - r.jobs[0].start;
        QVERIFY(run_time < 1800);
        int later = 0;
        for (const auto& rec : r.jobs)
            if (rec.start > 0) {
                ++later;
                QCOMPARE(rec.start, 1800.0);  // placed at the next scheduling interval
            }
        QCOMPARE(later, 1);
    }

    void invariantsOnARandomWorkload() {
        const FatTree4 ft;
        DistributedWorkloadSpec s;
        s.pods = ft.topology.podCount();
        s.jobs_per_interval = 3;
        s.intervals = 12;
        s.max_hours = 2;
        s.seed = 7;
        const auto jobs = generateDistributedWorkload(s, stepSeconds());
        QVERIFY(jobs.size() > 100);
        for (const auto& p : allPlacementPolicies()) {
            const auto r = run(ft, jobs, p.name());
            std::vector<std::pair<double, int>> deltas;
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                const auto& rec = r.jobs[i];
                QVERIFY(rec.start >= rec.submit);
                QCOMPARE(std::fmod(rec.start, 1800.0), 0.0);
                QVERIFY(rec.end > rec.start);
                QVERIFY2(rec.slowdown() >= 1.0 - 1e-12, qPrintable(QString::fromStdString(p.name())));
                QVERIFY(rec.pod_placed == (rec.pod_submitted + rec.forwards) % s.pods);
                deltas.push_back({rec.start, jobs[i].workers});
                deltas.push_back({rec.end, -jobs[i].workers});
            }
            std::sort(deltas.begin(), deltas.end());
            int used = 0;
            for (const auto& [t, d] : deltas) {
                used += d;
                QVERIFY2(used <= 64, qPrintable(QString::fromStdString(p.name())));
            }
            for (double u : r.tier_utilization) QVERIFY(u >= 0 && u <= 1);
            const auto again = run(ft, jobs, p.name());
            QCOMPARE(again.average_jct, r.average_jct);
        }
    }

    void progressAndCancel() {
        const FatTree4 ft;
        DistributedWorkloadSpec s;
        s.pods = ft.topology.podCount();
        s.jobs_per_interval = 3;
        s.intervals = 6;
        const auto jobs = generateDistributedWorkload(s, stepSeconds());
        PlacementSimOptions opt;
        std::vector<double> seen;
        opt.progress = [&](double f) { seen.push_back(f); };
        simulatePlacement(ft.cluster, ft.topology, jobs, distributedModelTypes(), opt);
        QVERIFY(seen.size() >= 2);
        QCOMPARE(seen.back(), 1.0);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        std::atomic<bool> cancel{true};
        opt.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(PlacementCancelled, simulatePlacement(ft.cluster, ft.topology, jobs,
                                                                       distributedModelTypes(), opt));
    }

    void refusedInputsSayWhy() {
        const FatTree4 ft;
        try {
            run(ft, {job(1, "wlm", 17, 10)}, "lb");
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("job 'j1' (#1) needs 17 GPUs but the largest pod has only 16"));
        }
        Cluster small = ft.cluster;
        small.servers.pop_back();
        try {
            simulatePlacement(small, ft.topology, {}, distributedModelTypes(), {});
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("cluster 'ft4' has 15 servers but its topology has 16"));
        }
        auto bad = job(1, "wlm", 1, 10);
        bad.steps = std::nan("");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(ft, {bad}, "lb"));
    }
};

QTEST_APPLESS_MAIN(TestPlacement)
#include "test_placement.moc"
