// core/policies/synergy_opt_ilp: Synergy-OPT's ILP (eqs 1-5) on hand-checked instances,
// against brute force and a greedy heuristic on seeded random instances, the time-limit
// path and infeasible input.
#include <QtTest>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/policies/synergy_opt_ilp.h"

using namespace cl;

namespace {

// mt19937's output sequence is fixed by the standard; the reductions are ours, so the
// instances are the same with every standard library.
struct Rng {
    explicit Rng(std::uint32_t seed) : engine(seed) {}
    int uniform(int lo, int hi) {
        return lo + static_cast<int>(engine() % static_cast<std::uint32_t>(hi - lo + 1));
    }
    std::mt19937 engine;
};

struct Usage {
    double cpus = 0.0;
    double memory = 0.0;
    double throughput = 0.0;
};

Usage usage(const std::vector<OptJob>& jobs, const std::vector<int>& choice) {
    Usage u;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const OptChoice& c = jobs[j].choices[static_cast<std::size_t>(choice[j])];
        u.cpus += c.cpus;
        u.memory += c.memory_gb;
        u.throughput += c.throughput;
    }
    return u;
}

// Every job at an option meeting its minimum, within both capacities.
bool feasible(const std::vector<OptJob>& jobs, const std::vector<int>& choice, double cpus, double memory) {
    if (choice.size() != jobs.size()) return false;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (choice[j] < 0 || choice[j] >= static_cast<int>(jobs[j].choices.size())) return false;
        if (jobs[j].choices[static_cast<std::size_t>(choice[j])].throughput < jobs[j].min_throughput - 1e-12)
            return false;
    }
    const Usage u = usage(jobs, choice);
    return u.cpus <= cpus + 1e-9 && u.memory <= memory + 1e-9;
}

// Best objective by enumerating every combination (-1 when none is feasible).
double bruteForce(const std::vector<OptJob>& jobs, double cpus, double memory) {
    std::vector<int> choice(jobs.size(), 0);
    double best = -1.0;
    for (;;) {
        if (feasible(jobs, choice, cpus, memory)) best = std::max(best, usage(jobs, choice).throughput);
        std::size_t j = 0;
        while (j < jobs.size() && ++choice[j] == static_cast<int>(jobs[j].choices.size())) choice[j++] = 0;
        if (j == jobs.size()) return best;
    }
}

// Greedy: every job at its proportional option (index 7 of randomJob's grid), then
// repeatedly the change with the largest throughput gain per unit of (normalised) extra
// resources that still fits.
double greedy(const std::vector<OptJob>& jobs, double cpus, double memory) {
    std::vector<int> choice(jobs.size(), 7);
    if (!feasible(jobs, choice, cpus, memory)) return -1.0;
    for (;;) {
        const Usage u = usage(jobs, choice);
        double best_ratio = 0.0;
        std::size_t best_job = 0;
        int best_option = -1;
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            const OptChoice& now = jobs[j].choices[static_cast<std::size_t>(choice[j])];
            for (std::size_t k = 0; k < jobs[j].choices.size(); ++k) {
                const OptChoice& c = jobs[j].choices[k];
                const double gain = c.throughput - now.throughput;
                if (gain <= 0 || c.throughput < jobs[j].min_throughput) continue;
                if (u.cpus - now.cpus + c.cpus > cpus || u.memory - now.memory_gb + c.memory_gb > memory)
                    continue;
                const double cost = std::max(0.0, c.cpus - now.cpus) / cpus +
                                    std::max(0.0, c.memory_gb - now.memory_gb) / memory;
                const double ratio = gain / (cost + 1e-9);
                if (ratio > best_ratio) {
                    best_ratio = ratio;
                    best_job = j;
                    best_option = static_cast<int>(k);
                }
            }
        }
        if (best_option < 0) return usage(jobs, choice).throughput;
        choice[best_job] = best_option;
    }
}

