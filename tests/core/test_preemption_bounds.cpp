// Preemption invariant (docs/architecture.md section 11): on a generated trace of 5,000 jobs of
// the Muri traces' shape, no policy preempts a job more often than a fixed bound per hour of its
// own service. A policy whose rules feed each other (Tiresias' starvation guard and demotions,
// section 4.2) shows up here as jobs preempted hundreds of times in a few hours of running.
//
// The bound, kFreePreemptions + kPreemptionsPerServiceHour x hours holding GPUs: any preemptive
// order preempts a short job a few times while newer jobs arrive (LAS, SRTF); the worst of the
// policies below reach about 16 per hour beyond 20. Tiresias before its guard was fixed preempted
// 24 jobs beyond the bound on this trace (up to 37 per hour).
//
// 5,000 jobs under twenty policies take about 40 s optimized; the suite carries the label
// "large" and is left out of the sanitizer run (CMakePresets.json).
#include <QtTest>

#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/workload/trace_generator.h"

using namespace cl;

namespace {

constexpr double kFreePreemptions = 20;
constexpr double kPreemptionsPerServiceHour = 20;

// The Muri traces' GPU-count mix (trace1: 36% 1 GPU, 28% 4, 31% 8, 3% 16, 2% 32) with Philly
// durations at 20 jobs an hour: about twice what 64 GPUs serve, so queues build up and stay, as
// on trace1 with the Muri testbed.
const Trace& generatedTrace() {
    static const Trace trace = [] {
        GeneratorConfig c;
        c.jobs = 5000;
        c.seed = 1;
        c.jobs_per_hour = 20;
        c.gpu_weights = {{1, 0.359}, {2, 0.003}, {4, 0.283}, {8, 0.311}, {16, 0.027}, {32, 0.017}};
        c.name = "generated-5000";
        const ProfileSet profiles = builtinProfiles();
        return generate(c, &profiles);
    }();
    return trace;
}

}  // namespace

class PreemptionBounds : public QObject {
    Q_OBJECT

private slots:
    void noJobIsPreemptedMoreThanTheBound_data() {
        QTest::addColumn<QString>("policy");
        std::vector<std::string> policies = orderNames();
        for (const std::string& preset : presetNames()) policies.push_back(preset);
        for (const char* synergy : {"fifo+tune", "fifo+opt", "srtf+muri", "las+antman"})
            policies.push_back(synergy);
        for (const std::string& p : policies) QTest::newRow(p.c_str()) << QString::fromStdString(p);
    }
    void noJobIsPreemptedMoreThanTheBound() {
        QFETCH(QString, policy);
        SimOptions options;
        options.record_segments = false;
        const Trace& trace = generatedTrace();
        QVERIFY(trace.jobs.size() >= 5000);
        const SimResult r = simulatePolicy(builtinCluster("muri-testbed-64"), trace, builtinProfiles(),
                                           policy.toStdString(), options);
        QCOMPARE(r.summary.completed, r.summary.jobs);
        int over = 0;
        QString worst;
        double worst_excess = 0;
        for (const JobRecord& j : r.jobs) {
            const double hours = j.running_time / 3600.0;
            const double bound = kFreePreemptions + kPreemptionsPerServiceHour * hours;
            if (j.preemptions <= bound) continue;
            ++over;
            if (j.preemptions - bound > worst_excess) {
                worst_excess = j.preemptions - bound;
                worst = QString("job %1: %2 preemptions in %3 h of service")
                            .arg(QString::fromStdString(j.id))
                            .arg(j.preemptions)
                            .arg(hours, 0, 'f', 2);
            }
        }
        QVERIFY2(over == 0, qPrintable(QString("%1 jobs over the bound; worst %2").arg(over).arg(worst)));
    }
};

QTEST_GUILESS_MAIN(PreemptionBounds)
#include "test_preemption_bounds.moc"
