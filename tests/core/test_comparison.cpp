// core/metrics/comparison: estimates with confidence intervals, speedups over a baseline,
// per-model and small/large breakdowns, and the text/CSV/JSON forms.
#include <QtTest>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/metrics/comparison.h"
#include "core/util/number_format.h"

using namespace cl;

namespace {

SimResult runWith(double avg_jct, double makespan, double p99_jct) {
    SimResult r;
    r.summary.jobs = 10;
    r.summary.completed = 9;
    r.summary.avg_jct = avg_jct;
    r.summary.makespan = makespan;
    r.summary.p99_jct = p99_jct;
    r.summary.median_jct = avg_jct / 2;
    r.summary.avg_queueing_delay = avg_jct / 10;
    return r;
}

JobRecord job(const std::string& model, int gpus, double jct, bool completed = true) {
    JobRecord j;
    j.model = model;
    j.gpus = gpus;
    j.jct = jct;
    j.completed = completed;
    return j;
}

ComparisonGroup group(const std::string& label, std::vector<SimResult> runs) {
    ComparisonGroup g;
    g.label = label;
    for (std::size_t i = 0; i < runs.size(); ++i) g.seeds.push_back(i + 1);
    g.runs = std::move(runs);
    return g;
}

// Three seeds of "fifo" (avg JCT 10, 12, 14) and one run of "muri" (avg JCT 6).
std::vector<ComparisonGroup> twoGroups() {
    return {group("fifo", {runWith(10, 100, 40), runWith(12, 110, 50), runWith(14, 120, 60)}),
            group("muri", {runWith(6, 80, 25)})};
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

}  // namespace

class TestComparison : public QObject {
    Q_OBJECT

private slots:
    void studentTablePoints() {
        QCOMPARE(studentT95(1), 12.706);
        QCOMPARE(studentT95(2), 4.303);
        QCOMPARE(studentT95(10), 2.228);
        QCOMPARE(studentT95(30), 2.042);
        QCOMPARE(studentT95(39), 2.042);  // between points: the smaller tabulated df
        QCOMPARE(studentT95(40), 2.021);
        QCOMPARE(studentT95(59), 2.021);
        QCOMPARE(studentT95(60), 2.000);
        QCOMPARE(studentT95(120), 1.980);
        QCOMPARE(studentT95(121), 1.96);
        QCOMPARE(studentT95(1000000), 1.96);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, studentT95(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, studentT95(-3));
    }

    void estimateMeanAndInterval() {
        Estimate e = estimate({10, 12, 14});
        QCOMPARE(e.n, 3);
        QCOMPARE(e.mean, 12.0);
        QCOMPARE(e.ci95, 4.303 * 2.0 / std::sqrt(3.0));

        Estimate one = estimate({7.5});
        QCOMPARE(one.n, 1);
        QCOMPARE(one.mean, 7.5);
        QCOMPARE(one.ci95, 0.0);

        Estimate none = estimate({});
        QCOMPARE(none.n, 0);
        QCOMPARE(none.mean, 0.0);
        QCOMPARE(none.ci95, 0.0);

        Estimate same = estimate({5, 5});
        QCOMPARE(same.ci95, 0.0);
    }

    void rowsFromSummaries() {
        Comparison c = compareGroups(twoGroups());
        QCOMPARE(c.rows.size(), std::size_t(2));
        const ComparisonRow& fifo = c.rows[0];
        QCOMPARE(fifo.label, std::string("fifo"));
        QCOMPARE(fifo.runs, 3);
        QCOMPARE(fifo.jobs, 10);
        QCOMPARE(fifo.completed, 9);
        QCOMPARE(fifo.avg_jct.mean, 12.0);
        QCOMPARE(fifo.avg_jct.ci95, 4.303 * 2.0 / std::sqrt(3.0));
        QCOMPARE(fifo.avg_jct.n, 3);
        QCOMPARE(fifo.makespan.mean, 110.0);
        QCOMPARE(fifo.makespan.ci95, 4.303 * 10.0 / std::sqrt(3.0));
        QCOMPARE(fifo.p99_jct.mean, 50.0);
        QCOMPARE(fifo.median_jct.mean, 6.0);
        QCOMPARE(fifo.avg_queueing_delay.mean, 1.2);
        const ComparisonRow& muri = c.rows[1];
        QCOMPARE(muri.runs, 1);
        QCOMPARE(muri.avg_jct.mean, 6.0);
        QCOMPARE(muri.avg_jct.ci95, 0.0);
    }

