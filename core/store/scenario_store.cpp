#include "core/store/scenario_store.h"

#include <signal.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

#include "core/io/layout_io.h"
#include "core/io/profile_io.h"
#include "core/policies/scheduler_registry.h"
#include "core/sim/conventions.h"
#include "core/store/content_hash.h"
#include "core/store/store_schema.h"

namespace cl {

static_assert(std::endian::native == std::endian::little, "segment blobs are stored little-endian");

// A packed allocation change: t, cpus, memory_gb, speedup (f64 each).
constexpr std::size_t kAllocationBytes = 32;
// A packed batch change: t (f64), sub_batch (i32), accumulation_steps (i32), interference (f64).
constexpr std::size_t kBatchBytes = 24;

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

// NaN (not started, not finished) is stored as NULL.
void bindMaybe(Statement& s, int index, double v) {
    if (std::isnan(v))
        s.bindNull(index);
    else
        s.bind(index, v);
}
double maybeAt(const Statement& s, int column) {
    return s.isNull(column) ? std::numeric_limits<double>::quiet_NaN() : s.doubleAt(column);
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

std::string traceHash(const Trace& t) {
    ContentHasher h;
    h.add(t.name);
    for (const auto& line : t.provenance) h.add(line);
    for (const Job& j : t.jobs) {
        h.add(j.id).add(j.submit_time).add(static_cast<long long>(j.gpus)).add(j.model).add(j.iterations);
        h.add(j.duration).add(static_cast<long long>(j.batch_size)).add(j.user).add(j.vc).add(j.solo_iteration_time);
        h.add(static_cast<long long>(j.stage_times.size()));
        for (double s : j.stage_times) h.add(s);
        h.add(static_cast<long long>(j.priority));
    }
    return h.hex();
}

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
        case RunStatus::Running: return "running";
        case RunStatus::Finished: return "finished";
        case RunStatus::Failed: return "failed";
        case RunStatus::Cancelled: return "cancelled";
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
                bad("must be 0 (the profile's ratios) or 1..100 (how much slower a job sharing its GPUs runs)");
        } else {
            bad("is not a scenario parameter (load_factor, server_count, max_group_size, reassign_models, "
                "transforms, measure_jobs, interference)");
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

int ScenarioStore::latestSchemaVersion() { return latestWorkspaceSchema(); }

namespace {
SqliteDb openFile(const std::string& path) {
    if (path.empty()) throw StoreError("no workspace file given");
    std::filesystem::path p(path);
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) {
        if (std::filesystem::is_directory(p, ec)) throw StoreError(path + ": is a directory, not a workspace file");
        return SqliteDb(path, SqliteDb::Mode::ReadWrite);
    }
    if (p.has_parent_path()) {
        std::filesystem::create_directories(p.parent_path(), ec);
        if (ec) throw StoreError(path + ": cannot create its folder: " + ec.message());
    }
    return SqliteDb(path, SqliteDb::Mode::ReadWriteCreate);
}
}  // namespace

ScenarioStore::ScenarioStore(const std::string& path) : db_(openFile(path)) { open(latestWorkspaceSchema()); }

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

std::string ownerTag() { return thisHost() + ":" + std::to_string(static_cast<long long>(getpid())); }

bool processGone(long long pid) { return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

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
        "UPDATE runs SET status = 'failed', finished = ?1, message = ?2 WHERE id = ?3 AND status = 'running'");
    for (const auto& [id, pid] : dead)
        mark.bind(1, nowIso())
            .bind(2, "interrupted: the process that ran it (pid " + std::to_string(pid) + ") ended without finishing")
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
    return putDocument(db_, "profile_sets", "profiles_json", "models", profiles.name, profilesJsonText(profiles),
                       profiles.models.size());
}

std::int64_t ScenarioStore::putTrace(const Trace& trace) {
    const std::string hash = traceHash(trace);
    Transaction tx(db_);
    if (auto id = idWithHash(db_, "traces", hash)) return *id;
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
    Statement job = db_.prepare(
        "INSERT INTO trace_jobs(trace_id, position, job_id, submit_time, gpus, model, iterations, duration, "
        "batch_size, user, vc, iteration_time, stage_times, priority) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
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
            .bind(14, j.priority)
            .run();
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
    Statement s = db_.prepare(
        "SELECT job_id, submit_time, gpus, model, iterations, duration, batch_size, user, vc, iteration_time, "
        "stage_times, priority FROM trace_jobs WHERE trace_id = ?1 ORDER BY position");
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
        t.jobs.push_back(std::move(j));
    }
    return t;
}

