// JCT statistics (core/metrics/jct_stats.h, docs/architecture.md section 7.2) on vectors whose
// answers follow from the nearest-rank rule by hand: sort, then take the value at 1-based rank
// ceil(p x n), clamped to 1..n; the median is the middle value or the mean of the middle pair.
// Several vectors are chosen so that neighbouring ranks (p99 against p98, p95 against p94)
// give different answers.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "core/metrics/jct_stats.h"
#include "core/metrics/job_size.h"
#include "core/metrics/plan_target.h"

using namespace cl;

namespace {

std::vector<double> oneTo(int n) {
    std::vector<double> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), 1.0);
    return v;
}

// Squares of 1..n, shuffled: distinct values, so every rank gives a different answer.
std::vector<double> shuffledSquares(int n, unsigned seed) {
    std::vector<double> v;
    for (int i = 1; i <= n; ++i) v.push_back(double(i) * i);
    std::mt19937 rng(seed);
    std::shuffle(v.begin(), v.end(), rng);
    return v;
}

JobRecord finished(int index, double submit, double first_start, double end) {
    JobRecord j;
    j.index = index;
    j.id = "j" + std::to_string(index);
    j.submit = submit;
    j.first_start = first_start;
    j.end = end;
    j.jct = end - submit;
    j.queueing_delay = first_start - submit;
    j.completed = true;
    return j;
}

}  // namespace

class TestJctStats : public QObject {
    Q_OBJECT

private slots:
    // 1..100: rank ceil(p x 100) is the value itself.
    void oneToHundred() {
        const std::vector<double> v = oneTo(100);
        QCOMPARE(median(v), 50.5);
        QCOMPARE(percentile(v, 0.50), 50.0);
        QCOMPARE(percentile(v, 0.95), 95.0);
        QCOMPARE(percentile(v, 0.98), 98.0);
        QCOMPARE(percentile(v, 0.99), 99.0);
        QCOMPARE(percentile(v, 1.0), 100.0);
        QCOMPARE(percentile(v, 0.0), 1.0);  // rank 0 is clamped to 1
        QCOMPARE(percentile(v, 0.001), 1.0);
        QCOMPARE(percentile(v, 0.011), 2.0);
    }

    // The order of the input does not matter: 100..1 and a shuffle give the same answers.
    void inputOrderDoesNotMatter() {
        std::vector<double> v = oneTo(100);
        std::reverse(v.begin(), v.end());
        QCOMPARE(percentile(v, 0.99), 99.0);
        QCOMPARE(median(v), 50.5);
        std::mt19937 rng(5);
        std::shuffle(v.begin(), v.end(), rng);
        QCOMPARE(percentile(v, 0.99), 99.0);
        QCOMPARE(percentile(v, 0.95), 95.0);
        QCOMPARE(median(v), 50.5);
    }

