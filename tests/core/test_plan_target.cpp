// Planning targets (core/metrics/plan_target.h): parsing with units and clear errors, and their
// values on a run's jobs, which agree with the run summary for all jobs and split by job size.
#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/metrics/jct_stats.h"
#include "core/metrics/plan_target.h"
#include "error_capture.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;

namespace {

JobRecord done(int gpus, double submit, double start, double end) {
    JobRecord j;
    j.gpus = gpus;
    j.submit = submit;
    j.first_start = start;
    j.end = end;
    j.jct = end - submit;
    j.queueing_delay = start - submit;
    j.completed = true;
    return j;
}

// Four small jobs and two large (more than 8 GPUs), one of each unfinished at the end.
std::vector<JobRecord> run() {
    std::vector<JobRecord> jobs = {done(1, 0, 0, 100), done(2, 10, 40, 250), done(4, 20, 20, 620),
                                   done(16, 30, 330, 2030), done(32, 40, 1040, 3040)};
    JobRecord unfinished;
    unfinished.gpus = 1;
    unfinished.submit = 5;
    jobs.push_back(unfinished);
    return jobs;
}

}  // namespace

class TestPlanTarget : public QObject {
    Q_OBJECT

private slots:
    void parsesMetricComparisonValueAndClass() {
        const PlanTarget a = parsePlanTarget("p95_jct<=8h");
        QCOMPARE(a.metric, std::string("p95_jct"));
        QVERIFY(a.jobs == TargetJobs::All);
        QVERIFY(a.comparison == TargetComparison::AtMost);
        QCOMPARE(a.value_s, 8 * 3600.0);
        QCOMPARE(parsePlanTarget("avg_queueing<=30m").value_s, 1800.0);
        const PlanTarget b = parsePlanTarget("large:p99_jct<=2d");
        QVERIFY(b.jobs == TargetJobs::Large);
        QCOMPARE(b.value_s, 2 * 86400.0);
        QVERIFY(parsePlanTarget("small:avg_jct<90s").comparison == TargetComparison::Below);
        QVERIFY(parsePlanTarget("makespan >= 1.5d").comparison == TargetComparison::AtLeast);
        QCOMPARE(parsePlanTarget("makespan >= 1.5d").value_s, 1.5 * 86400);
        QVERIFY(parsePlanTarget("all:median_jct>0s").comparison == TargetComparison::Above);
    }

    void badTargetsSayWhatIsWrong() {
        expectError(invalidArgument([] { parsePlanTarget("p96_jct<=8h"); }),
                    {"'p96_jct<=8h'", "unknown metric 'p96_jct'", "p95_queueing", "makespan"});
        expectError(invalidArgument([] { parsePlanTarget("p95_jct=8h"); }), {"no comparison", "p95_jct<=8h"});
        expectError(invalidArgument([] { parsePlanTarget("p95_jct<=8"); }), {"needs a unit: s, m, h or d"});
        expectError(invalidArgument([] { parsePlanTarget("p95_jct<=eighth"); }), {"'eight' is not a"});
        expectError(invalidArgument([] { parsePlanTarget("p95_jct<=-1h"); }), {"'-1' is not a non-negative"});
        expectError(invalidArgument([] { parsePlanTarget("huge:p95_jct<=1h"); }),
                    {"unknown job class 'huge'"});
        expectError(invalidArgument([] { parsePlanTarget("p95_jct<="); }), {"no value after the comparison"});
    }

    void allJobsAgreeWithTheRunSummary() {
        const std::vector<JobRecord> jobs = run();
        const Summary s = summarize(jobs);
        const auto value = [&](const char* metric) {
            return planTargetValue(parsePlanTarget(std::string(metric) + "<=1d"), jobs, 8);
        };
        QCOMPARE(value("avg_jct"), s.avg_jct);
        QCOMPARE(value("median_jct"), s.median_jct);
        QCOMPARE(value("p95_jct"), s.p95_jct);
        QCOMPARE(value("p99_jct"), s.p99_jct);
        QCOMPARE(value("avg_queueing"), s.avg_queueing_delay);
        QCOMPARE(value("makespan"), s.makespan);
        QCOMPARE(value("p95_queueing"), 1000.0);  // queueing 0, 30, 0, 300, 1000: nearest rank 5 of 5
    }

