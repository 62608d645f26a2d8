// Merging shard workspaces (core/store/workspace_merge.h, docs/architecture.md section 9.7):
// merging twice changes nothing the second time, and a run of another engine is kept; a
// damaged, truncated, foreign, table-less or newer-schema shard is refused by name with nothing
// of it landing while the others merge; a scenario name the workspace has with other settings
// refuses the shard; a second connection reading the workspace during the merge keeps its
// consistent view.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "core/io/builtin_data.h"
#include "core/io/trace_readers.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "core/store/workspace_merge.h"
#include "store_test_support.h"

using namespace cl;
using namespace cl::test;
namespace fs = std::filesystem;

namespace {

const std::string kSmallTrace = std::string(CLUSTERLOOM_FIXTURES_DIR) + "/cli/small.csv";

// A shard as run-spec writes it: the inputs, one scenario and its finished run.
void makeShard(const std::string& path, const std::string& name, std::uint64_t seed,
               const std::string& policy = "srtf") {
    ScenarioStore store(path);
    ScenarioSpec spec;
    spec.name = name;
    spec.cluster_id = store.putCluster(resolveCluster("muri-testbed-64"));
    spec.profiles_id = store.putProfiles(builtinProfiles("muri"));
    spec.trace_id = store.putTrace(readTrace(kSmallTrace));
    spec.policy = policy;
    spec.seed = seed;
    store.createScenario(spec);
    runScenario(store, name);
}

// Everything the merge could change, as one comparable text: ids, names, hashes, statuses and
// row counts of every table.
std::string contents(ScenarioStore& store) {
    std::string out;
    for (const auto& s : store.scenarios()) out += "scenario " + s.spec.name + " " + s.content_hash + "\n";
    for (const auto& r : store.runs())
        out += "run " + std::to_string(r.id) + " " + r.scenario_name + " " + r.content_hash + " " +
               runStatusName(r.status) + " " + std::to_string(r.summary.avg_jct) + " " +
               std::to_string(resultRows(store, r.id)) + "\n";
    for (const char* t : {"clusters", "profile_sets", "traces", "trace_jobs", "trace_provenance"})
        out += std::string(t) + " " +
               std::to_string(scalar(store, std::string("SELECT count(*) FROM ") + t)) + "\n";
    return out;
}

bool mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TestWorkspaceMerge : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string at(const std::string& name) { return (fs::path(dir_.path().toStdString()) / name).string(); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        makeShard(at("a.sqlite"), "sweep/s1", 1);
        makeShard(at("b.sqlite"), "sweep/s2", 2, "fifo");
    }

    // The merged runs carry the shard's figures and rows; a second merge adds nothing.
    void mergingTwiceIsIdempotent() {
        const std::string ws = at("idem.sqlite");
        ScenarioStore store(ws);
        ShardMerge a = mergeShard(store, at("a.sqlite"));
        QVERIFY2(a.merged, a.error.c_str());
        QCOMPARE(a.runs_added, 1);
        QCOMPARE(a.scenarios_added, 1);
        QCOMPARE(a.inputs_added, 3);
        ShardMerge b = mergeShard(store, at("b.sqlite"));
        QVERIFY2(b.merged, b.error.c_str());
        QCOMPARE(b.runs_added, 1);
        QCOMPARE(b.inputs_added, 0);  // the same cluster, profiles and trace: stored once
        const std::string once = contents(store);

        for (const char* shard : {"a.sqlite", "b.sqlite"}) {
            ShardMerge again = mergeShard(store, at(shard));
            QVERIFY2(again.merged, again.error.c_str());
            QCOMPARE(again.runs_added, 0);
            QCOMPARE(again.runs_skipped, 1);
            QCOMPARE(again.scenarios_added, 0);
            QCOMPARE(again.inputs_added, 0);
        }
        QCOMPARE(contents(store), once);

        // Figure for figure and row for row what the shard holds.
        ScenarioStore shard(at("a.sqlite"));
        const RunInfo theirs = shard.runs().front();
        const auto ours_info = store.finishedRunWithHash(theirs.content_hash, theirs.engine_version);
        QVERIFY(ours_info.has_value());
        QCOMPARE(ours_info->summary.avg_jct, theirs.summary.avg_jct);
        QCOMPARE(ours_info->summary.p95_jct, theirs.summary.p95_jct);
        QCOMPARE(ours_info->summary.makespan, theirs.summary.makespan);
        QCOMPARE(ours_info->events, theirs.events);
        QCOMPARE(ours_info->started, theirs.started);
        QCOMPARE(resultRows(store, ours_info->id), resultRows(shard, theirs.id));
        const SimResult mine = store.loadRun(ours_info->id), original = shard.loadRun(theirs.id);
        QCOMPARE(mine.jobs.size(), original.jobs.size());
        QCOMPARE(mine.segments.size(), original.segments.size());
        QCOMPARE(mine.series.size(), original.series.size());
        for (std::size_t k = 0; k < mine.jobs.size(); ++k) QCOMPARE(mine.jobs[k].end, original.jobs[k].end);
        QCOMPARE(integrity(store), std::string("ok"));
        // The merged scenario reuses its run, as one run here would have.
        QVERIFY(runScenario(store, "sweep/s1").reused);
    }

