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
#include "error_capture.h"
#include "sim_test_support.h"

using namespace cl;
using cl::test::expectError;
using cl::test::invalidArgument;

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
    std::map<std::tuple<int, std::string, int, double, std::uint64_t>, SimResult> cache;

    const std::vector<JobRecord>& jobs(const PlanPoint& p) { return run(p).jobs; }
    const SimResult& run(const PlanPoint& p) {
        const auto key = std::make_tuple(p.server_type, p.policy, p.servers, p.load_factor, p.seed);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
        Trace t = trace;
        assignModels(t, profiles.modelNames(), p.seed, /*only_missing=*/false);
        if (p.load_factor != 1.0) t = scaleLoad(t, p.load_factor);
        const Cluster c = candidateCluster(request, p.server_type, p.servers);
        SimOptions options;
        options.record_segments = false;
        SchedulerTuning tuning;
        tuning.seed = p.seed;
        return cache[key] = simulatePolicy(c, t, profiles, p.policy, options, tuning);
    }
    PlanEvaluator evaluator() {
        return [this](const std::vector<PlanPoint>& points) {
            std::vector<std::optional<SimResult>> out;
            for (const PlanPoint& p : points) out.push_back(run(p));
            return out;
        };
    }
    // Whether the mean over seeds of every target's value meets it, computed here on its own,
    // and the candidate keeps up with the arrivals (the mean drain share within the limit).
    bool meets(int type, const std::string& policy, int servers, double load) {
        // The test's servers are all of the reference GPU: capacity in reference GPUs is the GPUs.
        const int gpus =
            candidateCluster(request.base, request.server_types[type], servers, request.keep_base)
                .totalGpus();
        double drain = 0;
        bool assessed = true;
        for (std::uint64_t seed : request.seeds) {
            const PlanLoadCheck check = overloadCheck(run({type, policy, servers, load, seed}), gpus, 1.0);
            drain += check.drain_share;
            assessed = assessed && check.assessed;
        }
        if (assessed && drain / static_cast<double>(request.seeds.size()) > request.overload_drain_share)
            return false;
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

// 400 small jobs arriving steadily over two days: 4 to 7 four-GPU servers are overloaded.
Trace steadyTrace(const ProfileSet& profiles) {
    GeneratorConfig g;
    g.jobs = 400;
    g.seed = 7;
    g.jobs_per_hour = 8.0;
    g.gpu_weights = parseGpuWeights("1:0.7,2:0.2,4:0.1");
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
        int neighbour_batches = 0;
        const PlanReport report = planCapacity(r, eval.evaluator(), [&](const PlanProgress& p) {
            neighbour_batches += p.phase == "neighbours";
        });
        if (qEnvironmentVariableIsSet("PLAN_DEBUG")) qInfo("%s", planText(r, report).c_str());
        QVERIFY2(report.error.empty(), report.error.c_str());
        QVERIFY(!report.interrupted);
        QCOMPARE(report.candidates.size(), std::size_t(6));
        // A finished search's neighbours were evaluated in the batches of the searches still
        // running: a batch of neighbours alone comes only when an answer moved down.
        bool moved = false;
        for (const CandidateResult& c : report.candidates) {
            moved = moved || c.note.find("meet the targets although") != std::string::npos;
            if (!c.servers) continue;
            for (int n = std::max(smallestRunnableCount(r, c.server_type), *c.servers - 2);
                 n <= std::min(r.max_servers, *c.servers + 1); ++n)
                QVERIFY(std::any_of(
                    report.evaluations.begin(), report.evaluations.end(), [&](const PlanEvaluation& e) {
                        return e.server_type == c.server_type && e.policy == c.policy && e.servers == n;
                    }));
        }
        if (!moved) QCOMPARE(neighbour_batches, 0);
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

    // SRTF starts every job soon and then starves the long ones: on an overloaded cluster its
    // first-start metric passes while the backlog grows for the whole trace. Such a count is
    // refused with the figures, and the slowdown sees the starvation the queueing misses.
    void anOverloadedCandidateIsRefusedAlthoughSrtfPassesFirstStart() {
        const ProfileSet profiles = builtinProfiles("muri");
        PlanRequest r;
        r.base = test::servers(1, 4);
        r.server_types = {fourGpuType()};
        r.policies = {"srtf"};
        r.targets = {parsePlanTarget("p95_queueing<=1h")};
        r.max_servers = 16;
        DirectEvaluator eval{r, steadyTrace(profiles), profiles, {}};
        for (const Job& j : eval.trace.jobs) r.largest_job_gpus = std::max(r.largest_job_gpus, j.gpus);
        // 4 to 7 servers start 95% of the jobs at once, yet their backlog at the last arrival
        // takes more than a tenth of the arrival window to drain; the slowdown sees it.
        const PlanTarget slowdown = parsePlanTarget("p95_slowdown<=2");
        for (int n = 4; n <= 7; ++n) {
            const SimResult& run = eval.run({0, "srtf", n, 1.0, 1});
            QVERIFY(meetsPlanTarget(r.targets[0], planTargetValue(r.targets[0], run.jobs, 8)));
            const PlanLoadCheck l = overloadCheck(run, 4 * n, r.overload_drain_share);
            QVERIFY(l.assessed);
            QVERIFY2(l.overloaded && l.drain_share > 0.1, qPrintable(QString::number(n)));
            QVERIFY(planTargetValue(slowdown, run.jobs, 8) >
                    planTargetValue(slowdown, eval.run({0, "srtf", 12, 1.0, 1}).jobs, 8) + 0.02);
        }
        const PlanReport report = planCapacity(r, eval.evaluator());
        const CandidateResult& c = report.candidates.at(0);
        QVERIFY(c.servers);
        std::optional<int> smallest;
        for (int n = 1; n <= 16 && !smallest; ++n)
            if (eval.meets(0, "srtf", n, 1.0)) smallest = n;
        QCOMPARE(c.servers, smallest);
        QVERIFY(*c.servers > 7);
        QVERIFY2(c.note.find("7 servers are overloaded") != std::string::npos, c.note.c_str());
        const PlanEvaluation* e = evaluationOf(report, c);
        QVERIFY(e->load.assessed && !e->load.overloaded);
        QVERIFY(e->load.drain_share <= r.overload_drain_share);
        // No overloaded point is on the frontier, however good its first-start metric.
        for (std::size_t i : report.frontier) QVERIFY(!report.evaluations[i].load.overloaded);
        const std::string text = planText(r, report);
        QVERIFY2(text.find("Load: ") != std::string::npos, text.c_str());
        QVERIFY(text.find("overloaded") != std::string::npos);
        // The headroom starts from the stable answer and ends where the backlog grows too large.
        QVERIFY(report.headroom.computed && !report.headroom.at_least);
        for (const PlanEvaluation& h : report.headroom_scan)
            if (h.load_factor <= report.headroom.load_factor) QVERIFY(!h.load.overloaded);
    }

    // Checking every count below each answer makes it equal an exhaustive sweep even where a
    // metric rises with capacity (FIFO's median JCT can); by default the answer either equals
    // the sweep or says which counts it verified, and a non-monotone note names a count that
    // meets and a larger one that misses.
    void everyCountCheckedEqualsTheExhaustiveSweep() {
        const ProfileSet profiles = builtinProfiles("muri");
        int differed = 0, non_monotone = 0;
        for (quint64 trace_seed = 1; trace_seed <= 10; ++trace_seed)
            for (const char* target :
                 {"median_jct<=30m", "median_jct<=1h", "median_jct<=2h", "p95_queueing<=2h", "p99_jct<=1d"}) {
                PlanRequest r;
                r.base = test::servers(2, 8);
                r.server_types = {fourGpuType()};
                r.policies = {"fifo", "srtf"};
                r.targets = {parsePlanTarget(target)};
                r.max_servers = 16;
                DirectEvaluator eval{r, smallTrace(trace_seed, 8.0, profiles), profiles, {}};
                for (const Job& j : eval.trace.jobs)
                    r.largest_job_gpus = std::max(r.largest_job_gpus, j.gpus);
                const PlanReport quick = planCapacity(r, eval.evaluator());
                r.verify_below = kVerifyEveryCount;
                const PlanReport full = planCapacity(r, eval.evaluator());
                for (std::size_t i = 0; i < full.candidates.size(); ++i) {
                    const CandidateResult& c = full.candidates[i];
                    const CandidateResult& q = quick.candidates[i];
                    std::optional<int> smallest;
                    for (int n = smallestRunnableCount(r, 0); n <= r.max_servers && !smallest; ++n)
                        if (eval.meets(0, c.policy, n, 1.0)) smallest = n;
                    const QString what = QString("trace %1 %2 %3: quick %4 full %5 exhaustive %6")
                                             .arg(trace_seed)
                                             .arg(target)
                                             .arg(QString::fromStdString(c.policy))
                                             .arg(q.servers ? *q.servers : -1)
                                             .arg(c.servers ? *c.servers : -1)
                                             .arg(smallest ? *smallest : -1);
                    QVERIFY2(c.servers == smallest, qPrintable(what));
                    if (c.servers) QVERIFY2(c.exhaustive, qPrintable(what));
                    QVERIFY2(q.servers == smallest || (q.servers && !q.exhaustive), qPrintable(what));
                    if (q.servers && !q.exhaustive)
                        QVERIFY(q.verified_from == *q.servers - 2 || q.verified_from > *q.servers - 2);
                    if (q.servers != smallest) ++differed;
                    if (!c.monotone) ++non_monotone;
                    // "X servers meet the targets although Y miss them": X meets, Y > X misses.
                    for (const CandidateResult* x : {&c, &q}) {
                        const std::string& note = x->note;
                        for (std::size_t at = note.find(" servers meet the targets although ");
                             at != std::string::npos;
                             at = note.find(" servers meet the targets although ", at + 1)) {
                            const int meets = std::stoi(note.substr(note.rfind(' ', at - 1) + 1));
                            const int misses = std::stoi(note.substr(at + 35));
                            QVERIFY2(meets < misses, note.c_str());
                            QVERIFY2(eval.meets(0, c.policy, meets, 1.0), note.c_str());
                            QVERIFY2(!eval.meets(0, c.policy, misses, 1.0), note.c_str());
                        }
                    }
                }
            }
        qInfo("quick answers that differ from the sweep: %d; non-monotone candidates: %d", differed,
              non_monotone);
        QVERIFY(non_monotone > 0);
    }

    // Prices on two bases rank unlike costs: refused unless mixed knowingly. With an unpriced
    // type nothing is called cheapest: candidates rank by GPU count, and the report says so.
    void pricesRankOnOneBasisOrByGpus() {
        const ProfileSet profiles = builtinProfiles("muri");
        PlanRequest r;
        r.base = test::servers(2, 8);
        r.server_types = {*findServerType("v100x8"), *findServerType("dgx-1")};
        r.policies = {"srtf"};
        r.targets = {parsePlanTarget("p95_queueing<=2h")};
        r.max_servers = 12;
        DirectEvaluator eval{r, smallTrace(3, 6.0, profiles), profiles, {}};
        for (const Job& j : eval.trace.jobs) r.largest_job_gpus = std::max(r.largest_job_gpus, j.gpus);
        expectError(
            invalidArgument([&] { planCapacity(r, eval.evaluator()); }),
            {"prices on two bases: v100x8 at a cloud rental price, dgx-1 at an amortized purchase price",
             "--mix-price-bases"});
        r.mix_price_bases = true;
        const PlanReport mixed = planCapacity(r, eval.evaluator());
        QVERIFY(!mixed.ranked_by_gpus);
        QVERIFY(mixed.ranking_note.find("(--mix-price-bases)") != std::string::npos);
        QVERIFY(planText(r, mixed).find("Ranking: ranked across prices on two bases") != std::string::npos);

        // The base's own servers have no price: ranked by GPUs.
        r.server_types = {baseServerType(r.base), fourGpuType()};
        r.mix_price_bases = false;
        const PlanReport unpriced = planCapacity(r, eval.evaluator());
        QVERIFY(unpriced.ranked_by_gpus);
        QVERIFY(unpriced.chosen);
        const std::string text = planText(r, unpriced);
        QVERIFY2(text.find("Smallest plan by GPU count: ") != std::string::npos, text.c_str());
        QVERIFY(text.find("Cheapest") == std::string::npos);
        QVERIFY(text.find("base has no price") != std::string::npos);
        // The chosen plan has the fewest GPUs of all candidates' answers.
        const int chosen_gpus = evaluationOf(unpriced, unpriced.candidates[*unpriced.chosen])->gpus;
        for (const CandidateResult& c : unpriced.candidates)
            if (c.servers) QVERIFY(evaluationOf(unpriced, c)->gpus >= chosen_gpus);
        QCOMPARE(planJson(r, unpriced)["ranked_by"].get<std::string>(), std::string("gpus"));
        r.budget_per_month = 1000;
        expectError(invalidArgument([&] { planCapacity(r, eval.evaluator()); }), {"a budget needs prices"});
    }

    // A heterogeneous, partitioned base keeps its shape: candidates add servers of a type to it
    // (to one partition with grow_partition), named by what changed, and the plan says why.
    void aHeterogeneousBaseIsKept() {
        Cluster base = test::servers(3, 8);
        base.name = "lab";
        base.servers[2].gpu_type = "A100";
        base.servers[0].partitions = {"cpu", "gpu"};
        base.servers[1].partitions = {"gpu"};
        base.servers[2].partitions = {"gpu"};
        QCOMPARE(baseShapeReason(base), std::string("2 kinds of server in 2 partitions"));
        QVERIFY(baseShapeReason(test::servers(3, 8)).empty());
        PlanRequest r;
        r.base = base;
        r.server_types = {fourGpuType()};
        QVERIFY(addsToBase(r));
        const Cluster all = candidateCluster(r, 0, 2);
        QCOMPARE(all.name, std::string("lab + 2 x quad"));
        QCOMPARE(all.servers.size(), std::size_t(5));
        for (std::size_t k = 0; k < 3; ++k) QVERIFY(all.servers[k] == base.servers[k]);
        QCOMPARE(all.servers[4].partitions, (std::vector<std::string>{"cpu", "gpu"}));
        r.grow_partition = "gpu";
        const Cluster grown = candidateCluster(r, 0, 6);
        QCOMPARE(grown.name, std::string("lab + 6 x quad in gpu"));
        QCOMPARE(grown.servers.back().partitions, (std::vector<std::string>{"gpu"}));
        r.grow_partition = "tpu";
        expectError(invalidArgument([&] { candidateCluster(r, 0, 1); }), {"has no partition 'tpu' to grow"});
        r.grow_partition = "gpu";
        // The plan adds to the base: its answer may be 0 servers, every candidate holds the base.
        const ProfileSet profiles = builtinProfiles("muri");
        r.policies = {"srtf"};
        r.targets = {parsePlanTarget("p95_queueing<=1h")};
        r.max_servers = 12;
        DirectEvaluator eval{r, smallTrace(3, 6.0, profiles), profiles, {}};
        for (const Job& j : eval.trace.jobs) r.largest_job_gpus = std::max(r.largest_job_gpus, j.gpus);
        const PlanReport report = planCapacity(r, eval.evaluator());
        QVERIFY2(report.error.empty(), report.error.c_str());
        for (const PlanEvaluation& e : report.evaluations) QCOMPARE(e.gpus, 24 + 4 * e.servers);
        const std::string text = planText(r, report);
        QVERIFY2(text.find("Candidates add servers to the base lab (2 kinds of server in 2 partitions)") !=
                     std::string::npos,
                 text.c_str());
        QVERIFY(text.find("in partition gpu") != std::string::npos);
    }

    // A run told to stop once overload is established stops with a note, its verdict the same
    // as the whole run's; a run that keeps up is unchanged by it.
    void anOverloadedRunStopsEarly() {
        const ProfileSet profiles = builtinProfiles("muri");
        const Trace trace = steadyTrace(profiles);
        for (int n : {4, 12}) {
            const Cluster c = test::servers(n, 4);
            SimOptions whole;
            whole.record_segments = false;
            SimOptions stopping = whole;
            stopping.stop_when_overloaded = 0.1;
            const SimResult full = simulatePolicy(c, trace, profiles, "srtf", whole, {});
            const SimResult early = simulatePolicy(c, trace, profiles, "srtf", stopping, {});
            const PlanLoadCheck a = overloadCheck(full, 4.0 * n, 0.1), b = overloadCheck(early, 4.0 * n, 0.1);
            QCOMPARE(b.overloaded, a.overloaded);
            QCOMPARE(b.stopped_early, a.overloaded);
            if (a.overloaded) {
                QVERIFY(early.notes.back().rfind(kStoppedOverloadedNote, 0) == 0);
                QVERIFY(early.events < full.events);
                QVERIFY(early.summary.completed < full.summary.completed);
            } else {
                QCOMPARE(early.events, full.events);
                QCOMPARE(early.summary.avg_jct, full.summary.avg_jct);
            }
        }
    }

    void aQueueOnlySeriesHasTheSameQueueAndUtilisation() {
        // What a plan's points record (SimOptions::series_queue_only) is the full series' queue,
        // running jobs and GPU utilisation at every event, exclusive or sharing GPUs.
        const ProfileSet profiles = builtinProfiles("muri");
        const Trace trace = steadyTrace(profiles);
        for (const char* policy : {"srtf", "fifo", "muri-s"}) {
            SimOptions full;
            full.record_segments = false;
            SimOptions lite = full;
            lite.series_queue_only = true;
            const SimResult a = simulatePolicy(test::servers(6, 4), trace, profiles, policy, full, {});
            const SimResult b = simulatePolicy(test::servers(6, 4), trace, profiles, policy, lite, {});
            QCOMPARE(b.series.size(), a.series.size());
            for (std::size_t i = 0; i < a.series.size(); ++i) {
                QCOMPARE(b.series[i].t, a.series[i].t);
                QCOMPARE(b.series[i].queue_length, a.series[i].queue_length);
                QCOMPARE(b.series[i].running_jobs, a.series[i].running_jobs);
                QCOMPARE(b.series[i].gpu_utilization, a.series[i].gpu_utilization);
                QVERIFY(std::isnan(b.series[i].cpu_utilization));
            }
            QCOMPARE(b.summary.avg_jct, a.summary.avg_jct);
        }
    }

    void aRunStopsOnceATargetIsSureToBeMissed() {
        // For each metric and threshold, a run that stops as soon as the target is sure to be
        // missed stops exactly when the whole run misses it, and otherwise is the whole run.
        const ProfileSet profiles = builtinProfiles("muri");
        const Trace trace = steadyTrace(profiles);
        int stopped = 0;
        for (int n : {3, 6, 12}) {
            const Cluster c = test::servers(n, 4);
            SimOptions whole;
            whole.record_segments = false;
            const SimResult full = simulatePolicy(c, trace, profiles, "fifo", whole, {});
            for (const char* metric : {"p95_queueing", "median_jct", "p95_jct", "p99_jct"})
                for (const char* limit : {"1m", "30m", "2h", "8h", "1d"}) {
                    const PlanTarget target = parsePlanTarget(std::string(metric) + "<=" + limit);
                    const bool missed = !meetsPlanTarget(target, planTargetValue(target, full.jobs, 8));
                    SimOptions stopping = whole;
                    stopping.stop_when_missed = {{metric, target.value_s}};
                    const SimResult early = simulatePolicy(c, trace, profiles, "fifo", stopping, {});
                    const bool stopped_here =
                        !early.notes.empty() && early.notes.back().rfind(kStoppedTargetMissedNote, 0) == 0;
                    QVERIFY2(stopped_here == missed,
                             qPrintable(QString("%1 servers, %2").arg(n).arg(target.text.c_str())));
                    if (missed) {
                        QVERIFY(early.events <= full.events);
                        stopped += early.events < full.events;
                    } else {
                        QCOMPARE(early.events, full.events);
                        QCOMPARE(early.summary.avg_jct, full.summary.avg_jct);
                    }
                }
        }
        QVERIFY(stopped > 10);  // most misses are known well before the end
        // A metric the engine cannot bound is refused, naming it.
        SimOptions bad;
        bad.stop_when_missed = {{"avg_jct", 3600}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 simulatePolicy(test::servers(3, 4), trace, profiles, "fifo", bad, {}));
    }

    void badRequestsAreRefused() {
        PlanRequest r;
        auto none = [](const std::vector<PlanPoint>&) { return std::vector<std::optional<SimResult>>{}; };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planCapacity(r, none));
        r.server_types = {fourGpuType()};
        r.policies = {"srtf"};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planCapacity(r, none));
        r.targets = {parsePlanTarget("p95_jct<=8h")};
        r.load_factor = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, planCapacity(r, none));
        // A target on a size class the trace has no job of is refused before any simulation.
        r.load_factor = 1;
        r.largest_job_gpus = 8;
        r.targets = {parsePlanTarget("large:p95_jct<=8h")};
        int asked = 0;
        auto counting = [&](const std::vector<PlanPoint>& points) {
            asked += static_cast<int>(points.size());
            return std::vector<std::optional<SimResult>>(points.size());
        };
        expectError(
            invalidArgument([&] { planCapacity(r, counting); }),
            {"'large:p95_jct<=8h'", "the trace has no large job (more than 8 GPUs; its largest asks for 8)"});
        r.smallest_job_gpus = 16;
        r.largest_job_gpus = 32;
        r.targets = {parsePlanTarget("small:avg_jct<=1h")};
        expectError(invalidArgument([&] { planCapacity(r, counting); }), {"the trace has no small job"});
        QCOMPARE(asked, 0);
    }

    void aFailedSimulationStopsThePlanAndSaysSo() {
        PlanRequest r;
        r.base = test::servers(2, 8);
        r.server_types = {fourGpuType()};
        r.policies = {"srtf"};
        r.targets = {parsePlanTarget("p95_jct<=8h")};
        auto failing = [](const std::vector<PlanPoint>& points) {
            return std::vector<std::optional<SimResult>>(points.size());
        };
        const PlanReport report = planCapacity(r, failing);
        QVERIFY(report.error.find("did not finish") != std::string::npos);
        QVERIFY(!report.chosen);
    }
};

QTEST_GUILESS_MAIN(TestCapacityPlan)
#include "test_capacity_plan.moc"
