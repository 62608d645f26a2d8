// The Muri mechanism: groups share GPUs only with jobs of the same GPU count and at most
// max-group-size of them; invariants on every run; behaviour of the presets.
#include <QtTest>

#include "shared_data.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "core/interleave/group_time.h"
#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "core/io/trace_readers.h"
#include "core/matching/max_weight_matching.h"
#include "core/matching/type_compressed_matching.h"
#include "core/policies/muri_grouping.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/simulator.h"
#include "core/util/portable_random.h"
#include "core/util/stable_sort_by_key.h"
#include "core/workload/trace_generator.h"

using namespace cl;

namespace {

const std::string kMuri = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/muri-traces";

// At every instant: jobs on one GPU <= cap, all of them with the same GPU count; each job
// computes its work; no job starts before it is submitted.
void checkSharing(const Cluster& cluster, const SimResult& r, int cap) {
    const QString what = QString::fromStdString(r.policy + " / " + r.conventions);
    std::vector<std::vector<const GpuSegment*>> per_gpu(cluster.totalGpus());
    for (const auto& s : r.segments) per_gpu[s.gpu].push_back(&s);
    for (auto& segs : per_gpu) {
        std::vector<std::pair<double, int>> sweep;  // (time, +1/-1) with the job's GPU count
        for (const auto* s : segs) {
            sweep.push_back({s->t0, 1});
            sweep.push_back({s->t1, -1});
        }
        std::sort(sweep.begin(), sweep.end());  // ends (-1) before starts at equal times
        int load = 0;
        for (const auto& [t, d] : sweep) {
            load += d;
            QVERIFY2(load <= cap, qPrintable(what + ": more jobs on a GPU than the group cap"));
        }
        for (std::size_t i = 0; i < segs.size(); ++i)
            for (std::size_t k = i + 1; k < segs.size(); ++k)
                if (segs[i]->t0 < segs[k]->t1 && segs[k]->t0 < segs[i]->t1)
                    QVERIFY2(r.jobs[segs[i]->job].gpus == r.jobs[segs[k]->job].gpus,
                             qPrintable(what + ": a group mixes GPU counts"));
    }
    for (const auto& j : r.jobs) {
        QVERIFY2(j.completed, qPrintable(what));
        QVERIFY2(j.first_start >= j.submit, qPrintable(what));
    }
}

Trace generated(int jobs, std::uint64_t seed, double rate, const ProfileSet& profiles) {
    GeneratorConfig g;
    g.jobs = jobs;
    g.seed = seed;
    g.jobs_per_hour = rate;
    g.max_gpus = 16;
    return generate(g, &profiles);
}

double avgJct(const Cluster& c, const Trace& t, const ProfileSet& p, const std::string& policy,
              const Conventions& conv) {
    SimOptions o;
    o.conventions = conv;
    o.record_segments = false;
    return simulatePolicy(c, t, p, policy, o).summary.avg_jct;
}

// A 1-GPU cluster: jobs that run at the same time must interleave.
Cluster oneGpu() {
    Cluster c;
    c.name = "one-gpu";
    Server s;
    s.name = "s0";
    s.gpus = 1;
    c.servers.push_back(s);
    return c;
}

// A one-GPU job that loads for 0.5 s and computes for 0.5 s per iteration (no network stage),
// 1 s per iteration alone: two or more of them interleave.
Job halfAndHalf(const std::string& id, double submit, double iterations) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = 1;
    j.iterations = iterations;
    j.solo_iteration_time = 1.0;
    j.stage_times = {0.5, 0.5, 0.0};
    return j;
}

// Clean conventions without the solo factor: a job alone takes exactly 1 s per iteration.
SimOptions cleanWithoutSoloFactor() {
    SimOptions o;
    o.conventions.solo_factor = 1.0;
    return o;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

}  // namespace

