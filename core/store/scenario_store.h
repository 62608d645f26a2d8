#pragma once
// The workspace: one SQLite file holding clusters, profile sets, traces, scenarios, runs and
// their results (docs/architecture.md section 9). Schema in store_schema.cpp; every
// multi-row write is one transaction, so a killed writer leaves earlier data intact.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/sim_result.h"
#include "core/model/trace.h"
#include "core/sim/simulator.h"
#include "core/store/sqlite_db.h"

namespace cl {

// What a scenario changes about its stored inputs before running (all recorded, all part of
// its content hash).
struct ScenarioParameters {
    double load_factor = 1.0;             // submit times divided by this (scaleLoad)
    int server_count = 0;                 // 0: the cluster as stored; else resized to this many servers
    int max_group_size = 0;               // 0: the policy's own; else Muri's group-size cap (1..4)
    bool reassign_models = false;         // every job gets a model drawn with the scenario's seed
    std::vector<std::string> transforms;  // trace transform specs (trace_transforms.h), applied first
    // The jobs the summary measures, by position (inclusive; last < 0 = to the end): e.g.
    // Synergy's steady-state window 4000-4999. Stored only when set, so older hashes hold.
    int measure_first = 0;
    int measure_last = -1;
    // SJF-BSBF's interference ratio xi for sharing jobs (bsbf, ffs): 0 = the profile's per-pair
    // matrix, else 1..100. Stored only when set, so older hashes hold.
    double interference = 0.0;
    // The `slurm` policy's settings, KEY=VALUE under Slurm's names (applySlurmParameters; from a
    // saved `scontrol show config`, slurmParameters keeps those that differ from the defaults).
    // Stored only when set, so older hashes hold.
    std::vector<std::string> slurm_parameters;
    // SimOptions::stop_when_overloaded: the run stops once overload is established (a plan's
    // points, docs/architecture.md 7.9). 0 = runs to the end. Stored only when set.
    double stop_when_overloaded = 0.0;
    // SimOptions::stop_when_missed: the run stops once one of these targets is sure to be missed
    // (a plan's points with one seed, docs/architecture.md 7.9). Stored only when set.
    std::vector<SimOptions::MissedTarget> stop_when_missed;

    nlohmann::json toJson() const;
    // Throws std::invalid_argument naming the field for wrong types or values.
    static ScenarioParameters fromJson(const nlohmann::json& j);
    bool operator==(const ScenarioParameters&) const = default;
};

struct ScenarioSpec {
    std::string name;
    std::int64_t cluster_id = 0;
    std::int64_t trace_id = 0;
    std::int64_t profiles_id = 0;
    std::string policy = "srtf";
    std::string conventions = "clean";
    ScenarioParameters parameters;
    std::uint64_t seed = 1;  // model reassignment and profiling noise
    std::string notes;
};

struct ScenarioInfo {
    std::int64_t id = 0;
    ScenarioSpec spec;
    std::string content_hash;       // of the inputs' contents and the settings, not of the name
    std::string created, modified;  // ISO 8601 UTC
    int runs = 0;
};

enum class RunStatus { Running, Finished, Failed, Cancelled };
std::string runStatusName(RunStatus s);

struct RunInfo {
    std::int64_t id = 0;
    std::int64_t scenario_id = 0;
    std::string scenario_name;
    std::string engine_version;
    std::string content_hash;
    std::string started, finished;  // ISO 8601 UTC; finished empty while running
    RunStatus status = RunStatus::Running;
    std::string message;  // why it failed or was cancelled
    Summary summary;      // zeros unless finished
    long long events = 0;
    double wall_seconds = 0.0;
    std::string policy;  // as run
};

struct StoredItem {
    std::int64_t id = 0;
    std::string name;
    std::string content_hash;
    std::string created;
    long long size = 0;  // servers / models / jobs
};

// A trace's content hash as the store computes it (docs/architecture.md section 9.3): what an
// emitted input file is checked against after it is read back.
std::string traceContentHash(const Trace& trace);

// Called while a run's results are written, with rows written so far and the total.
using WriteProgress = std::function<void(std::size_t done, std::size_t total)>;

class ScenarioStore {
public:
    // $CLUSTERLOOM_DB, else $XDG_DATA_HOME/clusterloom/workspace.sqlite, else
    // ~/.local/share/clusterloom/workspace.sqlite.
    static std::string defaultPath();
    static int latestSchemaVersion();