    void baselineDefaultsToFirstGroup() {
        Comparison c = compareGroups(twoGroups());
        QCOMPARE(c.baseline, std::string("fifo"));
        QCOMPARE(c.rows[0].avg_jct_speedup, 1.0);
        QCOMPARE(c.rows[0].makespan_speedup, 1.0);
        QCOMPARE(c.rows[0].p99_jct_speedup, 1.0);
        QCOMPARE(c.rows[1].avg_jct_speedup, 12.0 / 6.0);
        QCOMPARE(c.rows[1].makespan_speedup, 110.0 / 80.0);
        QCOMPARE(c.rows[1].p99_jct_speedup, 50.0 / 25.0);
    }

    void namedBaseline() {
        Comparison c = compareGroups(twoGroups(), "muri");
        QCOMPARE(c.baseline, std::string("muri"));
        QCOMPARE(c.rows[0].label, std::string("fifo"));  // the order of the groups is kept
        QCOMPARE(c.rows[0].avg_jct_speedup, 6.0 / 12.0);
        QCOMPARE(c.rows[0].makespan_speedup, 80.0 / 110.0);
        QCOMPARE(c.rows[0].p99_jct_speedup, 25.0 / 50.0);
        QCOMPARE(c.rows[1].avg_jct_speedup, 1.0);
    }

    void zeroMeanGivesZeroSpeedup() {
        auto groups = twoGroups();
        groups.push_back(group("stuck", {runWith(0, 0, 0)}));
        Comparison c = compareGroups(groups);
        QCOMPARE(c.rows[2].avg_jct_speedup, 0.0);
        QCOMPARE(c.rows[2].makespan_speedup, 0.0);
        QCOMPARE(c.rows[2].p99_jct_speedup, 0.0);
        QVERIFY(std::isfinite(compareGroups(groups, "stuck").rows[0].avg_jct_speedup));
    }

    void breakdownsFromCompletedJobs() {
        SimResult a = runWith(1, 1, 1);
        a.jobs = {job("resnet18", 1, 100), job("resnet18", 2, 300), job("bert", 16, 1000),
                  job("bert", 8, 50, false),  // incomplete: excluded everywhere
                  job("vgg", 4, 9999, false)};
        SimResult b = runWith(1, 1, 1);
        b.jobs = {job("resnet18", 4, 400), job("gpt", 1, 20)};  // no completed large job
        Comparison c = compareGroups({group("g", {a, b})});
        const ComparisonRow& r = c.rows[0];

        QCOMPARE(r.avg_jct_by_model.size(), std::size_t(3));  // vgg never completed
        QVERIFY(!r.avg_jct_by_model.count("vgg"));
        const Estimate& resnet = r.avg_jct_by_model.at("resnet18");
        QCOMPARE(resnet.n, 2);
        QCOMPARE(resnet.mean, (200.0 + 400.0) / 2);  // run means 200 and 400
        QCOMPARE(resnet.ci95, 12.706 * std::sqrt(20000.0) / std::sqrt(2.0));
        const Estimate& bert = r.avg_jct_by_model.at("bert");
        QCOMPARE(bert.n, 1);
        QCOMPARE(bert.mean, 1000.0);
        QCOMPARE(bert.ci95, 0.0);
        QCOMPARE(r.avg_jct_by_model.at("gpt").n, 1);
        QCOMPARE(r.avg_jct_by_model.at("gpt").mean, 20.0);

        // small: run a (100 + 300) / 2 = 200, run b (400 + 20) / 2 = 210
        QCOMPARE(r.avg_jct_small.n, 2);
        QCOMPARE(r.avg_jct_small.mean, 205.0);
        // large: only run a has one (16 GPUs, 1000 s); the 8-GPU job is incomplete
        QCOMPARE(r.avg_jct_large.n, 1);
        QCOMPARE(r.avg_jct_large.mean, 1000.0);
    }