class TestMuri : public QObject {
    Q_OBJECT

private slots:
    // The ranking's adaptive sort gives std::stable_sort's order: on shuffled lists, on nearly
    // sorted ones (the last ranking with a few keys moved) and on lists with many ties.
    void adaptiveStableSortEqualsStdStableSort() {
        struct Entry {
            double key = 0.0;
            int tie = 0;
            int id = 0;
        };
        const auto less = [](const Entry& a, const Entry& b) {
            return a.key < b.key || (a.key == b.key && a.tie < b.tie);
        };
        std::vector<Entry> buffer;
        for (int instance = 0; instance < 300; ++instance) {
            PortableRng rng(deriveSeed(77, static_cast<std::uint64_t>(instance)));
            const int n = static_cast<int>(rng.below(3000));
            const int distinct_keys = 1 + static_cast<int>(rng.below(instance % 3 == 0 ? 5 : 100000));
            std::vector<Entry> v(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i)
                v[i] = {static_cast<double>(rng.below(distinct_keys)), -static_cast<int>(rng.below(4)), i};
            if (instance % 2 == 1) {  // nearly sorted: sorted, then a few entries moved
                std::stable_sort(v.begin(), v.end(), less);
                for (int moved = 0; moved < 5 && n > 0; ++moved)
                    v[rng.below(n)].key = rng.below(distinct_keys);
            }
            std::vector<Entry> expected = v;
            std::stable_sort(expected.begin(), expected.end(), less);
            stableSortBy(v, buffer, less);
            for (int i = 0; i < n; ++i) QCOMPARE(v[i].id, expected[i].id);
        }
    }

    // The radix sort of (key, id) pairs orders as std::stable_sort by key: ties (a negative
    // zero equal to zero among them) keep their order, negative keys and infinities included.
    void radixSortByKeyEqualsStdStableSort() {
        std::vector<KeyedId> buffer;
        const double specials[] = {0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   1e-300,
                                   -1e300,
                                   std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(),
                                   3600.5,
                                   0.1 + 0.2};
        for (int instance = 0; instance < 300; ++instance) {
            PortableRng rng(deriveSeed(78, static_cast<std::uint64_t>(instance)));
            const int n = static_cast<int>(rng.below(2000));
            std::vector<KeyedId> v(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                double key = 0.0;
                switch (instance % 3) {
                    case 0:  // few distinct keys: many ties
                        key = specials[rng.below(std::size(specials))];
                        break;
                    case 1:  // anything, both signs, 18 decades
                        key = (rng.uniform01() - 0.5) * std::pow(10.0, static_cast<double>(rng.below(18)));
                        break;
                    default:  // remaining times: positive, with repeats
                        key = static_cast<double>(rng.below(500)) * 7.25;
                }
                v[i] = {key, i};
            }
            std::vector<KeyedId> expected = v;
            std::stable_sort(expected.begin(), expected.end(), keyLess);
            radixSortByKey(v, buffer);
            for (int i = 0; i < n; ++i) QCOMPARE(v[i].second, expected[i].second);
        }
    }

