// What a run of a Slurm replay records (docs/architecture.md 2.8 and 2.10) survives the workspace
// (section 9.2, schema 10): jobs that ended at their time limit (per job and the summary's count),
// jobs left out because they can never fit the cluster, and the run's notes. A run without any of
// them stores exactly the rows it stored before; a schema-9 workspace migrates and reads its runs
// with nothing timed out and nothing left out; merging a shard carries the new rows, and deleting
// a run's scenario deletes them.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/metrics/jct_stats.h"
#include "core/policies/simulate_policy.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/store/workspace_merge.h"
#include "core/workload/trace_generator.h"
#include "store_test_support.h"

using namespace cl;
using namespace cl::test;
namespace fs = std::filesystem;

namespace {

bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

Trace generatedTrace(int jobs) {
    GeneratorConfig g;
    g.jobs = jobs;
    g.seed = 5;
    g.jobs_per_hour = 20;
    g.max_gpus = 8;
    const ProfileSet profiles = builtinProfiles();
    return generate(g, &profiles);
}

struct Inputs {
    std::int64_t cluster = 0, trace = 0, profiles = 0;
};

Inputs storeInputs(ScenarioStore& store) {
    return {store.putCluster(builtinCluster("muri-testbed-64")), store.putTrace(generatedTrace(12)),
            store.putProfiles(builtinProfiles())};
}

ScenarioSpec specFor(const std::string& name, const Inputs& in) {
    ScenarioSpec s;
    s.name = name;
    s.cluster_id = in.cluster;
    s.trace_id = in.trace;
    s.profiles_id = in.profiles;
    return s;
}

JobRecord record(int index, const std::string& id, int gpus) {
    JobRecord j;
    j.index = index;
    j.id = id;
    j.model = "resnet18";
    j.gpus = gpus;
    j.iterations = 1000;
    j.solo_iteration_time = 0.125;
    j.submit = 10.0 * index;
    return j;
}

// A run without timeouts, left-out jobs or notes, as every run was before schema 10.
SimResult plainResult() {
    SimResult r;
    r.policy = "srtf";
    r.conventions = "clean";
    JobRecord a = record(0, "a", 2);
    a.first_start = 1.5;
    a.end = 126.5;
    a.jct = 126.5;
    a.queueing_delay = 1.5;
    a.pending_time = 1.5;
    a.running_time = 125;
    a.restarts = 1;
    a.completed = true;
    JobRecord b = record(1, "b", 1);
    b.first_start = 10;
    b.end = 135;
    b.jct = 125;
    b.queueing_delay = 0;
    b.running_time = 125;
    b.restarts = 1;
    b.completed = true;
    r.jobs = {a, b};
    r.segments = {{0, 1.5, 126.5, 0}, {1, 1.5, 126.5, 0}, {2, 10, 135, 1}};
    r.series = {{0, 1, 0, 0.0, 0.0}, {10, 0, 2, 0.0, 0.5}, {135, 0, 0, 0.0, 0.0}};
    r.summary = summarize(r.jobs);
    r.events = 9;
    r.wall_seconds = 0.03125;
    return r;
}

// plainResult plus what a replay records: job 1 ran into its time limit, jobs 2 and 3 could never
// fit (never run), and a note about random models.
SimResult replayResult() {
    SimResult r = plainResult();
    JobRecord& b = r.jobs[1];
    b.end = 70;
    b.jct = 60;
    b.running_time = 60;
    b.completed = false;
    b.timed_out = true;
    r.segments[2].t1 = 70;
    r.jobs.push_back(record(2, "too big, ünïcode", 128));
    r.jobs.push_back(record(3, "wide", 4));
    r.left_out = {
        {2, "too big, ünïcode", "job 'too big, ünïcode' (#2) asks for 128 GPUs; its servers hold 64"},
        {3, "wide", "job 'wide' (#3) asks for 4 nodes \"of 8 GPUs\"; the cluster has 2 such"}};
    r.notes = {"3 jobs got a random model (no rule matched them; ünïcode \"quoted\")"};
    r.summary = summarize(r.jobs);
    return r;
}

// What this suite checks of a stored run: the per-job records, the summary's counts and figures,
// the left-out jobs and the notes (test_store compares everything else).
std::string diffReplay(const SimResult& a, const SimResult& b) {
    if (a.jobs.size() != b.jobs.size())
        return "job count " + std::to_string(a.jobs.size()) + " != " + std::to_string(b.jobs.size());
    for (std::size_t k = 0; k < a.jobs.size(); ++k) {
        const JobRecord &x = a.jobs[k], &y = b.jobs[k];
        const std::string at = "job " + std::to_string(k) + ": ";
        if (x.index != y.index || x.id != y.id || x.gpus != y.gpus) return at + "index, id or GPUs";
        if (!same(x.end, y.end) || !same(x.jct, y.jct) || !same(x.first_start, y.first_start))
            return at + "times";
        if (x.completed != y.completed) return at + "completed";
        if (x.timed_out != y.timed_out) return at + "timed_out";
    }
    const Summary &m = a.summary, &n = b.summary;
    if (m.jobs != n.jobs || m.completed != n.completed || m.timed_out != n.timed_out)
        return "summary counts (timed out " + std::to_string(m.timed_out) + " vs " +
               std::to_string(n.timed_out) + ")";
    if (!same(m.avg_jct, n.avg_jct) || !same(m.p95_queueing_delay, n.p95_queueing_delay) ||
        m.large.completed != n.large.completed || !same(m.small.avg_jct, n.small.avg_jct))
        return "summary figures";
    if (a.left_out.size() != b.left_out.size())
        return "left-out count " + std::to_string(a.left_out.size()) +
               " != " + std::to_string(b.left_out.size());
    for (std::size_t k = 0; k < a.left_out.size(); ++k)
        if (a.left_out[k].index != b.left_out[k].index || a.left_out[k].id != b.left_out[k].id ||
            a.left_out[k].reason != b.left_out[k].reason)
            return "left-out " + std::to_string(k) + ": '" + a.left_out[k].reason + "' != '" +
                   b.left_out[k].reason + "'";
    if (a.notes != b.notes) return "notes";
    if (a.policy != b.policy || a.conventions != b.conventions || a.events != b.events) return "run fields";
    return {};
}

#define VERIFY_SAME(diff_expr)                  \
    do {                                        \
        const std::string diff_ = (diff_expr);  \
        QVERIFY2(diff_.empty(), diff_.c_str()); \
    } while (0)

std::int64_t rowsOf(ScenarioStore& store, const char* table, std::int64_t run) {
    return scalar(store, std::string("SELECT count(*) FROM ") + table + " WHERE run_id = ?1", run);
}

std::int64_t tableExists(ScenarioStore& store, const char* table) {
    return scalar(store, std::string("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '") +
                             table + "'");
}

std::int64_t storeRun(ScenarioStore& store, std::int64_t scenario, const SimResult& r,
                      std::size_t* total = nullptr) {
    const std::int64_t run = store.beginRun(scenario, "test-engine");
    store.saveRun(run, r, [&](std::size_t, std::size_t t) {
        if (total) *total = t;
    });
    return run;
}

}  // namespace