// A random small job: a per-GPU grid of CPU levels {1,2,3,4,6} x memory {20, 60, 120},
// throughput non-decreasing in both, minimum = the (3, 60) point, scaled by its GPUs.
OptJob randomJob(Rng& rng) {
    static const double kCpu[] = {1, 2, 3, 4, 6};
    static const double kMem[] = {20, 60, 120};
    const int gpus = 1 << rng.uniform(0, 2);
    double w[5][3];
    for (int c = 0; c < 5; ++c) {
        for (int m = 0; m < 3; ++m) {
            const double step = 0.05 * rng.uniform(0, 8);
            const double left = c > 0 ? w[c - 1][m] : 0.1 * rng.uniform(1, 5);
            const double up = m > 0 ? w[c][m - 1] : 0.0;
            w[c][m] = std::max(left, up) + step;
        }
    }
    OptJob job;
    for (int c = 0; c < 5; ++c)
        for (int m = 0; m < 3; ++m) job.choices.push_back({kCpu[c] * gpus, kMem[m] * gpus, w[c][m] * gpus});
    job.min_throughput = w[2][1] * gpus;
    return job;
}

}  // namespace

class TestSynergyOpt : public QObject {
    Q_OBJECT

private slots:
    // Two single-GPU jobs share 6 CPUs (memory plentiful). The image job gains from CPUs
    // (1 CPU 0.4, 3 CPUs 1.0, 5 CPUs 1.6), the language job does not (1.0 from 1 CPU). The
    // proportional split (3 + 3) gives 2.0; the optimum gives the image job 5 and the
    // language job 1: 2.6.
    void sensitiveJobGetsMoreCpus() {
        std::vector<OptJob> jobs(2);
        jobs[0].choices = {{1, 62.5, 0.4}, {3, 62.5, 1.0}, {5, 62.5, 1.6}};
        jobs[0].min_throughput = 1.0;
        jobs[1].choices = {{1, 62.5, 1.0}, {3, 62.5, 1.0}, {5, 62.5, 1.0}};
        jobs[1].min_throughput = 1.0;
        const OptResult r = solveOptIlp(jobs, 6, 125, 10.0);
        QCOMPARE(r.choice, (std::vector<int>{2, 0}));
        QCOMPARE(r.objective, 2.6);
        QVERIFY(r.optimal);
        QVERIFY(!r.time_limited);
        QVERIFY(!r.fallback);
        QVERIFY(r.bound >= r.objective);
        QVERIFY(r.bound <= 2.6 + 1e-9);
    }

    // Constraint (5): the cheap option of job 1 would free CPUs for job 0 (0.3 + 2.4 = 2.7
    // beats 1.0 + 1.6 = 2.6) but is below job 1's minimum.
    void minimumThroughputIsRespected() {
        std::vector<OptJob> jobs(2);
        jobs[0].choices = {{3, 62.5, 1.0}, {5, 62.5, 1.6}, {6, 62.5, 2.4}};
        jobs[0].min_throughput = 1.0;
        jobs[1].choices = {{0, 62.5, 0.3}, {1, 62.5, 1.0}, {3, 62.5, 1.0}};
        jobs[1].min_throughput = 1.0;
        const OptResult r = solveOptIlp(jobs, 6, 125, 10.0);
        QCOMPARE(r.choice, (std::vector<int>{1, 1}));
        QCOMPARE(r.objective, 2.6);
        QVERIFY(r.optimal);
        // Without the minimum the cheap option wins.
        jobs[1].min_throughput = 0.0;
        QCOMPARE(solveOptIlp(jobs, 6, 125, 10.0).choice, (std::vector<int>{2, 0}));
    }

    // Memory binds: both jobs would like 250 GB, only 375 GB exist; the one gaining more gets it.
    void capacityIsRespected() {
        std::vector<OptJob> jobs(3);
        jobs[0].choices = {{3, 125, 1.0}, {3, 250, 2.0}};
        jobs[0].min_throughput = 1.0;
        jobs[1].choices = {{3, 125, 1.0}, {3, 250, 1.5}};
        jobs[1].min_throughput = 1.0;
        jobs[2].choices = {{3, 62.5, 1.0}, {3, 125, 1.1}};
        jobs[2].min_throughput = 1.0;
        const OptResult r = solveOptIlp(jobs, 9, 437.5, 10.0);
        QCOMPARE(r.choice, (std::vector<int>{1, 0, 0}));
        QCOMPARE(r.objective, 4.0);
        const Usage u = usage(jobs, r.choice);
        QVERIFY(u.memory <= 437.5);
        QVERIFY(u.cpus <= 9);
    }