    // n = 50: p99 is rank ceil(49.5) = 50, the largest; p98 would be rank 49.
    // n = 200: p99 is rank 198, p98 rank 196, p95 rank 190, the median the mean of ranks 100
    // and 101. Squares make every rank distinct: value at rank r is r^2.
    void neighbouringRanksDiffer_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("p50");
        QTest::addColumn<double>("p95");
        QTest::addColumn<double>("p99");
        QTest::addColumn<double>("med");
        QTest::newRow("n=50") << 50 << 625.0 << 48.0 * 48 << 50.0 * 50 << (625.0 + 676.0) / 2;
        QTest::newRow("n=200") << 200 << 10000.0 << 190.0 * 190 << 198.0 * 198 << (10000.0 + 10201.0) / 2;
        QTest::newRow("n=400") << 400 << 40000.0 << 380.0 * 380 << 396.0 * 396 << (40000.0 + 40401.0) / 2;
        QTest::newRow("n=7") << 7 << 16.0 << 49.0 << 49.0 << 16.0;
        QTest::newRow("n=1") << 1 << 1.0 << 1.0 << 1.0 << 1.0;
    }
    void neighbouringRanksDiffer() {
        QFETCH(int, n);
        QFETCH(double, p50);
        QFETCH(double, p95);
        QFETCH(double, p99);
        QFETCH(double, med);
        const std::vector<double> v = shuffledSquares(n, static_cast<unsigned>(n));
        QCOMPARE(percentile(v, 0.5), p50);
        QCOMPARE(percentile(v, 0.95), p95);
        QCOMPARE(percentile(v, 0.99), p99);
        QCOMPARE(median(v), med);
    }

    // Ten values: p99 (rank ceil(9.9) = 10) is the largest; p95 too (rank 10); p90 is rank 9.
    void tenValues() {
        const std::vector<double> v{7, 3, 9, 1, 10, 2, 8, 4, 6, 5};
        QCOMPARE(percentile(v, 0.99), 10.0);
        QCOMPARE(percentile(v, 0.95), 10.0);
        QCOMPARE(percentile(v, 0.90), 9.0);
        QCOMPARE(median(v), 5.5);
    }

    // A job that reached its time limit (waited 30 s, ended at 100) counts in the queueing figures
    // and the makespan but not in the JCTs; a job left out before the run (submitted first, never
    // started) counts in neither (docs/architecture.md 7.2).
    void timedOutJobsWaitedAndLeftOutJobsNeverRan() {
        JobRecord left_out;
        left_out.index = 0;
        left_out.submit = 0;
        JobRecord timed_out = finished(2, 10, 40, 100);
        timed_out.completed = false;
        timed_out.timed_out = true;
        const Summary s = summarize({left_out, finished(1, 10, 20, 60), timed_out});
        QCOMPARE(s.jobs, 3);
        QCOMPARE(s.completed, 1);
        QCOMPARE(s.timed_out, 1);
        QCOMPARE(s.avg_jct, 50.0);
        QCOMPARE(s.avg_queueing_delay, (10.0 + 30.0) / 2);
        QCOMPARE(s.p95_queueing_delay, 30.0);
        QCOMPARE(s.makespan, 100.0 - 10.0);
    }

    void emptyIsZero() {
        QCOMPARE(percentile({}, 0.99), 0.0);
        QCOMPARE(median({}), 0.0);
        const Summary s = summarize({});
        QCOMPARE(s.jobs, 0);
        QCOMPARE(s.completed, 0);
        QCOMPARE(s.p99_jct, 0.0);
        QCOMPARE(s.makespan, 0.0);
        QCOMPARE(s.p95_queueing_delay, 0.0);
        // A size class without a completed job has no figures (NaN), not zeros.
        QCOMPARE(s.small.completed, 0);
        QVERIFY(std::isnan(s.small.avg_jct) && std::isnan(s.small.p95_jct) && std::isnan(s.small.p99_jct));
        QCOMPARE(s.large.completed, 0);
        QVERIFY(std::isnan(s.large.avg_jct) && std::isnan(s.large.p95_jct) && std::isnan(s.large.p99_jct));
    }

    // p95 queueing and the JCTs per size class (docs/architecture.md 7.2, 7.3): 30 small jobs
    // (1 to 8 GPUs, the 8-GPU ones still small) with JCT 100 k, 10 large ones (16 GPUs) with JCT
    // 1000 k, queueing delays 1..40 s in shuffled order, and an unfinished large job.
    void tailAndSizeClasses() {
        std::vector<JobRecord> jobs;
        std::vector<int> waits(40);
        std::iota(waits.begin(), waits.end(), 1);
        std::mt19937 rng(4);
        std::shuffle(waits.begin(), waits.end(), rng);
        for (int k = 1; k <= 30; ++k) {
            JobRecord j = finished(k, 0.0, waits[std::size_t(k - 1)], waits[std::size_t(k - 1)] + 100.0 * k);
            j.jct = 100.0 * k;
            j.gpus = 1 + (k % 8);  // 1..8
            jobs.push_back(j);
        }
        for (int k = 1; k <= 10; ++k) {
            const double wait = waits[std::size_t(29 + k)];
            JobRecord j = finished(30 + k, 0.0, wait, wait + 1000.0 * k);
            j.jct = 1000.0 * k;
            j.gpus = 16;
            jobs.push_back(j);
        }
        JobRecord unfinished;
        unfinished.index = 41;
        unfinished.gpus = 32;
        jobs.push_back(unfinished);

        const Summary s = summarize(jobs);
        QCOMPARE(s.completed, 40);
        QCOMPARE(s.p95_queueing_delay, 38.0);  // rank ceil(0.95 x 40) = 38 of 1..40
        QCOMPARE(s.small.completed, 30);
        QCOMPARE(s.small.avg_jct, 1550.0);  // 100 x 15.5
        QCOMPARE(s.small.p95_jct, 2900.0);  // rank ceil(28.5) = 29
        QCOMPARE(s.small.p99_jct, 3000.0);  // rank ceil(29.7) = 30
        QCOMPARE(s.large.completed, 10);
        QCOMPARE(s.large.avg_jct, 5500.0);
        QCOMPARE(s.large.p95_jct, 10000.0);  // rank ceil(9.5) = 10
        QCOMPARE(s.large.p99_jct, 10000.0);

        // The planning targets compute the same figures from the same records (section 7.7).
        const auto target = [&](const char* text) {
            return planTargetValue(parsePlanTarget(text), jobs, kLargeJobAboveGpus);
        };
        QCOMPARE(target("p95_queueing<=1h"), s.p95_queueing_delay);
        QCOMPARE(target("small:p95_jct<=1h"), s.small.p95_jct);
        QCOMPARE(target("small:p99_jct<=1h"), s.small.p99_jct);
        QCOMPARE(target("large:p95_jct<=1h"), s.large.p95_jct);
        QCOMPARE(target("large:p99_jct<=1h"), s.large.p99_jct);
        QCOMPARE(target("large:avg_jct<=1h"), s.large.avg_jct);
    }

    // summarize: 200 finished jobs with JCT k^2 (k = 1..200) in shuffled order, plus one job
    // that never finished (it counts in jobs and in the first submit, never in a statistic).
    void summaryOfKnownJobs() {
        std::vector<JobRecord> jobs;
        std::vector<int> k(200);
        std::iota(k.begin(), k.end(), 1);
        std::mt19937 rng(9);
        std::shuffle(k.begin(), k.end(), rng);
        double jct_sum = 0, queue_sum = 0;
        for (int i = 0; i < 200; ++i) {
            const double submit = 10.0 + i;        // first submit 10
            const double wait = (k[i] % 7) * 1.5;  // 0 .. 9
            const double jct = double(k[i]) * k[i];
            jobs.push_back(finished(i, submit, submit + wait, submit + jct));
            jct_sum += jct;
            queue_sum += wait;
        }
        JobRecord unfinished;
        unfinished.index = 200;
        unfinished.submit = 3.0;
        jobs.push_back(unfinished);
        const Summary s = summarize(jobs);
        QCOMPARE(s.jobs, 201);
        QCOMPARE(s.completed, 200);
        QCOMPARE(s.avg_jct, jct_sum / 200);
        QCOMPARE(s.avg_jct, 200.0 * 201 * 401 / 6 / 200);  // sum of squares
        QCOMPARE(s.median_jct, (100.0 * 100 + 101.0 * 101) / 2);
        QCOMPARE(s.p95_jct, 190.0 * 190);
        QCOMPARE(s.p99_jct, 198.0 * 198);
        QCOMPARE(s.avg_queueing_delay, queue_sum / 200);
        // The last end: the job with k = 200 ends at its submit + 40000. The job that never
        // started (submitted at 3) does not open the makespan: the first submit is 10.
        const auto last = std::find(k.begin(), k.end(), 200) - k.begin();
        QCOMPARE(s.makespan, 10.0 + double(last) + 40000.0 - 10.0);
    }

    // Ties: the nearest rank picks a value, never a mean of two.
    void tiesAndDuplicates() {
        std::vector<double> v(97, 5.0);
        v.push_back(7.0);
        v.push_back(8.0);
        v.push_back(9.0);  // 100 values: ranks 98, 99, 100 are 7, 8, 9
        QCOMPARE(percentile(v, 0.99), 8.0);
        QCOMPARE(percentile(v, 0.98), 7.0);
        QCOMPARE(percentile(v, 0.95), 5.0);
        QCOMPARE(median(v), 5.0);
    }
};

QTEST_APPLESS_MAIN(TestJctStats)
#include "test_jct_stats.moc"