    void largeThresholdIsInclusive() {
        SimResult a = runWith(1, 1, 1);
        a.jobs = {job("m", kLargeJobAboveGpus, 10), job("m", kLargeJobAboveGpus + 1, 30)};
        ComparisonRow r = compareGroups({group("g", {a})}).rows[0];
        QCOMPARE(r.avg_jct_small.mean, 10.0);
        QCOMPARE(r.avg_jct_large.mean, 30.0);
    }

    void noJobsLeavesBreakdownsEmpty() {
        ComparisonRow r = compareGroups(twoGroups()).rows[0];
        QVERIFY(r.avg_jct_by_model.empty());
        QCOMPARE(r.avg_jct_small.n, 0);
        QCOMPARE(r.avg_jct_large.n, 0);
    }

    void csvHeaderAndRows() {
        std::string csv = formatComparisonCsv(compareGroups(twoGroups()));
        auto l = lines(csv);
        QCOMPARE(l.at(0), std::string("label,metric,mean,ci95,runs,speedup"));
        QCOMPARE(l.size(), std::size_t(1 + 2 * 7));  // seven summary metrics, no breakdowns
        QCOMPARE(l.at(1).rfind("fifo,avg_jct,12,", 0), std::size_t(0));
        QVERIFY(l.at(1).size() > 2 && l.at(1).substr(l.at(1).size() - 4) == ",3,1");
        QCOMPARE(l.at(4).rfind("fifo,median_jct,6,", 0), std::size_t(0));
        QVERIFY(l.at(4).substr(l.at(4).size() - 3) == ",3,");  // no speedup for the median
        QCOMPARE(l.at(6), std::string("fifo,p95_jct,0,0,3,"));
        QCOMPARE(l.at(7), std::string("fifo,p95_queueing,0,0,3,"));
        QCOMPARE(l.at(8), std::string("muri,avg_jct,6,0,1,2"));
        QCOMPARE(l.at(11), std::string("muri,median_jct,3,0,1,"));  // no speedup for this metric
    }

    void csvRoundTripsExactly() {
        const double awkward = 0.1 + 0.2;  // 0.30000000000000004: needs 17 digits
        auto groups = twoGroups();
        groups[1].runs[0].summary.avg_jct = awkward;
        Comparison c = compareGroups(groups);
        auto l = lines(formatComparisonCsv(c));
        const std::string& row = l.at(8);
        QCOMPARE(row.rfind("muri,avg_jct,", 0), std::size_t(0));
        // fields: label, metric, mean, ci95, runs, speedup
        std::vector<std::string> f;
        std::stringstream ss(row);
        for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
        QCOMPARE(f.size(), std::size_t(6));
        double mean = 0, speedup = 0;
        std::from_chars(f[2].data(), f[2].data() + f[2].size(), mean);
        std::from_chars(f[5].data(), f[5].data() + f[5].size(), speedup);
        QVERIFY(mean == awkward);  // bit-exact, not fuzzy
        QVERIFY(speedup == c.rows[1].avg_jct_speedup);
        // The fifo CI is irrational: also exact.
        auto fifo = lines(formatComparisonCsv(c)).at(1);
        std::string ci = fifo.substr(std::string("fifo,avg_jct,12,").size());
        ci = ci.substr(0, ci.find(','));
        double parsed = 0;
        std::from_chars(ci.data(), ci.data() + ci.size(), parsed);
        QVERIFY(parsed == c.rows[0].avg_jct.ci95);
    }

    void csvNumbersArePlainAndExact() {
        auto groups = twoGroups();
        const std::vector<double> values = {100000.0, 1e15 + 0.125, 2.5e-6, 1e-300, 1e300, -2.5};
        for (double v : values) {
            groups[1].runs[0].summary.avg_queueing_delay = v;
            auto l = lines(formatComparisonCsv(compareGroups(groups)));
            const std::string prefix = "muri,avg_queueing_delay,";
            QCOMPARE(l.at(12).rfind(prefix, 0), std::size_t(0));
            std::string field = l.at(12).substr(prefix.size());
            field = field.substr(0, field.find(','));
            double parsed = 1;
            std::from_chars(field.data(), field.data() + field.size(), parsed);
            QVERIFY2(parsed == v, field.c_str());
            if (v == 100000.0) QCOMPARE(field, std::string("100000"));
        }
    }

