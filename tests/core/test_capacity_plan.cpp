// The capacity planner (core/planning): the boundary search finds every threshold exactly; on
// small traces the plan's answer for every (server type, policy) equals an exhaustive sweep over
// every server count, a target no candidate can meet is reported as such, and the headroom
// equals an exhaustive scan of the load within its resolution.
#include <QtTest>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "core/io/builtin_data.h"
#include "core/metrics/cluster_cost.h"
#include "core/planning/boundary_search.h"
#include "core/planning/capacity_plan.h"
#include "core/planning/plan_report_format.h"
#include "core/policies/simulate_policy.h"
#include "core/workload/model_assignment.h"
#include "core/workload/trace_generator.h"
#include "core/workload/trace_transforms.h"
#include "sim_test_support.h"

using namespace cl;

namespace {

// A search over [min, max] for a threshold b (holds from b on), counting the points it asked.
std::pair<std::optional<int>, int> search(int start, int min, int max, int b) {
    BoundarySearch s(start, min, max);
    int asked = 0;
    while (auto x = s.next()) {
        ++asked;
        s.record(*x, *x >= b);
    }
    return {s.boundary(), asked};
}

// Simulates points directly (no store): the trace with each seed's model assignment, scaled to
// the point's load, on the candidate cluster.
struct DirectEvaluator {
    const PlanRequest& request;
    Trace trace;
    ProfileSet profiles;
    std::map<std::tuple<int, std::string, int, double, std::uint64_t>, std::vector<JobRecord>> cache;

    std::vector<JobRecord> jobs(const PlanPoint& p) {
        const auto key = std::make_tuple(p.server_type, p.policy, p.servers, p.load_factor, p.seed);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
        Trace t = trace;
        assignModels(t, profiles.modelNames(), p.seed, /*only_missing=*/false);
        if (p.load_factor != 1.0) t = scaleLoad(t, p.load_factor);
        const Cluster c =
            candidateCluster(request.base, request.server_types[p.server_type], p.servers, request.keep_base);
        SimOptions options;
        SchedulerTuning tuning;
        tuning.seed = p.seed;
        return cache[key] = simulatePolicy(c, t, profiles, p.policy, options, tuning).jobs;
    }
    PlanEvaluator evaluator() {
        return [this](const std::vector<PlanPoint>& points) {
            std::vector<std::optional<std::vector<JobRecord>>> out;
            for (const PlanPoint& p : points) out.push_back(jobs(p));
            return out;
        };
    }
    // Whether the mean over seeds of every target's value meets it, computed here on its own.
    bool meets(int type, const std::string& policy, int servers, double load) {
        for (const PlanTarget& t : request.targets) {
            double sum = 0;
            for (std::uint64_t seed : request.seeds)
                sum +=
                    planTargetValue(t, jobs({type, policy, servers, load, seed}), request.large_above_gpus);
            if (!meetsPlanTarget(t, sum / static_cast<double>(request.seeds.size()))) return false;
        }
        return true;
    }
};

ServerType fourGpuType() {
    ServerType p;
    p.id = "quad";
    p.label = "4-GPU server";
    p.server.gpus = 4;
    p.server.cpu_cores = 12;
    p.server.memory_gb = 250;
    p.server.price.basis = PriceBasis::Hourly;
    p.server.price.per_hour = 2.0;
    return p;
}

Trace smallTrace(std::uint64_t seed, double jobs_per_hour, const ProfileSet& profiles) {
    GeneratorConfig g;
    g.jobs = 40;
    g.seed = seed;
    g.jobs_per_hour = jobs_per_hour;
    g.gpu_weights = parseGpuWeights("1:0.5,2:0.2,4:0.1,8:0.2");
    return generate(g, &profiles);
}

}  // namespace

class TestCapacityPlan : public QObject {
    Q_OBJECT

private slots:
    void boundarySearchFindsEveryThreshold() {
        for (int min : {0, 1})
            for (int max : {1, 2, 7, 20, 64})
                for (int start = min; start <= max; ++start)
                    for (int b = min; b <= max + 1; ++b) {
                        const auto [found, asked] = search(start, min, max, b);
                        if (b > max)
                            QVERIFY2(!found, qPrintable(QString("min %1 max %2 start %3 b %4")
                                                            .arg(min)
                                                            .arg(max)
                                                            .arg(start)
                                                            .arg(b)));
                        else
                            QVERIFY2(found && *found == b, qPrintable(QString("min %1 max %2 start %3 b %4")
                                                                          .arg(min)
                                                                          .arg(max)
                                                                          .arg(start)
                                                                          .arg(b)));
                        // Bracketing and bisection: logarithmic, not a scan.
                        QVERIFY(asked <= 2 * static_cast<int>(std::ceil(std::log2(max - min + 2))) + 2);
                    }
    }

