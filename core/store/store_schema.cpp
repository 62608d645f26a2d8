#include "core/store/store_schema.h"

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace cl {

namespace {

// Version 1: the first workspace layout.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE clusters(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  content_hash TEXT NOT NULL UNIQUE,
  layout_json TEXT NOT NULL,
  servers INTEGER NOT NULL,
  created TEXT NOT NULL);
CREATE TABLE profile_sets(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  content_hash TEXT NOT NULL UNIQUE,
  profiles_json TEXT NOT NULL,
  models INTEGER NOT NULL,
  created TEXT NOT NULL);
CREATE TABLE traces(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  content_hash TEXT NOT NULL UNIQUE,
  jobs INTEGER NOT NULL,
  created TEXT NOT NULL);
CREATE TABLE trace_provenance(
  trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY(trace_id, position)) WITHOUT ROWID;
CREATE TABLE trace_jobs(
  trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  job_id TEXT NOT NULL,
  submit_time REAL NOT NULL,
  gpus INTEGER NOT NULL,
  model TEXT NOT NULL,
  iterations REAL NOT NULL,
  duration REAL NOT NULL,
  batch_size INTEGER NOT NULL,
  user TEXT NOT NULL,
  vc TEXT NOT NULL,
  iteration_time REAL NOT NULL,
  stage_times TEXT NOT NULL,
  priority INTEGER NOT NULL,
  PRIMARY KEY(trace_id, position)) WITHOUT ROWID;
CREATE TABLE scenarios(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  cluster_id INTEGER NOT NULL REFERENCES clusters(id),
  trace_id INTEGER NOT NULL REFERENCES traces(id),
  profiles_id INTEGER NOT NULL REFERENCES profile_sets(id),
  policy TEXT NOT NULL,
  conventions TEXT NOT NULL,
  parameters_json TEXT NOT NULL,
  seed INTEGER NOT NULL,
  notes TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  created TEXT NOT NULL,
  modified TEXT NOT NULL);
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
  engine_version TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  started TEXT NOT NULL,
  finished TEXT,
  status TEXT NOT NULL CHECK(status IN ('running', 'finished', 'failed', 'cancelled')),
  message TEXT NOT NULL DEFAULT '');
CREATE INDEX runs_by_scenario ON runs(scenario_id);
CREATE TABLE run_summaries(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  policy TEXT NOT NULL,
  conventions TEXT NOT NULL,
  jobs INTEGER NOT NULL,
  completed INTEGER NOT NULL,
  avg_jct REAL NOT NULL,
  median_jct REAL NOT NULL,
  p95_jct REAL NOT NULL,
  p99_jct REAL NOT NULL,
  makespan REAL NOT NULL,
  avg_queueing_delay REAL NOT NULL,
  events INTEGER NOT NULL,
  wall_seconds REAL NOT NULL);
CREATE TABLE run_jobs(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  job_id TEXT NOT NULL,
  model TEXT NOT NULL,
  gpus INTEGER NOT NULL,
  iterations REAL NOT NULL,
  solo_iteration_time REAL NOT NULL,
  submit REAL NOT NULL,
  first_start REAL,
  end_time REAL,
  jct REAL,
  queueing_delay REAL,
  pending_time REAL NOT NULL,
  running_time REAL NOT NULL,
  preemptions INTEGER NOT NULL,
  restarts INTEGER NOT NULL,
  completed INTEGER NOT NULL,
  PRIMARY KEY(run_id, position)) WITHOUT ROWID;
-- One row per GPU: its segments packed little-endian as (t0 f64, t1 f64, job i32), sorted
-- by t0 -- what the timeline view reads, and far faster to store than a row per segment.
CREATE TABLE run_segments(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  gpu INTEGER NOT NULL,
  segments INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY(run_id, gpu)) WITHOUT ROWID;
CREATE TABLE run_series(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  t REAL NOT NULL,
  queue_length INTEGER NOT NULL,
  running_jobs INTEGER NOT NULL,
  gpu_utilization REAL NOT NULL,
  PRIMARY KEY(run_id, position)) WITHOUT ROWID;
)sql";