    // Identical jobs are solved as one class; the class's jobs take options in job order.
    void identicalJobsShareTheCapacity() {
        OptJob image;
        image.choices = {{3, 62.5, 1.0}, {6, 62.5, 1.75}, {9, 62.5, 2.4}};
        image.min_throughput = 1.0;
        OptJob language;
        language.choices = {{1, 20.83, 1.0}, {3, 62.5, 1.0}};
        language.min_throughput = 1.0;
        std::vector<OptJob> jobs = {image, language, image, language, image, image};
        // 24 CPUs: languages take 1 each (22 left); four image jobs: 9 + 6 + 3 + 3 = 21 -> 6.15,
        // 6 + 6 + 6 + 3 = 21 -> 6.25, 9 + 3 + 3 + 3 = 18 -> 5.4 ... best: 6+6+6+3 (+1 spare) = 6.25.
        const OptResult r = solveOptIlp(jobs, 24, 500, 10.0);
        QVERIFY(r.optimal);
        QCOMPARE(r.objective, 2.0 + 6.25);
        QCOMPARE(r.choice, (std::vector<int>{0, 0, 1, 0, 1, 1}));
        QVERIFY(feasible(jobs, r.choice, 24, 500));
    }

    void emptyRound() {
        const OptResult r = solveOptIlp({}, 24, 500, 1.0);
        QVERIFY(r.choice.empty());
        QCOMPARE(r.objective, 0.0);
        QVERIFY(r.optimal);
    }

    // 50 seeded random instances of 2-5 jobs: GLPK's optimum equals brute force and is at
    // least the greedy heuristic's objective.
    void matchesBruteForceAndBeatsGreedy() {
        Rng rng(20220711);
        int solved = 0;
        for (int instance = 0; instance < 50; ++instance) {
            std::vector<OptJob> jobs;
            const int n = rng.uniform(2, 5);
            double prop_cpus = 0.0;
            double prop_memory = 0.0;
            for (int j = 0; j < n; ++j) {
                jobs.push_back(randomJob(rng));
                prop_cpus += jobs.back().choices[7].cpus;  // the (3, 60) point
                prop_memory += jobs.back().choices[7].memory_gb;
            }
            // Between the proportional shares and twice them.
            const double cpus = prop_cpus * (1.0 + 0.25 * rng.uniform(0, 4));
            const double memory = prop_memory * (1.0 + 0.25 * rng.uniform(0, 4));
            const OptResult r = solveOptIlp(jobs, cpus, memory, 30.0);
            QVERIFY2(r.optimal, qPrintable(QString("instance %1").arg(instance)));
            QVERIFY(feasible(jobs, r.choice, cpus, memory));
            QCOMPARE(r.objective, usage(jobs, r.choice).throughput);
            const double exact = bruteForce(jobs, cpus, memory);
            QVERIFY2(
                std::fabs(r.objective - exact) <= 1e-9 * exact,
                qPrintable(
                    QString("instance %1: %2 vs brute force %3").arg(instance).arg(r.objective).arg(exact)));
            const double heuristic = greedy(jobs, cpus, memory);
            QVERIFY(heuristic > 0);
            QVERIFY(r.objective >= heuristic - 1e-9);
            QVERIFY(r.bound >= r.objective - 1e-9);
            if (r.objective > heuristic + 1e-9) ++solved;
        }
        // The instances are not trivial: the ILP beats greedy on some of them.
        QVERIFY(solved > 0);
    }

    // A 1 ms limit stops GLPK before its first node (it checks the limit before solving
    // each node): no integer solution, so every job gets its fallback, and the answer is
    // feasible. Then with the proportional share given explicitly.
    void timeLimitReturnsFeasibleAnswer() {
        Rng rng(7);
        std::vector<OptJob> jobs;
        double cpus = 0.0;
        double memory = 0.0;
        for (int j = 0; j < 400; ++j) {
            jobs.push_back(randomJob(rng));
            cpus += jobs.back().choices[7].cpus * 1.5;
            memory += jobs.back().choices[7].memory_gb * 1.5;
        }
        OptResult r = solveOptIlp(jobs, cpus, memory, 0.001);
        QVERIFY(r.time_limited);
        QVERIFY(!r.optimal);
        QVERIFY(r.fallback);
        QVERIFY(feasible(jobs, r.choice, cpus, memory));
        QCOMPARE(r.objective, usage(jobs, r.choice).throughput);
        QVERIFY(r.bound >= r.objective);

        for (OptJob& job : jobs) job.fallback = 7;
        r = solveOptIlp(jobs, cpus, memory, 0.001);
        QVERIFY(r.fallback);
        QCOMPARE(r.choice, std::vector<int>(jobs.size(), 7));
        QVERIFY(feasible(jobs, r.choice, cpus, memory));
    }