    void saturationEndsASearchWithoutAnswer() {
        BoundarySearch s(4, 1, 1000);
        QCOMPARE(*s.next(), 4);
        s.record(4, false);
        QCOMPARE(*s.next(), 8);
        s.record(8, false, /*saturated=*/true);
        QVERIFY(s.done());
        QVERIFY(!s.boundary());
    }

    void candidateClustersRetypeOrAdd() {
        const Cluster base = test::servers(3, 8);
        const ServerType quad = fourGpuType();
        const Cluster retyped = candidateCluster(base, quad, 5, false);
        QCOMPARE(retyped.servers.size(), std::size_t(5));
        QCOMPARE(retyped.totalGpus(), 20);
        QCOMPARE(clusterCost(retyped).per_hour, 10.0);
        const Cluster added = candidateCluster(base, quad, 2, true);
        QCOMPARE(added.servers.size(), std::size_t(5));
        QCOMPARE(added.totalGpus(), 24 + 8);
        QCOMPARE(clusterCost(added).unpriced_servers, 3);
        QCOMPARE(candidateCluster(base, quad, 0, true).servers.size(), std::size_t(3));
    }

    void baseServerTypeIsTheBasesFirstServer() {
        Cluster base = test::servers(3, 8);
        base.name = "lab";
        base.servers[0].rack = "r1";
        base.servers[0].price.per_hour = 4.5;
        base.servers[1].gpus = 4;  // only the first server names the type
        const ServerType own = baseServerType(base);
        QCOMPARE(own.id, std::string("base"));
        QCOMPARE(own.label, std::string("lab"));
        QVERIFY(own.server.name.empty());
        QVERIFY(own.server.rack.empty());
        Server expected = base.servers[0];
        expected.name.clear();
        expected.rack.clear();
        QVERIFY(own.server == expected);
        // Retyping the base to its own type and keeping its size keeps its servers' hardware.
        const Cluster same = candidateCluster(base, own, 3, false);
        QVERIFY(same.servers[0] == base.servers[0]);
        QCOMPARE(same.servers[2].name, base.servers[2].name);
        QCOMPARE(same.totalGpus(), 24);

        base.servers.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, baseServerType(base));
    }

    void planEqualsExhaustiveSweep_data() {
        QTest::addColumn<quint64>("trace_seed");
        QTest::addColumn<double>("rate");
        QTest::addColumn<QStringList>("targets");
        QTest::newRow("avg queueing") << quint64(3) << 6.0 << QStringList{"avg_queueing<=1h"};
        QTest::newRow("p95 jct and queueing")
            << quint64(5) << 10.0 << QStringList{"p95_jct<=2d", "p95_queueing<=3h"};
        QTest::newRow("large jobs") << quint64(9) << 8.0
                                    << QStringList{"large:avg_jct<=1d", "small:p95_jct<=1d"};
        QTest::newRow("unreachable") << quint64(3) << 6.0 << QStringList{"avg_jct<=1m"};
    }
    void planEqualsExhaustiveSweep() {
        QFETCH(quint64, trace_seed);
        QFETCH(double, rate);
        QFETCH(QStringList, targets);
        const ProfileSet profiles = builtinProfiles("muri");
        PlanRequest r;
        r.base = test::servers(2, 8);
        r.server_types = {*findServerType("v100x8"), fourGpuType()};
        r.policies = {"fifo", "srtf", "muri-s"};
        for (const QString& t : targets) r.targets.push_back(parsePlanTarget(t.toStdString()));
        r.seeds = {1, 2};
        r.max_servers = 12;
        r.large_above_gpus = 4;
        DirectEvaluator eval{r, smallTrace(trace_seed, rate, profiles), profiles, {}};
        for (const Job& j : eval.trace.jobs) r.largest_job_gpus = std::max(r.largest_job_gpus, j.gpus);
        const PlanReport report = planCapacity(r, eval.evaluator());
        if (qEnvironmentVariableIsSet("PLAN_DEBUG")) qInfo("%s", planText(r, report).c_str());
        QVERIFY2(report.error.empty(), report.error.c_str());
        QVERIFY(!report.interrupted);
        QCOMPARE(report.candidates.size(), std::size_t(6));
        int monotone = 0;
        for (const CandidateResult& c : report.candidates) {
            std::optional<int> smallest;
            // A cluster with fewer GPUs than the largest job cannot run the trace at all.
            for (int n = 1; n <= r.max_servers && !smallest; ++n)
                if (candidateCluster(r.base, r.server_types[c.server_type], n, false).totalGpus() >=
                        r.largest_job_gpus &&
                    eval.meets(c.server_type, c.policy, n, 1.0))
                    smallest = n;
            // Where the metric is not monotone the plan may stop above the smallest count, and
            // then it must say so.
            if (c.monotone) ++monotone;
            // Each answer carries its evaluation at the planned load.
            QCOMPARE(c.evaluation.has_value(), c.servers.has_value());
            if (const PlanEvaluation* e = evaluationOf(report, c)) {
                QCOMPARE(e->server_type, c.server_type);
                QCOMPARE(e->policy, c.policy);
                QCOMPARE(e->servers, *c.servers);
                QCOMPARE(e->load_factor, r.load_factor);
            }
            QVERIFY2(
                c.servers == smallest || !c.monotone,
                qPrintable(QString::fromStdString(c.policy) + " on type " + QString::number(c.server_type) +
                           ": plan " + (c.servers ? QString::number(*c.servers) : "none") + ", exhaustive " +
                           (smallest ? QString::number(*smallest) : "none")));
        }
        QVERIFY(monotone >= 4);
        // The traces queue on small clusters: some answer lies above the smallest runnable count.
        if (targets != QStringList{"avg_jct<=1m"}) {
            bool above = false;
            for (const CandidateResult& c : report.candidates)
                above = above || (c.servers && *c.servers > smallestRunnableCount(r, c.server_type));
            QVERIFY(above);
        }
        // The cheapest plan per policy is the cheapest feasible candidate of that policy.
        for (const std::string& p : r.policies) {
            std::optional<double> cheapest;
            for (const CandidateResult& c : report.candidates)
                if (c.policy == p && c.servers) {
                    const double cost = clusterCost(candidateCluster(r.base, r.server_types[c.server_type],
                                                                     *c.servers, false))
                                            .per_month;
                    if (!cheapest || cost < *cheapest) cheapest = cost;
                }
            const auto& plan = report.plans.at(p);
            QCOMPARE(plan.has_value(), cheapest.has_value());
            const nlohmann::ordered_json j = planJson(r, report)["plans"][p];
            QCOMPARE(j["feasible"].get<bool>(), cheapest.has_value());
            if (!cheapest) {
                QVERIFY(!j.contains("servers"));
                continue;
            }
            QCOMPARE(j["cost_per_month"].get<double>(), *cheapest);
        }
        if (targets == QStringList{"avg_jct<=1m"}) {
            QVERIFY(!report.chosen);
            QVERIFY(planText(r, report).find("No candidate meets every target") != std::string::npos);
            for (const CandidateResult& c : report.candidates) QVERIFY(!c.note.empty());
        }
    }

    void headroomEqualsExhaustiveLoadScan() {
        const ProfileSet profiles = builtinProfiles("muri");
        PlanRequest r;
        r.base = test::servers(2, 8);
        r.server_types = {fourGpuType()};
        r.policies = {"srtf"};
        r.targets = {parsePlanTarget("avg_queueing<=2h")};
        r.seeds = {1};
        r.max_servers = 16;
        r.load_factor = 1.25;
        r.headroom_resolution = 0.1;
        r.headroom_max = 4.0;
        DirectEvaluator eval{r, smallTrace(4, 6.0, profiles), profiles, {}};
        for (const Job& j : eval.trace.jobs) r.largest_job_gpus = std::max(r.largest_job_gpus, j.gpus);
        const PlanReport report = planCapacity(r, eval.evaluator());
        QVERIFY(report.chosen);
        QVERIFY(report.headroom.computed);
        const int n = *report.candidates[*report.chosen].servers;
        // Exhaustive: the first load step (of 0.1 x the planned load) at which the plan misses.
        int last_ok = 0;
        for (int k = 1; k <= 30; ++k) {
            const double load = std::round(1.25 * (1.0 + k * 0.1) * 1e9) / 1e9;
            if (!eval.meets(0, "srtf", n, load)) break;
            last_ok = k;
        }
        QCOMPARE(report.headroom.over_planned, 1.0 + last_ok * 0.1);
        QCOMPARE(report.headroom.at_least, last_ok == 30);
        QCOMPARE(report.headroom.load_factor, std::round(1.25 * (1.0 + last_ok * 0.1) * 1e9) / 1e9);
        QCOMPARE(report.headroom.resolution, 0.1);
    }

    void badRequestsAreRefused() {
        PlanRequest r;
        auto none = [](const std::vector<PlanPoint>&) {
            return std::vector<std::optional<std::vector<JobRecord>>>{};
        };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planCapacity(r, none));
        r.server_types = {fourGpuType()};
        r.policies = {"srtf"};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planCapacity(r, none));
        r.targets = {parsePlanTarget("p95_jct<=8h")};
        r.load_factor = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planCapacity(r, none));
    }

    void aFailedSimulationStopsThePlanAndSaysSo() {
        PlanRequest r;
        r.base = test::servers(2, 8);
        r.server_types = {fourGpuType()};
        r.policies = {"srtf"};
        r.targets = {parsePlanTarget("p95_jct<=8h")};
        auto failing = [](const std::vector<PlanPoint>& points) {
            return std::vector<std::optional<std::vector<JobRecord>>>(points.size());
        };
        const PlanReport report = planCapacity(r, failing);
        QVERIFY(report.error.find("did not finish") != std::string::npos);
        QVERIFY(!report.chosen);
    }
};

QTEST_GUILESS_MAIN(TestCapacityPlan)
#include "test_capacity_plan.moc"