// Version 2: the blocking index joins the time series (version 1 did not keep it; migrated
// runs get NULL, read back as unknown); a run records which process runs it ("host:pid"), so
// that a run whose process died can be told from one still going; and finding an earlier
// identical run by content hash no longer scans every run.
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE run_series ADD COLUMN blocking_index REAL;
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_by_hash ON runs(content_hash, engine_version, status);
)sql";

// Version 3: how busy storage, CPU, GPU compute and network are over time (migrated runs
// get NULL, read back as unknown).
constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE run_series ADD COLUMN storage_utilization REAL;
ALTER TABLE run_series ADD COLUMN cpu_utilization REAL;
ALTER TABLE run_series ADD COLUMN gpu_compute_utilization REAL;
ALTER TABLE run_series ADD COLUMN network_utilization REAL;
)sql";

// Version 4: the CPU cores and DRAM allocated to running jobs over time (migrated runs get
// NULL, read back as unknown), and each job's allocation changes under the Synergy mechanisms:
// one row per job, its changes packed little-endian as (t, cpus, memory_gb, speedup), all f64,
// sorted by t -- read with the segments, by the timeline's tooltips.
constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE run_series ADD COLUMN cpu_allocated REAL;
ALTER TABLE run_series ADD COLUMN memory_allocated REAL;
CREATE TABLE run_allocations(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  job INTEGER NOT NULL,
  changes INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY(run_id, job)) WITHOUT ROWID;
)sql";

// Version 5: each job's gradient-accumulation changes under the SJF-BSBF mechanisms (who shares
// a GPU at what sub-batch, and how much sharing slows it): one row per job, its changes packed
// little-endian as (t f64, sub_batch i32, accumulation_steps i32, interference f64), sorted by
// t -- read with the segments, by the timeline's tooltips. Migrated runs have none.
constexpr const char* kSchemaV5 = R"sql(
CREATE TABLE run_batches(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  job INTEGER NOT NULL,
  changes INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY(run_id, job)) WITHOUT ROWID;
)sql";

// Version 6: what the desktop app remembers about this workspace (which runs Compare shows
// and its baseline, ...): one text value per key, so that the choices travel with the file.
constexpr const char* kSchemaV6 = R"sql(
CREATE TABLE workspace_settings(
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL) WITHOUT ROWID;
)sql";

// Version 7: what planners filter and plan by, carried from a scheduler's accounting (Slurm
// JobName, Account, Partition, NCPUS, ReqMem, GPU type; docs/architecture.md 8.5). Migrated
// traces have none ('' and 0).
constexpr const char* kSchemaV7 = R"sql(
ALTER TABLE trace_jobs ADD COLUMN job_name TEXT NOT NULL DEFAULT '';
ALTER TABLE trace_jobs ADD COLUMN account TEXT NOT NULL DEFAULT '';
ALTER TABLE trace_jobs ADD COLUMN partition_name TEXT NOT NULL DEFAULT '';
ALTER TABLE trace_jobs ADD COLUMN cpus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trace_jobs ADD COLUMN memory_gb REAL NOT NULL DEFAULT 0;
ALTER TABLE trace_jobs ADD COLUMN gpu_type TEXT NOT NULL DEFAULT '';
)sql";

// Version 8: the summary's p95 queueing delay and the JCTs of large and small jobs
// (docs/architecture.md 7.2). Migrated runs have NULL, and the store derives the figures from the
// run's per-job records when it reads them; a class without a completed job is NULL too.
constexpr const char* kSchemaV8 = R"sql(
ALTER TABLE run_summaries ADD COLUMN p95_queueing_delay REAL;
ALTER TABLE run_summaries ADD COLUMN large_completed INTEGER;
ALTER TABLE run_summaries ADD COLUMN large_avg_jct REAL;
ALTER TABLE run_summaries ADD COLUMN large_p95_jct REAL;
ALTER TABLE run_summaries ADD COLUMN large_p99_jct REAL;
ALTER TABLE run_summaries ADD COLUMN small_completed INTEGER;
ALTER TABLE run_summaries ADD COLUMN small_avg_jct REAL;
ALTER TABLE run_summaries ADD COLUMN small_p95_jct REAL;
ALTER TABLE run_summaries ADD COLUMN small_p99_jct REAL;
)sql";

