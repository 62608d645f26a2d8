// core/interleave: Muri's group time (Eq. 1-4 and the built-in profiles' slot rule), best and
// worst orderings, contention, interleaving efficiency and the teaching view's stage chart,
// checked against the Muri paper (Zhao et al., SIGCOMM 2022) and docs/architecture.md
// section 4.5.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/interleave/group_time.h"
#include "core/interleave/stage_jobs.h"
#include "core/interleave/stage_schedule.h"
#include "core/io/builtin_data.h"
#include "core/model/model_profile.h"

using namespace cl;

namespace {

using Jobs = std::vector<std::vector<double>>;

bool near(double a, double b, double tol = 1e-9) {
    return std::abs(a - b) <= tol * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

const ProfileSet& profiles() {
    static const ProfileSet set = builtinProfiles();
    return set;
}

const GpuCountProfile& builtin(const std::string& model, int gpus) {
    const ModelProfile* m = profiles().find(model);
    if (m == nullptr) throw std::runtime_error("no built-in profile " + model);
    const GpuCountProfile* g = m->at(gpus);
    if (g == nullptr || g->gpus != gpus)
        throw std::runtime_error("no " + std::to_string(gpus) + "-GPU profile of " + model);
    return *g;
}

// Paper Fig. 4 (k = 2, stage 0 = CPU, stage 1 = GPU). The figure's rectangles are not in
// the text copy; the lengths follow from the text (section 4.1): fusing A and C gives a job
// E with "4 unit time of CPU first and then 2 unit time of GPU", A and C "both use CPU
// intensively and use GPU lightly", A+B and C+D overlap perfectly. A = C = (2, 1) is the
// split consistent with all of it (A+C: T = 4, CPU never idle, GPU idle half the time);
// perfect overlap with (2, 1) then forces B = D = (1, 2).
const std::vector<double> kFig4A{2, 1}, kFig4B{1, 2}, kFig4C{2, 1}, kFig4D{1, 2};

// Paper Fig. 6 (k = 4; resources storage, CPU, GPU, network as in docs/architecture.md
// section 4.5):
// "job A spends two time units on CPU and one time unit on each other resource type; job B
// spends two time units on GPU and one time unit on each other resource type".
const std::vector<double> kFig6A{1, 2, 1, 1}, kFig6B{1, 1, 2, 1};

double pairGamma(const std::vector<double>& a, const std::vector<double>& b) {
    const Jobs jobs{a, b};
    return interleavingEfficiency(jobs, bestOrdering(jobs).time, interleaveResourceCount(jobs));
}

int stageOf(int resource, int stage_count) {
    if (stage_count != 3) return resource;
    return resource <= 1 ? 0 : resource - 1;
}

// Empty when the chart is feasible: no two intervals overlap on one resource, each job runs
// its (non-zero) stages one after another in cyclic order, each stage for its full time,
// `iterations` times.
QString scheduleProblem(const Jobs& stages, const std::vector<StageInterval>& chart, int iterations) {
    const double eps = 1e-9;
    const int k = static_cast<int>(stages.front().size());
    const int resources = scheduleResourceCount(stages);
    for (int r = 0; r < resources; ++r) {
        std::vector<StageInterval> on;
        for (const auto& s : chart)
            if (s.resource == r) on.push_back(s);
        std::sort(on.begin(), on.end(), [](const auto& a, const auto& b) { return a.t0 < b.t0; });
        for (std::size_t i = 1; i < on.size(); ++i)
            if (on[i].t0 < on[i - 1].t1 - eps)
                return QString("resource %1: job %2 [%3,%4] overlaps job %5 [%6,%7]")
                    .arg(r)
                    .arg(on[i - 1].job)
                    .arg(on[i - 1].t0)
                    .arg(on[i - 1].t1)
                    .arg(on[i].job)
                    .arg(on[i].t0)
                    .arg(on[i].t1);
    }
    for (int job = 0; job < static_cast<int>(stages.size()); ++job) {
        const auto& t = stages[static_cast<std::size_t>(job)];
        std::vector<StageInterval> mine;
        for (const auto& s : chart)
            if (s.job == job) mine.push_back(s);
        std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) {
            return a.t0 < b.t0 || (a.t0 == b.t0 && a.resource < b.resource);
        });
        struct Occ {
            int stage, iteration;
            double start, end;
        };
        std::vector<Occ> occ;
        for (const auto& s : mine) {
            const int stage = stageOf(s.resource, k);
            if (!occ.empty() && occ.back().stage == stage && occ.back().iteration == s.iteration &&
                s.t0 <= occ.back().end + eps) {
                occ.back().end = std::max(occ.back().end, s.t1);
                continue;
            }
            occ.push_back({stage, s.iteration, s.t0, s.t1});
        }
        const int nonzero =
            static_cast<int>(std::count_if(t.begin(), t.end(), [](double x) { return x > 0; }));
        if (static_cast<int>(occ.size()) != nonzero * iterations)
            return QString("job %1: %2 stage runs, expected %3")
                .arg(job)
                .arg(occ.size())
                .arg(nonzero * iterations);
        for (std::size_t i = 0; i < occ.size(); ++i) {
            if (!near(occ[i].end - occ[i].start, t[static_cast<std::size_t>(occ[i].stage)], 1e-9))
                return QString("job %1: stage %2 ran %3, needs %4")
                    .arg(job)
                    .arg(occ[i].stage)
                    .arg(occ[i].end - occ[i].start)
                    .arg(t[static_cast<std::size_t>(occ[i].stage)]);
            if (i == 0) continue;
            if (occ[i].start < occ[i - 1].end - eps)
                return QString("job %1: stage %2 starts at %3 before stage %4 ends at %5")
                    .arg(job)
                    .arg(occ[i].stage)
                    .arg(occ[i].start)
                    .arg(occ[i - 1].stage)
                    .arg(occ[i - 1].end);
            int next = occ[i - 1].stage;
            do next = (next + 1) % k;
            while (!(t[static_cast<std::size_t>(next)] > 0));
            if (occ[i].stage != next)
                return QString("job %1: stage %2 follows stage %3")
                    .arg(job)
                    .arg(occ[i].stage)
                    .arg(occ[i - 1].stage);
        }
    }
    return {};
}