    // GLPK (re-entrant build) solves independent problems on several threads at once; the
    // answers equal the serial ones.
    void solvesOnSeveralThreads() {
        Rng rng(99);
        std::vector<std::vector<OptJob>> instances(16);
        std::vector<double> cpus(instances.size());
        std::vector<double> memory(instances.size());
        for (std::size_t i = 0; i < instances.size(); ++i) {
            for (int j = 0; j < 6; ++j) {
                instances[i].push_back(randomJob(rng));
                cpus[i] += instances[i].back().choices[7].cpus * 1.5;
                memory[i] += instances[i].back().choices[7].memory_gb * 1.5;
            }
        }
        std::vector<std::vector<int>> serial(instances.size());
        for (std::size_t i = 0; i < instances.size(); ++i)
            serial[i] = solveOptIlp(instances[i], cpus[i], memory[i], 30.0).choice;
        std::vector<std::vector<int>> parallel(instances.size());
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                for (int repeat = 0; repeat < 5; ++repeat)
                    for (std::size_t i = t; i < instances.size(); i += 4)
                        parallel[i] = solveOptIlp(instances[i], cpus[i], memory[i], 30.0).choice;
            });
        }
        for (std::thread& t : threads) t.join();
        QCOMPARE(parallel, serial);
    }

    void infeasibleInstancesAreErrors() {
        auto message = [](const std::vector<OptJob>& jobs, double cpus, double memory) -> std::string {
            try {
                solveOptIlp(jobs, cpus, memory, 1.0);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return "(no error)";
        };
        std::vector<OptJob> jobs(2);
        jobs[0].choices = {{3, 62.5, 1.0}, {6, 62.5, 1.5}};
        jobs[0].min_throughput = 1.0;
        jobs[1].choices = {{3, 62.5, 1.0}, {6, 62.5, 1.5}};
        jobs[1].min_throughput = 1.0;
        QCOMPARE(
            message(jobs, 5, 500),
            std::string("solveOptIlp: infeasible: the jobs need at least 6 CPUs at their minimum throughput, "
                        "more than the 5 available"));
        QCOMPARE(
            message(jobs, 24, 100),
            std::string("solveOptIlp: infeasible: the jobs need at least 125 GB of memory at their minimum "
                        "throughput, more than the 100 GB available"));
        // Each dimension fits on its own but no combination fits both.
        std::vector<OptJob> crossed(2);
        crossed[0].choices = {{1, 100, 1.0}, {4, 10, 1.0}};
        crossed[0].min_throughput = 1.0;
        crossed[1].choices = {{1, 100, 1.0}, {4, 10, 1.0}};
        crossed[1].min_throughput = 1.0;
        QCOMPARE(
            message(crossed, 4, 109),
            std::string("solveOptIlp: infeasible: no combination of the jobs' options fits 4 CPUs and 109 GB "
                        "with every job at its minimum throughput"));
        jobs[1].min_throughput = 2.0;
        QCOMPARE(message(jobs, 24, 500),
                 std::string("solveOptIlp: infeasible: none of the 2 options of job 1 reaches its minimum "
                             "throughput 2 (best 1.5)"));
        jobs[1].choices.clear();
        QCOMPARE(message(jobs, 24, 500), std::string("solveOptIlp: job 1 has no (CPU, memory) options"));
        jobs[1].choices = {{-1, 62.5, 1.0}};
        QVERIFY(message(jobs, 24, 500).find("job 1 option 0: CPUs and memory must be finite and >= 0") !=
                std::string::npos);
        jobs[1].choices = {{3, 62.5, 1.0}};
        jobs[1].min_throughput = 1.0;
        jobs[1].fallback = 3;
        QCOMPARE(message(jobs, 24, 500),
                 std::string("solveOptIlp: job 1: fallback 3 is not one of its 1 options"));
        jobs[1].fallback = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solveOptIlp(jobs, 24, 500, 0.0));
    }
};

QTEST_APPLESS_MAIN(TestSynergyOpt)
#include "test_synergy_opt.moc"
