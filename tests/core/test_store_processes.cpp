// The scenario store shared by real processes (POSIX fork(), not threads), as the GUI and a
// command-line sweep share one workspace file:
//  - a reader process sees only whole runs while another process stores a sweep;
//  - several processes creating one new workspace at the same moment all succeed;
//  - a newer build's workspace with a pending write-ahead log is refused untouched;
//  - a writer killed in the middle of storing a run leaves every earlier run intact and the
//    file consistent, and the workspace accepts new runs afterwards.
// No SQLite connection is open across a fork: each process opens its own stores after it.
// Children leave with _exit() and never return into the Qt Test main.
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/io/builtin_data.h"
#include "core/io/trace_readers.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/scenario_runner.h"
#include "core/sim/simulator.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "store_test_support.h"

using namespace cl;
using namespace cl::test;
namespace fs = std::filesystem;

namespace {

const std::string kTrace3 = std::string(CLUSTERLOOM_SHARED_DATA_DIR) + "/muri-traces/trace3.csv";
constexpr std::size_t kSweepJobs = 100;

// The first 100 jobs of the shared trace3, else (shared data absent) a generated trace.
Trace sweepTrace() {
    if (fs::exists(kTrace3)) {
        Trace t = readMuriTraceCsv(kTrace3);
        t.jobs.resize(kSweepJobs);
        t.name += " (first 100 jobs)";
        return t;
    }
    GeneratorConfig g;
    g.jobs = static_cast<int>(kSweepJobs);
    g.seed = 5;
    g.jobs_per_hour = 20;
    g.max_gpus = 16;
    const ProfileSet profiles = builtinProfiles();
    return generate(g, &profiles);
}

// Everything a result holds, exactly (hex floats), with segments sorted by (gpu, t0): equal
// texts mean equal results.
std::string canonical(const SimResult& r) {
    std::string out;
    char buf[128];
    auto num = [&](double v) {
        std::snprintf(buf, sizeof buf, "%a ", v);
        out += buf;
    };
    auto integer = [&](long long v) { out += std::to_string(v) + " "; };
    out += r.policy + "|" + r.conventions + "|";
    integer(r.events);
    num(r.wall_seconds);
    integer(r.cancelled);
    const Summary& m = r.summary;
    integer(m.jobs);
    integer(m.completed);
    for (double v : {m.avg_jct, m.median_jct, m.p95_jct, m.p99_jct, m.makespan, m.avg_queueing_delay}) num(v);
    out += "\njobs\n";
    for (const JobRecord& j : r.jobs) {
        integer(j.index);
        out += j.id + "|" + j.model + "|";
        integer(j.gpus);
        for (double v : {j.iterations, j.solo_iteration_time, j.submit, j.first_start, j.end, j.jct,
                         j.queueing_delay, j.pending_time, j.running_time})
            num(v);
        integer(j.preemptions);
        integer(j.restarts);
        integer(j.completed);
        out += "\n";
    }
    std::vector<GpuSegment> segs = r.segments;
    std::sort(segs.begin(), segs.end(), [](const GpuSegment& a, const GpuSegment& b) {
        return std::tie(a.gpu, a.t0, a.t1, a.job) < std::tie(b.gpu, b.t0, b.t1, b.job);
    });
    out += "segments\n";
    for (const GpuSegment& g : segs) {
        integer(g.gpu);
        num(g.t0);
        num(g.t1);
        integer(g.job);
        out += "\n";
    }
    out += "series\n";
    for (const TimeSample& t : r.series) {
        num(t.t);
        integer(t.queue_length);
        integer(t.running_jobs);
        num(t.blocking_index);
        num(t.gpu_utilization);
        out += "\n";
    }
    return out;
}

std::string exitDescription(int status) {
    if (WIFEXITED(status)) return "exited with " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    return "status " + std::to_string(status);
}

// ---- the sweep writer (child) ---------------------------------------------------------------

const std::vector<std::string> kPolicies = {"srtf", "tiresias"};
const std::vector<double> kLoads = {1, 2, 4};
const std::vector<std::uint64_t> kSeeds = {1, 2};

// Stores the inputs, signals `ready_fd`, runs the sweep. Returns the exit code.
int sweepChild(const std::string& path, int ready_fd) {
    try {
        ScenarioStore store(path);
        ScenarioSpec base;
        base.cluster_id = store.putCluster(builtinCluster("muri-testbed-64"));
        base.trace_id = store.putTrace(sweepTrace());
        base.profiles_id = store.putProfiles(builtinProfiles());
        if (write(ready_fd, "r", 1) != 1) return 2;
        close(ready_fd);
        SweepAxes axes;
        axes.policies = kPolicies;
        axes.load_factors = kLoads;
        axes.seeds = kSeeds;
        SweepOptions options;
        options.threads = 2;
        const SweepReport report = runSweep(store, expandSweep(store, "sweep", base, axes), options);
        if (report.failed || report.cancelled || report.reused || !report.errors.empty()) {
            std::fprintf(stderr, "sweep child: %d failed, %d cancelled, %d reused%s%s\n", report.failed,
                         report.cancelled, report.reused, report.errors.empty() ? "" : ": ",
                         report.errors.empty() ? "" : report.errors.front().c_str());
            return 1;
        }
        for (std::int64_t id : report.run_ids)
            if (id == 0) return 1;
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sweep child: %s\n", e.what());
        return 1;
    }
}

// ---- the killed writer (child) --------------------------------------------------------------

// A large result with made-up values: n jobs, n segments over 2,048 GPUs, n / 100 samples.
SimResult fakeResult(std::size_t n) {
    SimResult r;
    r.policy = "srtf";
    r.conventions = "clean";
    r.jobs.resize(n);
    r.segments.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        JobRecord& j = r.jobs[k];
        j.index = static_cast<int>(k);
        j.id = "fake-" + std::to_string(k);
        j.model = "resnet18";
        j.gpus = 1;
        j.iterations = 1000;
        j.solo_iteration_time = 0.1;
        j.submit = static_cast<double>(k);
        j.first_start = j.submit + 1;
        j.end = j.submit + 101;
        j.jct = 101;
        j.queueing_delay = 1;
        j.pending_time = 1;
        j.running_time = 100;
        j.restarts = 1;
        j.completed = true;
        r.segments[k] = {static_cast<int>(k % 2048), j.first_start, j.end, j.index};
    }
    for (std::size_t k = 0; k < n / 100; ++k) r.series.push_back({100.0 * k, 1, 2, 0.5, 0.25});
    r.summary.jobs = r.summary.completed = static_cast<int>(n);
    return r;
}

