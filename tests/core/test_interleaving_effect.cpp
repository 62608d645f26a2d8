// interleavingEffect and its explanation (docs/architecture.md section 7.6) on runs made by hand.
#include <QtTest>

#include "core/metrics/interleaving_effect.h"
#include "core/policies/scheduler_registry.h"

using namespace cl;

namespace {

JobRecord finished(int index, int gpus, double solo_seconds, double running, double jct, double pending,
                   int restarts) {
    JobRecord j;
    j.index = index;
    j.gpus = gpus;
    j.iterations = solo_seconds;
    j.solo_iteration_time = 1.0;
    j.running_time = running;
    j.jct = jct;
    j.pending_time = pending;
    j.restarts = restarts;
    j.completed = true;
    return j;
}

TimeSample at(double t, double gpu_utilization) {
    TimeSample s;
    s.t = t;
    s.gpu_utilization = gpu_utilization;
    return s;
}

}  // namespace

class TestInterleavingEffect : public QObject {
    Q_OBJECT

private slots:
    void figuresByHand() {
        // Shared run on 4 GPUs: three 1-GPU jobs of 100 s alone ran 150, 200 and 250 s (median
        // stretch 2.0); one GPU busy for 200 s holds the 300 s of solo work: 1.5x the capacity.
        SimResult shared;
        shared.jobs = {finished(0, 1, 100, 150, 150, 0, 3), finished(1, 1, 100, 200, 200, 0, 3),
                       finished(2, 1, 100, 250, 250, 0, 3)};
        shared.series = {at(0, 0.25), at(200, 0.0)};
        shared.summary.avg_jct = 200;
        // Exclusive run: JCTs 100, 200, 300 of which 0, 100, 200 s waiting (half the time).
        SimResult exclusive;
        exclusive.jobs = {finished(0, 1, 100, 100, 100, 0, 1), finished(1, 1, 100, 100, 200, 100, 1),
                          finished(2, 1, 100, 100, 300, 200, 1)};
        exclusive.summary.avg_jct = 200;
        const InterleavingEffect e = interleavingEffect(shared, exclusive, 4);
        QCOMPARE(e.median_stretch, 2.0);
        QCOMPARE(e.solo_gpu_hours, 300.0 / 3600);
        QCOMPARE(e.busy_gpu_hours, 200.0 / 3600);
        QCOMPARE(e.capacity_gain, 1.5);
        QCOMPARE(e.baseline_waiting_share, 0.5);
        QCOMPARE(e.speedup, 1.0);
        QCOMPARE(e.restarts, 9LL);
        QCOMPARE(e.baseline_restarts, 3LL);
        const QString text = QString::fromStdString(explainInterleaving(e, "muri-s", "srsf"));
        QVERIFY2(text.contains("the median job ran 2.00x as long as alone"), qPrintable(text));
        QVERIFY2(text.contains("50% more capacity"), qPrintable(text));
        QVERIFY2(text.contains("Under srsf jobs spent 50% of their time waiting"), qPrintable(text));
        QVERIFY2(text.contains("within 0.5% of each other"), qPrintable(text));
        QVERIFY2(text.contains("restarted jobs 9 times (srsf: 3)"), qPrintable(text));

        shared.summary.avg_jct = 100;  // now the shared run won
        const QString won = QString::fromStdString(
            explainInterleaving(interleavingEffect(shared, exclusive, 4), "muri-s", "srsf"));
        QVERIFY2(won.contains("removed enough queueing") && won.contains("2.00x better"), qPrintable(won));

        shared.summary.avg_jct = 400;  // now the shared run lost
        const QString lost = QString::fromStdString(
            explainInterleaving(interleavingEffect(shared, exclusive, 4), "muri-s", "srsf"));
        QVERIFY2(lost.contains("too little for the extra capacity") && lost.contains("2.00x worse"),
                 qPrintable(lost));
    }

    void exclusiveCounterpartsOfTheMuriPolicies() {
        QCOMPARE(exclusiveCounterparts("muri-s"), (std::vector<std::string>{"srsf", "srtf"}));
        QCOMPARE(exclusiveCounterparts("muri-l"), (std::vector<std::string>{"las2d", "tiresias"}));
        QCOMPARE(exclusiveCounterparts("muri-l-k2"), (std::vector<std::string>{"las2d", "tiresias"}));
        QCOMPARE(exclusiveCounterparts("fifo+muri"), (std::vector<std::string>{"fifo"}));
        QCOMPARE(exclusiveCounterparts("srtf+muri+firstfit"), (std::vector<std::string>{"srtf"}));
        QVERIFY(exclusiveCounterparts("srsf").empty());
        QVERIFY(exclusiveCounterparts("sjf-bsbf").empty());
    }
};

QTEST_GUILESS_MAIN(TestInterleavingEffect)
#include "test_interleaving_effect.moc"
