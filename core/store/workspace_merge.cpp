#include "core/store/workspace_merge.h"

#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "core/store/store_schema.h"

namespace cl {

namespace {

// A shard problem: refused by name, the workspace unchanged.
class ShardRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The shard is read through the workspace's own connection (ATTACH), so that copying a row is
// one INSERT ... SELECT inside the workspace's transaction. Detached on every path.
// SQLite's own words from a StoreError ("(SQLite: file is not a database)"), without the
// workspace's path that the error starts with: the failure is the shard's.
std::string sqliteDetail(const StoreError& e) {
    const std::string what = e.what();
    const auto at = what.find("(SQLite: ");
    return at == std::string::npos ? what : what.substr(at);
}

// Why the shard's first read failed, in words: a file SQLite cannot read at all, or one whose
// pages are broken (cut off mid-copy, written half-way).
ShardRefused unreadable(SqliteDb& db, const StoreError& e) {
    if ((sqlite3_extended_errcode(db.handle()) & 0xff) == SQLITE_CORRUPT)
        return ShardRefused("damaged (a truncated or half-written file?) " + sqliteDetail(e));
    return ShardRefused("not a readable SQLite database " + sqliteDetail(e));
}

class AttachedShard {
public:
    AttachedShard(SqliteDb& db, const std::string& path) : db_(db) {
        Statement attach = db_.prepare("ATTACH DATABASE ?1 AS shard");
        attach.bind(1, path);
        try {
            attach.run();
        } catch (const StoreError& e) {
            throw unreadable(db_, e);
        }
    }
    AttachedShard(const AttachedShard&) = delete;
    AttachedShard& operator=(const AttachedShard&) = delete;
    ~AttachedShard() {
        try {
            db_.exec("DETACH DATABASE shard");
        } catch (...) {
        }
    }

private:
    SqliteDb& db_;
};

std::vector<std::string> tableColumns(SqliteDb& db, const std::string& schema, const std::string& table) {
    std::vector<std::string> out;
    Statement s = db.prepare("SELECT name FROM pragma_table_info(?1, ?2)");
    s.bind(1, table).bind(2, schema);
    while (s.step()) out.push_back(s.textAt(0));
    return out;
}

// The columns of the workspace's table that the shard's table has too, except `remapped` (ids
// the caller binds): a shard of an older schema lacks later columns, which take their defaults
// (NULL: unknown, as in a migrated workspace, docs/architecture.md section 9.5).
std::string copiedColumns(SqliteDb& db, const std::string& table, const std::set<std::string>& remapped) {
    const std::vector<std::string> theirs = tableColumns(db, "shard", table);
    const std::set<std::string> in_shard(theirs.begin(), theirs.end());
    std::string list;
    for (const auto& c : tableColumns(db, "main", table))
        if (!remapped.count(c) && in_shard.count(c)) list += (list.empty() ? "\"" : ", \"") + c + "\"";
    return list;
}

// Tables every workspace of that schema has (store_schema.cpp).
std::vector<std::string> requiredTables(std::int64_t version) {
    std::vector<std::string> t = {"clusters",   "profile_sets", "traces",    "trace_provenance",
                                  "trace_jobs", "scenarios",    "runs",      "run_summaries",
                                  "run_jobs",   "run_segments", "run_series"};
    if (version >= 4) t.push_back("run_allocations");
    if (version >= 5) t.push_back("run_batches");
    if (version >= 10) {
        t.push_back("run_left_out");
        t.push_back("run_notes");
    }
    if (version >= 11) t.push_back("run_job_records");
    return t;
}

std::int64_t pragmaValue(SqliteDb& db, const char* pragma) {
    Statement s = db.prepare(std::string("PRAGMA shard.") + pragma);
    return s.step() ? s.int64At(0) : 0;
}

// Reads the shard's header and checks its pages before anything is written.
void checkShard(SqliteDb& db) {
    std::int64_t version = 0, app_id = 0;
    try {
        version = pragmaValue(db, "user_version");
        app_id = pragmaValue(db, "application_id");
    } catch (const StoreError& e) {
        throw unreadable(db, e);
    }
    if (app_id != kWorkspaceApplicationId)
        throw ShardRefused(version == 0 && app_id == 0
                               ? "not a ClusterLoom workspace (an empty or foreign file)"
                               : "not a ClusterLoom workspace (a SQLite database "
                                 "of another program)");
    if (version > latestWorkspaceSchema())
        throw ShardRefused("written by a newer ClusterLoom (workspace schema " + std::to_string(version) +
                           ", this build reads up to " + std::to_string(latestWorkspaceSchema()) + ")");
    if (version < 1) throw ShardRefused("holds no workspace schema");
    std::string problems;
    try {
        Statement check = db.prepare("PRAGMA shard.quick_check(5)");
        while (check.step())
            if (check.textAt(0) != "ok") problems += (problems.empty() ? "" : "; ") + check.textAt(0);
    } catch (const StoreError& e) {
        problems = sqliteDetail(e);
    }
    if (!problems.empty()) throw ShardRefused("damaged (a truncated or half-written file?): " + problems);
    for (const auto& table : requiredTables(version)) {
        Statement s =
            db.prepare("SELECT count(*) FROM shard.sqlite_schema WHERE type = 'table' AND name = ?1");
        s.bind(1, table);
        if (!s.step() || s.int64At(0) == 0)
            throw ShardRefused("damaged: its table '" + table + "' is missing (schema " +
                               std::to_string(version) + " has it)");
    }
}

std::optional<std::int64_t> mainIdWithHash(SqliteDb& db, const std::string& table, const std::string& hash) {
    Statement s = db.prepare("SELECT id FROM main." + table + " WHERE content_hash = ?1");
    s.bind(1, hash);
    if (s.step()) return s.int64At(0);
    return std::nullopt;
}

// Clusters, profile sets and traces of the shard, by content hash: the workspace's id of each
// shard id (an input already there is reused, as storing identical content does).
std::map<std::int64_t, std::int64_t> mergeInputs(SqliteDb& db, const std::string& table, ShardMerge& out) {
    std::map<std::int64_t, std::int64_t> ids;
    std::vector<std::pair<std::int64_t, std::string>> rows;
    {
        Statement s = db.prepare("SELECT id, content_hash FROM shard." + table);
        while (s.step()) rows.emplace_back(s.int64At(0), s.textAt(1));
    }
    const std::string columns = copiedColumns(db, table, {"id"});
    for (const auto& [shard_id, hash] : rows) {
        if (auto id = mainIdWithHash(db, table, hash)) {
            ids[shard_id] = *id;
            continue;
        }
        db.prepare("INSERT INTO main." + table + "(" + columns + ") SELECT " + columns + " FROM shard." +
                   table + " WHERE id = ?1")
            .bind(1, shard_id)
            .run();
        const std::int64_t id = db.lastInsertId();
        ids[shard_id] = id;
        ++out.inputs_added;
        if (table == "traces")
            for (const char* rows_table : {"trace_provenance", "trace_jobs"}) {
                const std::string cols = copiedColumns(db, rows_table, {"trace_id"});
                db.prepare(std::string("INSERT INTO main.") + rows_table + "(trace_id, " + cols +
                           ") SELECT ?1, " + cols + " FROM shard." + rows_table + " WHERE trace_id = ?2")
                    .bind(1, id)
                    .bind(2, shard_id)
                    .run();
            }
    }
    return ids;
}

std::int64_t mapped(const std::map<std::int64_t, std::int64_t>& ids, std::int64_t id, const std::string& what,
                    const std::string& scenario) {
    auto it = ids.find(id);
    if (it == ids.end())
        throw ShardRefused("damaged: scenario '" + scenario + "' refers to a missing " + what + " (id " +
                           std::to_string(id) + ")");
    return it->second;
}

struct ShardScenario {
    std::int64_t id, cluster_id, trace_id, profiles_id;
    std::string name, hash;
};

// Scenarios by name. One the workspace has under the same name and content hash is the same
// scenario; under the same name with another hash it is a conflict, and the shard is refused,
// as a sweep refuses a prefix whose names are taken by other settings (scenario_runner.h).
std::map<std::int64_t, std::int64_t> mergeScenarios(SqliteDb& db,
                                                    const std::map<std::int64_t, std::int64_t>& clusters,
                                                    const std::map<std::int64_t, std::int64_t>& traces,
                                                    const std::map<std::int64_t, std::int64_t>& profiles,
                                                    ShardMerge& out) {
    std::vector<ShardScenario> rows;
    {
        Statement s = db.prepare(
            "SELECT id, cluster_id, trace_id, profiles_id, name, content_hash FROM shard.scenarios");
        while (s.step())
            rows.push_back(
                {s.int64At(0), s.int64At(1), s.int64At(2), s.int64At(3), s.textAt(4), s.textAt(5)});
    }
    const std::string columns =
        copiedColumns(db, "scenarios", {"id", "cluster_id", "trace_id", "profiles_id"});
    std::map<std::int64_t, std::int64_t> ids;
    for (const auto& r : rows) {
        Statement find = db.prepare("SELECT id, content_hash FROM main.scenarios WHERE name = ?1");
        find.bind(1, r.name);
        if (find.step()) {
            if (find.textAt(1) != r.hash)
                throw ShardRefused("its scenario '" + r.name +
                                   "' is in the workspace with other settings (content hash " +
                                   find.textAt(1) + ", the shard's " + r.hash +
                                   "); rename one of them (clusterloom-cli scenario rename) and merge again");
            ids[r.id] = find.int64At(0);
            continue;
        }
        db.prepare("INSERT INTO main.scenarios(cluster_id, trace_id, profiles_id, " + columns +
                   ") SELECT ?1, ?2, ?3, " + columns + " FROM shard.scenarios WHERE id = ?4")
            .bind(1, mapped(clusters, r.cluster_id, "cluster", r.name))
            .bind(2, mapped(traces, r.trace_id, "trace", r.name))
            .bind(3, mapped(profiles, r.profiles_id, "profile set", r.name))
            .bind(4, r.id)
            .run();
        ids[r.id] = db.lastInsertId();
        ++out.scenarios_added;
    }
    return ids;
}

void mergeRuns(SqliteDb& db, std::int64_t shard_version,
               const std::map<std::int64_t, std::int64_t>& scenarios, ShardMerge& out) {
    struct ShardRun {
        std::int64_t id, scenario_id;
        std::string engine, hash, status;
    };
    std::vector<ShardRun> rows;
    {
        Statement s =
            db.prepare("SELECT id, scenario_id, engine_version, content_hash, status FROM shard.runs");
        while (s.step()) rows.push_back({s.int64At(0), s.int64At(1), s.textAt(2), s.textAt(3), s.textAt(4)});
    }
    const std::string run_columns = copiedColumns(db, "runs", {"id", "scenario_id"});
    std::vector<std::string> result_tables = {"run_summaries", "run_jobs", "run_segments", "run_series"};
    if (shard_version >= 4) result_tables.push_back("run_allocations");
    if (shard_version >= 5) result_tables.push_back("run_batches");
    if (shard_version >= 10) {
        result_tables.push_back("run_left_out");
        result_tables.push_back("run_notes");
    }
    if (shard_version >= 11) result_tables.push_back("run_job_records");
    std::vector<std::pair<std::string, std::string>> result_columns;
    for (const auto& t : result_tables) result_columns.emplace_back(t, copiedColumns(db, t, {"run_id"}));

    for (const auto& r : rows) {
        if (r.status != "finished") {
            ++out.runs_unfinished;
            continue;
        }
        auto scenario = scenarios.find(r.scenario_id);
        if (scenario == scenarios.end())
            throw ShardRefused("damaged: run " + std::to_string(r.id) + " refers to a missing scenario (id " +
                               std::to_string(r.scenario_id) + ")");
        Statement known = db.prepare(
            "SELECT 1 FROM main.runs WHERE content_hash = ?1 AND engine_version = ?2 AND status = "
            "'finished'");
        known.bind(1, r.hash).bind(2, r.engine);
        if (known.step()) {
            ++out.runs_skipped;
            continue;
        }
        db.prepare("INSERT INTO main.runs(scenario_id, " + run_columns + ") SELECT ?1, " + run_columns +
                   " FROM shard.runs WHERE id = ?2")
            .bind(1, scenario->second)
            .bind(2, r.id)
            .run();
        const std::int64_t run_id = db.lastInsertId();
        for (const auto& [table, columns] : result_columns)
            db.prepare("INSERT INTO main." + table + "(run_id, " + columns + ") SELECT ?1, " + columns +
                       " FROM shard." + table + " WHERE run_id = ?2")
                .bind(1, run_id)
                .bind(2, r.id)
                .run();
        ++out.runs_added;
    }
}

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code ec;
    return std::filesystem::equivalent(a, b, ec);
}

}  // namespace

ShardMerge mergeShard(ScenarioStore& into, const std::string& shard) {
    ShardMerge out;
    out.shard = shard;
    SqliteDb& db = into.db();
    try {
        std::error_code ec;
        if (!std::filesystem::exists(shard, ec)) throw ShardRefused("no such file");
        if (!std::filesystem::is_regular_file(shard, ec)) throw ShardRefused("not a regular file");
        if (sameFile(shard, into.path())) throw ShardRefused("is the workspace itself");
        AttachedShard attached(db, shard);
        checkShard(db);
        const std::int64_t version = pragmaValue(db, "user_version");
        ShardMerge counts = out;
        Transaction tx(db);
        const auto clusters = mergeInputs(db, "clusters", counts);
        const auto profiles = mergeInputs(db, "profile_sets", counts);
        const auto traces = mergeInputs(db, "traces", counts);
        const auto scenarios = mergeScenarios(db, clusters, traces, profiles, counts);
        mergeRuns(db, version, scenarios, counts);
        tx.commit();
        out = counts;
        out.merged = true;
    } catch (const std::exception& e) {
        out = ShardMerge{};
        out.shard = shard;
        out.error = e.what();
    }
    return out;
}

}  // namespace cl