    // Opens (creating the file and its directory if missing) and migrates the schema forward.
    // Throws StoreError, leaving the file untouched, when it is not a SQLite database, not a
    // ClusterLoom workspace, or was written by a newer schema than this build knows.
    explicit ScenarioStore(const std::string& path);
    // For tests and fixtures: create or migrate only up to `schema_version`.
    ScenarioStore(const std::string& path, int schema_version);

    const std::string& path() const { return db_.path(); }
    // Opened read-only (the file or its directory is write-protected): reads work, every
    // write throws StoreError.
    bool isReadOnly() const { return db_.isReadOnly(); }
    int schemaVersion();

    // Inputs. Storing content identical to a stored item returns the existing id.
    std::int64_t putCluster(const Cluster& cluster);
    std::int64_t putProfiles(const ProfileSet& profiles);
    std::int64_t putTrace(const Trace& trace);
    Cluster cluster(std::int64_t id);
    ProfileSet profiles(std::int64_t id);
    // A stored trace never changes, so the last one read is kept: a plan or sweep resolves
    // dozens of scenarios of one trace, and reading 80,000 jobs took a quarter of a second each.
    Trace trace(std::int64_t id);
    std::vector<StoredItem> clusters();
    // Removes a stored cluster; throws StoreError while a scenario uses it.
    void deleteCluster(std::int64_t id);
    std::vector<StoredItem> profileSets();
    std::vector<StoredItem> traces();

    // Scenarios, addressed by their unique name. Throws StoreError for an unknown or taken
    // name, dangling input ids, or invalid settings (unknown conventions, load factor <= 0, ...).
    std::int64_t createScenario(const ScenarioSpec& spec);
    // A copy under new_name with `change` applied ("what if").
    std::int64_t duplicateScenario(const std::string& name, const std::string& new_name,
                                   const std::function<void(ScenarioSpec&)>& change = {});
    void renameScenario(const std::string& name, const std::string& new_name);
    void deleteScenario(const std::string& name);  // and its runs
    std::vector<ScenarioInfo> scenarios();
    std::optional<ScenarioInfo> findScenario(const std::string& name);
    ScenarioInfo scenario(const std::string& name);  // throws StoreError listing close names

    // Runs. beginRun records a running run; saveRun stores the results and marks it finished
    // in one transaction; failRun marks it failed or cancelled.
    std::int64_t beginRun(std::int64_t scenario_id, const std::string& engine_version);
    void saveRun(std::int64_t run_id, const SimResult& result, const WriteProgress& progress = {});
    void failRun(std::int64_t run_id, RunStatus status, const std::string& message);
    // Runs left 'running' by a process of this host that no longer exists (killed, crashed)
    // become failed ("interrupted"); done on open. Returns how many.
    int recoverInterruptedRuns();
    // The latest finished run whose scenario content hash and engine version match, if any.
    std::optional<RunInfo> finishedRunWithHash(const std::string& content_hash,
                                               const std::string& engine_version);
    std::vector<RunInfo> runs(std::optional<std::int64_t> scenario_id = std::nullopt);
    RunInfo runInfo(std::int64_t run_id);
    // The run's notes alone (a few rows): e.g. whether it stopped early.
    std::vector<std::string> runNotes(std::int64_t run_id);
    // The whole result: jobs, segments, allocation and batch changes (if with_segments) and
    // series. Segments come back per GPU sorted by start; allocation and batch changes sorted
    // by time, those of one instant by job. The left-out jobs and notes come back either way.
    SimResult loadRun(std::int64_t run_id, bool with_segments = true);

    // What the desktop app remembers about this workspace (architecture.md section 9.2): a text
    // value per key; an unknown key reads as empty. Writing an empty value removes the key.
    std::string setting(const std::string& key);
    void setSetting(const std::string& key, const std::string& value);

    SqliteDb& db() { return db_; }

private:
    void open(int target_version);
    std::string scenarioHash(const ScenarioSpec& spec);
    void validate(const ScenarioSpec& spec);
    std::int64_t insertScenario(const ScenarioSpec& spec);
    Trace readTrace(std::int64_t id);
    SqliteDb db_;
    std::int64_t last_trace_id_ = 0;
    std::shared_ptr<const Trace> last_trace_;
};

}  // namespace cl
