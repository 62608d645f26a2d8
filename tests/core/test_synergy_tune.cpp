// Synergy's TUNE, step by step (docs/architecture.md section 4.6; core/policies/synergy_packing.h):
// a job whose best-case ask does not fit gets its GPU-proportional share; when even that does not
// fit, peers holding more than their proportional share are reverted to it so that the job runs.
// Checked on the packing itself (exact grants and cores) and on whole runs (exact JCTs).
#include <QtTest>

#include <nlohmann/json.hpp>
#include <vector>

#include "core/model/sensitivity.h"
#include "core/policies/simulate_policy.h"
#include "core/policies/synergy_packing.h"
#include "core/sim/simulator.h"
#include "sim_test_support.h"

using namespace cl;
using cl::test::servers;

namespace {

// One-GPU jobs asking `cpus` cores and 62.5 GB per GPU (the reference server's proportional
// memory), in this order.
std::vector<PackJob> asking(int jobs, double cpus) {
    std::vector<PackJob> v(static_cast<std::size_t>(jobs));
    for (int i = 0; i < jobs; ++i) {
        v[static_cast<std::size_t>(i)].job = i;
        v[static_cast<std::size_t>(i)].gpus = 1;
        v[static_cast<std::size_t>(i)].ask = {cpus, 62.5};
    }
    return v;
}

// A ResNet-18-like model (Synergy artifact's row: throughput per GPU at 1, 2, 3, 4, 5, 6, 9,
// 12, 24 cores, at >= 62.5 GB; 0.1 at 20.83 GB): best case 2.4 at 9 cores, 1.0 at the
// proportional 3 cores. 1 s per iteration at proportional share.
ProfileSet resnetLike() {
    SensitivityMatrix m = SensitivityMatrix::flat(synergyCpuLevels(), synergyMemoryLevelsGb());
    const std::vector<double> row{.37, .72, 1, 1.3, 1.53, 1.75, 2.4, 2.4, 2.4};
    for (std::size_t c = 0; c < row.size(); ++c)
        for (std::size_t k = 0; k < 5; ++k) m.throughput[c * 5 + k] = k == 0 ? 0.1 : row[c];
    ProfileSet set;
    set.name = "tune-test";
    set.default_restart_overhead = 0;
    ModelProfile p;
    p.name = "resnet";
    p.by_gpus.push_back({1, 1.0, {}, 0.0});
    p.extra.edit() = nlohmann::json{{"synergy", sensitivityJson(m)}};
    set.models[p.name] = p;
    return set;
}

Job job(const std::string& id, int gpus, double submit, double seconds) {
    Job j;
    j.id = id;
    j.model = "resnet";
    j.gpus = gpus;
    j.submit_time = submit;
    j.duration = seconds;
    return j;
}

SimOptions cleanWithoutSoloFactor() {
    SimOptions o;
    o.conventions.solo_factor = 1.0;
    return o;
}

}  // namespace

class TestSynergyTune : public QObject {
    Q_OBJECT

private slots:
    // One server (8 GPUs, 24 cores, 500 GB), eight 1-GPU jobs asking 9 cores each, packed in
    // order. Jobs 0 and 1 get their 9 cores (6 left); jobs 2 and 3 do not fit at 9 and get the
    // proportional 3 (0 left); job 4 fits only after job 0 is reverted to its proportional 3
    // cores (6 free again), and takes 3; job 5 the last 3; job 6 after job 1 is reverted; job 7
    // the last 3. Everybody ends at the proportional share, and every core is used.
    void tuneRevertsPeersSoThatEveryGpuRuns() {
        const Cluster c = servers(1);
        AuxLedger ledger(c);
        std::vector<PackJob> jobs = asking(8, 9.0);
        PackingOptions tune;  // TUNE: best fit, fall back to proportional, then revert peers
        ledger.pack(jobs, tune);
        for (const PackJob& j : jobs) {
            QVERIFY2(j.grant == Grant::Proportional, qPrintable(QStringLiteral("job %1").arg(j.job)));
            QCOMPARE(j.gpu_ids.size(), std::size_t(1));
            QCOMPARE(j.cpus, 3.0);
            QCOMPARE(j.memory_gb, 62.5);
        }
        QCOMPARE(ledger.freeGpus(0), 0);
        QCOMPARE(ledger.freeCpus(0), 0.0);
    }