// Version 9: what a trace job asked the scheduler for (Slurm's --gres GPU type, NNodes and
// Timelimit, docs/architecture.md 8.8) and when it started in the recorded run. Migrated traces
// have none: '' and 0 ask for nothing, and -1 is Job's "not recorded".
constexpr const char* kSchemaV9 = R"sql(
ALTER TABLE trace_jobs ADD COLUMN requested_gpu_type TEXT NOT NULL DEFAULT '';
ALTER TABLE trace_jobs ADD COLUMN nodes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trace_jobs ADD COLUMN time_limit REAL NOT NULL DEFAULT 0;
ALTER TABLE trace_jobs ADD COLUMN recorded_start REAL NOT NULL DEFAULT -1;
)sql";

// Version 10: what a run records of a Slurm replay (docs/architecture.md 2.8 and 2.10): which
// jobs ended at their time limit (per job, and the summary's count), the jobs left out because
// they can never fit the cluster, and the notes a reader must know (in the run's order). Runs
// stored before had no time limits, hence 0, and neither left-out jobs nor notes; a run without
// them still writes no row to the two new tables.
constexpr const char* kSchemaV10 = R"sql(
ALTER TABLE run_jobs ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_summaries ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
CREATE TABLE run_left_out(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  job_index INTEGER NOT NULL,
  job_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY(run_id, position)) WITHOUT ROWID;
CREATE TABLE run_notes(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  note TEXT NOT NULL,
  PRIMARY KEY(run_id, position)) WITHOUT ROWID;
)sql";

// Version 11: a run's job records packed into one row (run_codec.h), not a row per job: storing
// the 82,000 rows of a Philly run was most of the time a capacity plan spent outside simulating.
// Runs stored before keep their run_jobs rows, and are read from them.
constexpr const char* kSchemaV11 = R"sql(
CREATE TABLE run_job_records(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  jobs INTEGER NOT NULL,
  data BLOB NOT NULL);
)sql";

const std::vector<const char*>& migrations() {
    static const std::vector<const char*> steps = {kSchemaV1, kSchemaV2,  kSchemaV3, kSchemaV4,
                                                   kSchemaV5, kSchemaV6,  kSchemaV7, kSchemaV8,
                                                   kSchemaV9, kSchemaV10, kSchemaV11};
    return steps;
}

std::int64_t pragmaInt(SqliteDb& db, const char* pragma) {
    Statement s = db.prepare(std::string("PRAGMA ") + pragma);
    return s.step() ? s.int64At(0) : 0;
}