    void presetsAreKnown() {
        auto presets = presetNames();
        for (const char* p : {"muri-s", "muri-l", "muri-l-worst-order", "muri-l-no-blossom", "muri-l-k2",
                              "muri-l-k3", "muri-l-k4"})
            QVERIFY2(std::find(presets.begin(), presets.end(), p) != presets.end(), p);
        QVERIFY(makeScheduler("srtf+muri", Conventions::clean()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeScheduler("tiresias+muri", Conventions::clean()));
        QVERIFY(makeScheduler("muri-l-noise=0.2", Conventions::clean()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 makeScheduler("muri-l-noise=1.5", Conventions::clean()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 makeScheduler("muri-l-noise=abc", Conventions::clean()));
    }

    void groupsNeverMixGpuCountsNorExceedTheCap() {
        ProfileSet profiles = builtinProfiles();
        Trace t = generated(300, 5, 120, profiles);
        Cluster c = builtinCluster("muri-testbed-64");
        for (const Conventions& conv : {Conventions::clean(), Conventions::muriArtifact()}) {
            for (const auto& [policy, cap] :
                 std::vector<std::pair<std::string, int>>{{"muri-s", 4},
                                                          {"muri-l", 4},
                                                          {"muri-l-k2", 2},
                                                          {"muri-l-k3", 3},
                                                          {"muri-l-no-blossom", 4},
                                                          {"muri-l-worst-order", 4},
                                                          {"muri-l-noise=0.3", 4}}) {
                SimOptions o;
                o.conventions = conv;
                SimResult r = simulatePolicy(c, t, profiles, policy, o);
                checkSharing(c, r, cap);
            }
        }
    }

    void groupingStopsOnceTheCandidatesFit() {
        // 4 one-GPU candidates of two complementary types on a 2-GPU cluster: one round of
        // matching pairs them up; on a 4-GPU cluster nobody is grouped.
        ProfileSet profiles = builtinProfiles();
        MuriGroupTimer timer{Contention{}};
        const auto* a2c = profiles.find("a2c")->at(1);
        const auto* gpt2 = profiles.find("gpt2")->at(1);
        int ta = timer.typeOf(a2c->stage_times, a2c->solo_iteration_time * 1.015);
        int tg = timer.typeOf(gpt2->stage_times, gpt2->solo_iteration_time * 1.015);
        MuriBucket bucket{1, {{0, ta}, {1, ta}, {2, tg}, {3, tg}}};
        MuriGroupingOptions opts;
        auto two = groupCandidates({bucket}, {2}, 2, opts, timer);
        QCOMPARE(two.size(), std::size_t(2));
        for (const auto& g : two) {
            QCOMPARE(g.members.size(), std::size_t(2));
            // Complementary profiles pair up: one a2c (CPU-heavy) with one gpt2 (GPU-heavy).
            QVERIFY(bucket.candidates[g.members[0]].type != bucket.candidates[g.members[1]].type);
        }
        auto four = groupCandidates({bucket}, {4}, 4, opts, timer);
        QCOMPARE(four.size(), std::size_t(4));
        // Type-compressed and full-graph paths group the same way here.
        MuriGroupingOptions full = opts;
        full.force_full_graph = true;
        MuriGroupingOptions compressed = opts;
        compressed.force_type_compressed = true;
        QCOMPARE(groupCandidates({bucket}, {2}, 2, full, timer).size(),
                 groupCandidates({bucket}, {2}, 2, compressed, timer).size());
    }

    // A grouper kept across events (as the scheduler keeps it) answers rounds whose nodes
    // repeat the last round of their GPU count and number with that round's mates. Over 300
    // events whose buckets change as a queue does (one candidate joins or leaves one bucket,
    // the others stay), it groups exactly as a fresh grouper per event, and most rounds are
    // such repeats.
    void keptGrouperEqualsFreshGrouperPerEvent() {
        ProfileSet profiles = builtinProfiles();
        std::vector<std::string> models = profiles.modelNames();
        MuriGroupTimer timer{Contention{}};
        PortableRng rng(deriveSeed(2026, 11));
        const auto randomType = [&](int gpus) {
            const auto* p = profiles.find(models[rng.below(models.size())])->at(gpus);
            return timer.typeOf(p->stage_times, p->solo_iteration_time * 1.015);
        };
        std::vector<MuriBucket> buckets = {{1, {}}, {2, {}}, {4, {}}};
        int next_job = 0;
        for (auto& b : buckets)
            for (int i = 0; i < 60; ++i) b.candidates.push_back({next_job++, randomType(b.gpus)});
        MuriGroupingOptions options;
        MuriGrouper kept;
        const auto flat = [](const MuriGrouping& g) {
            std::vector<std::vector<int>> out;
            for (const auto& group : g.groups) {
                const auto m = g.membersOf(group);
                out.emplace_back(m.begin(), m.end());
                out.back().push_back(group.bucket);
            }
            return out;
        };
        for (int event = 0; event < 300; ++event) {
            MuriBucket& b = buckets[rng.below(buckets.size())];
            const auto at = static_cast<std::ptrdiff_t>(rng.below(b.candidates.size() + 1));
            if (rng.below(2) == 0 && b.candidates.size() > 2)
                b.candidates.erase(b.candidates.begin() +
                                   std::min<std::ptrdiff_t>(at, b.candidates.size() - 1));
            else
                b.candidates.insert(b.candidates.begin() + at, {next_job++, randomType(b.gpus)});
            const std::vector<int> slot_counts(buckets.size(), 1);
            const int cluster_gpus = 64;  // the candidates need more: two rounds of merges
            MuriGrouper fresh;
            const auto expected = flat(fresh.group(buckets, slot_counts, cluster_gpus, options, timer));
            QCOMPARE(flat(kept.group(buckets, slot_counts, cluster_gpus, options, timer)), expected);
        }
        QVERIFY(kept.repeatedRounds() > kept.solvedRounds() + kept.cacheHits());
    }

    // 100 random candidate sets drawn from the built-in profiles (model and GPU count): the
    // type-compressed solver and LEMON on the full graph reach the same total weight.
    void typeCompressedEqualsLemonOnBuiltinProfiles() {
        ProfileSet profiles = builtinProfiles();
        std::vector<std::string> models = profiles.modelNames();
        const int gpu_counts[] = {1, 2, 4, 8, 16, 32};
        for (int instance = 0; instance < 100; ++instance) {
            PortableRng rng(deriveSeed(2024, instance));
            MuriGroupTimer timer{Contention{}};
            int gpus = gpu_counts[rng.below(6)];
            int n = 2 + static_cast<int>(rng.below(120));
            std::vector<int> type(n);
            for (int i = 0; i < n; ++i) {
                const auto* p = profiles.find(models[rng.below(models.size())])->at(gpus);
                type[i] = timer.typeOf(p->stage_times, p->solo_iteration_time * 1.015);
            }
            auto weight = [&](int a, int b) {
                std::vector<int> pair = {a, b};
                return fixedPointWeight(timer.efficiency(pair, false));
            };
            std::vector<WeightedEdge> edges;
            for (int u = 0; u < n; ++u)
                for (int v = u + 1; v < n; ++v)
                    if (auto w = weight(type[u], type[v]); w > 0) edges.push_back({u, v, w});
            std::int64_t lemon = matchingWeight(maxWeightMatching(n, edges), edges);
            int types = 0;
            for (int t : type) types = std::max(types, t + 1);
            std::vector<int> counts(types, 0);
            for (int t : type) ++counts[t];
            TypeMatchingResult compressed = typeCompressedMatching(counts, weight);
            QCOMPARE(compressed.total_weight, lemon);
        }
    }

    // Groups of 2, 3 and 4 half-and-half jobs on one GPU, all submitted at 0, 100 iterations
    // each, 10 s restart overhead each (a group pays the sum of its members'). Stage-derived
    // group times, by hand (docs/architecture.md section 4.5):
    //  - 2 jobs: the split pair T' = max(0.5, 0.5 + 0) + max(0.5, 0.5 + 0) = 1.0, shorter than
    //    the slot rule's 1.5;
    //  - 3 jobs: the slot rule gives f1..f5 = 0.5, 0.5, 1.0, 1.5, 2.0, so T = f5 - f1 = 1.5;
    //  - 4 jobs: f1..f5 = 0.5, 1.0, 1.5, 2.0, 2.5, so T = 2.0 (the GPU is never idle).
    // Each is multiplied by the paper's contention factor of its size: 1.33, 1.5 and 1.37, each
    // divided by 1.015. Every member ends at (sum of overheads) + 100 x that time.
    void groupsRunAtTheContentionScaledStageTime_data() {
        QTest::addColumn<int>("jobs");
        QTest::addColumn<double>("stage_time");
        QTest::addColumn<double>("factor");
        QTest::newRow("2 jobs") << 2 << 1.0 << 1.33 / 1.015;
        QTest::newRow("3 jobs") << 3 << 1.5 << 1.5 / 1.015;
        QTest::newRow("4 jobs") << 4 << 2.0 << 1.37 / 1.015;
    }
    void groupsRunAtTheContentionScaledStageTime() {
        QFETCH(int, jobs);
        QFETCH(double, stage_time);
        QFETCH(double, factor);
        Trace t;
        for (int i = 0; i < jobs; ++i) t.jobs.push_back(halfAndHalf("j" + std::to_string(i), 0, 100));
        ProfileSet p;
        p.default_restart_overhead = 10;
        for (const char* policy : {"muri-l", "muri-s"}) {
            const SimResult r = simulatePolicy(oneGpu(), t, p, policy, cleanWithoutSoloFactor());
            const double expected = 10.0 * jobs + 100 * stage_time * factor;
            for (const JobRecord& j : r.jobs) {
                QVERIFY2(near(j.jct, expected), qPrintable(QStringLiteral("%1 %2: JCT %3, expected %4")
                                                               .arg(policy, QString::fromStdString(j.id))
                                                               .arg(j.jct, 0, 'g', 17)
                                                               .arg(expected, 0, 'g', 17)));
                QCOMPARE(j.first_start, 0.0);
                QCOMPARE(j.restarts, 1);
            }
        }
    }

    // The same 3-job group straight from groupTiming: the stage-derived time by hand, scaled by
    // the 3-job factor; and with Contention::none() nothing is scaled.
    void threeJobGroupTiming() {
        const std::vector<std::vector<double>> three(3, {0.5, 0.5, 0.0});
        const GroupTiming g = groupTiming(three, {1.0, 1.0, 1.0}, true);
        QVERIFY(near(g.raw_time, 1.5));
        QVERIFY(near(g.iteration_time, 1.5 * 1.5 / 1.015));
        QVERIFY(near(g.speedup_vs_alone, 3 * 1.015 / (1.5 * 1.5 / 1.015)));
        QVERIFY(near(groupTiming(three, {1.0, 1.0, 1.0}, true, Contention::none()).iteration_time, 1.5));
    }

    // Muri-L capped at 2 jobs per group, one GPU, 10 s restart overhead. "old" (t=0, 1,000
    // iterations of 1 s) runs alone: 0-10 overhead, 90 iterations by 100. At 100 two new jobs
    // (200 iterations each) rank first under 2D-LAS and fill the one slot: they run as a pair
    // (1.0 x 1.33/1.015 s per iteration, 20 s of overhead), "old" is preempted. When the pair
    // ends, "old" resumes alone and pays its 10 s overhead again before its last 910 iterations.
    void preemptedJobPaysItsOverheadWhenItResumes() {
        Trace t;
        t.jobs = {halfAndHalf("old", 0, 1000), halfAndHalf("new1", 100, 200), halfAndHalf("new2", 100, 200)};
        ProfileSet p;
        p.default_restart_overhead = 10;
        const SimResult r = simulatePolicy(oneGpu(), t, p, "muri-l-k2", cleanWithoutSoloFactor());
        const double pair_end = 100 + 20 + 200 * 1.33 / 1.015;
        QVERIFY(near(r.jobs[1].end, pair_end));
        QVERIFY(near(r.jobs[2].end, pair_end));
        QVERIFY(near(r.jobs[0].end, pair_end + 10 + 910));
        QCOMPARE(r.jobs[0].preemptions, 1);
        QCOMPARE(r.jobs[0].restarts, 2);
        QVERIFY(near(r.jobs[0].running_time, 100 + 10 + 910));
    }

    // Ties between orderings keep the first permutation (docs/architecture.md section 4.5: "keeps
    // the first minimum"), in the timing that the simulator and the teaching view use: identical
    // jobs keep their given order, and a split pair that only ties the slot rule is not taken.
    void groupTimingKeepsTheFirstOrderingOnTies() {
        for (int n : {2, 3, 4}) {
            const std::vector<std::vector<double>> same(static_cast<std::size_t>(n), {0.3, 0.2, 0.1});
            std::vector<double> solo(static_cast<std::size_t>(n), 1.0);
            std::vector<int> first(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) first[static_cast<std::size_t>(i)] = i;
            QCOMPARE(groupTiming(same, solo, true).ordering.order, first);
            QCOMPARE(groupTiming(same, solo, false).ordering.order, first);
        }
        // {2, 1, 1} twice: slot rule 4.0 in either order, split pair max(2, 1 + 1) x 2 = 4.0.
        const GroupTiming tie = groupTiming({{2, 1, 1}, {2, 1, 1}}, {4.0, 4.0}, true);
        QVERIFY(!tie.ordering.split_pair);
        QCOMPARE(tie.ordering.order, (std::vector<int>{0, 1}));
        QVERIFY(near(tie.raw_time, 4.0));
        const GroupTiming worst = groupTiming({{2, 1, 1}, {2, 1, 1}}, {4.0, 4.0}, false);
        QVERIFY(!worst.ordering.split_pair);
        QCOMPARE(worst.ordering.order, (std::vector<int>{0, 1}));
    }

    void invariantsOnTheSharedTraces() {
        REQUIRE_SHARED_DATA(kMuri + "/trace3.csv");
        Cluster c = readMuriClusterSpecCsv(kMuri + "/cluster_n8g8.csv");
        ProfileSet p = builtinProfiles();
        for (const char* name : {"trace3", "trace3_pr"}) {
            Trace t = readMuriTraceCsv(kMuri + "/" + name + ".csv");
            SimOptions o;
            o.conventions = Conventions::muriArtifact();
            checkSharing(c, simulatePolicy(c, t, p, "muri-s", o), 4);
            checkSharing(c, simulatePolicy(c, t, p, "muri-l", o), 4);
        }
    }

    void muriBeatsTheBaselinesUnderCleanConventions() {
        REQUIRE_SHARED_DATA(kMuri + "/trace3.csv");
        Cluster c = readMuriClusterSpecCsv(kMuri + "/cluster_n8g8.csv");
        ProfileSet p = builtinProfiles();
        Trace t = readMuriTraceCsv(kMuri + "/trace3.csv");
        Conventions clean = Conventions::clean();
        double muri_s = avgJct(c, t, p, "muri-s", clean);
        double muri_l = avgJct(c, t, p, "muri-l", clean);
        double srtf = avgJct(c, t, p, "srtf", clean);
        double srsf = avgJct(c, t, p, "srsf", clean);
        double tiresias = avgJct(c, t, p, "tiresias", clean);
        qInfo("trace3 clean: muri-s %.0f, muri-l %.0f, srtf %.0f, srsf %.0f, tiresias %.0f", muri_s, muri_l,
              srtf, srsf, tiresias);
        QVERIFY(muri_s < srtf && muri_s < srsf);
        QVERIFY(muri_l < tiresias);
        QVERIFY(muri_l <= avgJct(c, t, p, "muri-l-no-blossom", clean));
        QVERIFY(muri_l < avgJct(c, t, p, "muri-l-worst-order", clean));
    }
};

QTEST_APPLESS_MAIN(TestMuri)
#include "test_muri.moc"