    // A run is skipped only when a finished run of the same scenario hash has the same engine
    // version: the same scenario simulated by another engine is another run, kept beside it.
    void aRunOfAnotherEngineIsNotSkipped() {
        ScenarioStore store(at("engines.sqlite"));
        QVERIFY(mergeShard(store, at("a.sqlite")).merged);
        fs::copy_file(at("a.sqlite"), at("a-other-engine.sqlite"));
        {
            SqliteDb db(at("a-other-engine.sqlite"), SqliteDb::Mode::ReadWrite);
            db.exec("UPDATE runs SET engine_version = '0.0.1-r1'");
        }
        ShardMerge other = mergeShard(store, at("a-other-engine.sqlite"));
        QVERIFY2(other.merged, other.error.c_str());
        QCOMPARE(other.runs_added, 1);
        QCOMPARE(other.runs_skipped, 0);
        QCOMPARE(other.scenarios_added, 0);  // the same scenario: its second run
        QCOMPARE(store.runs().size(), std::size_t(2));
        QVERIFY(store.finishedRunWithHash(store.scenario("sweep/s1").content_hash, "0.0.1-r1").has_value());
        ShardMerge again = mergeShard(store, at("a-other-engine.sqlite"));
        QCOMPARE(again.runs_added, 0);
        QCOMPARE(again.runs_skipped, 1);
    }

    // Each bad shard is refused by name with nothing of it landing; the good one still merges.
    void damagedShardsAreRefusedAndOthersMerge() {
        // Not SQLite at all.
        { std::ofstream(at("text.sqlite")) << "job_id,submit_time\nthis is no database\n"; }
        // Truncated: the first half of a good shard (a copy cut off mid-transfer).
        makeShard(at("whole.sqlite"), "cut/s1", 11);
        {
            const std::string bytes = fileBytes(at("whole.sqlite"));
            std::ofstream(at("truncated.sqlite"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        }
        // A workspace missing a table.
        makeShard(at("tableless.sqlite"), "tableless/s1", 12);
        {
            SqliteDb db(at("tableless.sqlite"), SqliteDb::Mode::ReadWrite);
            db.exec("DROP TABLE run_jobs");
        }
        // Another program's SQLite file.
        {
            SqliteDb db(at("foreign.sqlite"), SqliteDb::Mode::ReadWriteCreate);
            db.exec("CREATE TABLE t(x)");
        }
        // An empty file (touched, never written).
        { std::ofstream(at("empty.sqlite")); }

        const std::string ws = at("damaged.sqlite");
        ScenarioStore store(ws);
        const std::string before = contents(store);
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"text.sqlite", "not a readable SQLite database"},
            {"truncated.sqlite", "damaged"},
            {"tableless.sqlite", "table 'run_jobs' is missing"},
            {"foreign.sqlite", "not a ClusterLoom workspace"},
            {"empty.sqlite", "not a ClusterLoom workspace"},
            {"missing.sqlite", "no such file"}};
        for (const auto& [file, reason] : bad) {
            ShardMerge m = mergeShard(store, at(file));
            QVERIFY2(!m.merged, file.c_str());
            QVERIFY2(mentions(m.error, reason), (file + ": " + m.error).c_str());
            QCOMPARE(m.shard, at(file));
            QCOMPARE(contents(store), before);
        }
        ShardMerge good = mergeShard(store, at("a.sqlite"));
        QVERIFY2(good.merged, good.error.c_str());
        QCOMPARE(good.runs_added, 1);
        QCOMPARE(integrity(store), std::string("ok"));
        // The refused files are left as they were.
        QCOMPARE(fileBytes(at("text.sqlite")), std::string("job_id,submit_time\nthis is no database\n"));
    }

