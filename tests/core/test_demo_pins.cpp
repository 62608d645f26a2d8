// Exact results of the bundled demo (data/traces/demo.json on the muri-testbed-64 cluster with the
// built-in profiles, clean conventions) under every order and preset that runs there, and of
// every scenario of the demo workspace (core/runs/demo_workspace.cpp): average, median, p95 and
// p99 JCT, average queueing delay and makespan, to a relative 1e-9.
//
// These pins catch any change of what the engine computes, however small, that no hand-made
// scenario happens to reach. After an INTENDED change of the engine's results (one that also
// bumps the engine revision, docs/architecture.md section 9.4), re-pin: a failing row prints the
// new values as a ready-to-paste line.
//
// The stored demo runs must also read back job by job exactly as simulated: every field of
// every JobRecord, through the store (section 9).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/demo_workspace.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"

using namespace cl;

namespace {

struct Pin {
    const char* name;  // policy (demo trace) or scenario name (demo workspace)
    int completed;
    double avg_jct, median_jct, p95_jct, p99_jct, avg_queueing_delay, makespan;
};

// The demo trace (400 jobs) on muri-testbed-64, built-in profiles, clean conventions.
// clang-format off
const Pin kDemoTracePins[] = {
    {"fifo", 400, 28663.99984579999, 6154.9480399999966, 125191.94138499985, 148994.22552499984, 16160.320807350003, 1628248.9129150007},
    {"sjf", 400, 22593.730579124996, 2289.7939875000029, 98442.042810000014, 153073.95136499993, 10090.051540674996, 1628248.9129149998},
    {"srtf", 400, 17853.052888937491, 1359.2502525, 82524.688965000052, 180356.05098499998, 3144.8014408499985, 1711459.706964999},
    {"srsf", 400, 15634.439013449999, 1338.7289424999999, 57710.098620000004, 132026.01475999999, 1853.6211624499992, 1690410.5884499999},
    {"las", 400, 24532.58594978755, 1420.5099474999988, 89663.787365000622, 171713.48116999824, 0, 1696027.6627600016},
    {"las2d", 400, 19024.267294112506, 1467.7624000000014, 84316.327695000742, 123192.76845000006, 0, 1650730.093055001},
    {"tiresias", 400, 19608.610264750103, 1578.3677349999998, 76458.719370000559, 144760.1188700007, 0.098384999999998404, 1631844.7590500021},
    {"ftf", 400, 19679.584148661535, 2179.1867500000026, 83059.673650107623, 176232.25065500062, 4692.72635897494, 1705179.6623949036},
    {"drf", 400, 23215.957575312535, 3372.8796324999967, 88487.56296499999, 112047.05628500001, 10712.278536862494, 1628248.9129150114},
    {"tetris", 400, 26244.22542445004, 10682.123029999999, 81717.582425000088, 116193.99718499987, 13740.546386, 1628248.9129150109},
    {"muri-s", 400, 19664.883650205833, 2977.6427264731556, 64239.838105759853, 142188.76793789692, 30.802486235383963, 1675689.950355296},
    {"muri-l", 400, 19782.724069076383, 2956.0925578807273, 65038.893065540848, 145432.17001468703, 4.7520049999999996, 1673909.3622798915},
    {"muri-l-k2", 400, 18311.55463230524, 1853.2994898764809, 73409.471594774834, 135777.83495492997, 22.806425085282996, 1638569.3927198728},
    {"muri-l-k3", 400, 17688.183979745474, 1876.0012707927672, 70233.449472930253, 133458.54898200039, 17.282610798551239, 1636472.7326847019},
    {"muri-l-k4", 400, 19782.724069076383, 2956.0925578807273, 65038.893065540848, 145432.17001468703, 4.7520049999999996, 1673909.3622798915},
    {"muri-l-no-blossom", 400, 20275.148292790433, 3121.0332822862874, 68261.078150962756, 140516.34757119825, 9.0270975, 1690692.1531906708},
    {"muri-l-worst-order", 400, 22901.959307300105, 3779.3826056325452, 84357.036587081049, 160229.73034400443, 6.1784435691282393, 1698089.4645010887},
    {"slurm", 400, 25020.611570949932, 7799.8652900000016, 83865.963929999998, 114325.64566000001, 12516.932532499995, 1628249.2269149739},
    {"muri-l-noise=0.2", 400, 20088.415559987152, 2876.9010281566657, 66213.198184294, 150443.34373719804, 4.9777099999999974, 1680141.1839411173},
    {"antman", 400, 21433.551458252583, 7529.9992263281274, 64108.183432499995, 139774.20588750008, 7272.3988073977107, 1628248.9129149993},
    {"themis", 400, 19679.584148661535, 2179.1867500000026, 83059.673650107623, 176232.25065500062, 4692.72635897494, 1705179.6623949036},
    {"sjf-bsbf", 400, 18658.801805689483, 2300.4051360000049, 72682.130740444481, 166762.35972899612, 2513.34527506003, 1672097.8953892542},
    {"sjf-ffs", 400, 20971.839223070547, 3021.9466869999851, 74808.009203841997, 200168.66391599231, 3150.8501040764972, 1766417.4920154673},
    {"fifo+firstfit", 400, 24789.557349637515, 6338.9118974999992, 83703.066915000032, 112780.68863999992, 12285.8783111875, 1628248.9129150021},
    {"srtf+firstfit", 400, 17685.53132518749, 1332.6105724999979, 82434.628924999997, 177670.73208499997, 3110.752750624999, 1705589.6592749995},
    {"tiresias+count", 400, 19167.502037088594, 1571.3677349999998, 77966.957530000087, 135710.65867000073, 0, 1631977.3298299992},
    {"fifo+tune", 400, 24789.557349637551, 6338.9118975000029, 83703.066915000032, 112780.68863999986, 12285.878311187496, 1628248.912915014},
    {"las+proportional", 400, 24693.006500749194, 1338.2502525, 90955.819794781914, 171239.36987001589, 0, 1698505.7630146411},
};

// The scenarios of the demo workspace, as resolved from the store (demoScenarioNames()).
const Pin kWorkspacePins[] = {
    {"demo/fifo", 400, 28663.99984579999, 6154.9480399999966, 125191.94138499985, 148994.22552499984, 16160.320807350003, 1628248.9129150007},
    {"demo/srtf", 400, 17853.052888937491, 1359.2502525, 82524.688965000052, 180356.05098499998, 3144.8014408499985, 1711459.706964999},
    {"demo/srsf", 400, 15634.439013449999, 1338.7289424999999, 57710.098620000004, 132026.01475999999, 1853.6211624499992, 1690410.5884499999},
    {"demo/tiresias", 400, 19608.610264750103, 1578.3677349999998, 76458.719370000559, 144760.1188700007, 0.098384999999998404, 1631844.7590500021},
    {"demo/muri-s", 400, 19664.883650205833, 2977.6427264731556, 64239.838105759853, 142188.76793789692, 30.802486235383963, 1675689.950355296},
    {"demo-backlog/srtf", 400, 280907.40536892507, 92936.499345000004, 1300528.0140799999, 1948049.0926899998, 205284.12424065001, 2127028.69111},
    {"demo-backlog/srsf", 400, 239134.64025063757, 60025.241889999976, 1115574.862735, 1814065.8635600002, 163120.68243236249, 2129990.4300749996},
    {"demo-backlog/tiresias", 400, 456395.08522674895, 286240.45210595964, 1532853.0567132975, 1802868.2274114776, 139.52400348757675, 2167519.5273264963},
    {"demo-backlog/muri-s", 400, 218962.89814417047, 60274.28788366988, 1024040.4085523125, 1344861.1611558897, 54823.10251699837, 1447675.8898629402},
    {"demo-backlog/muri-l", 400, 292754.75895822799, 172535.22376792884, 1055499.2622844167, 1305644.5663432216, 0, 1465122.7647413446},
    {"demo-synergy/proportional", 240, 63397.982508333247, 18670.651500000044, 361676.82999999973, 535289.53499999444, 2195.1084875000115, 934164.96199999854},
    {"demo-synergy/tune", 240, 53047.870612273684, 14240.807500000004, 258137.54500000007, 515132.65000000014, 7.9724541666666484, 930567.33099999989},
    {"demo-sjf/sjf-ffs", 60, 2570.5969480808767, 1614.3166444602834, 8472.8639999999996, 10982.691139348211, 898.01986569074302, 12817.944843921498},
    {"demo-sjf/sjf-bsbf", 60, 1722.8315046077282, 1121.0974999999999, 7810.817444444443, 9444.5650000000005, 796.92895555555538, 11444.517444444444},
    {"demo/fat-tree-fifo", 400, 26492.30922088751, 6372.5936525000034, 94203.98030000001, 118006.26444000001, 13988.630182437506, 1628248.9129150019},
};
// clang-format on

bool within(double actual, double expected) {
    return std::fabs(actual - expected) <= 1e-9 * std::max(1.0, std::fabs(expected));
}

std::string pinLine(const std::string& name, const Summary& s) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "{\"%s\", %d, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g},", name.c_str(),
                  s.completed, s.avg_jct, s.median_jct, s.p95_jct, s.p99_jct, s.avg_queueing_delay,
                  s.makespan);
    return buf;
}