    void csvBreakdownsAndQuoting() {
        SimResult a = runWith(1, 1, 1);
        a.jobs = {job("resnet18", 1, 100), job("bert,large", 16, 1000)};
        std::string csv = formatComparisonCsv(compareGroups({group("fifo \"tuned\", v2", {a})}));
        auto l = lines(csv);
        const std::string label = "\"fifo \"\"tuned\"\", v2\"";
        QVERIFY(std::find(l.begin(), l.end(), label + ",avg_jct_small,100,0,1,") != l.end());
        QVERIFY(std::find(l.begin(), l.end(), label + ",avg_jct_large,1000,0,1,") != l.end());
        QVERIFY(std::find(l.begin(), l.end(), label + ",avg_jct_model:resnet18,100,0,1,") != l.end());
        QVERIFY(std::find(l.begin(), l.end(), label + ",\"avg_jct_model:bert,large\",1000,0,1,") != l.end());
        QVERIFY(std::find(l.begin(), l.end(), label + ",small:p99_jct,100,0,1,") != l.end());
        QVERIFY(std::find(l.begin(), l.end(), label + ",large:p95_jct,1000,0,1,") != l.end());
        QCOMPARE(l.size(), std::size_t(1 + 7 + 3 + 3 + 2));
    }

    void csvLeavesOutMissingSizeClass() {
        SimResult a = runWith(1, 1, 1);
        a.jobs = {job("m", 1, 100)};
        std::string csv = formatComparisonCsv(compareGroups({group("g", {a})}));
        QVERIFY(csv.find("avg_jct_small") != std::string::npos);
        QVERIFY(csv.find("avg_jct_large") == std::string::npos);
        QVERIFY(csv.find("small:p95_jct") != std::string::npos);
        QVERIFY(csv.find("large:p95_jct") == std::string::npos);
        QVERIFY(csv.find("cost") == std::string::npos);  // no price: no cost rows
    }

    void jsonFields() {
        auto groups = twoGroups();
        groups[0].runs[0].jobs = {job("resnet18", 1, 100), job("bert", 16, 1000)};
        nlohmann::json j = comparisonJson(compareGroups(groups, "muri"));
        QCOMPARE(j.at("baseline").get<std::string>(), std::string("muri"));
        QCOMPARE(j.at("rows").size(), std::size_t(2));
        const auto& fifo = j.at("rows").at(0);
        QCOMPARE(fifo.at("label").get<std::string>(), std::string("fifo"));
        QCOMPARE(fifo.at("runs").get<int>(), 3);
        QCOMPARE(fifo.at("jobs").get<int>(), 10);
        QCOMPARE(fifo.at("completed").get<int>(), 9);
        QCOMPARE(fifo.at("avg_jct").at("mean").get<double>(), 12.0);
        QCOMPARE(fifo.at("avg_jct").at("ci95").get<double>(), 4.303 * 2.0 / std::sqrt(3.0));
        QCOMPARE(fifo.at("avg_jct").at("n").get<int>(), 3);
        for (const char* key : {"makespan", "p99_jct", "median_jct", "avg_queueing_delay"})
            QVERIFY2(
                fifo.at(key).contains("mean") && fifo.at(key).contains("ci95") && fifo.at(key).contains("n"),
                key);
        QCOMPARE(fifo.at("speedup").at("avg_jct").get<double>(), 0.5);
        QCOMPARE(fifo.at("speedup").at("makespan").get<double>(), 80.0 / 110.0);
        QCOMPARE(fifo.at("speedup").at("p99_jct").get<double>(), 0.5);
        QCOMPARE(fifo.at("by_model").at("bert").at("mean").get<double>(), 1000.0);
        QCOMPARE(fifo.at("by_model").at("resnet18").at("n").get<int>(), 1);
        QCOMPARE(fifo.at("small").at("mean").get<double>(), 100.0);
        QCOMPARE(fifo.at("large").at("mean").get<double>(), 1000.0);
        const auto& muri = j.at("rows").at(1);
        QVERIFY(muri.at("by_model").is_object() && muri.at("by_model").empty());
        QCOMPARE(muri.at("small").at("n").get<int>(), 0);  // present, with n 0: no such job
        QCOMPARE(muri.at("speedup").at("avg_jct").get<double>(), 1.0);
    }