std::vector<StoredItem> ScenarioStore::clusters() {
    return listItems(db_, "SELECT id, name, content_hash, created, servers FROM clusters ORDER BY id");
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
            throw StoreError(path() + ": scenario '" + spec.name + "' refers to a missing " + table + " row (id " +
                             std::to_string(id) + ")");
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
           "INSERT INTO scenarios(name, cluster_id, trace_id, profiles_id, policy, conventions, parameters_json, "
           "seed, notes, content_hash, created, modified) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)")
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

void ScenarioStore::deleteScenario(const std::string& name) {
    Transaction tx(db_);
    ScenarioInfo info = scenario(name);
    // Runs and their results go with it (ON DELETE CASCADE).
    db_.prepare("DELETE FROM scenarios WHERE id = ?1").bind(1, info.id).run();
    tx.commit();
}

namespace {
constexpr const char* kScenarioColumns =
    "SELECT s.id, s.name, s.cluster_id, s.trace_id, s.profiles_id, s.policy, s.conventions, s.parameters_json, "
    "s.seed, s.notes, s.content_hash, s.created, s.modified, (SELECT count(*) FROM runs r WHERE r.scenario_id = s.id) "
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
    db_.prepare("INSERT INTO runs(scenario_id, engine_version, content_hash, started, status, owner) "
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
    // Segments grouped per GPU, each GPU's sorted by start.
    std::map<int, std::vector<const GpuSegment*>> by_gpu;
    for (const GpuSegment& g : r.segments) by_gpu[g.gpu].push_back(&g);
    // Allocation changes grouped per job, each job's in time order.
    std::map<int, std::vector<const AllocationChange*>> by_job;
    for (const AllocationChange& a : r.allocations) by_job[a.job].push_back(&a);
    // Batch changes likewise.
    std::map<int, std::vector<const BatchChange*>> batches_by_job;
    for (const BatchChange& b : r.batches) batches_by_job[b.job].push_back(&b);
    const std::size_t total =
        r.jobs.size() + by_gpu.size() + r.series.size() + by_job.size() + batches_by_job.size();
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
    const Summary& m = r.summary;
    db_.prepare("INSERT INTO run_summaries(run_id, policy, conventions, jobs, completed, avg_jct, median_jct, "
                "p95_jct, p99_jct, makespan, avg_queueing_delay, events, wall_seconds) "
                "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
        .bind(1, run_id)
        .bind(2, r.policy)
        .bind(3, r.conventions)
        .bind(4, m.jobs)
        .bind(5, m.completed)
        .bind(6, m.avg_jct)
        .bind(7, m.median_jct)
        .bind(8, m.p95_jct)
        .bind(9, m.p99_jct)
        .bind(10, m.makespan)
        .bind(11, m.avg_queueing_delay)
        .bind(12, static_cast<std::int64_t>(r.events))
        .bind(13, r.wall_seconds)
        .run();
    Statement job = db_.prepare(
        "INSERT INTO run_jobs(run_id, position, job_id, model, gpus, iterations, solo_iteration_time, submit, "
        "first_start, end_time, jct, queueing_delay, pending_time, running_time, preemptions, restarts, completed) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
    for (const JobRecord& j : r.jobs) {
        job.bind(1, run_id)
            .bind(2, j.index)
            .bind(3, j.id)
            .bind(4, j.model)
            .bind(5, j.gpus)
            .bind(6, j.iterations)
            .bind(7, j.solo_iteration_time)
            .bind(8, j.submit);
        bindMaybe(job, 9, j.first_start);
        bindMaybe(job, 10, j.end);
        bindMaybe(job, 11, j.jct);
        bindMaybe(job, 12, j.queueing_delay);
        job.bind(13, j.pending_time)
            .bind(14, j.running_time)
            .bind(15, j.preemptions)
            .bind(16, j.restarts)
            .bind(17, j.completed ? 1 : 0)
            .run();
        tick();
    }
    Statement seg = db_.prepare("INSERT INTO run_segments(run_id, gpu, segments, data) VALUES(?1, ?2, ?3, ?4)");
    std::vector<unsigned char> blob;
    for (auto& [gpu, list] : by_gpu) {
        std::stable_sort(list.begin(), list.end(), [](const GpuSegment* a, const GpuSegment* b) { return a->t0 < b->t0; });
        blob.resize(list.size() * 20);
        unsigned char* out = blob.data();
        for (const GpuSegment* g : list) {
            const std::int32_t job_index = g->job;
            std::memcpy(out, &g->t0, 8);
            std::memcpy(out + 8, &g->t1, 8);
            std::memcpy(out + 16, &job_index, 4);
            out += 20;
        }
        seg.bind(1, run_id).bind(2, gpu).bind(3, static_cast<std::int64_t>(list.size())).bindBlob(4, blob).run();
        tick();
    }
    Statement series = db_.prepare(
        "INSERT INTO run_series(run_id, position, t, queue_length, running_jobs, gpu_utilization, blocking_index, "
        "storage_utilization, cpu_utilization, gpu_compute_utilization, network_utilization, cpu_allocated, "
        "memory_allocated) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    for (std::size_t k = 0; k < r.series.size(); ++k) {
        const TimeSample& t = r.series[k];
        series.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(k))
            .bind(3, t.t)
            .bind(4, t.queue_length)
            .bind(5, t.running_jobs)
            .bind(6, t.gpu_utilization);
        bindMaybe(series, 7, t.blocking_index);
        bindMaybe(series, 8, t.storage_utilization);
        bindMaybe(series, 9, t.cpu_utilization);
        bindMaybe(series, 10, t.gpu_compute_utilization);
        bindMaybe(series, 11, t.network_utilization);
        bindMaybe(series, 12, t.cpu_allocated);
        bindMaybe(series, 13, t.memory_allocated);
        series.run();
        tick();
    }
    Statement alloc = db_.prepare("INSERT INTO run_allocations(run_id, job, changes, data) VALUES(?1, ?2, ?3, ?4)");
    for (auto& [job, list] : by_job) {
        std::stable_sort(list.begin(), list.end(),
                         [](const AllocationChange* a, const AllocationChange* b) { return a->t < b->t; });
        blob.resize(list.size() * kAllocationBytes);
        unsigned char* out = blob.data();
        for (const AllocationChange* a : list) {
            for (double v : {a->t, a->cpus, a->memory_gb, a->speedup}) {
                std::memcpy(out, &v, 8);
                out += 8;
            }
        }
        alloc.bind(1, run_id).bind(2, job).bind(3, static_cast<std::int64_t>(list.size())).bindBlob(4, blob).run();
        tick();
    }
    // Prepared only when needed: a workspace opened at schema 4 (tests of the migration) has no
    // such table, and a run without batch changes writes as it did there.
    std::optional<Statement> batch;
    if (!batches_by_job.empty())
        batch.emplace(db_.prepare("INSERT INTO run_batches(run_id, job, changes, data) VALUES(?1, ?2, ?3, ?4)"));
    for (auto& [job, list] : batches_by_job) {
        std::stable_sort(list.begin(), list.end(), [](const BatchChange* a, const BatchChange* b) { return a->t < b->t; });
        blob.resize(list.size() * kBatchBytes);
        unsigned char* out = blob.data();
        for (const BatchChange* b : list) {
            const std::int32_t sub_batch = b->sub_batch, steps = b->accumulation_steps;
            std::memcpy(out, &b->t, 8);
            std::memcpy(out + 8, &sub_batch, 4);
            std::memcpy(out + 12, &steps, 4);
            std::memcpy(out + 16, &b->interference, 8);
            out += kBatchBytes;
        }
        batch->bind(1, run_id).bind(2, job).bind(3, static_cast<std::int64_t>(list.size())).bindBlob(4, blob).run();
        tick();
    }
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
    db_.prepare("UPDATE runs SET status = ?1, finished = ?2, message = ?3 WHERE id = ?4 AND status = 'running'")
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
constexpr const char* kRunColumns =
    "SELECT r.id, r.scenario_id, s.name, r.engine_version, r.content_hash, r.started, r.finished, r.status, "
    "r.message, m.policy, m.jobs, m.completed, m.avg_jct, m.median_jct, m.p95_jct, m.p99_jct, m.makespan, "
    "m.avg_queueing_delay, m.events, m.wall_seconds, s.policy "
    "FROM runs r JOIN scenarios s ON s.id = r.scenario_id LEFT JOIN run_summaries m ON m.run_id = r.id ";

RunInfo runFrom(const Statement& s) {
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
    r.policy = s.isNull(9) ? s.textAt(20) : s.textAt(9);
    if (!s.isNull(10)) {
        r.summary.jobs = s.intAt(10);
        r.summary.completed = s.intAt(11);
        r.summary.avg_jct = s.doubleAt(12);
        r.summary.median_jct = s.doubleAt(13);
        r.summary.p95_jct = s.doubleAt(14);
        r.summary.p99_jct = s.doubleAt(15);
        r.summary.makespan = s.doubleAt(16);
        r.summary.avg_queueing_delay = s.doubleAt(17);
        r.events = s.int64At(18);
        r.wall_seconds = s.doubleAt(19);
    }
    return r;
}
}  // namespace

std::optional<RunInfo> ScenarioStore::finishedRunWithHash(const std::string& content_hash,
                                                          const std::string& engine_version) {
    Statement s = db_.prepare(std::string(kRunColumns) +
                              "WHERE r.content_hash = ?1 AND r.engine_version = ?2 AND r.status = 'finished' "
                              "ORDER BY r.id DESC LIMIT 1");
    s.bind(1, content_hash).bind(2, engine_version);
    if (!s.step()) return std::nullopt;
    return runFrom(s);
}

std::vector<RunInfo> ScenarioStore::runs(std::optional<std::int64_t> scenario_id) {
    std::vector<RunInfo> out;
    Statement s = db_.prepare(std::string(kRunColumns) + (scenario_id ? "WHERE r.scenario_id = ?1 " : "") +
                              "ORDER BY r.id");
    if (scenario_id) s.bind(1, *scenario_id);
    while (s.step()) out.push_back(runFrom(s));
    return out;
}

RunInfo ScenarioStore::runInfo(std::int64_t run_id) {
    Statement s = db_.prepare(std::string(kRunColumns) + "WHERE r.id = ?1");
    s.bind(1, run_id);
    if (!s.step()) throw StoreError(path() + ": no run with id " + std::to_string(run_id));
    return runFrom(s);
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
    {
        Statement s = db_.prepare("SELECT conventions FROM run_summaries WHERE run_id = ?1");
        s.bind(1, run_id);
        if (s.step()) r.conventions = s.textAt(0);
    }
    Statement job = db_.prepare(
        "SELECT position, job_id, model, gpus, iterations, solo_iteration_time, submit, first_start, end_time, jct, "
        "queueing_delay, pending_time, running_time, preemptions, restarts, completed FROM run_jobs "
        "WHERE run_id = ?1 ORDER BY position");
    job.bind(1, run_id);
    r.jobs.reserve(static_cast<std::size_t>(std::max(0, info.summary.jobs)));
    while (job.step()) {
        JobRecord j;
        j.index = job.intAt(0);
        j.id = job.textAt(1);
        j.model = job.textAt(2);
        j.gpus = job.intAt(3);
        j.iterations = job.doubleAt(4);
        j.solo_iteration_time = job.doubleAt(5);
        j.submit = job.doubleAt(6);
        j.first_start = maybeAt(job, 7);
        j.end = maybeAt(job, 8);
        j.jct = maybeAt(job, 9);
        j.queueing_delay = maybeAt(job, 10);
        j.pending_time = job.doubleAt(11);
        j.running_time = job.doubleAt(12);
        j.preemptions = job.intAt(13);
        j.restarts = job.intAt(14);
        j.completed = job.intAt(15) != 0;
        r.jobs.push_back(std::move(j));
    }
    if (with_segments) {
        Statement seg = db_.prepare("SELECT gpu, segments, data FROM run_segments WHERE run_id = ?1 ORDER BY gpu");
        seg.bind(1, run_id);
        while (seg.step()) {
            const int gpu = seg.intAt(0);
            const std::int64_t count = seg.int64At(1);
            const std::vector<unsigned char> data = seg.blobAt(2);
            if (count < 0 || data.size() != static_cast<std::size_t>(count) * 20)
                throw StoreError(path() + ": run " + std::to_string(run_id) + ", GPU " + std::to_string(gpu) +
                                 ": damaged segment data (" + std::to_string(data.size()) + " bytes for " +
                                 std::to_string(count) + " segments)");
            for (std::int64_t k = 0; k < count; ++k) {
                GpuSegment g;
                g.gpu = gpu;
                std::int32_t job_index = 0;
                std::memcpy(&g.t0, data.data() + k * 20, 8);
                std::memcpy(&g.t1, data.data() + k * 20 + 8, 8);
                std::memcpy(&job_index, data.data() + k * 20 + 16, 4);
                g.job = job_index;
                r.segments.push_back(g);
            }
        }
        Statement alloc = db_.prepare("SELECT job, changes, data FROM run_allocations WHERE run_id = ?1 ORDER BY job");
        alloc.bind(1, run_id);
        while (alloc.step()) {
            const int job = alloc.intAt(0);
            const std::int64_t count = alloc.int64At(1);
            const std::vector<unsigned char> data = alloc.blobAt(2);
            if (count < 0 || data.size() != static_cast<std::size_t>(count) * kAllocationBytes)
                throw StoreError(path() + ": run " + std::to_string(run_id) + ", job " + std::to_string(job) +
                                 ": damaged allocation data (" + std::to_string(data.size()) + " bytes for " +
                                 std::to_string(count) + " changes)");
            const unsigned char* in = data.data();
            for (std::int64_t k = 0; k < count; ++k) {
                AllocationChange a;
                a.job = job;
                for (double* v : {&a.t, &a.cpus, &a.memory_gb, &a.speedup}) {
                    std::memcpy(v, in, 8);
                    in += 8;
                }
                r.allocations.push_back(a);
            }
        }
        // Back in time order; the rows were per job, so simultaneous changes come by job.
        std::stable_sort(r.allocations.begin(), r.allocations.end(),
                         [](const AllocationChange& a, const AllocationChange& b) { return a.t < b.t; });
        Statement batch = db_.prepare("SELECT job, changes, data FROM run_batches WHERE run_id = ?1 ORDER BY job");
        batch.bind(1, run_id);
        while (batch.step()) {
            const int job = batch.intAt(0);
            const std::int64_t count = batch.int64At(1);
            const std::vector<unsigned char> data = batch.blobAt(2);
            if (count < 0 || data.size() != static_cast<std::size_t>(count) * kBatchBytes)
                throw StoreError(path() + ": run " + std::to_string(run_id) + ", job " + std::to_string(job) +
                                 ": damaged batch data (" + std::to_string(data.size()) + " bytes for " +
                                 std::to_string(count) + " changes)");
            const unsigned char* in = data.data();
            for (std::int64_t k = 0; k < count; ++k, in += kBatchBytes) {
                BatchChange b;
                b.job = job;
                std::int32_t sub_batch = 0, steps = 0;
                std::memcpy(&b.t, in, 8);
                std::memcpy(&sub_batch, in + 8, 4);
                std::memcpy(&steps, in + 12, 4);
                std::memcpy(&b.interference, in + 16, 8);
                b.sub_batch = sub_batch;
                b.accumulation_steps = steps;
                r.batches.push_back(b);
            }
        }
        std::stable_sort(r.batches.begin(), r.batches.end(),
                         [](const BatchChange& a, const BatchChange& b) { return a.t < b.t; });
    }
    Statement series = db_.prepare(
        "SELECT t, queue_length, running_jobs, gpu_utilization, blocking_index, storage_utilization, "
        "cpu_utilization, gpu_compute_utilization, network_utilization, cpu_allocated, memory_allocated "
        "FROM run_series WHERE run_id = ?1 "
        "ORDER BY position");
    series.bind(1, run_id);
    while (series.step()) {
        TimeSample t;
        t.t = series.doubleAt(0);
        t.queue_length = series.intAt(1);
        t.running_jobs = series.intAt(2);
        t.gpu_utilization = series.doubleAt(3);
        t.blocking_index = maybeAt(series, 4);
        t.storage_utilization = maybeAt(series, 5);
        t.cpu_utilization = maybeAt(series, 6);
        t.gpu_compute_utilization = maybeAt(series, 7);
        t.network_utilization = maybeAt(series, 8);
        t.cpu_allocated = maybeAt(series, 9);
        t.memory_allocated = maybeAt(series, 10);
        r.series.push_back(t);
    }
    return r;
}

}  // namespace cl