constexpr int kChartIterations = 40;

double chartPeriod(const Jobs& stages, const Ordering& o, QString* problem = nullptr) {
    const auto chart = stageSchedule(stages, o, kChartIterations);
    if (problem) *problem = scheduleProblem(stages, chart, kChartIterations);
    return schedulePeriod(chart, o.order.front(), kChartIterations / 2, kChartIterations - 1);
}

std::vector<int> builtinGpuCounts() {
    return {1, 2, 4, 8, 16, 32};
}

// Every multiset of `p` built-in models (same GPU count): calls fn(stages, names).
template <typename Fn>
void forEachBuiltinGroup(int gpus, int p, Fn fn) {
    const auto names = profiles().modelNames();
    std::vector<int> idx(static_cast<std::size_t>(p), 0);
    const int n = static_cast<int>(names.size());
    while (true) {
        Jobs stages;
        std::string label;
        for (int i : idx) {
            stages.push_back(builtin(names[static_cast<std::size_t>(i)], gpus).stage_times);
            label += names[static_cast<std::size_t>(i)] + " ";
        }
        fn(stages, label);
        int pos = p - 1;
        while (pos >= 0 && idx[static_cast<std::size_t>(pos)] == n - 1) --pos;
        if (pos < 0) break;
        const int v = idx[static_cast<std::size_t>(pos)] + 1;
        for (int q = pos; q < p; ++q) idx[static_cast<std::size_t>(q)] = v;
    }
}

}  // namespace

class TestInterleave : public QObject {
    Q_OBJECT

private slots:
    // A cold start: every job joins with its first stage; before the last one joins the chart
    // is a prefix of the steady one with the not-yet-joined jobs left out, after it they agree.
    void coldStartJobsJoinWithTheirFirstStage() {
        std::vector<std::vector<double>> jobs;
        for (int b = 0; b < 4; ++b) {
            std::vector<double> t(4, 1.0);
            t[static_cast<std::size_t>(b)] = 2.0;
            jobs.push_back(t);
        }
        const Ordering best = bestOrdering(jobs);
        const std::vector<StageInterval> steady = stageSchedule(jobs, best, 4);
        const std::vector<StageInterval> cold = coldStartSchedule(steady, false);
        std::map<int, double> joined;
        for (const StageInterval& iv : cold)
            if (!joined.count(iv.job)) {
                QCOMPARE(iv.resource, 0);  // each job's first interval is its first stage
                joined[iv.job] = iv.t0;
            }
        QCOMPARE(joined.size(), std::size_t(4));
        int at_zero = 0;
        for (const StageInterval& iv : cold) at_zero += iv.t0 == 0.0;
        QCOMPARE(at_zero, 1);  // one job starts the pipeline
        double all_in = 0;
        for (const auto& [job, t] : joined) all_in = std::max(all_in, t);
        QVERIFY(all_in > 0);
        std::size_t steady_after = 0, cold_after = 0;
        for (const StageInterval& iv : steady) steady_after += iv.t0 >= all_in;
        for (const StageInterval& iv : cold) cold_after += iv.t0 >= all_in;
        QCOMPARE(cold_after, steady_after);
        QVERIFY(cold.size() < steady.size());
        // 3-stage jobs join on storage or CPU (their load stage).
        const std::vector<std::vector<double>> three = {{3, 1, 1}, {1, 3, 1}};
        const auto cold3 = coldStartSchedule(stageSchedule(three, bestOrdering(three), 3), true);
        std::map<int, int> first3;
        for (const StageInterval& iv : cold3) first3.try_emplace(iv.job, iv.resource);
        for (const auto& [job, resource] : first3) QVERIFY(resource <= 1);
    }