    void newerSchemaShardIsRefused() {
        makeShard(at("newer.sqlite"), "newer/s1", 21);
        {
            SqliteDb db(at("newer.sqlite"), SqliteDb::Mode::ReadWrite);
            db.exec("PRAGMA user_version=" + std::to_string(ScenarioStore::latestSchemaVersion() + 1));
        }
        ScenarioStore store(at("newer-ws.sqlite"));
        const std::string before = contents(store);
        ShardMerge m = mergeShard(store, at("newer.sqlite"));
        QVERIFY(!m.merged);
        QVERIFY2(mentions(m.error, "written by a newer ClusterLoom (workspace schema " +
                                       std::to_string(ScenarioStore::latestSchemaVersion() + 1)),
                 m.error.c_str());
        QCOMPARE(contents(store), before);
    }

    // Decision (docs/architecture.md 9.7): a scenario name the workspace has with other settings
    // refuses the whole shard, as a sweep refuses such a prefix; the same name and settings is
    // the same scenario, whose run joins it.
    void scenarioNameTakenByOtherSettingsRefusesTheShard() {
        ScenarioStore store(at("conflict.sqlite"));
        ScenarioSpec spec;
        spec.name = "sweep/s1";
        spec.cluster_id = store.putCluster(resolveCluster("muri-testbed-64"));
        spec.profiles_id = store.putProfiles(builtinProfiles("muri"));
        spec.trace_id = store.putTrace(readTrace(kSmallTrace));
        spec.seed = 99;  // a.sqlite's sweep/s1 has seed 1
        store.createScenario(spec);
        const std::string before = contents(store);
        ShardMerge m = mergeShard(store, at("a.sqlite"));
        QVERIFY(!m.merged);
        QVERIFY2(mentions(m.error, "scenario 'sweep/s1' is in the workspace with other settings"),
                 m.error.c_str());
        QCOMPARE(contents(store), before);

        // Same name, same settings: the shard's run joins the existing scenario.
        store.renameScenario("sweep/s1", "mine");
        spec.seed = 1;
        store.createScenario(spec);
        ShardMerge same = mergeShard(store, at("a.sqlite"));
        QVERIFY2(same.merged, same.error.c_str());
        QCOMPARE(same.scenarios_added, 0);
        QCOMPARE(same.runs_added, 1);
        QCOMPARE(store.scenario("sweep/s1").runs, 1);
    }

    // WAL: a reader holding a snapshot keeps seeing the workspace as it was, the merge commits
    // meanwhile, and a new read sees the merged run.
    void aReaderOpenDuringTheMergeKeepsAConsistentView() {
        const std::string ws = at("reader.sqlite");
        ScenarioStore writer(ws);
        QVERIFY(mergeShard(writer, at("a.sqlite")).merged);
        ScenarioStore reader(ws);
        {
            ReadSnapshot snapshot(reader.db());
            QCOMPARE(reader.runs().size(), std::size_t(1));
            ShardMerge m = mergeShard(writer, at("b.sqlite"));
            QVERIFY2(m.merged, m.error.c_str());
            QCOMPARE(m.runs_added, 1);
            QCOMPARE(reader.runs().size(), std::size_t(1));
            QCOMPARE(reader.loadRun(reader.runs().front().id).jobs.size(), std::size_t(4));
        }
        QCOMPARE(reader.runs().size(), std::size_t(2));
        QCOMPARE(integrity(reader), std::string("ok"));
    }

    void theWorkspaceItselfIsNoShard() {
        ScenarioStore store(at("self.sqlite"));
        ShardMerge m = mergeShard(store, at("self.sqlite"));
        QVERIFY(!m.merged);
        QVERIFY2(mentions(m.error, "the workspace itself"), m.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestWorkspaceMerge)
#include "test_workspace_merge.moc"