    void sizeClassesSplitAtTheThreshold() {
        const std::vector<JobRecord> jobs = run();
        // Large: JCTs 2000 and 3000; small: 100, 240, 600.
        QCOMPARE(planTargetValue(parsePlanTarget("large:avg_jct<=1h"), jobs, 8), 2500.0);
        QCOMPARE(planTargetValue(parsePlanTarget("large:p99_jct<=1h"), jobs, 8), 3000.0);
        QCOMPARE(planTargetValue(parsePlanTarget("small:median_jct<=1h"), jobs, 8), 240.0);
        QCOMPARE(planTargetValue(parsePlanTarget("small:makespan<=1h"), jobs, 8), 620.0);   // first submit 0
        QCOMPARE(planTargetValue(parsePlanTarget("large:makespan<=1h"), jobs, 8), 3010.0);  // 30 to 3040
        // With the SJF-BSBF threshold (more than 4 GPUs) the 4-GPU job stays small.
        QCOMPARE(planTargetValue(parsePlanTarget("large:avg_jct<=1h"), jobs, 4), 2500.0);
        QCOMPARE(planTargetValue(parsePlanTarget("large:avg_jct<=1h"), jobs, 2), (600.0 + 2000 + 3000) / 3);
    }

    void meetingATarget() {
        const PlanTarget at_most = parsePlanTarget("avg_jct<=10m");
        QVERIFY(meetsPlanTarget(at_most, 600));
        QVERIFY(!meetsPlanTarget(at_most, 600.5));
        QVERIFY(!meetsPlanTarget(parsePlanTarget("avg_jct<10m"), 600));
        QVERIFY(meetsPlanTarget(parsePlanTarget("avg_jct>=10m"), 600));
        QVERIFY(!meetsPlanTarget(parsePlanTarget("avg_jct>10m"), 600));
        // No job of the class finished: the target is not met, whatever it asks.
        QVERIFY(std::isnan(planTargetValue(parsePlanTarget("large:avg_jct<=1d"), {done(1, 0, 0, 1)}, 8)));
        QVERIFY(!meetsPlanTarget(at_most, std::nan("")));
    }

    // Slowdowns are ratios against each job's run time alone (iterations x solo iteration
    // time); the bounded one floors that run time at 10 s and the ratio at 1.
    void slowdownsSeeStarvationAfterTheFirstStart() {
        const PlanTarget p95 = parsePlanTarget("p95_slowdown<=4");
        QCOMPARE(p95.value_s, 4.0);
        QVERIFY(isRatioMetric("large:p95_slowdown") && !isRatioMetric("p95_jct"));
        QCOMPARE(formatPlanMetric("p95_slowdown", 2.5), std::string("2.50"));
        QCOMPARE(formatPlanMetric("p95_jct", 7200), std::string("2.00 h"));
        expectError(invalidArgument([] { parsePlanTarget("p95_slowdown<=4h"); }),
                    {"'p95_slowdown<=4h': a slowdown is a ratio without a unit, as in p95_slowdown<=5"});
        // Alone: 100 s, 5 s (bounded at 10 s), 50 s. Started at once, the third then starved:
        // its first start is immediate, its slowdown 8.
        auto job = [](double submit, double alone, double end) {
            JobRecord j = done(1, submit, submit, end);
            j.iterations = alone;
            j.solo_iteration_time = 1.0;
            return j;
        };
        const std::vector<JobRecord> jobs = {job(0, 100, 200), job(0, 5, 5), job(10, 50, 410)};
        QCOMPARE(planTargetValue(parsePlanTarget("p95_queueing<=1s"), jobs, 8), 0.0);
        QCOMPARE(planTargetValue(p95, jobs, 8), 8.0);  // slowdowns 2, 1, 8: nearest rank
        QCOMPARE(planTargetValue(parsePlanTarget("avg_bounded_slowdown<=2"), jobs, 8), (2.0 + 1.0 + 8.0) / 3);
    }
};

QTEST_GUILESS_MAIN(TestPlanTarget)
#include "test_plan_target.moc"