    // Eq. 1 and Eq. 2, two jobs on two resources, by hand: t_0 = (5, 2), t_1 = (1, 4).
    // T = max(5, 4) + max(2, 1) = 7; idle: resource 0: 7 - 6 = 1, resource 1: 7 - 6 = 1;
    // gamma = 1 - (1/7 + 1/7) / 2 = 6/7.
    void eq1AndEq2TwoJobs() {
        const Jobs jobs{{5, 2}, {1, 4}};
        QCOMPARE(explicitStageGroupTime(jobs), 7.0);
        const Jobs swapped{jobs[1], jobs[0]};
        QCOMPARE(explicitStageGroupTime(swapped), 7.0);  // k = 2: both orders pair the same stages
        const double T = 7.0;
        const double eq2 = 1.0 - 0.5 * ((T - 5 - 1) / T + (T - 2 - 4) / T);
        const double gamma = interleavingEfficiency(jobs, T, 2);
        QVERIFY(near(gamma, 6.0 / 7.0));
        QVERIFY(near(gamma, eq2));
        qInfo("Eq. 1/2: T = %.3f, gamma = %.6f (6/7)", T, gamma);
    }

    // Fig. 4 / Fig. 5 and section 4.1: A+B gamma 1.0, A+C 0.75; plan 1 {A+B, C+D} has the
    // maximum total weight, plan 2 {A+C, B+D} less.
    void fig4GroupingPlans() {
        const double ab = pairGamma(kFig4A, kFig4B), ac = pairGamma(kFig4A, kFig4C);
        const double ad = pairGamma(kFig4A, kFig4D), bc = pairGamma(kFig4B, kFig4C);
        const double bd = pairGamma(kFig4B, kFig4D), cd = pairGamma(kFig4C, kFig4D);
        QCOMPARE(ab, 1.0);
        QCOMPARE(ac, 0.75);
        QCOMPARE(explicitStageGroupTime(Jobs{kFig4A, kFig4B}), 3.0);
        QCOMPARE(explicitStageGroupTime(Jobs{kFig4A, kFig4C}), 4.0);
        // "1 - (0 + 0.5)/2 = 0.75": CPU idle fraction 0, GPU 0.5.
        QCOMPARE(1.0 - ((4.0 - 2 - 2) / 4.0 + (4.0 - 1 - 1) / 4.0) / 2.0, ac);

        const double plan1 = ab + cd, plan2 = ac + bd, plan3 = ad + bc;
        qInfo(
            "Fig. 4/5 gammas: AB %.3f AC %.3f AD %.3f BC %.3f BD %.3f CD %.3f; plan 1 (AB+CD) %.3f, "
            "plan 2 (AC+BD) %.3f, AD+BC %.3f",
            ab, ac, ad, bc, bd, cd, plan1, plan2, plan3);
        QCOMPARE(plan1, 2.0);
        QCOMPARE(plan2, 1.5);
        // With the lengths implied by the text, AD+BC overlaps perfectly too (a tie); plan 1
        // is a maximum weight matching, plan 2 is not.
        QCOMPARE(plan1, std::max({plan1, plan2, plan3}));
        QVERIFY(plan2 < plan1);

        // Section 4.1, fusing: E = A + C = (4 CPU, 2 GPU) and F = (2 CPU, 4 GPU) give gamma 1.
        QCOMPARE(pairGamma({4, 2}, {2, 4}), 1.0);
    }