class TestStoreReplayRuns : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    int files_ = 0;
    std::string freshPath() {
        return (fs::path(dir_.path().toStdString()) / ("ws" + std::to_string(++files_) + ".sqlite")).string();
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void timeoutsLeftOutJobsAndNotesRoundTrip() {
        const std::string path = freshPath();
        const SimResult r = replayResult();
        QCOMPARE(r.summary.timed_out, 1);
        std::int64_t run = 0;
        {
            ScenarioStore store(path);
            QCOMPARE(store.schemaVersion(), 11);
            std::size_t total = 0;
            run = storeRun(store, store.createScenario(specFor("replay", storeInputs(store))), r, &total);
            // A row per job, per GPU with segments, per sample, per left-out job and per note.
            QCOMPARE(total, r.jobs.size() + 3 + r.series.size() + 2 + 1);
            VERIFY_SAME(diffReplay(store.loadRun(run), r));
            // Left-out jobs and notes come with or without the segments.
            VERIFY_SAME(diffReplay(store.loadRun(run, false), r));
            QCOMPARE(store.runInfo(run).summary.timed_out, 1);
            QCOMPARE(store.runs().at(0).summary.timed_out, 1);
            QCOMPARE(rowsOf(store, "run_left_out", run), 2LL);
            QCOMPARE(rowsOf(store, "run_notes", run), 1LL);
            const std::vector<JobRecord> jobs = store.loadRun(run, false).jobs;
            QCOMPARE(std::count_if(jobs.begin(), jobs.end(), [](const JobRecord& j) { return j.timed_out; }),
                     std::ptrdiff_t(1));
            QCOMPARE(scalar(store, "SELECT timed_out FROM run_summaries WHERE run_id = ?1", run), 1LL);
        }
        ScenarioStore again(path);
        VERIFY_SAME(diffReplay(again.loadRun(run), r));
        QCOMPARE(integrity(again), std::string("ok"));
    }

    // Before schema 10 a run wrote no such rows; one without timeouts, left-out jobs or notes
    // still writes none (and its progress counts the same rows), and it is reused as before.
    void aRunWithoutThemStoresTheRowsItStoredBefore() {
        ScenarioStore store(freshPath());
        const Inputs in = storeInputs(store);
        const std::int64_t scenario = store.createScenario(specFor("plain", in));
        const SimResult r = plainResult();
        std::size_t total = 0;
        const std::int64_t run = storeRun(store, scenario, r, &total);
        QCOMPARE(total, r.jobs.size() + 3 + r.series.size());
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_left_out"), 0LL);
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_notes"), 0LL);
        QCOMPARE(scalar(store, "SELECT timed_out FROM run_summaries WHERE run_id = ?1", run), 0LL);
        // The summary, the job records (one packed row, schema 11), a row per GPU and per sample.
        QCOMPARE(resultRows(store, run), std::int64_t(1 + 1 + 3 + r.series.size()));
        const SimResult back = store.loadRun(run);
        VERIFY_SAME(diffReplay(back, r));
        QVERIFY(back.left_out.empty() && back.notes.empty());

        // Run by the engine: nothing timed out or left out, no note, nothing stored for them;
        // running it again reuses the run.
        store.createScenario(specFor("engine", in));
        const RunOutcome first = runScenario(store, "engine");
        QVERIFY(!first.reused);
        QCOMPARE(rowsOf(store, "run_left_out", first.run_id), 0LL);
        QCOMPARE(rowsOf(store, "run_notes", first.run_id), 0LL);
        QCOMPARE(first.info.summary.timed_out, 0);
        QVERIFY(runScenario(store, "engine").reused);
    }

    // The engine's own records of a replay: a job past its time limit and one that can never fit,
    // through runScenario and back; srtf keeps the partition request, so the run has no note.
    void anEngineRunKeepsWhatItRecorded() {
        ScenarioStore store(freshPath());
        Cluster cluster = builtinCluster("muri-testbed-64");
        cluster.partitions = {{"left", 1, 0, true}, {"right", 1, 0, false}};
        for (std::size_t k = 0; k < cluster.servers.size(); ++k)
            cluster.servers[k].partitions = {k < cluster.servers.size() / 2 ? "left" : "right"};
        Trace trace = generatedTrace(12);
        trace.name = "replayed";
        trace.jobs[2].time_limit = 1;  // seconds: it times out
        trace.jobs[5].gpus = 1000;     // never fits
        trace.jobs[7].partition = "right";
        const Inputs in{store.putCluster(cluster), store.putTrace(trace),
                        store.putProfiles(builtinProfiles())};
        ScenarioSpec spec = specFor("engine replay", in);
        spec.policy = "srtf";
        store.createScenario(spec);
        const RunOutcome outcome = runScenario(store, "engine replay");
        QCOMPARE(outcome.info.status, RunStatus::Finished);
        const SimResult back = store.loadRun(outcome.run_id);
        QVERIFY(back.jobs.at(2).timed_out);
        QVERIFY(!back.jobs.at(2).completed);
        QCOMPARE(back.summary.timed_out, 1);
        QCOMPARE(back.left_out.size(), std::size_t(1));
        QCOMPARE(back.left_out[0].index, 5);
        QCOMPARE(back.left_out[0].id, trace.jobs[5].id);
        QVERIFY(!back.left_out[0].reason.empty());
        QVERIFY(back.notes.empty());
    }

    void schema9WorkspaceMigrates() {
        const std::string path = freshPath();
        const SimResult old_run = plainResult();
        std::int64_t run = 0, scenario = 0;
        std::string hash;
        {
            ScenarioStore old(path, 9);
            QCOMPARE(old.schemaVersion(), 9);
            scenario = old.createScenario(specFor("v9", storeInputs(old)));
            run = old.beginRun(scenario, "v9-engine");
            old.saveRun(run, old_run);
            hash = old.scenario("v9").content_hash;
            QCOMPARE(tableExists(old, "run_left_out"), 0LL);
            QCOMPARE(tableExists(old, "run_notes"), 0LL);
            QCOMPARE(
                scalar(old, "SELECT count(*) FROM pragma_table_info('run_jobs') WHERE name = 'timed_out'"),
                0LL);
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), ScenarioStore::latestSchemaVersion());
        QCOMPARE(store.schemaVersion(), 11);
        QCOMPARE(integrity(store), std::string("ok"));
        {
            SqliteDb backup(path + ".schema9.bak", SqliteDb::Mode::ReadOnly);
            Statement v = backup.prepare("PRAGMA user_version");
            QVERIFY(v.step());
            QCOMPARE(v.intAt(0), 9);
        }
        QCOMPARE(tableExists(store, "run_left_out"), 1LL);
        QCOMPARE(tableExists(store, "run_notes"), 1LL);

        // The old run reads as it was: nothing timed out, nothing left out, no notes.
        const SimResult back = store.loadRun(run);
        VERIFY_SAME(diffReplay(back, old_run));
        for (const JobRecord& j : back.jobs) QVERIFY(!j.timed_out);
        QCOMPARE(back.summary.timed_out, 0);
        QVERIFY(back.left_out.empty() && back.notes.empty());
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_jobs WHERE timed_out IS NOT 0"), 0LL);
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_summaries WHERE timed_out IS NOT 0"), 0LL);
        // Still found for reuse by its hash and engine.
        const auto found = store.finishedRunWithHash(hash, "v9-engine");
        QVERIFY(found && found->id == run);

        // New runs keep what they record.
        const std::int64_t fresh = storeRun(store, scenario, replayResult());
        VERIFY_SAME(diffReplay(store.loadRun(fresh), replayResult()));
        QCOMPARE(integrity(store), std::string("ok"));
    }

    // A store kept at schema 9 (as an older build) writes a run without the new columns or tables.
    void aStoreAtSchema9WritesWithoutThem() {
        ScenarioStore old(freshPath(), 9);
        const std::int64_t run =
            storeRun(old, old.createScenario(specFor("at 9", storeInputs(old))), plainResult());
        QCOMPARE(scalar(old, "SELECT count(*) FROM run_jobs WHERE run_id = ?1", run), 2LL);
        QCOMPARE(scalar(old, "SELECT count(*) FROM run_summaries WHERE run_id = ?1", run), 1LL);
    }

    // Schema 11 packs a run's job records into one row; runs stored before keep their run_jobs
    // rows and read as they were, beside new runs of the same workspace.
    void jobRecordsArePackedAndOlderRunsStillRead() {
        const std::string path = freshPath();
        std::int64_t scenario = 0, old_run = 0;
        {
            ScenarioStore old(path, 10);
            scenario = old.createScenario(specFor("v10", storeInputs(old)));
            old_run = storeRun(old, scenario, replayResult());
            QCOMPARE(tableExists(old, "run_job_records"), 0LL);
            QCOMPARE(rowsOf(old, "run_jobs", old_run), std::int64_t(replayResult().jobs.size()));
        }
        ScenarioStore store(path);
        QCOMPARE(store.schemaVersion(), 11);
        VERIFY_SAME(diffReplay(store.loadRun(old_run), replayResult()));
        const std::int64_t fresh = storeRun(store, scenario, replayResult());
        QCOMPARE(rowsOf(store, "run_jobs", fresh), 0LL);
        QCOMPARE(rowsOf(store, "run_job_records", fresh), 1LL);
        VERIFY_SAME(diffReplay(store.loadRun(fresh), replayResult()));
        VERIFY_SAME(diffReplay(store.loadRun(old_run, false), replayResult()));
        // Deleting the scenario deletes the packed row too.
        store.deleteScenario("v10");
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_job_records"), 0LL);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    // A packed row that does not hold its count of records is refused, naming the run.
    void aDamagedJobRecordRowIsRefused() {
        ScenarioStore store(freshPath());
        const std::int64_t run =
            storeRun(store, store.createScenario(specFor("whole", storeInputs(store))), plainResult());
        int k = 0;
        for (const char* damage : {"UPDATE run_job_records SET data = substr(data, 1, length(data) - 3)",
                                   "UPDATE run_job_records SET jobs = jobs + 1",
                                   "UPDATE run_job_records SET data = data || x'00'"}) {
            const std::int64_t fresh = storeRun(
                store, store.createScenario(specFor("damaged " + std::to_string(++k), storeInputs(store))),
                plainResult());
            store.db().prepare(std::string(damage) + " WHERE run_id = ?1").bind(1, fresh).run();
            try {
                store.loadRun(fresh, false);
                QFAIL(damage);
            } catch (const StoreError& e) {
                const std::string what = e.what();
                QVERIFY2(
                    what.find("run " + std::to_string(fresh) + ": damaged job records") != std::string::npos,
                    what.c_str());
            }
        }
        VERIFY_SAME(diffReplay(store.loadRun(run), plainResult()));
    }

    void deletingARunsScenarioDeletesItsRows() {
        ScenarioStore store(freshPath());
        const Inputs in = storeInputs(store);
        const std::int64_t keep = storeRun(store, store.createScenario(specFor("keep", in)), replayResult());
        ScenarioSpec other = specFor("drop", in);
        other.seed = 2;
        const std::int64_t drop = storeRun(store, store.createScenario(other), replayResult());
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_left_out"), 4LL);
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_notes"), 2LL);
        store.deleteScenario("drop");
        QCOMPARE(rowsOf(store, "run_left_out", drop), 0LL);
        QCOMPARE(rowsOf(store, "run_notes", drop), 0LL);
        QCOMPARE(rowsOf(store, "run_left_out", keep), 2LL);
        QCOMPARE(rowsOf(store, "run_notes", keep), 1LL);
        QCOMPARE(scalar(store, "SELECT count(*) FROM pragma_foreign_key_check"), 0LL);
        store.deleteScenario("keep");
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_left_out"), 0LL);
        QCOMPARE(scalar(store, "SELECT count(*) FROM run_notes"), 0LL);
        QCOMPARE(integrity(store), std::string("ok"));
    }

    // A shard's run lands with its timeouts, left-out jobs and notes; a schema-9 shard's run
    // lands with none (as after a migration).
    void mergingCarriesThem() {
        const std::string shard = freshPath(), old_shard = freshPath();
        std::int64_t shard_run = 0;
        {
            ScenarioStore s(shard);
            shard_run =
                storeRun(s, s.createScenario(specFor("sweep/replay", storeInputs(s))), replayResult());
        }
        {
            ScenarioStore s(old_shard, 9);
            ScenarioSpec spec = specFor("sweep/old", storeInputs(s));
            spec.seed = 9;
            storeRun(s, s.createScenario(spec), plainResult());
        }
        ScenarioStore ws(freshPath());
        const ShardMerge merged = mergeShard(ws, shard);
        QVERIFY2(merged.merged, merged.error.c_str());
        QCOMPARE(merged.runs_added, 1);
        const ShardMerge old_merged = mergeShard(ws, old_shard);
        QVERIFY2(old_merged.merged, old_merged.error.c_str());
        QCOMPARE(old_merged.runs_added, 1);

        const std::vector<RunInfo> runs = ws.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        const RunInfo& mine = runs[0].scenario_name == "sweep/replay" ? runs[0] : runs[1];
        const RunInfo& old = runs[0].scenario_name == "sweep/replay" ? runs[1] : runs[0];
        VERIFY_SAME(diffReplay(ws.loadRun(mine.id), replayResult()));
        QCOMPARE(mine.summary.timed_out, 1);
        QCOMPARE(rowsOf(ws, "run_left_out", mine.id), 2LL);
        QCOMPARE(rowsOf(ws, "run_notes", mine.id), 1LL);
        {
            ScenarioStore theirs(shard);
            VERIFY_SAME(diffReplay(ws.loadRun(mine.id), theirs.loadRun(shard_run)));
        }
        const SimResult old_back = ws.loadRun(old.id);
        VERIFY_SAME(diffReplay(old_back, plainResult()));
        QCOMPARE(rowsOf(ws, "run_left_out", old.id), 0LL);
        QCOMPARE(rowsOf(ws, "run_notes", old.id), 0LL);

        // Merging again adds nothing.
        const ShardMerge again = mergeShard(ws, shard);
        QVERIFY2(again.merged, again.error.c_str());
        QCOMPARE(again.runs_added, 0);
        QCOMPARE(scalar(ws, "SELECT count(*) FROM run_left_out"), 2LL);
        QCOMPARE(scalar(ws, "SELECT count(*) FROM run_notes"), 1LL);
        QCOMPARE(integrity(ws), std::string("ok"));
    }

    // A shard of schema 10 without its left-out table is damaged, and is refused by name.
    void aSchema10ShardWithoutTheTableIsRefused() {
        const std::string shard = freshPath();
        {
            ScenarioStore s(shard);
            storeRun(s, s.createScenario(specFor("sweep/damaged", storeInputs(s))), replayResult());
            s.db().exec("DROP TABLE run_left_out");
        }
        ScenarioStore ws(freshPath());
        const ShardMerge merged = mergeShard(ws, shard);
        QVERIFY(!merged.merged);
        QVERIFY2(merged.error.find("table 'run_left_out' is missing") != std::string::npos,
                 merged.error.c_str());
        QCOMPARE(ws.runs().size(), std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestStoreReplayRuns)
#include "test_store_replay_runs.moc"