    void textTables() {
        auto groups = twoGroups();
        groups[0].runs[0].jobs = {job("resnet18", 1, 100), job("bert", 16, 1000)};
        std::string text = formatComparisonText(compareGroups(groups));
        QVERIFY(text.find("baseline: fifo") != std::string::npos);
        QVERIFY(text.find("avg JCT") != std::string::npos);
        QVERIFY(text.find("12 s +- 5 s") != std::string::npos);  // 3 runs: mean +- ci
        QVERIFY(text.find("2.00x") != std::string::npos);        // muri avg JCT speedup
        QVERIFY(text.find("per model (avg JCT)") != std::string::npos);
        QVERIFY(text.find("resnet18") != std::string::npos);
        QVERIFY(text.find("small (<9 GPUs) / large (>=9 GPUs)") != std::string::npos);
        QVERIFY(text.find("+-") != std::string::npos);
        // Every line of a table has the same width as its rule line.
        auto l = lines(text);
        QCOMPARE(l.at(1).size(), l.at(3).size());
        QCOMPARE(l.at(2).find_first_not_of('-'), std::string::npos);
        // The single-run group shows a bare mean.
        QVERIFY(l.at(4).rfind("muri", 0) == 0);
        QVERIFY(l.at(4).find("+-") == std::string::npos);
    }

    // Percentiles per size class: nearest rank over each run's completed jobs of the class, then
    // the estimate over the runs that had one (docs/architecture.md 7.2, 7.3).
    void sizeClassPercentiles() {
        SimResult a = runWith(1, 1, 1);
        for (int k = 1; k <= 20; ++k) a.jobs.push_back(job("m", 1 + k % 8, 10.0 * k));  // small 10..200
        for (int k = 1; k <= 4; ++k) a.jobs.push_back(job("m", 16, 1000.0 * k));        // large 1000..4000
        a.jobs.push_back(job("m", 32, 99999, false));                                   // not completed
        SimResult b = runWith(1, 1, 1);
        for (int k = 1; k <= 10; ++k) b.jobs.push_back(job("m", 2, 30.0 * k));  // small 30..300, no large
        const ComparisonRow r = compareGroups({group("g", {a, b})}).rows[0];
        // small: run a p95 = rank 19 of 20 = 190, p99 = rank 20 = 200; run b p95 = p99 = rank 10 = 300
        QCOMPARE(r.p95_jct_small.n, 2);
        QCOMPARE(r.p95_jct_small.mean, (190.0 + 300.0) / 2);
        QCOMPARE(r.p95_jct_small.ci95, 12.706 * std::sqrt((55.0 * 55.0 * 2) / 1) / std::sqrt(2.0));
        QCOMPARE(r.p99_jct_small.mean, (200.0 + 300.0) / 2);
        // large: only run a, 4 values: rank ceil(3.8) = ceil(3.96) = 4
        QCOMPARE(r.p95_jct_large.n, 1);
        QCOMPARE(r.p95_jct_large.mean, 4000.0);
        QCOMPARE(r.p99_jct_large.mean, 4000.0);
        QCOMPARE(r.p99_jct_large.ci95, 0.0);
        const nlohmann::json j = comparisonJson(compareGroups({group("g", {a, b})})).at("rows").at(0);
        QCOMPARE(j.at("small:p95_jct").at("mean").get<double>(), 245.0);
        QCOMPARE(j.at("large:p99_jct").at("n").get<int>(), 1);
        QVERIFY(formatComparisonText(compareGroups({group("g", {a, b})})).find("large p99 JCT") !=
                std::string::npos);
    }

    void tailFromSummaries() {
        auto groups = twoGroups();
        for (std::size_t i = 0; i < 3; ++i) {
            groups[0].runs[i].summary.p95_jct = 30.0 + 10.0 * double(i);         // 30, 40, 50
            groups[0].runs[i].summary.p95_queueing_delay = 5.0 * double(i + 1);  // 5, 10, 15
        }
        const ComparisonRow r = compareGroups(groups).rows[0];
        QCOMPARE(r.p95_jct.mean, 40.0);
        QCOMPARE(r.p95_jct.ci95, 4.303 * 10.0 / std::sqrt(3.0));
        QCOMPARE(r.p95_queueing.mean, 10.0);
        const nlohmann::json j = comparisonJson(compareGroups(groups)).at("rows").at(0);
        QCOMPARE(j.at("p95_queueing").at("mean").get<double>(), 10.0);
        QCOMPARE(j.at("p95_jct").at("n").get<int>(), 3);
        const std::string text = formatComparisonText(compareGroups(groups));
        QVERIFY(text.find("p95 queueing") != std::string::npos);
    }

