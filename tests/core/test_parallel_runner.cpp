// The one parallel runner (core/util/parallel_runner.h) and the scale-out decisions built on the
// store (core/scaleout/pending_runs.h): completion on the caller's thread, the thread bound,
// cancellation, errors, and which emitted runs are pending.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/io/builtin_data.h"
#include "core/policies/scheduler_registry.h"
#include "core/runs/scenario_runner.h"
#include "core/scaleout/pending_runs.h"
#include "core/util/parallel_runner.h"

using namespace cl;

class TestParallelRunner : public QObject {
    Q_OBJECT

private slots:
    void everyPieceRunsOnceAndEndsOnTheCallersThread() {
        ParallelRunner runner(3);
        QCOMPARE(runner.threads(), 3);
        const auto caller = std::this_thread::get_id();
        std::vector<int> ran(50, 0);
        std::atomic<int> running{0}, most{0};
        std::set<std::size_t> finished;
        runner.run(
            ran.size(),
            [&](std::size_t i) -> ParallelRunner::Work {
                if (std::this_thread::get_id() != caller)
                    throw std::logic_error("prepare off the caller's thread");
                if (i % 5 == 4) return {};  // nothing to run for this index
                return [&, i] {
                    const int now = ++running;
                    int seen = most.load();
                    while (now > seen && !most.compare_exchange_weak(seen, now)) {
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    ++ran[i];
                    --running;
                };
            },
            [&](std::size_t i, std::exception_ptr error) {
                QVERIFY(!error);
                QCOMPARE(std::this_thread::get_id(), caller);
                QVERIFY(finished.insert(i).second);
            });
        for (std::size_t i = 0; i < ran.size(); ++i) QCOMPARE(ran[i], i % 5 == 4 ? 0 : 1);
        QCOMPARE(finished.size(), std::size_t{40});
        QVERIFY(most.load() <= 3);
    }

    void aThrowingPieceIsReportedAndTheRestGoOn() {
        std::vector<int> ran(8, 0);
        std::vector<std::string> errors(8);
        ParallelRunner runner(2);
        runner.run(
            ran.size(),
            [&](std::size_t i) -> ParallelRunner::Work {
                return [&, i] {
                    ++ran[i];
                    if (i == 3) throw std::runtime_error("piece 3 failed");
                };
            },
            [&](std::size_t i, std::exception_ptr error) {
                if (!error) return;
                try {
                    std::rethrow_exception(error);
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
        QCOMPARE(std::count(ran.begin(), ran.end(), 1), std::ptrdiff_t{8});
        QCOMPARE(errors[3], std::string("piece 3 failed"));
    }

    void aThrowingFinishCancelsWaitsAndAbandonsTheRunning() {
        ParallelRunner runner(2);
        std::atomic<int> started{0};
        std::vector<std::size_t> abandoned;
        bool threw = false;
        try {
            runner.run(
                100,
                [&](std::size_t i) -> ParallelRunner::Work {
                    ++started;
                    if (i == 0) return [] {};
                    return [&] {
                        // Work that runs until the runner is cancelled, as a simulation whose
                        // progress callback returns !cancelled().
                        while (!runner.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    };
                },
                [&](std::size_t, std::exception_ptr) { throw std::runtime_error("cannot store"); },
                [&](std::size_t i) { abandoned.push_back(i); });
        } catch (const std::runtime_error& e) {
            threw = std::string(e.what()) == "cannot store";
        }
        QVERIFY(threw);
        QVERIFY(runner.cancelled());
        QCOMPARE(started.load(), 2);                 // nothing new was prepared once cancelled
        QCOMPARE(abandoned.size(), std::size_t{1});  // the one still running when finish threw
    }

    void cancelStopsPreparing() {
        ParallelRunner runner(1);
        int prepared = 0;
        runner.run(
            10,
            [&](std::size_t i) -> ParallelRunner::Work {
                ++prepared;
                if (i == 2) runner.cancel();
                return [] {};
            },
            [](std::size_t, std::exception_ptr) {});
        QCOMPARE(prepared, 3);
    }

    void parallelForRethrowsTheFirstErrorAfterEveryCall() {
        std::atomic<int> calls{0};
        bool threw = false;
        try {
            parallelFor(20, 4, [&](std::size_t i) {
                ++calls;
                if (i == 7) throw std::invalid_argument("seven");
            });
        } catch (const std::invalid_argument&) {
            threw = true;
        }
        QVERIFY(threw);
        QCOMPARE(calls.load(), 20);
    }

    void threadCountDefaultsToTheCoresAndIsBounded() {
        const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
        QCOMPARE(ParallelRunner::threadCount(0), cores);
        QCOMPARE(ParallelRunner::threadCount(-3), cores);
        QCOMPARE(ParallelRunner::threadCount(1), 1);
        QCOMPARE(ParallelRunner::threadCount(100000), 4 * cores);
    }

    void theCheckReturnsTheSchedulerItBuilt() {
        const std::unique_ptr<Scheduler> built = checkPolicy("muri-s", Conventions::clean());
        QVERIFY(built != nullptr);
        QCOMPARE(built->name(), makeScheduler("muri-s", Conventions::clean())->name());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkPolicy("no-such-policy", Conventions::clean()));
    }

    void pendingRunsLeaveOutWhatTheStoreWouldReuse() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        ScenarioStore store(tmp.filePath("w.sqlite").toStdString());
        Trace small = demoTrace();
        small.jobs.resize(20);
        small.name = "demo-20";
        Trace smaller = small;
        smaller.jobs.resize(10);
        smaller.name = "demo-10";
        ScenarioSpec base;
        base.cluster_id = store.putCluster(builtinCluster("muri-testbed-64"));
        base.trace_id = store.putTrace(small);
        base.profiles_id = store.putProfiles(builtinProfiles());
        SweepAxes axes;
        axes.policies = {"fifo", "srtf"};
        const auto specs = expandSweep(store, "p", base, axes);
        const std::vector<ScenarioInfo> infos = createSweepScenarios(store, specs);
        QCOMPARE(pendingRuns(store, infos, false).size(), std::size_t{2});
        runScenario(store, "p/fifo");
        const auto pending = pendingRuns(store, infos, false);
        QCOMPARE(pending.size(), std::size_t{1});
        QCOMPARE(pending.front().spec.name, std::string("p/srtf"));
        QCOMPARE(pendingRuns(store, infos, true).size(), std::size_t{2});

        QCOMPARE(largestTraceJobs(store, infos), 20LL);
        QCOMPARE(largestTraceJobs(store, {}), 0LL);
        ScenarioSpec other = base;
        other.name = "q";
        other.trace_id = store.putTrace(smaller);
        store.createScenario(other);
        QCOMPARE(largestTraceJobs(store, {store.scenario("q")}), 10LL);

        const SlowestPolicy slowest = timeSlowestPolicy(store, infos);
        QCOMPARE(slowest.policies, std::size_t{2});
        QVERIFY(slowest.seconds >= 0);
        QVERIFY(slowest.scenario == "p/fifo" || slowest.scenario == "p/srtf");
        QCOMPARE(timeSlowestPolicy(store, {}).seconds, -1.0);
    }
};

QTEST_GUILESS_MAIN(TestParallelRunner)
#include "test_parallel_runner.moc"