    // Fig. 6: the best ordering overlaps A and B perfectly (T = 5 = each job alone), the
    // other ordering does not (T = 6). Eq. 3, order (A, B): max(1,1)+max(2,2)+max(1,1)+
    // max(1,1) = 5; order (B, A): max(1,2)+max(1,1)+max(2,1)+max(1,1) = 6. (The text gives
    // no numbers for the figure; these follow from its description.)
    void fig6OrderingMatters() {
        const Jobs jobs{kFig6A, kFig6B};
        const Ordering best = bestOrdering(jobs), worst = worstOrdering(jobs);
        qInfo("Fig. 6: best order {%d,%d} T = %.3f gamma %.4f; worst order {%d,%d} T = %.3f gamma %.4f",
              best.order[0], best.order[1], best.time, interleavingEfficiency(jobs, best.time, 4),
              worst.order[0], worst.order[1], worst.time, interleavingEfficiency(jobs, worst.time, 4));
        QCOMPARE(best.time, 5.0);
        QCOMPARE(worst.time, 6.0);
        QVERIFY(best.time < worst.time);
        QCOMPARE(best.order, (std::vector<int>{0, 1}));
        QCOMPARE(worst.order, (std::vector<int>{1, 0}));
        QVERIFY(!best.split_pair && !worst.split_pair);
        QCOMPARE(best.time, std::accumulate(kFig6A.begin(), kFig6A.end(), 0.0));  // no slow-down
        QCOMPARE(interleavingEfficiency(jobs, best.time, 4), 0.5);
        QVERIFY(near(interleavingEfficiency(jobs, worst.time, 4), 10.0 / 24.0));
    }

    // Fig. 1's idea (the shapes are not in the text): four jobs bottlenecked on four
    // different resources (2 units there, 1 on each other) interleave to 4x throughput.
    void fig1FourBottlenecks() {
        Jobs jobs;
        for (int b = 0; b < 4; ++b) {
            std::vector<double> t(4, 1.0);
            t[static_cast<std::size_t>(b)] = 2.0;
            jobs.push_back(t);
        }
        const GroupTiming g = groupTiming(jobs, {5, 5, 5, 5}, true, Contention::none());
        QCOMPARE(g.raw_time, 5.0);
        QCOMPARE(g.speedup_vs_alone, 4.0);
        QCOMPARE(g.gamma, 1.0);
        // Worst: the long stages fall into as many different phases as possible. Position i
        // runs its long stage in phase (pi_i - i) mod 4, and i -> pi_i - i cannot be a
        // bijection on Z_4 (no complete mapping for even order), so at most 3 phases: T = 7.
        QCOMPARE(worstOrdering(jobs).time, 7.0);
    }

    // Table 2: ShuffleNet + A2C + GPT-2 + VGG16 on 16 GPUs, total normalised throughput 2.00.
    // The convention of docs/architecture.md section 4.5: solo = profile iteration time x 1.015,
    // group time = best-ordering slot time x 1.37/1.015; sum of solo / group = 2.00 +- 0.02.
    void table2FourJobs() {
        const char* names[] = {"shufflenet_v2_x1_0", "a2c", "gpt2", "vgg16"};
        Jobs stages;
        std::vector<double> solo;
        for (const char* n : names) {
            stages.push_back(builtin(n, 16).stage_times);
            solo.push_back(builtin(n, 16).solo_iteration_time);
        }
        const Contention c;
        const GroupTiming g = groupTiming(stages, solo, true, c);
        const Ordering worst = worstOrdering(stages);
        const double alone = std::accumulate(solo.begin(), solo.end(), 0.0) * c.solo;
        const double total = alone / g.iteration_time;
        qInfo(
            "Table 2: best order {%d,%d,%d,%d} raw %.4f s, x1.37/1.015 = %.6f s; worst order {%d,%d,%d,%d} "
            "raw %.4f s",
            g.ordering.order[0], g.ordering.order[1], g.ordering.order[2], g.ordering.order[3], g.raw_time,
            g.iteration_time, worst.order[0], worst.order[1], worst.order[2], worst.order[3], worst.time);
        qInfo(
            "Table 2: sum(solo x 1.015) = %.5f s, total normalised throughput = %.5f (paper 2.00), gamma = "
            "%.4f",
            alone, total, g.gamma);
        for (std::size_t i = 0; i < solo.size(); ++i)
            qInfo("Table 2: %s normalised throughput %.3f (paper: 0.86 0.48 0.41 0.25 in this order)",
                  names[i], solo[i] * c.solo / g.iteration_time);
        qInfo(
            "Table 2, other conventions: solo unscaled / scaled group %.4f; x1.015 / raw %.4f; unscaled / "
            "raw x1.37 %.4f",
            alone / c.solo / g.iteration_time, alone / g.raw_time, alone / c.solo / (g.raw_time * 1.37));
        QVERIFY(near(g.raw_time, 0.901, 1e-12));
        QVERIFY(near(worst.time, 1.301, 1e-12));
        QCOMPARE(g.ordering.order, (std::vector<int>{0, 3, 2, 1}));  // shufflenet, vgg16, gpt2, a2c
        QVERIFY(near(g.iteration_time, 0.901 * 1.37 / 1.015));
        QVERIFY(std::abs(total - 2.00) <= 0.02);
        QVERIFY(near(g.speedup_vs_alone, total));
    }