void expectPinned(const Pin& pin, const Summary& s) {
    const std::string actual = pinLine(pin.name, s);
    const auto check = [&](const char* what, double a, double e) {
        QVERIFY2(within(a, e), qPrintable(QStringLiteral("%1: %2 is %3, pinned %4; actual row:\n    %5")
                                              .arg(pin.name, what)
                                              .arg(a, 0, 'g', 17)
                                              .arg(e, 0, 'g', 17)
                                              .arg(QString::fromStdString(actual))));
    };
    QVERIFY2(s.completed == pin.completed,
             qPrintable(QString::fromStdString("completed differs; actual row:\n    " + actual)));
    check("average JCT", s.avg_jct, pin.avg_jct);
    check("median JCT", s.median_jct, pin.median_jct);
    check("p95 JCT", s.p95_jct, pin.p95_jct);
    check("p99 JCT", s.p99_jct, pin.p99_jct);
    check("average queueing delay", s.avg_queueing_delay, pin.avg_queueing_delay);
    check("makespan", s.makespan, pin.makespan);
}

// NaN equals NaN (unfinished values); everything else exactly.
bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

void expectSameJobs(const std::string& what, const std::vector<JobRecord>& stored,
                    const std::vector<JobRecord>& simulated) {
    QCOMPARE(stored.size(), simulated.size());
    for (std::size_t k = 0; k < stored.size(); ++k) {
        const JobRecord& a = stored[k];
        const JobRecord& b = simulated[k];
        const QString at = QString::fromStdString(what + ", job " + b.id + ": ");
        QVERIFY2(a.index == b.index, qPrintable(at + "index"));
        QVERIFY2(a.id == b.id, qPrintable(at + "id"));
        QVERIFY2(a.model == b.model, qPrintable(at + "model"));
        QVERIFY2(a.gpus == b.gpus, qPrintable(at + "gpus"));
        QVERIFY2(same(a.iterations, b.iterations), qPrintable(at + "iterations"));
        QVERIFY2(same(a.solo_iteration_time, b.solo_iteration_time), qPrintable(at + "solo_iteration_time"));
        QVERIFY2(same(a.submit, b.submit), qPrintable(at + "submit"));
        QVERIFY2(same(a.first_start, b.first_start), qPrintable(at + "first_start"));
        QVERIFY2(same(a.end, b.end), qPrintable(at + "end"));
        QVERIFY2(same(a.jct, b.jct), qPrintable(at + "jct"));
        QVERIFY2(same(a.queueing_delay, b.queueing_delay), qPrintable(at + "queueing_delay"));
        QVERIFY2(same(a.pending_time, b.pending_time), qPrintable(at + "pending_time"));
        QVERIFY2(same(a.running_time, b.running_time), qPrintable(at + "running_time"));
        QVERIFY2(a.preemptions == b.preemptions, qPrintable(at + "preemptions"));
        QVERIFY2(a.restarts == b.restarts, qPrintable(at + "restarts"));
        QVERIFY2(a.completed == b.completed, qPrintable(at + "completed"));
    }
}