// Switching a file into WAL mode needs it to itself, and SQLite does not call the busy
// handler for that: when several processes open a new workspace at once, the switch fails
// with SQLITE_BUSY (or, racing another switch, SQLITE_IOERR_DELETE_NOENT on the old
// journal) until one of them has made it. Retry those for as long as a busy lock is waited for.
void useWriteAheadLog(SqliteDb& db) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        const int rc = sqlite3_exec(db.handle(), "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK) return;
        const bool transient =
            (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED || rc == SQLITE_IOERR_DELETE_NOENT;
        if (!transient || std::chrono::steady_clock::now() > deadline)
            db.fail("cannot switch the workspace to write-ahead logging");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

int latestWorkspaceSchema() {
    return static_cast<int>(migrations().size());
}

void prepareWorkspace(SqliteDb& db, int target_version) {
    std::int64_t version = 0, app_id = 0, tables = 0;
    // Until the file is known to be a workspace this build reads, closing the connection must
    // not fold a write-ahead log left beside it (by a newer build or another program) into it.
    sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    // SQLite falls back to read-only for a write-protected file; every run and edit would then
    // fail late, so say so now.
    if (db.isReadOnly())
        throw StoreError(
            db.path() +
            ": the workspace is write-protected (the file or its folder is read-only); ClusterLoom "
            "needs to write to it. Change its permissions or copy it to a writable folder.");
    try {
        // The first read of the header: a file that is not SQLite fails here, before any write.
        // One statement, so one snapshot: another process creating the workspace commits its
        // tables and its application id together.
        Statement s = db.prepare(
            "SELECT (SELECT user_version FROM pragma_user_version), "
            "(SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema)");
        if (s.step()) {
            version = s.int64At(0);
            app_id = s.int64At(1);
            tables = s.int64At(2);
        }
    } catch (const StoreError&) {
        // Only a file SQLite cannot read as a database is "not a workspace"; a locked, unreadable
        // or vanished one keeps the error that says so.
        const int code = sqlite3_extended_errcode(db.handle()) & 0xff;
        if (code != SQLITE_NOTADB && code != SQLITE_CORRUPT) throw;
        // SQLite's own reason ("file is not a database"): the words added for other failures
        // would only repeat this message's.
        const std::string reason = sqlite3_errmsg(db.handle());
        throw StoreError(db.path() + ": not a ClusterLoom workspace (cannot read it as a SQLite database: " +
                         reason + "); the file was not modified");
    }
    if (tables > 0 && app_id != kWorkspaceApplicationId)
        throw StoreError(
            db.path() +
            ": not a ClusterLoom workspace (a SQLite database of another program); the file was not "
            "modified");
    if (version > latestWorkspaceSchema())
        throw StoreError(db.path() + ": written by a newer ClusterLoom (workspace schema " +
                         std::to_string(version) + ", this build reads up to " +
                         std::to_string(latestWorkspaceSchema()) + "); the file was not modified");
    if (target_version < 1 || target_version > latestWorkspaceSchema())
        throw StoreError(db.path() + ": no workspace schema " + std::to_string(target_version));
    sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);

    // WAL: readers (the GUI) never block the writer (a sweep) and a killed writer leaves
    // only an uncommitted tail that the next open discards.
    useWriteAheadLog(db);
    db.exec("PRAGMA synchronous=NORMAL");
    db.exec("PRAGMA foreign_keys=ON");
    if (version >= 1 && version < target_version) {
        // An older build cannot open the file once migrated: keep a copy it can, once.
        const std::string backup = db.path() + ".schema" + std::to_string(version) + ".bak";
        if (!std::filesystem::exists(backup)) {
            // Written under a name of this process, then renamed: a copy that failed half-way
            // (a full disk) is never taken for the backup.
            const std::string partial = backup + ".partial-" + std::to_string(::getpid());
            Statement copy = db.prepare("VACUUM INTO ?1");
            copy.bind(1, partial);
            std::error_code ec;
            try {
                copy.run();
            } catch (const StoreError&) {
                std::filesystem::remove(partial, ec);
                if (!std::filesystem::exists(backup)) throw;  // else another process made it just now
            }
            if (std::filesystem::exists(partial) && !std::filesystem::exists(backup))
                std::filesystem::rename(partial, backup, ec);
            std::filesystem::remove(partial, ec);
            if (!std::filesystem::exists(backup))
                throw StoreError(db.path() + ": cannot keep the backup " + backup +
                                 " before updating the workspace schema; the file was not modified");
        }
    }
    for (auto v = version; v < target_version; ++v) {
        Transaction tx(db);
        // Another process may have migrated meanwhile: re-read under the write lock.
        if (pragmaInt(db, "user_version") > v) continue;
        db.exec(migrations()[static_cast<std::size_t>(v)]);
        db.exec("PRAGMA application_id=" + std::to_string(kWorkspaceApplicationId));
        db.exec("PRAGMA user_version=" + std::to_string(v + 1));
        tx.commit();
    }
}

}  // namespace cl