    // The slot rule on hand-checked 2-job cases, x = (5, 1, 0), y = (1, 1, 4):
    // order (x, y): f1 = 0+4 (y net) = 4; f2 = 0+5 (x load) = 5; f3 = max(5+1 (x GPU),
    // 4+1 (y load)) = 6; f4 = max(6+0 (x net), 6+1 (y GPU)) = 7; f5 = 7+4 = 11;
    // i = 4: f5-f1 = 7 = f4-f0 -> T = 7. Order (y, x): f1 = 0, f2 = 1, f3 = max(2, 5) = 5,
    // f4 = max(9, 6) = 9, f5 = 9 -> T = 9. Split pair T' = max(5, 1+4) + max(1, 1+0) = 6.
    void slotRuleTwoJobsByHand() {
        const std::vector<double> x{5, 1, 0}, y{1, 1, 4};
        QCOMPARE(slotRuleGroupTime(Jobs{x, y}), 7.0);
        QCOMPARE(slotRuleGroupTime(Jobs{y, x}), 9.0);
        QCOMPARE(splitPairGroupTime(x, y), 6.0);
        QCOMPARE(splitPairGroupTime(y, x), 6.0);
        const Ordering best = bestOrdering(Jobs{x, y});
        QVERIFY(best.split_pair);
        QCOMPARE(best.time, 6.0);
        QCOMPARE(best.order, (std::vector<int>{0, 1}));
        const Ordering worst = worstOrdering(Jobs{x, y});
        QVERIFY(!worst.split_pair);
        QCOMPARE(worst.time, 9.0);
        QCOMPARE(worst.order, (std::vector<int>{1, 0}));
        // T' not strictly smaller: the slot ordering stays.
        const Ordering tie = bestOrdering(Jobs{{2, 1, 1}, {2, 1, 1}});
        QVERIFY(!tie.split_pair);
        QCOMPARE(tie.time, 4.0);
    }

    // Two jobs that only use the GPU cannot interleave: no better than running one after
    // the other.
    void slotRuleGpuOnlyJobs() {
        const Jobs jobs{{0, 0.3, 0}, {0, 0.5, 0}};
        const Ordering best = bestOrdering(jobs);
        QVERIFY(best.time >= 0.8 - 1e-12);
        QVERIFY(near(best.time, 0.8));
        for (int gpus : builtinGpuCounts()) {
            const auto& g = builtin("gpt2", gpus).stage_times;
            const Jobs two{{0, g[1], 0}, {0, g[1], 0}};
            QVERIFY(bestOrdering(two).time >= 2 * g[1] - 1e-12);
        }
    }

    // One job: the rules give the sum of its stages; groupTiming uses the profile time.
    void singleJob() {
        const auto& p = builtin("vgg16", 16);
        const double sum = std::accumulate(p.stage_times.begin(), p.stage_times.end(), 0.0);
        QVERIFY(near(slotRuleGroupTime(Jobs{p.stage_times}), sum));
        QVERIFY(near(bestOrdering(Jobs{p.stage_times}).time, sum));
        QCOMPARE(explicitStageGroupTime(Jobs{kFig6A}), 5.0);
        const GroupTiming g = groupTiming(Jobs{p.stage_times}, {p.solo_iteration_time}, true);
        QVERIFY(near(g.iteration_time, p.solo_iteration_time * 1.015));
        QVERIFY(near(g.speedup_vs_alone, 1.0));
        QVERIFY(near(g.gamma, sum / (4 * p.solo_iteration_time * 1.015)));
    }