const Pin* findPin(const Pin* begin, const Pin* end, const std::string& name) {
    for (const Pin* p = begin; p != end; ++p)
        if (name == p->name) return p;
    return nullptr;
}

}  // namespace

class TestDemoPins : public QObject {
    Q_OBJECT

private slots:
    void demoTraceSummaries_data() {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < std::size(kDemoTracePins); ++i)
            QTest::newRow(kDemoTracePins[i].name) << static_cast<int>(i);
    }
    void demoTraceSummaries() {
        QFETCH(int, row);
        const Pin& pin = kDemoTracePins[row];
        static const Cluster cluster = builtinCluster("muri-testbed-64");
        static const Trace trace = demoTrace();
        static const ProfileSet profiles = builtinProfiles();
        SimOptions o;  // clean conventions
        o.record_series = false;
        const SimResult r = simulatePolicy(cluster, trace, profiles, pin.name, o);
        QCOMPARE(r.conventions, std::string("clean"));
        QCOMPARE(r.summary.jobs, 400);
        expectPinned(pin, r.summary);
    }

    // Every order and preset the registry lists (clusterloom-cli policies) runs the demo and is
    // pinned above: a new one must be pinned too.
    void everyOrderAndPresetIsPinned() {
        std::vector<std::string> names = orderNames();
        for (const std::string& p : presetNames()) names.push_back(p);
        QVERIFY(names.size() >= 20);
        for (const std::string& name : names)
            QVERIFY2(findPin(std::begin(kDemoTracePins), std::end(kDemoTracePins), name) != nullptr,
                     qPrintable(QString::fromStdString(name + " is not pinned")));
    }

    void demoWorkspaceScenarios() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ScenarioStore store(dir.filePath("demo.clusterloom").toStdString());
        const std::vector<std::string> names = populateDemoWorkspace(store);
        QCOMPARE(names, demoScenarioNames());
        QCOMPARE(names.size(), std::size(kWorkspacePins));
        bool some_preempted = false, some_waited = false;
        for (const std::string& name : names) {
            const Pin* pin = findPin(std::begin(kWorkspacePins), std::end(kWorkspacePins), name);
            QVERIFY2(pin, qPrintable(QString::fromStdString(name + " has no pin")));
            const ScenarioInputs in = resolveScenario(store, store.scenario(name));
            const SimResult direct =
                simulatePolicy(in.cluster, in.trace, in.profiles, in.policy, in.options, in.tuning);
            expectPinned(*pin, direct.summary);
            if (QTest::currentTestFailed()) return;
            // Through the store: the same summary, and every job record exactly as simulated.
            const RunOutcome run = runScenario(store, name);
            QVERIFY(!run.reused);
            const SimResult stored = store.loadRun(run.run_id, false);
            expectPinned(*pin, stored.summary);
            expectSameJobs(name, stored.jobs, direct.jobs);
            if (QTest::currentTestFailed()) return;
            for (const JobRecord& j : direct.jobs) {
                some_preempted = some_preempted || j.preemptions > 0;
                some_waited = some_waited || j.queueing_delay > 0;
            }
        }
        // The comparison above sees every field: some runs preempt and some jobs wait.
        QVERIFY(some_preempted);
        QVERIFY(some_waited);
    }
};

QTEST_APPLESS_MAIN(TestDemoPins)
#include "test_demo_pins.moc"
