#include "core/store/scenario_store.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/io/layout_io.h"
#include "core/io/profile_io.h"
#include "core/metrics/jct_stats.h"
#include "core/policies/scheduler_registry.h"
#include "core/policies/slurm_config.h"
#include "core/sim/conventions.h"
#include "core/store/content_hash.h"
#include "core/store/run_codec.h"
#include "core/store/store_schema.h"

namespace cl {

namespace {

std::string nowIso() {
    auto now = std::chrono::system_clock::now();
    std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string stageTimesText(const std::vector<double>& st) {
    nlohmann::json a = nlohmann::json::array();
    for (double t : st) a.push_back(t);
    return a.dump();
}
std::vector<double> stageTimesFrom(const std::string& text, const std::string& where) {
    std::vector<double> out;
    try {
        for (const auto& v : nlohmann::json::parse(text)) out.push_back(v.get<double>());
    } catch (const std::exception& e) {
        throw StoreError(where + ": field 'stage_times' is not a list of numbers: " + e.what());
    }
    return out;
}

}  // namespace

std::string traceContentHash(const Trace& t) {
    ContentHasher h;
    h.add(t.name);
    for (const auto& line : t.provenance) h.add(line);
    for (const Job& j : t.jobs) {
        h.add(j.id).add(j.submit_time).add(static_cast<long long>(j.gpus)).add(j.model).add(j.iterations);
        h.add(j.duration)
            .add(static_cast<long long>(j.batch_size))
            .add(j.user)
            .add(j.vc)
            .add(j.solo_iteration_time);
        h.add(static_cast<long long>(j.stage_times.size()));
        for (double s : j.stage_times) h.add(s);
        h.add(static_cast<long long>(j.priority));
        // Added with schema 7: hashed only when set, so that traces without them keep their
        // hashes (and their stored runs stay reusable).
        const Job d;
        if (j.name != d.name || j.account != d.account || j.partition != d.partition || j.cpus != d.cpus ||
            j.memory_gb != d.memory_gb || j.gpu_type != d.gpu_type)
            h.add(std::string("planning"))
                .add(j.name)
                .add(j.account)
                .add(j.partition)
                .add(static_cast<long long>(j.cpus))
                .add(j.memory_gb)
                .add(j.gpu_type);
        // Added with schema 9, the same way: what the job asked the scheduler for and when it
        // started in the recorded run (docs/architecture.md 9.3).
        if (j.requested_gpu_type != d.requested_gpu_type || j.nodes != d.nodes ||
            j.time_limit != d.time_limit || j.recorded_start != d.recorded_start)
            h.add(std::string("requests"))
                .add(j.requested_gpu_type)
                .add(static_cast<long long>(j.nodes))
                .add(j.time_limit)
                .add(j.recorded_start);
    }
    return h.hex();
}

namespace {

RunStatus statusFrom(const std::string& s) {
    if (s == "finished") return RunStatus::Finished;
    if (s == "failed") return RunStatus::Failed;
    if (s == "cancelled") return RunStatus::Cancelled;
    return RunStatus::Running;
}

std::vector<StoredItem> listItems(SqliteDb& db, const char* sql) {
    std::vector<StoredItem> out;
    Statement s = db.prepare(sql);
    while (s.step()) out.push_back({s.int64At(0), s.textAt(1), s.textAt(2), s.textAt(3), s.int64At(4)});
    return out;
}

}  // namespace

std::string runStatusName(RunStatus s) {
    switch (s) {
        case RunStatus::Running:
            return "running";
        case RunStatus::Finished:
            return "finished";
        case RunStatus::Failed:
            return "failed";
        case RunStatus::Cancelled:
            return "cancelled";
    }
    return "running";
}

// ---- parameters ---------------------------------------------------------------------------

nlohmann::json ScenarioParameters::toJson() const {
    nlohmann::json j = nlohmann::json::object();
    j["load_factor"] = load_factor;
    j["server_count"] = server_count;
    j["max_group_size"] = max_group_size;
    j["reassign_models"] = reassign_models;
    j["transforms"] = transforms;
    if (measure_first != 0 || measure_last >= 0) j["measure_jobs"] = {measure_first, measure_last};
    if (interference != 0) j["interference"] = interference;
    if (!slurm_parameters.empty()) j["slurm_parameters"] = slurm_parameters;
    if (stop_when_overloaded != 0) j["stop_when_overloaded"] = stop_when_overloaded;
    if (!stop_when_missed.empty()) {
        nlohmann::json list = nlohmann::json::array();
        for (const SimOptions::MissedTarget& m : stop_when_missed)
            list.push_back({{"metric", m.metric}, {"seconds", m.seconds}});
        j["stop_when_missed"] = list;
    }
    return j;
}

ScenarioParameters ScenarioParameters::fromJson(const nlohmann::json& j) {
    if (!j.is_object()) throw std::invalid_argument("scenario parameters: expected a JSON object");
    ScenarioParameters p;
    for (const auto& item : j.items()) {
        const std::string& key = item.key();
        const nlohmann::json& v = item.value();
        auto bad = [&](const std::string& what) {
            throw std::invalid_argument("scenario parameters: '" + key + "' " + what);
        };
        if (key == "load_factor") {
            if (!v.is_number()) bad("must be a number");
            p.load_factor = v.get<double>();
        } else if (key == "server_count") {
            if (!v.is_number_integer()) bad("must be an integer");
            p.server_count = v.get<int>();
        } else if (key == "max_group_size") {
            if (!v.is_number_integer()) bad("must be an integer");
            p.max_group_size = v.get<int>();
        } else if (key == "reassign_models") {
            if (!v.is_boolean()) bad("must be true or false");
            p.reassign_models = v.get<bool>();
        } else if (key == "transforms") {
            if (!v.is_array()) bad("must be a list of transform specs");
            for (const auto& t : v) {
                if (!t.is_string()) bad("must be a list of transform specs");
                p.transforms.push_back(t.get<std::string>());
            }
        } else if (key == "measure_jobs") {
            if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer() ||
                v[0].get<int>() < 0 || (v[1].get<int>() >= 0 && v[1].get<int>() < v[0].get<int>()))
                bad("must be [first, last] job positions with 0 <= first <= last (last -1 = to the end)");
            p.measure_first = v[0].get<int>();
            p.measure_last = v[1].get<int>();
        } else if (key == "interference") {
            if (!v.is_number()) bad("must be a number");
            p.interference = v.get<double>();
            if (!(p.interference == 0 || (p.interference >= 1 && p.interference <= 100)))
                bad("must be 0 (the profile's ratios) or 1..100 (how much slower a job sharing its GPUs "
                    "runs)");
        } else if (key == "slurm_parameters") {
            if (!v.is_array()) bad("must be a list of KEY=VALUE Slurm settings");
            for (const auto& t : v) {
                if (!t.is_string()) bad("must be a list of KEY=VALUE Slurm settings");
                p.slurm_parameters.push_back(t.get<std::string>());
            }
        } else if (key == "stop_when_overloaded") {
            if (!v.is_number() || !(v.get<double>() >= 0))
                bad("must be a share of the arrival window, 0 or more");
            p.stop_when_overloaded = v.get<double>();
        } else if (key == "stop_when_missed") {
            if (!v.is_array()) bad("must be a list of {\"metric\", \"seconds\"} targets");
            for (const auto& m : v) {
                if (!m.is_object() || !m.contains("metric") || !m["metric"].is_string() ||
                    !m.contains("seconds") || !m["seconds"].is_number() || m.size() != 2)
                    bad("must be a list of {\"metric\", \"seconds\"} targets");
                if (!stopsWhenMissed(m["metric"].get<std::string>()))
                    bad("has metric '" + m["metric"].get<std::string>() +
                        "', which cannot stop a run early (p95_queueing, median_jct, p95_jct, p99_jct)");
                if (!(m["seconds"].get<double>() >= 0)) bad("must have seconds of 0 or more");
                p.stop_when_missed.push_back({m["metric"].get<std::string>(), m["seconds"].get<double>()});
            }
        } else {
            bad("is not a scenario parameter (load_factor, server_count, max_group_size, reassign_models, "
                "transforms, measure_jobs, interference, slurm_parameters, stop_when_overloaded, "
                "stop_when_missed)");
        }
    }
    return p;
}

// ---- opening ------------------------------------------------------------------------------

std::string ScenarioStore::defaultPath() {
    if (const char* p = std::getenv("CLUSTERLOOM_DB"); p && *p) return p;
    std::filesystem::path base;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
        base = x;
    else if (const char* h = std::getenv("HOME"); h && *h)
        base = std::filesystem::path(h) / ".local" / "share";
    else
        base = std::filesystem::current_path();
    return (base / "clusterloom" / "workspace.sqlite").string();
}

int ScenarioStore::latestSchemaVersion() {
    return latestWorkspaceSchema();
}

namespace {
SqliteDb openFile(const std::string& path) {
    if (path.empty()) throw StoreError("no workspace file given");
    std::filesystem::path p(path);
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) {
        if (std::filesystem::is_directory(p, ec))
            throw StoreError(path + ": is a directory, not a workspace file");
        return SqliteDb(path, SqliteDb::Mode::ReadWrite);
    }
    if (p.has_parent_path()) {
        std::filesystem::create_directories(p.parent_path(), ec);
        if (ec) throw StoreError(path + ": cannot create its folder: " + ec.message());
    }
    return SqliteDb(path, SqliteDb::Mode::ReadWriteCreate);
}
}  // namespace

