// The overload check and the queue over time (core/metrics/overload_check.h,
// queue_over_time.h) on hand-built runs: the backlog at the last arrival beyond what each job
// alone would still have had to do, as a share of the arrival window; bursts are not assessed;
// the queue keeps every peak when reduced to a few samples; a series reduced for storage keeps
// its integrals, its peaks and the overload check's figures.
#include <QtTest>

#include "core/metrics/overload_check.h"
#include "core/metrics/queue_over_time.h"
#include "core/metrics/series_reduction.h"

using namespace cl;

namespace {

JobRecord job(double submit, double alone, double end) {
    JobRecord j;
    j.gpus = 1;
    j.submit = submit;
    j.iterations = alone;
    j.solo_iteration_time = 1.0;
    j.first_start = submit;
    j.end = end;
    j.completed = true;
    return j;
}

TimeSample busy(double t, double utilization, int queue = 0, int running = 0) {
    TimeSample s;
    s.t = t;
    s.gpu_utilization = utilization;
    s.queue_length = queue;
    s.running_jobs = running;
    return s;
}

}  // namespace

class TestOverloadCheck : public QObject {
    Q_OBJECT

private slots:
    void theBacklogBeyondTheJobsOwnWorkIsMeasured() {
        // Thirty 100 s jobs, one every 100 s from 0 to 2900 s, on 1 GPU. Kept up with: each ends
        // 100 s after it arrives; after the last arrival the GPU is busy 100 s, all of which the
        // last job alone needs: no backlog.
        SimResult kept;
        for (int k = 0; k < 30; ++k) kept.jobs.push_back(job(100.0 * k, 100, 100.0 * k + 100));
        kept.series = {busy(0, 1), busy(3000, 0)};
        const PlanLoadCheck ok = overloadCheck(kept, 1, 0.1);
        QVERIFY(ok.assessed);
        QCOMPARE(ok.arrival_window_s, 2900.0);
        QCOMPARE(ok.offered_load, 1.0);  // 2900 s of work within the 2900 s window
        QCOMPARE(ok.backlog_gpu_hours, 0.0);
        QCOMPARE(ok.drain_share, 0.0);
        QCOMPARE(ok.last_end_after_window_s, 100.0);
        QVERIFY(!ok.overloaded);
        // The same jobs twice as long: the GPU works until 6000 s, 3100 s after the last arrival,
        // of which the last two jobs alone need 100 s and 200 s: a backlog of 2800 s.
        SimResult behind;
        for (int k = 0; k < 30; ++k) behind.jobs.push_back(job(100.0 * k, 200, 200.0 * k + 200));
        behind.series = {busy(0, 1), busy(6000, 0)};
        const PlanLoadCheck over = overloadCheck(behind, 1, 0.1);
        QCOMPARE(over.offered_load, 5700.0 / 2900);  // 6000 s of work less those 300 s
        QCOMPARE(over.backlog_gpu_hours, 2800.0 / 3600);
        QCOMPARE(over.drain_share, 2800.0 / 2900);
        QVERIFY(over.overloaded);
        // A laxer limit accepts it; the figures stay.
        QVERIFY(!overloadCheck(behind, 1, 1.5).overloaded);
    }

    void aBurstIsNotAssessed() {
        // Every job within 500 s, each 100 s alone: fewer than ten run times.
        SimResult burst;
        for (int k = 0; k < 6; ++k) burst.jobs.push_back(job(100.0 * k, 100, 5000));
        burst.series = {busy(0, 1), busy(5000, 0)};
        const PlanLoadCheck l = overloadCheck(burst, 1, 0.1);
        QVERIFY(!l.assessed);
        QVERIFY(!l.overloaded);
        QVERIFY(l.drain_share > 0.1);  // measured all the same
        QVERIFY(!overloadCheck(SimResult{}, 4, 0.1).assessed);
    }

    void theQueueKeepsItsPeaks() {
        std::vector<TimeSample> series;
        for (int k = 0; k < 1000; ++k) series.push_back(busy(10.0 + k, 1, k == 501 ? 50 : 1, 2));
        const std::vector<QueueSample> q = queueOverTime(series, 10);
        QCOMPARE(q.size(), std::size_t(10));
        QCOMPARE(q.front().time_s, 0.0);
        QCOMPARE(q[5].waiting_jobs, 50);  // the one-second peak at 511 s lands in the sixth tenth
        QCOMPARE(q[5].unfinished_jobs, 52);
        QCOMPARE(q[4].waiting_jobs, 1);
        // Short series are kept as they are.
        QCOMPARE(queueOverTime({busy(5, 0, 3, 1), busy(7, 0, 0, 0)}).size(), std::size_t(2));
        QCOMPARE(queueOverTime({busy(5, 0, 3, 1)}).front().unfinished_jobs, 4);
        QVERIFY(queueOverTime({}).empty());
    }

    void aReducedSeriesKeepsItsIntegralsPeaksAndOverloadFigures() {
        // 10,000 uneven samples over 20,000 s; the last arrival at 13,337.5 s, inside a sample.
        SimResult run;
        for (int k = 0; k < 200; ++k) run.jobs.push_back(job(13337.5 * k / 199, 150, 0));
        std::vector<TimeSample> series;
        double t = 0;
        for (int k = 0; k < 10000; ++k) {
            TimeSample s = busy(t, (k % 7) / 6.0, k == 4321 ? 999 : k % 13, k % 5);
            s.cpu_utilization = (k % 3) / 2.0;
            series.push_back(s);
            t += k % 2 ? 1.5 : 2.5;
        }
        run.series = series;
        SimResult reduced = run;
        reduced.series = reduceSeries(series, 100, 13337.5);
        QVERIFY(reduced.series.size() <= 103);
        QCOMPARE(reduced.series.front().t, series.front().t);
        QCOMPARE(reduced.series.back().t, series.back().t);
        auto integral = [](const std::vector<TimeSample>& s, double TimeSample::*field, double from) {
            double sum = 0;
            for (std::size_t i = 0; i + 1 < s.size(); ++i)
                sum += s[i].*field * std::max(0.0, s[i + 1].t - std::max(s[i].t, from));
            return sum;
        };
        for (auto field : {&TimeSample::gpu_utilization, &TimeSample::cpu_utilization})
            for (double from : {0.0, 13337.5, reduced.series[37].t})
                QVERIFY(std::abs(integral(reduced.series, field, from) - integral(series, field, from)) <
                        1e-6);
        int peak = 0;
        for (const TimeSample& s : reduced.series) peak = std::max(peak, s.queue_length);
        QCOMPARE(peak, 999);
        const PlanLoadCheck full = overloadCheck(run, 1, 0.1), kept = overloadCheck(reduced, 1, 0.1);
        QCOMPARE(kept.backlog_gpu_hours, full.backlog_gpu_hours);
        QCOMPARE(kept.drain_share, full.drain_share);
        QCOMPARE(kept.overloaded, full.overloaded);
        // A short series is kept as it is.
        QCOMPARE(reduceSeries({busy(0, 1), busy(5, 0)}, 100, 3).size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestOverloadCheck)
#include "test_overload_check.moc"