    // The best (and worst) time does not depend on the order the jobs are given in.
    void bestTimeIsPermutationInvariant() {
        std::vector<Jobs> groups{
            {kFig6A, kFig6B}, {kFig4A, kFig4B}, {{3, 1, 4, 1}, {5, 9, 2, 6}, {5, 3, 5, 8}}};
        const auto names = profiles().modelNames();
        for (int gpus : {2, 16}) {
            groups.push_back({builtin("vgg16", gpus).stage_times, builtin("bert", gpus).stage_times});
            groups.push_back({builtin("resnet18", gpus).stage_times, builtin("gpt2", gpus).stage_times,
                              builtin("a2c", gpus).stage_times});
            groups.push_back({builtin("shufflenet_v2_x1_0", gpus).stage_times,
                              builtin("a2c", gpus).stage_times, builtin("gpt2", gpus).stage_times,
                              builtin("vgg16", gpus).stage_times});
            groups.push_back({builtin("dqn", gpus).stage_times, builtin("vgg19", gpus).stage_times,
                              builtin("bert", gpus).stage_times, builtin("resnet18", gpus).stage_times});
        }
        for (const Jobs& jobs : groups) {
            const double best = bestOrdering(jobs).time, worst = worstOrdering(jobs).time;
            QVERIFY(best <= worst);
            std::vector<int> perm(jobs.size());
            std::iota(perm.begin(), perm.end(), 0);
            do {
                Jobs shuffled;
                for (int i : perm) shuffled.push_back(jobs[static_cast<std::size_t>(i)]);
                QVERIFY(near(bestOrdering(shuffled).time, best, 1e-12));
                QVERIFY(near(worstOrdering(shuffled).time, worst, 1e-12));
            } while (std::next_permutation(perm.begin(), perm.end()));
        }
        // Ties keep the first permutation.
        QCOMPARE(bestOrdering(Jobs{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}).order, (std::vector<int>{0, 1, 2}));
    }

    // A group's iteration time is its stage-derived time times the paper's contention factor
    // for its size (Muri, Sec. 6.2; docs/architecture.md section 4.5: 1.33, 1.5, 1.37, each
    // divided by the solo factor 1.015). The stage-derived times are worked out by hand:
    //  - half-and-half jobs (0.5 s loading, 0.5 s GPU, no network):
    //    2 jobs: split pair T' = max(0.5, 0.5 + 0) + max(0.5, 0.5 + 0) = 1.0 (slot rule: 1.5);
    //    3 jobs: slot rule f1..f5 = 0.5, 0.5, 1.0, 1.5, 2.0; f5 - f1 = f4 - f0 = 1.5;
    //    4 jobs: f1..f5 = 0.5, 1.0, 1.5, 2.0, 2.5; T = 2.0;
    //  - GPU-only jobs of 0.2, 0.3 and 0.5 s cannot overlap: T = 1.0 (f1 = 0.5, f3 = 0.7,
    //    f4 = 1.0, f5 = 1.5; f5 - f1 = f4 - f0 = 1.0).
    void contentionScalesHandComputedGroupTimes_data() {
        QTest::addColumn<int>("group");
        QTest::addColumn<double>("stage_time");
        QTest::addColumn<double>("factor");
        QTest::newRow("2 half-and-half") << 0 << 1.0 << 1.33 / 1.015;
        QTest::newRow("3 half-and-half") << 1 << 1.5 << 1.5 / 1.015;
        QTest::newRow("4 half-and-half") << 2 << 2.0 << 1.37 / 1.015;
        QTest::newRow("3 GPU-only") << 3 << 1.0 << 1.5 / 1.015;
        QTest::newRow("2 GPU-only") << 4 << 0.5 << 1.33 / 1.015;
        QTest::newRow("4 GPU-only") << 5 << 1.0 << 1.37 / 1.015;
    }
    void contentionScalesHandComputedGroupTimes() {
        QFETCH(int, group);
        QFETCH(double, stage_time);
        QFETCH(double, factor);
        const std::vector<double> half{0.5, 0.5, 0.0};
        const Jobs groups[] = {Jobs(2, half),
                               Jobs(3, half),
                               Jobs(4, half),
                               Jobs{{0, 0.2, 0}, {0, 0.3, 0}, {0, 0.5, 0}},
                               Jobs{{0, 0.2, 0}, {0, 0.3, 0}},
                               Jobs{{0, 0.1, 0}, {0, 0.2, 0}, {0, 0.3, 0}, {0, 0.4, 0}}};
        const Jobs& jobs = groups[group];
        const std::vector<double> solo(jobs.size(), 1.0);
        const GroupTiming g = groupTiming(jobs, solo, true);
        QVERIFY2(near(g.raw_time, stage_time), qPrintable(QString::number(g.raw_time, 'g', 17)));
        QVERIFY2(near(g.iteration_time, stage_time * factor),
                 qPrintable(QString::number(g.iteration_time, 'g', 17)));
        QVERIFY(near(g.speedup_vs_alone, double(jobs.size()) * 1.015 / (stage_time * factor)));
        // Eq. 4 with the contention-scaled time: busy resource time / (4 x T).
        double busy = 0;
        for (const auto& j : jobs) busy += std::accumulate(j.begin(), j.end(), 0.0);
        QVERIFY(near(g.gamma, busy / (4 * stage_time * factor)));
        // Without contention the group runs at its stage-derived time.
        QVERIFY(near(groupTiming(jobs, solo, true, Contention::none()).iteration_time, stage_time));
    }