ScenarioStore::ScenarioStore(const std::string& path) : db_(openFile(path)) {
    open(latestWorkspaceSchema());
}

ScenarioStore::ScenarioStore(const std::string& path, int schema_version) : db_(openFile(path)) {
    open(schema_version);
}

void ScenarioStore::open(int target_version) {
    prepareWorkspace(db_, target_version);
    if (schemaVersion() >= 2) recoverInterruptedRuns();
}

namespace {

std::string thisHost() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

std::string ownerTag() {
    return thisHost() + ":" + std::to_string(static_cast<long long>(getpid()));
}

bool processGone(long long pid) {
    return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

int ScenarioStore::recoverInterruptedRuns() {
    const std::string prefix = thisHost() + ":";
    std::vector<std::pair<std::int64_t, long long>> dead;
    {
        Statement s = db_.prepare("SELECT id, owner FROM runs WHERE status = 'running' AND owner <> ''");
        while (s.step()) {
            const std::string owner = s.textAt(1);
            if (owner.rfind(prefix, 0) != 0) continue;  // another machine's process: cannot tell
            long long pid = 0;
            try {
                pid = std::stoll(owner.substr(prefix.size()));
            } catch (const std::exception&) {
                continue;
            }
            if (processGone(pid)) dead.emplace_back(s.int64At(0), pid);
        }
    }
    if (dead.empty()) return 0;
    Transaction tx(db_);
    Statement mark = db_.prepare(
        "UPDATE runs SET status = 'failed', finished = ?1, message = ?2 WHERE id = ?3 AND status = "
        "'running'");
    for (const auto& [id, pid] : dead)
        mark.bind(1, nowIso())
            .bind(2, "interrupted: the process that ran it (pid " + std::to_string(pid) +
                         ") ended without finishing")
            .bind(3, id)
            .run();
    tx.commit();
    return static_cast<int>(dead.size());
}

int ScenarioStore::schemaVersion() {
    Statement s = db_.prepare("PRAGMA user_version");
    return s.step() ? s.intAt(0) : 0;
}

// ---- inputs -------------------------------------------------------------------------------

namespace {

std::optional<std::int64_t> idWithHash(SqliteDb& db, const std::string& table, const std::string& hash) {
    Statement find = db.prepare("SELECT id FROM " + table + " WHERE content_hash = ?1");
    find.bind(1, hash);
    if (find.step()) return find.int64At(0);
    return std::nullopt;
}

// Clusters and profile sets are stored as their JSON file text, hashed as such.
std::int64_t putDocument(SqliteDb& db, const std::string& table, const std::string& text_column,
                         const std::string& size_column, const std::string& name, const std::string& text,
                         std::size_t size) {
    const std::string hash = ContentHasher().add(text).hex();
    Transaction tx(db);
    if (auto id = idWithHash(db, table, hash)) return *id;
    db.prepare("INSERT INTO " + table + "(name, content_hash, " + text_column + ", " + size_column +
               ", created) VALUES(?1, ?2, ?3, ?4, ?5)")
        .bind(1, name)
        .bind(2, hash)
        .bind(3, text)
        .bind(4, static_cast<std::int64_t>(size))
        .bind(5, nowIso())
        .run();
    std::int64_t id = db.lastInsertId();
    tx.commit();
    return id;
}

}  // namespace

std::int64_t ScenarioStore::putCluster(const Cluster& cluster) {
    return putDocument(db_, "clusters", "layout_json", "servers", cluster.name, layoutJsonText(cluster),
                       cluster.servers.size());
}

std::int64_t ScenarioStore::putProfiles(const ProfileSet& profiles) {
    return putDocument(db_, "profile_sets", "profiles_json", "models", profiles.name,
                       profilesJsonText(profiles), profiles.models.size());
}

std::int64_t ScenarioStore::putTrace(const Trace& trace) {
    const std::string hash = traceContentHash(trace);
    Transaction tx(db_);
    if (auto id = idWithHash(db_, "traces", hash)) return *id;
    last_trace_.reset();  // an id of a rolled-back insert may come back with this trace
    db_.prepare("INSERT INTO traces(name, content_hash, jobs, created) VALUES(?1, ?2, ?3, ?4)")
        .bind(1, trace.name)
        .bind(2, hash)
        .bind(3, static_cast<std::int64_t>(trace.jobs.size()))
        .bind(4, nowIso())
        .run();
    const std::int64_t id = db_.lastInsertId();
    Statement prov = db_.prepare("INSERT INTO trace_provenance(trace_id, position, line) VALUES(?1, ?2, ?3)");
    for (std::size_t k = 0; k < trace.provenance.size(); ++k)
        prov.bind(1, id).bind(2, static_cast<std::int64_t>(k)).bind(3, trace.provenance[k]).run();
    // A workspace kept at an older schema (the migration tests make one) has no planning columns
    // (schema 7) or request columns (schema 9).
    const int schema = schemaVersion();
    const bool planning_columns = schema >= 7, request_columns = schema >= 9;
    std::string insert =
        "INSERT INTO trace_jobs(trace_id, position, job_id, submit_time, gpus, model, iterations, duration, "
        "batch_size, user, vc, iteration_time, stage_times, priority";
    std::string values = "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14";
    if (planning_columns) {
        insert += ", job_name, account, partition_name, cpus, memory_gb, gpu_type";
        values += ", ?15, ?16, ?17, ?18, ?19, ?20";
    }
    if (request_columns) {
        insert += ", requested_gpu_type, nodes, time_limit, recorded_start";
        values += ", ?21, ?22, ?23, ?24";
    }
    Statement job = db_.prepare(insert + ") " + values + ")");
    for (std::size_t k = 0; k < trace.jobs.size(); ++k) {
        const Job& j = trace.jobs[k];
        job.bind(1, id)
            .bind(2, static_cast<std::int64_t>(k))
            .bind(3, j.id)
            .bind(4, j.submit_time)
            .bind(5, j.gpus)
            .bind(6, j.model)
            .bind(7, j.iterations)
            .bind(8, j.duration)
            .bind(9, j.batch_size)
            .bind(10, j.user)
            .bind(11, j.vc)
            .bind(12, j.solo_iteration_time)
            .bind(13, stageTimesText(j.stage_times))
            .bind(14, j.priority);
        if (planning_columns)
            job.bind(15, j.name)
                .bind(16, j.account)
                .bind(17, j.partition)
                .bind(18, j.cpus)
                .bind(19, j.memory_gb)
                .bind(20, j.gpu_type);
        if (request_columns)
            job.bind(21, j.requested_gpu_type)
                .bind(22, j.nodes)
                .bind(23, j.time_limit)
                .bind(24, j.recorded_start);
        job.run();
    }
    tx.commit();
    return id;
}

Cluster ScenarioStore::cluster(std::int64_t id) {
    Statement s = db_.prepare("SELECT layout_json, name FROM clusters WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) throw StoreError(path() + ": no cluster with id " + std::to_string(id));
    try {
        return parseLayoutJson(s.textAt(0), path() + " (cluster " + std::to_string(id) + ")");
    } catch (const std::exception& e) {
        throw StoreError(std::string("stored cluster layout is damaged: ") + e.what());
    }
}

ProfileSet ScenarioStore::profiles(std::int64_t id) {
    Statement s = db_.prepare("SELECT profiles_json FROM profile_sets WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) throw StoreError(path() + ": no profile set with id " + std::to_string(id));
    try {
        return parseProfilesJson(s.textAt(0), path() + " (profile set " + std::to_string(id) + ")");
    } catch (const std::exception& e) {
        throw StoreError(std::string("stored profile set is damaged: ") + e.what());
    }
}

Trace ScenarioStore::trace(std::int64_t id) {
    if (!last_trace_ || last_trace_id_ != id) {
        last_trace_ = std::make_shared<const Trace>(readTrace(id));
        last_trace_id_ = id;
    }
    return *last_trace_;
}

Trace ScenarioStore::readTrace(std::int64_t id) {
    ReadSnapshot snapshot(db_);
    Trace t;
    {
        Statement s = db_.prepare("SELECT name, jobs FROM traces WHERE id = ?1");
        s.bind(1, id);
        if (!s.step()) throw StoreError(path() + ": no trace with id " + std::to_string(id));
        t.name = s.textAt(0);
        t.jobs.reserve(static_cast<std::size_t>(s.int64At(1)));
    }
    Statement prov = db_.prepare("SELECT line FROM trace_provenance WHERE trace_id = ?1 ORDER BY position");
    prov.bind(1, id);
    while (prov.step()) t.provenance.push_back(prov.textAt(0));
    const int schema = schemaVersion();
    const bool planning_columns = schema >= 7, request_columns = schema >= 9;
    Statement s = db_.prepare(
        std::string("SELECT job_id, submit_time, gpus, model, iterations, duration, "
                    "batch_size, user, vc, iteration_time, stage_times, priority") +
        (planning_columns ? ", job_name, account, partition_name, cpus, memory_gb, gpu_type" : "") +
        (request_columns ? ", requested_gpu_type, nodes, time_limit, recorded_start" : "") +
        " FROM trace_jobs WHERE trace_id = ?1 ORDER BY position");
    s.bind(1, id);
    while (s.step()) {
        Job j;
        j.id = s.textAt(0);
        j.submit_time = s.doubleAt(1);
        j.gpus = s.intAt(2);
        j.model = s.textAt(3);
        j.iterations = s.doubleAt(4);
        j.duration = s.doubleAt(5);
        j.batch_size = s.intAt(6);
        j.user = s.textAt(7);
        j.vc = s.textAt(8);
        j.solo_iteration_time = s.doubleAt(9);
        j.stage_times = stageTimesFrom(s.textAt(10), path() + ": trace " + std::to_string(id) + ", job " +
                                                         std::to_string(t.jobs.size()) + " ('" + j.id + "')");
        j.priority = s.intAt(11);
        if (planning_columns) {
            j.name = s.textAt(12);
            j.account = s.textAt(13);
            j.partition = s.textAt(14);
            j.cpus = s.intAt(15);
            j.memory_gb = s.doubleAt(16);
            j.gpu_type = s.textAt(17);
        }
        if (request_columns) {
            j.requested_gpu_type = s.textAt(18);
            j.nodes = s.intAt(19);
            j.time_limit = s.doubleAt(20);
            j.recorded_start = s.doubleAt(21);
        }
        t.jobs.push_back(std::move(j));
    }
    return t;
}

std::vector<StoredItem> ScenarioStore::clusters() {
    return listItems(db_, "SELECT id, name, content_hash, created, servers FROM clusters ORDER BY id");
}
void ScenarioStore::deleteCluster(std::int64_t id) {
    Transaction tx(db_);
    Statement used = db_.prepare("SELECT name FROM scenarios WHERE cluster_id = ?1 LIMIT 1");
    used.bind(1, id);
    if (used.step())
        throw StoreError("cluster " + std::to_string(id) + " is used by scenario " + used.textAt(0));
    db_.prepare("DELETE FROM clusters WHERE id = ?1").bind(1, id).run();
    tx.commit();
}

std::vector<StoredItem> ScenarioStore::profileSets() {
    return listItems(db_, "SELECT id, name, content_hash, created, models FROM profile_sets ORDER BY id");
}
std::vector<StoredItem> ScenarioStore::traces() {
    return listItems(db_, "SELECT id, name, content_hash, created, jobs FROM traces ORDER BY id");
}

// ---- scenarios ----------------------------------------------------------------------------

std::string ScenarioStore::scenarioHash(const ScenarioSpec& spec) {
    auto hashOf = [&](const char* table, std::int64_t id) {
        Statement s = db_.prepare(std::string("SELECT content_hash FROM ") + table + " WHERE id = ?1");
        s.bind(1, id);
        if (!s.step())
            throw StoreError(path() + ": scenario '" + spec.name + "' refers to a missing " + table +
                             " row (id " + std::to_string(id) + ")");
        return s.textAt(0);
    };
    ContentHasher h;
    h.add(hashOf("clusters", spec.cluster_id)).add(hashOf("traces", spec.trace_id));
    h.add(hashOf("profile_sets", spec.profiles_id));
    h.add(spec.policy).add(spec.conventions).add(spec.parameters.toJson().dump());
    h.add(std::to_string(spec.seed));
    return h.hex();
}

void ScenarioStore::validate(const ScenarioSpec& spec) {
    auto bad = [&](const std::string& what) { throw StoreError("scenario '" + spec.name + "': " + what); };
    if (spec.name.empty()) throw StoreError("a scenario needs a name");
    if (spec.policy.empty()) bad("no policy");
    try {
        Conventions::byName(spec.conventions);
    } catch (const std::invalid_argument& e) {
        bad(e.what());
    }
    const ScenarioParameters& p = spec.parameters;
    if (!(p.load_factor > 0) || !std::isfinite(p.load_factor)) bad("load factor must be a positive number");
    if (p.server_count < 0 || p.server_count > 100000) bad("server count must be 0 (as stored) or 1..100000");
    if (p.max_group_size < 0 || p.max_group_size > 4) bad("group size must be 0 (the policy's own) or 1..4");
    if (!(p.interference == 0 || (p.interference >= 1 && p.interference <= 100)))
        bad("interference ratio must be 0 (the profile's) or 1..100, not " + std::to_string(p.interference));
    if (spec.seed > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        bad("seed must be below 2^63");
    SchedulerTuning tuning;
    tuning.max_group_size = p.max_group_size;
    tuning.interference = p.interference;
    tuning.seed = spec.seed;
    try {
        applySlurmParameters(tuning.slurm, p.slurm_parameters);
    } catch (const std::invalid_argument& e) {
        bad(std::string("Slurm setting: ") + e.what());
    }
    if (std::string problem = policyProblem(spec.policy, Conventions::byName(spec.conventions), tuning);
        !problem.empty())
        bad(problem);
}

std::int64_t ScenarioStore::insertScenario(const ScenarioSpec& spec) {
    validate(spec);
    if (findScenario(spec.name)) throw StoreError("a scenario named '" + spec.name + "' already exists");
    const std::string hash = scenarioHash(spec);
    const std::string now = nowIso();
    db_.prepare(
           "INSERT INTO scenarios(name, cluster_id, trace_id, profiles_id, policy, conventions, "
           "parameters_json, "
           "seed, notes, content_hash, created, modified) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
           "?11, ?11)")
        .bind(1, spec.name)
        .bind(2, spec.cluster_id)
        .bind(3, spec.trace_id)
        .bind(4, spec.profiles_id)
        .bind(5, spec.policy)
        .bind(6, spec.conventions)
        .bind(7, spec.parameters.toJson().dump())
        .bind(8, static_cast<std::int64_t>(spec.seed))
        .bind(9, spec.notes)
        .bind(10, hash)
        .bind(11, now)
        .run();
    return db_.lastInsertId();
}

std::int64_t ScenarioStore::createScenario(const ScenarioSpec& spec) {
    Transaction tx(db_);
    std::int64_t id = insertScenario(spec);
    tx.commit();
    return id;
}

std::int64_t ScenarioStore::duplicateScenario(const std::string& name, const std::string& new_name,
                                              const std::function<void(ScenarioSpec&)>& change) {
    Transaction tx(db_);
    ScenarioSpec spec = scenario(name).spec;
    spec.name = new_name;
    if (change) change(spec);
    std::int64_t id = insertScenario(spec);
    tx.commit();
    return id;
}

void ScenarioStore::renameScenario(const std::string& name, const std::string& new_name) {
    if (new_name.empty()) throw StoreError("a scenario needs a name");
    Transaction tx(db_);
    ScenarioInfo info = scenario(name);
    if (name == new_name) return;
    if (findScenario(new_name)) throw StoreError("a scenario named '" + new_name + "' already exists");
    db_.prepare("UPDATE scenarios SET name = ?1, modified = ?2 WHERE id = ?3")
        .bind(1, new_name)
        .bind(2, nowIso())
        .bind(3, info.id)
        .run();
    tx.commit();
}

std::string ScenarioStore::setting(const std::string& key) {
    Statement s = db_.prepare("SELECT value FROM workspace_settings WHERE key = ?1");
    s.bind(1, key);
    return s.step() ? s.textAt(0) : std::string();
}

void ScenarioStore::setSetting(const std::string& key, const std::string& value) {
    if (value.empty()) {
        db_.prepare("DELETE FROM workspace_settings WHERE key = ?1").bind(1, key).run();
        return;
    }
    db_.prepare(
           "INSERT INTO workspace_settings(key, value) VALUES(?1, ?2) "
           "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        .bind(1, key)
        .bind(2, value)
        .run();
}

void ScenarioStore::deleteScenario(const std::string& name) {
    Transaction tx(db_);
    ScenarioInfo info = scenario(name);
    // Runs and their results go with it (ON DELETE CASCADE).
    db_.prepare("DELETE FROM scenarios WHERE id = ?1").bind(1, info.id).run();
    tx.commit();
}

namespace {
constexpr const char* kScenarioColumns =
    "SELECT s.id, s.name, s.cluster_id, s.trace_id, s.profiles_id, s.policy, s.conventions, "
    "s.parameters_json, "
    "s.seed, s.notes, s.content_hash, s.created, s.modified, (SELECT count(*) FROM runs r WHERE "
    "r.scenario_id = s.id) "
    "FROM scenarios s ";

ScenarioInfo scenarioFrom(const Statement& s, const std::string& file) {
    ScenarioInfo info;
    info.id = s.int64At(0);
    info.spec.name = s.textAt(1);
    info.spec.cluster_id = s.int64At(2);
    info.spec.trace_id = s.int64At(3);
    info.spec.profiles_id = s.int64At(4);
    info.spec.policy = s.textAt(5);
    info.spec.conventions = s.textAt(6);
    try {
        info.spec.parameters = ScenarioParameters::fromJson(nlohmann::json::parse(s.textAt(7)));
    } catch (const std::exception& e) {
        throw StoreError(file + ": scenario '" + info.spec.name + "' has damaged parameters: " + e.what());
    }
    info.spec.seed = static_cast<std::uint64_t>(s.int64At(8));
    info.spec.notes = s.textAt(9);
    info.content_hash = s.textAt(10);
    info.created = s.textAt(11);
    info.modified = s.textAt(12);
    info.runs = s.intAt(13);
    return info;
}
}  // namespace

std::vector<ScenarioInfo> ScenarioStore::scenarios() {
    std::vector<ScenarioInfo> out;
    Statement s = db_.prepare(std::string(kScenarioColumns) + "ORDER BY s.name");
    while (s.step()) out.push_back(scenarioFrom(s, path()));
    return out;
}

std::optional<ScenarioInfo> ScenarioStore::findScenario(const std::string& name) {
    Statement s = db_.prepare(std::string(kScenarioColumns) + "WHERE s.name = ?1");
    s.bind(1, name);
    if (!s.step()) return std::nullopt;
    return scenarioFrom(s, path());
}

ScenarioInfo ScenarioStore::scenario(const std::string& name) {
    if (auto info = findScenario(name)) return *info;
    std::string known;
    int shown = 0;
    for (const auto& s : scenarios()) {
        if (shown == 20) {
            known += ", ...";
            break;
        }
        known += (shown++ ? ", " : "") + s.spec.name;
    }
    throw StoreError(path() + ": no scenario named '" + name + "'" +
                     (known.empty() ? " (the workspace has no scenarios)" : " (scenarios: " + known + ")"));
}

// ---- runs ---------------------------------------------------------------------------------

std::int64_t ScenarioStore::beginRun(std::int64_t scenario_id, const std::string& engine_version) {
    Transaction tx(db_);
    Statement s = db_.prepare("SELECT content_hash FROM scenarios WHERE id = ?1");
    s.bind(1, scenario_id);
    if (!s.step()) throw StoreError(path() + ": no scenario with id " + std::to_string(scenario_id));
    const std::string hash = s.textAt(0);
    db_.prepare(
           "INSERT INTO runs(scenario_id, engine_version, content_hash, started, status, owner) "
           "VALUES(?1, ?2, ?3, ?4, 'running', ?5)")
        .bind(1, scenario_id)
        .bind(2, engine_version)
        .bind(3, hash)
        .bind(4, nowIso())
        .bind(5, ownerTag())
        .run();
    std::int64_t id = db_.lastInsertId();
    tx.commit();
    return id;
}

void ScenarioStore::saveRun(std::int64_t run_id, const SimResult& r, const WriteProgress& progress) {
    const std::size_t total = storedRunRows(r);
    std::size_t done = 0;
    auto tick = [&] {
        ++done;
        if (progress && (done % 4096 == 0 || done == total)) progress(done, total);
    };

    Transaction tx(db_);
    {
        Statement s = db_.prepare("SELECT status FROM runs WHERE id = ?1");
        s.bind(1, run_id);
        if (!s.step()) throw StoreError(path() + ": no run with id " + std::to_string(run_id));
        if (s.textAt(0) != "running")
            throw StoreError(path() + ": run " + std::to_string(run_id) + " is already " + s.textAt(0));
    }
    writeRunSummary(db_, run_id, r);
    writeRunJobs(db_, run_id, r.jobs, tick);
    writeRunSegments(db_, run_id, r.segments, tick);
    writeRunSeries(db_, run_id, r.series, tick);
    writeRunAllocations(db_, run_id, r.allocations, tick);
    writeRunBatches(db_, run_id, r.batches, tick);
    writeRunLeftOut(db_, run_id, r.left_out, tick);
    writeRunNotes(db_, run_id, r.notes, tick);
    db_.prepare("UPDATE runs SET status = ?1, finished = ?2, message = ?3 WHERE id = ?4")
        .bind(1, r.cancelled ? "cancelled" : "finished")
        .bind(2, nowIso())
        .bind(3, r.cancelled ? "cancelled while running; partial results" : "")
        .bind(4, run_id)
        .run();
    tx.commit();
}

void ScenarioStore::failRun(std::int64_t run_id, RunStatus status, const std::string& message) {
    Transaction tx(db_);
    db_.prepare(
           "UPDATE runs SET status = ?1, finished = ?2, message = ?3 WHERE id = ?4 AND status = 'running'")
        .bind(1, runStatusName(status))
        .bind(2, nowIso())
        .bind(3, message)
        .bind(4, run_id)
        .run();
    if (db_.changes() == 0) {
        // A finished run keeps its results and status; say which case this is.
        Statement s = db_.prepare("SELECT status FROM runs WHERE id = ?1");
        s.bind(1, run_id);
        if (!s.step()) throw StoreError(path() + ": no run with id " + std::to_string(run_id));
        throw StoreError(path() + ": run " + std::to_string(run_id) + " is already " + s.textAt(0));
    }
    tx.commit();
}

namespace {
// A run's row: its columns up to kSummaryFigures (m.run_id is NULL when the run has no summary),
// then the summary's figures (core/store/run_codec.h).
constexpr int kSummaryFigures = 15;
const std::string& runColumns() {
    static const std::string columns =
        "SELECT r.id, r.scenario_id, s.name, r.engine_version, r.content_hash, r.started, r.finished, "
        "r.status, r.message, m.policy, m.events, m.wall_seconds, s.policy, s.parameters_json, m.run_id, " +
        runSummaryFigureColumns("m.") +
        " FROM runs r JOIN scenarios s ON s.id = r.scenario_id LEFT JOIN run_summaries m ON m.run_id = r.id ";
    return columns;
}

// A run stored before schema 8 has no p95 queueing delay or size-class figures: they are derived
// from its per-job records over the jobs its summary measured (the scenario's measured window).
void deriveMissingSummary(SqliteDb& db, RunInfo& r, const std::string& parameters_json) {
    std::vector<JobRecord> jobs =
        readRunJobs(db, r.id, static_cast<std::size_t>(std::max(0, r.summary.jobs)));
    std::size_t first = 0;
    if (jobs.size() != static_cast<std::size_t>(r.summary.jobs)) {
        try {
            first = static_cast<std::size_t>(
                ScenarioParameters::fromJson(nlohmann::json::parse(parameters_json)).measure_first);
        } catch (const std::exception&) {
            first = 0;  // the window's size still holds: measure from the start
        }
        const std::size_t count =
            std::min<std::size_t>(static_cast<std::size_t>(r.summary.jobs), jobs.size());
        first = std::min(first, jobs.size() - count);
        jobs = std::vector<JobRecord>(jobs.begin() + static_cast<std::ptrdiff_t>(first),
                                      jobs.begin() + static_cast<std::ptrdiff_t>(first + count));
    }
    const Summary derived = summarize(jobs);
    r.summary.p95_queueing_delay = derived.p95_queueing_delay;
    r.summary.large = derived.large;
    r.summary.small = derived.small;
}

RunInfo runFrom(SqliteDb& db, const Statement& s) {
    RunInfo r;
    r.id = s.int64At(0);
    r.scenario_id = s.int64At(1);
    r.scenario_name = s.textAt(2);
    r.engine_version = s.textAt(3);
    r.content_hash = s.textAt(4);
    r.started = s.textAt(5);
    r.finished = s.textAt(6);
    r.status = statusFrom(s.textAt(7));
    r.message = s.textAt(8);
    r.policy = s.isNull(9) ? s.textAt(12) : s.textAt(9);
    if (!s.isNull(14)) {
        r.events = s.int64At(10);
        r.wall_seconds = s.doubleAt(11);
        if (!readRunSummaryFigures(s, kSummaryFigures, r.summary)) deriveMissingSummary(db, r, s.textAt(13));
    }
    return r;
}
}  // namespace

std::optional<RunInfo> ScenarioStore::finishedRunWithHash(const std::string& content_hash,
                                                          const std::string& engine_version) {
    Statement s = db_.prepare(runColumns() +
                              "WHERE r.content_hash = ?1 AND r.engine_version = ?2 AND r.status = 'finished' "
                              "ORDER BY r.id DESC LIMIT 1");
    s.bind(1, content_hash).bind(2, engine_version);
    if (!s.step()) return std::nullopt;
    return runFrom(db_, s);
}

std::vector<RunInfo> ScenarioStore::runs(std::optional<std::int64_t> scenario_id) {
    std::vector<RunInfo> out;
    Statement s =
        db_.prepare(runColumns() + (scenario_id ? "WHERE r.scenario_id = ?1 " : "") + "ORDER BY r.id");
    if (scenario_id) s.bind(1, *scenario_id);
    while (s.step()) out.push_back(runFrom(db_, s));
    return out;
}

std::vector<std::string> ScenarioStore::runNotes(std::int64_t run_id) {
    ReadSnapshot snapshot(db_);
    return readRunNotes(db_, run_id);
}

RunInfo ScenarioStore::runInfo(std::int64_t run_id) {
    Statement s = db_.prepare(runColumns() + "WHERE r.id = ?1");
    s.bind(1, run_id);
    if (!s.step()) throw StoreError(path() + ": no run with id " + std::to_string(run_id));
    return runFrom(db_, s);
}

SimResult ScenarioStore::loadRun(std::int64_t run_id, bool with_segments) {
    ReadSnapshot snapshot(db_);  // a sweep may commit between these reads
    const RunInfo info = runInfo(run_id);
    SimResult r;
    r.policy = info.policy;
    r.summary = info.summary;
    r.events = info.events;
    r.wall_seconds = info.wall_seconds;
    r.cancelled = info.status == RunStatus::Cancelled;
    r.conventions = readRunConventions(db_, run_id);
    r.jobs = readRunJobs(db_, run_id, static_cast<std::size_t>(std::max(0, info.summary.jobs)));
    if (with_segments) {
        r.segments = readRunSegments(db_, run_id);
        r.allocations = readRunAllocations(db_, run_id);
        r.batches = readRunBatches(db_, run_id);
    }
    r.series = readRunSeries(db_, run_id);
    // Few rows, and what the reader of any view of the run must see: read with or without segments.
    r.left_out = readRunLeftOut(db_, run_id);
    r.notes = readRunNotes(db_, run_id);
    return r;
}

}  // namespace cl