// Past the 200,000 job records of the big run (packed into one row, written once they are all
// packed) and half-way through its 2,048 rows of segments.
constexpr std::size_t kKillAfterRows = 201000;

// Saves `big` as a new run of the scenario and is killed half-way through (SIGKILL: no
// destructor, no rollback, no unlock runs).
[[noreturn]] void killedChild(const std::string& path, std::int64_t scenario_id, const SimResult& big) {
    try {
        ScenarioStore store(path);
        const std::int64_t run = store.beginRun(scenario_id, "killed-writer");
        store.saveRun(run, big, [](std::size_t done, std::size_t) {
            if (done >= kKillAfterRows) raise(SIGKILL);
        });
        std::fprintf(stderr, "killed child: saveRun finished without being killed\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "killed child: %s\n", e.what());
    }
    _exit(3);
}

}  // namespace

class TestStoreProcesses : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string pathOf(const char* name) { return (fs::path(dir_.path().toStdString()) / name).string(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void readerSeesWholeRunsWhileAnotherProcessSweeps() {
        const std::string path = pathOf("sweep.sqlite");
        const std::size_t expected_runs = kPolicies.size() * kLoads.size() * kSeeds.size();
        int ready[2];
        QCOMPARE(pipe(ready), 0);
        std::fflush(nullptr);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            close(ready[0]);
            _exit(sweepChild(path, ready[1]));
        }
        close(ready[1]);
        char byte = 0;
        const bool started = read(ready[0], &byte, 1) == 1;
        close(ready[0]);
        if (!started) {
            int status = 0;
            waitpid(child, &status, 0);
            QFAIL(
                ("the sweep process stopped before storing its inputs: " + exitDescription(status)).c_str());
        }

        // Read everything there is, over and over, until the writer has gone (and once more).
        std::vector<std::string> errors;
        int reads = 0, partial_reads = 0, loaded = 0;
        int status = 0;
        for (bool done = false; !done;) {
            const pid_t w = waitpid(child, &status, WNOHANG);
            QVERIFY(w >= 0);
            done = w == child;
            try {
                ScenarioStore store(path);
                const auto scenarios = store.scenarios();
                std::size_t finished = 0;
                for (const RunInfo& r : store.runs()) {
                    if (r.status == RunStatus::Running) continue;
                    if (r.status != RunStatus::Finished) {
                        errors.push_back("run " + std::to_string(r.id) + " is " + runStatusName(r.status));
                        continue;
                    }
                    ++finished;
                    const SimResult result = store.loadRun(r.id);
                    ++loaded;
                    if (result.jobs.size() != kSweepJobs ||
                        result.summary.jobs != static_cast<int>(kSweepJobs) || result.segments.empty() ||
                        result.series.empty())
                        errors.push_back("run " + std::to_string(r.id) + " read back with " +
                                         std::to_string(result.jobs.size()) + " jobs, " +
                                         std::to_string(result.segments.size()) + " segments");
                    if (store.runInfo(r.id).summary.completed != static_cast<int>(kSweepJobs))
                        errors.push_back("run " + std::to_string(r.id) + ": summary incomplete");
                }
                if (!scenarios.empty() && finished < expected_runs) ++partial_reads;
                // In one statement, i.e. one snapshot: a run has results exactly when it is finished.
                Statement half = store.db().prepare(
                    "SELECT count(*) FROM runs r WHERE (r.status = 'finished') <> (EXISTS(SELECT 1 FROM "
                    "run_summaries m WHERE m.run_id = r.id) AND EXISTS(SELECT 1 FROM run_job_records j WHERE "
                    "j.run_id = r.id) AND EXISTS(SELECT 1 FROM run_segments g WHERE g.run_id = r.id))");
                if (half.step() && half.int64At(0) != 0)
                    errors.push_back(std::to_string(half.int64At(0)) +
                                     " runs with results but not finished, or finished "
                                     "without results");
            } catch (const std::exception& e) {
                errors.push_back(e.what());
            }
            ++reads;
        }
        qInfo("%d reads (%d while the sweep was part-way), %d finished runs loaded", reads, partial_reads,
              loaded);
        for (const auto& e : errors) qWarning("reader: %s", e.c_str());
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                 ("the sweep process " + exitDescription(status)).c_str());
        QVERIFY(reads >= 2);