    // Six jobs: 0 and 1 at their ask (9 + 9), 2 and 3 at proportional (3 + 3): no core is left.
    // Job 4 needs a revert: job 0 goes back to 3 cores; job 5 then takes the 3 cores job 0 gave
    // back beyond job 4's share. Job 1 keeps its ask: nobody needed its cores.
    void tuneRevertsOnlyAsMuchAsItNeeds() {
        const Cluster c = servers(1);
        AuxLedger ledger(c);
        std::vector<PackJob> jobs = asking(6, 9.0);
        ledger.pack(jobs, PackingOptions{});
        QVERIFY(jobs[0].grant == Grant::Proportional);
        QCOMPARE(jobs[0].cpus, 3.0);
        QVERIFY(jobs[1].grant == Grant::Ask);
        QCOMPARE(jobs[1].cpus, 9.0);
        for (int i = 2; i < 6; ++i) {
            QVERIFY(jobs[static_cast<std::size_t>(i)].grant == Grant::Proportional);
            QCOMPARE(jobs[static_cast<std::size_t>(i)].cpus, 3.0);
        }
        QCOMPARE(ledger.freeCpus(0), 0.0);
        QCOMPARE(ledger.freeGpus(0), 2);
    }

    // GREEDY never reverts: the same six jobs leave jobs 2-5 waiting.
    void greedyDoesNotRevert() {
        const Cluster c = servers(1);
        AuxLedger ledger(c);
        std::vector<PackJob> jobs = asking(6, 9.0);
        PackingOptions greedy;
        greedy.first_fit = true;
        greedy.fall_back = false;
        ledger.pack(jobs, greedy);
        QVERIFY(jobs[0].grant == Grant::Ask);
        QVERIFY(jobs[1].grant == Grant::Ask);
        for (int i = 2; i < 6; ++i) QVERIFY(jobs[static_cast<std::size_t>(i)].grant == Grant::None);
    }

    // The authors' revert order (most cores per GPU first) reaches the same end state here.
    void artifactRevertOrderAlsoRunsEveryGpu() {
        const Cluster c = servers(1);
        AuxLedger ledger(c);
        std::vector<PackJob> jobs = asking(8, 9.0);
        PackingOptions o;
        o.artifact_revert = true;
        ledger.pack(jobs, o);
        for (const PackJob& j : jobs) {
            QVERIFY(j.grant == Grant::Proportional);
            QCOMPARE(j.cpus, 3.0);
        }
    }

    // Whole runs, one server, eight 1-GPU jobs of one hour at proportional speed, all at 0:
    // TUNE runs all eight at once at the proportional 3 cores (after reverting the first two),
    // so each takes exactly its hour. The proportional baseline does the same.
    void tuneRunsEveryJobAtOnce() {
        const Cluster c = servers(1);
        Trace t;
        for (int i = 0; i < 8; ++i) t.jobs.push_back(job("j" + std::to_string(i), 1, 0, 3600));
        for (const char* policy : {"fifo+tune", "fifo+proportional"}) {
            const SimResult r = simulatePolicy(c, t, resnetLike(), policy, cleanWithoutSoloFactor());
            QCOMPARE(r.summary.completed, 8);
            for (const JobRecord& j : r.jobs) {
                QVERIFY2(j.first_start == 0.0, policy);
                QVERIFY2(j.jct == 3600.0, qPrintable(QStringLiteral("%1: %2 took %3 s")
                                                         .arg(policy, QString::fromStdString(j.id))
                                                         .arg(j.jct, 0, 'g', 17)));
            }
        }
    }

    // Six one-hour jobs at 0 on one server: TUNE gives jobs 0 and 1 their 9 cores, jobs 2 and 3
    // the proportional 3, and job 4 only runs once job 0 is reverted to 3 cores (job 5 takes
    // the other 3 it gave back): at 0, job 1 alone runs at its best case (2.4x: done at
    // 3,600 / 2.4 = 1,500 s), the five others at the proportional share (speed-up 1).
    void tuneRevertsOneOfTwoFastJobs() {
        const Cluster c = servers(1);
        Trace t;
        for (int i = 0; i < 6; ++i) t.jobs.push_back(job("j" + std::to_string(i), 1, 0, 3600));
        const SimResult r = simulatePolicy(c, t, resnetLike(), "fifo+tune", cleanWithoutSoloFactor());
        QCOMPARE(r.summary.completed, 6);
        for (const JobRecord& j : r.jobs) QCOMPARE(j.first_start, 0.0);
        std::vector<double> speedup_at_0(6, 0.0), cpus_at_0(6, 0.0);
        for (const AllocationChange& a : r.allocations)
            if (a.t == 0.0) {
                speedup_at_0[static_cast<std::size_t>(a.job)] = a.speedup;
                cpus_at_0[static_cast<std::size_t>(a.job)] = a.cpus;
            }
        QCOMPARE(speedup_at_0, (std::vector<double>{1.0, 2.4, 1.0, 1.0, 1.0, 1.0}));
        QCOMPARE(cpus_at_0, (std::vector<double>{3, 9, 3, 3, 3, 3}));
        QCOMPARE(r.jobs[1].jct, 1500.0);
    }
};

QTEST_APPLESS_MAIN(TestSynergyTune)
#include "test_synergy_tune.moc"
