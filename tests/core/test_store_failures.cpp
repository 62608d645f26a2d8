// The workspace when things go wrong (test_store_processes.cpp covers a writer killed inside
// one saveRun):
//  - a sweep process killed after some runs finished leaves a consistent file holding those
//    runs whole, nothing half-written shown as finished, and the sweep run again completes it;
//  - a full disk (PRAGMA max_page_count: SQLite fails with SQLITE_FULL exactly as on a full
//    disk) fails the step with a message naming the file and saying the disk is full, keeps
//    earlier data, leaves no finished run behind, and the store works once there is room;
//  - a read-only workspace (write-protected file; as root, where permissions do not bind,
//    PRAGMA query_only, which fails writes with the same SQLITE_READONLY) refuses every write
//    with a message naming the file and saying it is read-only, and changes nothing.
// Children leave with _exit() and never return into the Qt Test main.
#include <QtTest>

#include <csignal>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/io/builtin_data.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/workload/trace_generator.h"
#include "store_test_support.h"

using namespace cl;
using namespace cl::test;
namespace fs = std::filesystem;

namespace {

Trace sweepTrace() {
    GeneratorConfig g;
    g.jobs = 60;
    g.seed = 5;
    g.jobs_per_hour = 20;
    g.max_gpus = 16;
    const ProfileSet profiles = builtinProfiles();
    return generate(g, &profiles);
}

ScenarioSpec storeInputs(ScenarioStore& store) {
    ScenarioSpec base;
    base.cluster_id = store.putCluster(builtinCluster("muri-testbed-64"));
    base.trace_id = store.putTrace(sweepTrace());
    base.profiles_id = store.putProfiles(builtinProfiles());
    return base;
}

std::vector<ScenarioSpec> sweepSpecs(ScenarioStore& store) {
    SweepAxes axes;
    axes.policies = {"srtf", "tiresias", "fifo", "las"};
    axes.load_factors = {1, 2, 4};
    return expandSweep(store, "sweep", storeInputs(store), axes);
}

// Rows per scenario name of its finished run's results.
std::map<std::string, std::int64_t> finishedRows(ScenarioStore& store) {
    std::map<std::string, std::int64_t> rows;
    for (const RunInfo& r : store.runs())
        if (r.status == RunStatus::Finished) rows[r.scenario_name] = resultRows(store, r.id);
    return rows;
}

std::string exitDescription(int status) {
    if (WIFEXITED(status)) return "exited with " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    return "status " + std::to_string(status);
}

// Runs the sweep one simulation at a time, writing a byte to `fd` each time a run is stored.
[[noreturn]] void sweepChild(const std::string& path, int fd) {
    try {
        ScenarioStore store(path);
        const auto specs = sweepSpecs(store);
        SweepOptions o;
        o.threads = 1;
        int told = 0;
        o.progress = [&](const SweepProgress& p) {
            for (; told < p.finished; ++told)
                if (write(fd, "f", 1) != 1) _exit(4);
        };
        runSweep(store, specs, o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sweep child: %s\n", e.what());
    }
    _exit(3);
}

#define VERIFY_MESSAGE(statement, ...)                                                                 \
    do {                                                                                               \
        try {                                                                                          \
            statement;                                                                                 \
            QFAIL("no StoreError from " #statement);                                                   \
        } catch (const StoreError& e) {                                                                \
            const std::string what = e.what();                                                         \
            qInfo("%s", what.c_str());                                                                 \
            for (const std::string& part : std::vector<std::string>{__VA_ARGS__})                      \
                QVERIFY2(what.find(part) != std::string::npos, (what + "\n  lacks: " + part).c_str()); \
        }                                                                                              \
    } while (false)

SimResult bigResult(std::size_t n) {
    SimResult r;
    r.policy = "srtf";
    r.conventions = "clean";
    for (std::size_t k = 0; k < n; ++k) {
        JobRecord j;
        j.index = static_cast<int>(k);
        j.id = "job-with-a-rather-long-identifier-" + std::to_string(k);
        j.gpus = 1;
        j.iterations = 10;
        j.solo_iteration_time = 1;
        j.submit = static_cast<double>(k);
        j.first_start = j.submit;
        j.end = j.submit + 10;
        j.jct = 10;
        j.running_time = 10;
        j.completed = true;
        r.jobs.push_back(j);
        r.segments.push_back({static_cast<int>(k % 64), j.first_start, j.end, j.index});
    }
    r.summary.jobs = r.summary.completed = static_cast<int>(n);
    return r;
}

}  // namespace

class TestStoreFailures : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string pathOf(const char* name) { return (fs::path(dir_.path().toStdString()) / name).string(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void sweepKilledMidwayKeepsFinishedRunsWhole() {
        // The same sweep uninterrupted: what every finished run must hold.
        std::map<std::string, std::int64_t> reference;
        std::size_t cells = 0;
        {
            ScenarioStore ref(pathOf("reference.sqlite"));
            const auto specs = sweepSpecs(ref);
            cells = specs.size();
            const SweepReport report = runSweep(ref, specs, {});
            QCOMPARE(report.failed, 0);
            reference = finishedRows(ref);
            QCOMPARE(reference.size(), cells);
        }

        const std::string path = pathOf("killed-sweep.sqlite");
        int pipefd[2];
        QCOMPARE(pipe(pipefd), 0);
        std::fflush(nullptr);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            close(pipefd[0]);
            sweepChild(path, pipefd[1]);
        }
        close(pipefd[1]);
        int stored = 0;
        char byte = 0;
        while (stored < 3 && read(pipefd[0], &byte, 1) == 1) ++stored;
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        close(pipefd[0]);
        QVERIFY2(stored == 3, ("the sweep process stored " + std::to_string(stored) + " runs, then " +
                               exitDescription(status))
                                  .c_str());
        QVERIFY2(WIFSIGNALED(status), exitDescription(status).c_str());

        std::set<std::string> finished_before;
        {
            ScenarioStore store(path);  // opening marks the killed process's running run failed
            QCOMPARE(integrity(store), std::string("ok"));
            const auto rows = finishedRows(store);
            QVERIFY2(rows.size() >= 3 && rows.size() < cells, std::to_string(rows.size()).c_str());
            for (const auto& [name, n] : rows) {
                QCOMPARE(n, reference.at(name));
                finished_before.insert(name);
            }
            for (const RunInfo& r : store.runs()) {
                QVERIFY2(r.status != RunStatus::Running, r.scenario_name.c_str());
                if (r.status == RunStatus::Finished) continue;
                QCOMPARE(resultRows(store, r.id), std::int64_t(0));
                QVERIFY2(r.message.rfind("interrupted", 0) == 0, r.message.c_str());
            }
        }

        // Run again: the finished cells are reused, the rest completed.
        ScenarioStore store(path);
        const SweepReport again = runSweep(store, sweepSpecs(store), {});
        QCOMPARE(again.failed, 0);
        QCOMPARE(again.reused, static_cast<int>(finished_before.size()));
        for (std::int64_t id : again.run_ids) QVERIFY(id != 0);
        QCOMPARE(finishedRows(store), reference);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    void fullDiskFailsTheStepAndKeepsEarlierData() {
        const std::string path = pathOf("full.sqlite");
        ScenarioStore store(path);
        ScenarioSpec spec = storeInputs(store);
        spec.name = "earlier";
        store.createScenario(spec);
        const RunOutcome earlier = runScenario(store, "earlier");
        const std::int64_t earlier_rows = resultRows(store, earlier.run_id);
        spec.name = "next";
        const std::int64_t next = store.createScenario(spec);
        const std::int64_t run = store.beginRun(next, "t");

        // No page beyond those the file has now: as a full disk.
        const std::int64_t pages = scalar(store, "PRAGMA page_count");
        store.db().exec("PRAGMA max_page_count = " + std::to_string(pages));
        VERIFY_MESSAGE(store.saveRun(run, bigResult(20000)), path + ": ", "the disk is full",
                       "nothing of this step was written", "(SQLite: database or disk is full)");
        spec.name = "too-big";
        spec.notes = std::string(4 << 20, 'n');
        VERIFY_MESSAGE(store.createScenario(spec), path + ": ", "the disk is full");

        QCOMPARE(runStatusName(store.runInfo(run).status), std::string("running"));
        QCOMPARE(resultRows(store, run), std::int64_t(0));
        QVERIFY(!store.findScenario("too-big"));
        QCOMPARE(resultRows(store, earlier.run_id), earlier_rows);
        QCOMPARE(integrity(store), std::string("ok"));

        // Room again: the same steps succeed.
        store.db().exec("PRAGMA max_page_count = 1073741823");
        store.saveRun(run, bigResult(20000));
        QCOMPARE(runStatusName(store.runInfo(run).status), std::string("finished"));
        store.createScenario(spec);
        QVERIFY(store.findScenario("too-big"));
        QCOMPARE(store.loadRun(earlier.run_id).jobs.size(), std::size_t(60));
    }

    void readOnlyWorkspaceRefusesWritesAndChangesNothing() {
        const std::string path = pathOf("read-only.sqlite");
        std::int64_t run = 0;
        ScenarioSpec spec;
        {
            ScenarioStore store(path);
            spec = storeInputs(store);
            spec.name = "kept";
            store.createScenario(spec);
            run = runScenario(store, "kept").run_id;
        }
        ScenarioStore store(path);
        const std::int64_t rows = resultRows(store, run);
        const auto runs_before = store.runs().size();
        // As a read-only file or mount does to a connection.
        store.db().exec("PRAGMA query_only = ON");
        const std::string read_only = "the workspace is read-only";
        spec.name = "new";
        VERIFY_MESSAGE(store.createScenario(spec), path + ": ", read_only, "nothing was changed");
        VERIFY_MESSAGE(store.beginRun(store.scenario("kept").id, "t"), path + ": ", read_only);
        VERIFY_MESSAGE(store.renameScenario("kept", "renamed"), path + ": ", read_only);
        VERIFY_MESSAGE(store.deleteScenario("kept"), path + ": ", read_only);
        VERIFY_MESSAGE(store.putTrace(sweepTrace()), path + ": ", read_only);
        // Reads still work.
        QCOMPARE(store.loadRun(run).jobs.size(), std::size_t(60));
        store.db().exec("PRAGMA query_only = OFF");
        QCOMPARE(store.runs().size(), runs_before);
        QCOMPARE(resultRows(store, run), rows);
        QVERIFY(!store.findScenario("new"));
        QVERIFY(store.findScenario("kept"));
    }

    void writeProtectedFileIsRefusedOnOpen() {
        if (geteuid() == 0)
            QSKIP("file permissions do not bind root (the query_only case above covers the message)");
        const std::string path = pathOf("protected.sqlite");
        { ScenarioStore store(path); }
        const std::string before = fileBytes(path);
        fs::permissions(path, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                        fs::perm_options::remove);
        VERIFY_MESSAGE(ScenarioStore{path}, path + ": ", "write-protected");
        fs::permissions(path, fs::perms::owner_write, fs::perm_options::add);
        QCOMPARE(fileBytes(path), before);
    }
};

QTEST_APPLESS_MAIN(TestStoreFailures)
#include "test_store_failures.moc"