    void contentionFactors() {
        const Contention c;
        QCOMPARE(c.solo, 1.015);
        QCOMPARE(c.factor(2), 1.33 / 1.015);
        QCOMPARE(c.factor(3), 1.5 / 1.015);
        QCOMPARE(c.factor(4), 1.37 / 1.015);
        QCOMPARE(c.factor(6), 1.37 / 1.015);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.factor(0));
        QCOMPARE(Contention::none().factor(3), 1.0);
        const auto& a = builtin("a2c", 4);
        const auto& b = builtin("bert", 4);
        const GroupTiming g = groupTiming(Jobs{a.stage_times, b.stage_times},
                                          {a.solo_iteration_time, b.solo_iteration_time}, true);
        QVERIFY(near(g.iteration_time, g.raw_time * 1.33 / 1.015));
        QVERIFY(near(g.speedup_vs_alone,
                     (a.solo_iteration_time + b.solo_iteration_time) * 1.015 / g.iteration_time));
    }

    void invalidInput() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explicitStageGroupTime(Jobs{{1, 2}, {1, 2, 3}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explicitStageGroupTime(Jobs{{1, 2}, {1, 2}, {1, 2}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explicitStageGroupTime(Jobs{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explicitStageGroupTime(Jobs{{1, -2}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, slotRuleGroupTime(Jobs{{1, 2, 3, 4}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, slotRuleGroupTime(Jobs(5, {1, 2, 3})));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bestOrdering(Jobs(5, {1, 2, 3})));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, worstOrdering(Jobs{{1, 2}, {1, 2, 3}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, groupTiming(Jobs{{1, 2, 3}}, {}, true));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, interleavingEfficiency(Jobs{{1, 2}}, 0.0, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stageSchedule(Jobs{{1, 2}, {2, 1}}, {0, 0}, 3));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stageSchedule(Jobs{{1, 2}, {2, 1}}, {0, 1}, 3, true));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stageSchedule(Jobs{{1, 2}, {2, 1}}, {0, 1}, -1));
    }

    // Stage charts of the paper's examples: feasible and with the group's period.
    void scheduleOfPaperExamples() {
        struct Case {
            const char* name;
            Jobs jobs;
            bool best;
            double period;
        };
        const std::vector<Case> cases{
            {"Fig. 4 A+B", {kFig4A, kFig4B}, true, 3.0},
            {"Fig. 4 A+C", {kFig4A, kFig4C}, true, 4.0},
            {"Fig. 6 best", {kFig6A, kFig6B}, true, 5.0},
            {"Fig. 6 worst", {kFig6A, kFig6B}, false, 6.0},
            {"split pair", {{5, 1, 0}, {1, 1, 4}}, true, 6.0},
            {"slot pair", {{5, 1, 0}, {1, 1, 4}}, false, 9.0},
        };
        for (const Case& c : cases) {
            const Ordering o = c.best ? bestOrdering(c.jobs) : worstOrdering(c.jobs);
            QString problem;
            const double period = chartPeriod(c.jobs, o, &problem);
            qInfo("chart %s: period %.4f (group time %.4f)", c.name, period, o.time);
            QVERIFY2(problem.isEmpty(), qPrintable(QString(c.name) + ": " + problem));
            QVERIFY(near(period, c.period));
            QVERIFY(near(o.time, c.period));
        }
        // Fig. 4(a) group 1, first iteration: A's CPU stage overlaps B's GPU stage, then A's
        // GPU stage overlaps B's CPU stage.
        const auto chart = stageSchedule(Jobs{kFig4A, kFig4B}, std::vector<int>{0, 1}, 1);
        QCOMPARE(chart.size(), std::size_t(4));
        auto has = [&](int job, int resource, double t0, double t1) {
            return std::any_of(chart.begin(), chart.end(), [&](const StageInterval& s) {
                return s.job == job && s.resource == resource && s.t0 == t0 && s.t1 == t1;
            });
        };
        QVERIFY(has(0, 0, 0, 2) && has(1, 1, 0, 2) && has(0, 1, 2, 3) && has(1, 0, 2, 3));
        QCOMPARE(scheduleResourceName(2, 4), std::string("GPU"));
        // A single built-in job: stage 0 alone, drawn on storage and CPU.
        const auto& v = builtin("vgg16", 16);
        const auto solo = stageSchedule(Jobs{v.stage_times}, std::vector<int>{0}, 2);
        QCOMPARE(
            std::count_if(solo.begin(), solo.end(), [](const StageInterval& s) { return s.resource <= 1; }),
            4L);
        QVERIFY(scheduleProblem(Jobs{v.stage_times}, solo, 2).isEmpty());
    }

    // Table 2's group: the chart's period is the slot rule's time for both orderings.
    void scheduleOfTable2() {
        const Jobs stages{builtin("shufflenet_v2_x1_0", 16).stage_times, builtin("a2c", 16).stage_times,
                          builtin("gpt2", 16).stage_times, builtin("vgg16", 16).stage_times};
        for (bool best : {true, false}) {
            const Ordering o = best ? bestOrdering(stages) : worstOrdering(stages);
            QString problem;
            const double period = chartPeriod(stages, o, &problem);
            qInfo("chart Table 2 %s: period %.6f s, slot rule %.6f s", best ? "best" : "worst", period,
                  o.time);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY(std::abs(period - o.time) <= 0.01 * o.time);
        }
    }

    // Every group of 1-3 built-in jobs (same GPU count), every ordering, and the best
    // ordering (incl. split pairs): feasible charts whose period is the group time (1%).
    void scheduleOfBuiltinGroupsUpTo3() {
        int charts = 0;
        double worst_rel = 0.0;
        for (int gpus : builtinGpuCounts())
            for (int p = 1; p <= 3; ++p)
                forEachBuiltinGroup(gpus, p, [&](const Jobs& stages, const std::string& label) {
                    std::vector<Ordering> orderings{bestOrdering(stages)};
                    std::vector<int> perm(stages.size());
                    std::iota(perm.begin(), perm.end(), 0);
                    do {
                        Jobs ordered;
                        for (int i : perm) ordered.push_back(stages[static_cast<std::size_t>(i)]);
                        orderings.push_back(Ordering{perm, slotRuleGroupTime(ordered), false});
                    } while (std::next_permutation(perm.begin(), perm.end()));
                    for (const Ordering& o : orderings) {
                        QString problem;
                        const double period = chartPeriod(stages, o, &problem);
                        ++charts;
                        const double rel = std::abs(period - o.time) / o.time;
                        worst_rel = std::max(worst_rel, rel);
                        QVERIFY2(problem.isEmpty(), qPrintable(QString::fromStdString(label) + problem));
                        QVERIFY2(rel <= 0.01, qPrintable(QString("%1at %2 GPUs: period %3 vs %4")
                                                             .arg(QString::fromStdString(label))
                                                             .arg(gpus)
                                                             .arg(period)
                                                             .arg(o.time)));
                    }
                });
        qInfo("charts of 1-3 built-in jobs: %d, largest relative period error %.2e", charts, worst_rel);
    }

    // 4 built-in jobs, best ordering: feasible charts; the 8-slot rule never reports more
    // than the chart's steady state; report how often it reports noticeably less.
    void scheduleOfBuiltinGroupsOf4() {
        int groups = 0, off = 0;
        double worst_rel = 0.0;
        std::string worst_label;
        for (int gpus : builtinGpuCounts())
            forEachBuiltinGroup(gpus, 4, [&](const Jobs& stages, const std::string& label) {
                const Ordering o = bestOrdering(stages);
                QString problem;
                const double period = chartPeriod(stages, o, &problem);
                ++groups;
                QVERIFY2(problem.isEmpty(), qPrintable(QString::fromStdString(label) + problem));
                QVERIFY(o.time <= period * (1 + 1e-9));
                const double rel = (period - o.time) / period;
                if (rel > 0.01) ++off;
                if (rel > worst_rel) {
                    worst_rel = rel;
                    worst_label = label + "at " + std::to_string(gpus) + " GPUs";
                }
            });
        qInfo(
            "4-job built-in groups: %d, best-ordering slot time more than 1%% below the chart's steady "
            "state in %d (largest %.1f%%: %s)",
            groups, off, 100 * worst_rel, worst_label.c_str());
        QCOMPARE(groups, 6 * 330);
    }
};

QTEST_APPLESS_MAIN(TestInterleave)
#include "test_interleave.moc"