    // Cost (section 7.8): the group's cluster per month, and each run's makespan at its hourly
    // price as an estimate over the seeds. Unpriced servers are named; nothing priced, no cost.
    void costPerGroup() {
        auto groups = twoGroups();  // fifo makespans 100, 110, 120 s; muri 80 s
        ClusterCost priced;
        priced.per_hour = 36.0;  // USD: 1 cent a second
        priced.per_month = 36.0 * kHoursPerMonth;
        priced.unpriced_servers = 2;
        groups[0].cost = priced;
        groups[0].cluster_servers = 8;
        ClusterCost unpriced;
        unpriced.unpriced_servers = 4;
        groups[1].cost = unpriced;
        groups[1].cluster_servers = 4;
        const Comparison c = compareGroups(groups);
        const ComparisonRow& fifo = c.rows[0];
        QVERIFY(fifo.priced);
        QCOMPARE(fifo.cost_per_month, 26280.0);
        QCOMPARE(fifo.unpriced_servers, 2);
        QCOMPARE(fifo.span_cost.n, 3);
        QCOMPARE(fifo.span_cost.mean, 1.1);  // (1.00 + 1.10 + 1.20) / 3
        QCOMPARE(fifo.span_cost.ci95, 4.303 * 0.1 / std::sqrt(3.0));
        QVERIFY(!c.rows[1].priced);

        const std::string text = formatComparisonText(c);
        QVERIFY(text.find("cost (USD)") != std::string::npos);
        QVERIFY(text.find("$26280.00") != std::string::npos);
        QVERIFY(text.find("$1.10 +- $0.25") != std::string::npos);
        QVERIFY(text.find("cost excludes 2 unpriced servers") != std::string::npos);
        QVERIFY(text.find("no priced server") != std::string::npos);

        const auto l = lines(formatComparisonCsv(c));
        QVERIFY(std::find(l.begin(), l.end(), "fifo,cost_per_month,26280,0,3,") != l.end());
        QVERIFY(std::find(l.begin(), l.end(), "fifo,unpriced_servers,2,0,3,") != l.end());
        const std::string span_line = "fifo,span_cost," + formatNumberPlain(fifo.span_cost.mean) + "," +
                                      formatNumberPlain(fifo.span_cost.ci95) + ",3,";
        QVERIFY(std::find(l.begin(), l.end(), span_line) != l.end());
        QVERIFY(std::none_of(l.begin(), l.end(),
                             [](const std::string& x) { return x.rfind("muri,cost", 0) == 0; }));

        const nlohmann::json j = comparisonJson(c);
        QCOMPARE(j.at("rows").at(0).at("cost_per_month").get<double>(), 26280.0);
        QCOMPARE(j.at("rows").at(0).at("span_cost").at("mean").get<double>(), 1.1);
        QCOMPARE(j.at("rows").at(0).at("unpriced_servers").get<int>(), 2);
        QVERIFY(j.at("rows").at(1).at("cost_per_month").is_null());
        QVERIFY(j.at("rows").at(1).at("span_cost").is_null());

        // Without any priced group the text has no cost table at all.
        QVERIFY(formatComparisonText(compareGroups(twoGroups())).find("cost") == std::string::npos);
    }

    void errors() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareGroups({}));
        auto groups = twoGroups();
        groups[1].runs.clear();
        groups[1].seeds.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareGroups(groups));
        groups = twoGroups();
        groups[0].seeds.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareGroups(groups));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareGroups(twoGroups(), "nosuch"));
        // Messages name the group at fault.
        try {
            compareGroups(groups);
            QFAIL("expected an exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("fifo") != std::string::npos);
        }
        try {
            compareGroups(twoGroups(), "nosuch");
            QFAIL("expected an exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("nosuch") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestComparison)
#include "test_comparison.moc"