        // Every run is there, whole.
        ScenarioStore store(path);
        const auto scenarios = store.scenarios();
        QCOMPARE(scenarios.size(), expected_runs);
        for (const ScenarioInfo& s : scenarios) {
            QVERIFY(s.spec.name.starts_with("sweep/"));
            const auto runs = store.runs(s.id);
            QCOMPARE(runs.size(), std::size_t(1));
            QCOMPARE(runs[0].status, RunStatus::Finished);
            QCOMPARE(runs[0].summary.jobs, static_cast<int>(kSweepJobs));
            QCOMPARE(scalar(store, "SELECT jobs FROM run_job_records WHERE run_id = ?1", runs[0].id),
                     static_cast<std::int64_t>(kSweepJobs));
            QVERIFY(scalar(store, "SELECT count(*) FROM run_segments WHERE run_id = ?1", runs[0].id) > 0);
            QVERIFY(scalar(store, "SELECT count(*) FROM run_series WHERE run_id = ?1", runs[0].id) > 0);
            QCOMPARE(store.loadRun(runs[0].id).jobs.size(), kSweepJobs);
        }
        QCOMPARE(store.runs().size(), expected_runs);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    // The GUI and a command-line run started together on a workspace that does not exist yet:
    // every process creates or migrates it (under the write lock), and identical inputs are
    // stored once.
    void processesCreatingOneWorkspaceAtOnce() {
        const std::string path = pathOf("new/at-once.sqlite");
        constexpr int kProcesses = 4;
        int gate[2];
        QCOMPARE(pipe(gate), 0);
        std::fflush(nullptr);
        std::vector<pid_t> children;
        for (int k = 0; k < kProcesses; ++k) {
            const pid_t child = fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                close(gate[1]);
                char byte;
                if (read(gate[0], &byte, 1) != 0) _exit(2);  // wait until the parent opens the gate
                try {
                    ScenarioStore store(path);
                    ScenarioSpec spec;
                    spec.name = "process " + std::to_string(k);
                    spec.cluster_id = store.putCluster(builtinCluster("muri-testbed-64"));
                    spec.trace_id = store.putTrace(demoTrace());
                    spec.profiles_id = store.putProfiles(builtinProfiles());
                    store.createScenario(spec);
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "process %d: %s\n", k, e.what());
                    _exit(1);
                }
                _exit(0);
            }
            children.push_back(child);
        }
        close(gate[0]);
        close(gate[1]);  // all start now
        for (pid_t child : children) {
            int status = 0;
            QCOMPARE(waitpid(child, &status, 0), child);
            QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                     ("a process " + exitDescription(status)).c_str());
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), ScenarioStore::latestSchemaVersion());
        QCOMPARE(store.clusters().size(), std::size_t(1));
        QCOMPARE(store.traces().size(), std::size_t(1));
        QCOMPARE(store.profileSets().size(), std::size_t(1));
        QCOMPARE(store.scenarios().size(), std::size_t(kProcesses));
        QCOMPARE(integrity(store), std::string("ok"));
    }

    // A newer build's workspace whose last writer died before checkpointing: the newer schema
    // is only in the write-ahead log. Refusing it must not fold the log into the file either.
    void newerWorkspaceWithAPendingLogIsRefusedUntouched() {
        const std::string path = pathOf("newer-wal.sqlite");
        {
            ScenarioStore store(path);
            store.putCluster(builtinCluster("muri-testbed-64"));
        }
        std::fflush(nullptr);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            try {
                ScenarioStore store(path);
                store.db().exec("PRAGMA user_version=99");
                raise(SIGKILL);  // before the store closes (which would checkpoint)
            } catch (...) {
            }
            _exit(1);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
        QVERIFY(fs::exists(path + "-wal") && fs::file_size(path + "-wal") > 0);
        const std::string before = fileBytes(path), wal_before = fileBytes(path + "-wal");
        try {
            ScenarioStore store(path);
            QFAIL("a workspace of schema 99 was opened");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("newer") != std::string::npos, e.what());
        }
        QVERIFY2(fileBytes(path) == before, "the workspace file was changed");
        QVERIFY2(fs::exists(path + "-wal") && fileBytes(path + "-wal") == wal_before,
                 "the write-ahead log was changed");
    }

    void killedWriterLeavesEarlierRunsIntact() {
        const std::string path = pathOf("killed.sqlite");
        // Earlier runs, stored (and the store closed) before the fork.
        const Trace trace = sweepTrace();
        const SimResult earlier =
            simulatePolicy(builtinCluster("muri-testbed-64"), trace, builtinProfiles(), "srtf");
        SimResult earlier_fake = fakeResult(5000);
        earlier_fake.policy = "tiresias";
        std::int64_t earlier_run = 0, earlier_fake_run = 0, killed_scenario = 0;
        {
            ScenarioStore store(path);
            ScenarioSpec spec;
            spec.name = "before";
            spec.cluster_id = store.putCluster(builtinCluster("muri-testbed-64"));
            spec.trace_id = store.putTrace(trace);
            spec.profiles_id = store.putProfiles(builtinProfiles());
            const std::int64_t before = store.createScenario(spec);
            earlier_run = store.beginRun(before, "test");
            store.saveRun(earlier_run, earlier);
            earlier_fake_run = store.beginRun(before, "test");
            store.saveRun(earlier_fake_run, earlier_fake);
            spec.name = "killed";
            spec.policy = "tiresias";
            killed_scenario = store.createScenario(spec);
        }
        const SimResult big = fakeResult(200000);

        std::fflush(nullptr);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) killedChild(path, killed_scenario, big);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                 ("the writer was not killed mid-save: " + exitDescription(status)).c_str());
        // The transaction had reached the file: its uncommitted pages are in the WAL.
        const auto wal = fs::exists(path + "-wal") ? fs::file_size(path + "-wal") : 0;
        qInfo("write-ahead log left by the killed writer: %.1f MB", static_cast<double>(wal) / 1e6);
        QVERIFY2(wal > 1000000,
                 "the killed transaction never reached the write-ahead log (a larger page cache?); "
                 "make the fake run larger so that the test kills a writer with pages on disk");

        {
            ScenarioStore store(path);
            QCOMPARE(integrity(store), std::string("ok"));
            // Earlier runs: whole and equal.
            QVERIFY(canonical(store.loadRun(earlier_run)) == canonical(earlier));
            QVERIFY(canonical(store.loadRun(earlier_fake_run)) == canonical(earlier_fake));
            QCOMPARE(store.runInfo(earlier_run).status, RunStatus::Finished);

            // The killed run: begun (its own committed transaction), never finished, no results;
            // its process is gone, so opening the workspace marked it failed.
            const auto killed = store.runs(killed_scenario);
            QCOMPARE(killed.size(), std::size_t(1));
            QCOMPARE(killed[0].status, RunStatus::Failed);
            QVERIFY2(killed[0].message.find("interrupted") != std::string::npos, killed[0].message.c_str());
            QCOMPARE(killed[0].summary.jobs, 0);
            QCOMPARE(killed[0].engine_version, std::string("killed-writer"));
            QCOMPARE(resultRows(store, killed[0].id), std::int64_t(0));
            QVERIFY(store.loadRun(killed[0].id).jobs.empty());

            // The workspace takes new runs.
            const std::int64_t again = store.beginRun(killed_scenario, "test");
            const SimResult smaller = fakeResult(20000);
            store.saveRun(again, smaller);
            QVERIFY(canonical(store.loadRun(again)) == canonical(smaller));
            QCOMPARE(store.runInfo(again).status, RunStatus::Finished);
            QCOMPARE(integrity(store), std::string("ok"));
        }
        ScenarioStore store(path);
        QCOMPARE(store.runs().size(), std::size_t(4));
        QCOMPARE(store.runs(killed_scenario)[0].status, RunStatus::Failed);
        QCOMPARE(integrity(store), std::string("ok"));
    }
};

QTEST_APPLESS_MAIN(TestStoreProcesses)
#include "test_store_processes.moc"
