#include "core/store/run_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace cl {

static_assert(std::endian::native == std::endian::little, "run blobs are stored little-endian");

namespace {

// A packed segment: t0 (f64), t1 (f64), job (i32).
constexpr std::size_t kSegmentBytes = 20;
// A packed allocation change: t, cpus, memory_gb, speedup (f64 each).
constexpr std::size_t kAllocationBytes = 32;
// A packed batch change: t (f64), sub_batch (i32), accumulation_steps (i32), interference (f64).
constexpr std::size_t kBatchBytes = 24;

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

// Whether `table` has `column`: a store opened at an older schema version (as the migration tests
// do, to write runs as older builds did) writes and reads only the columns that version has.
bool hasColumn(SqliteDb& db, const char* table, const char* column) {
    Statement s = db.prepare("SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2");
    s.bind(1, table).bind(2, column);
    return s.step() && s.int64At(0) > 0;
}

template <class T>
std::map<int, std::vector<const T*>> groupedBy(const std::vector<T>& items, int T::*key) {
    std::map<int, std::vector<const T*>> groups;
    for (const T& item : items) groups[item.*key].push_back(&item);
    return groups;
}

// Each group's items in the order of `time`, ties in their recorded order.
template <class T>
void sortByTime(std::vector<const T*>& items, double T::*time) {
    std::stable_sort(items.begin(), items.end(),
                     [time](const T* a, const T* b) { return a->*time < b->*time; });
}

// One row per group: (run_id, key, count, blob), the blob packed by `pack(item, out)`.
template <class T, class Pack>
void writeBlobRows(Statement& insert, std::int64_t run_id, std::map<int, std::vector<const T*>>& groups,
                   double T::*time, std::size_t item_bytes, Pack pack, const RowWritten& written) {
    std::vector<unsigned char> blob;
    for (auto& [key, list] : groups) {
        sortByTime(list, time);
        blob.resize(list.size() * item_bytes);
        unsigned char* out = blob.data();
        for (const T* item : list) {
            pack(*item, out);
            out += item_bytes;
        }
        insert.bind(1, run_id)
            .bind(2, key)
            .bind(3, static_cast<std::int64_t>(list.size()))
            .bindBlob(4, blob)
            .run();
        written();
    }
}

// Reads (key, count, blob) rows and unpacks each item with `unpack(key, in)`; a blob whose size
// does not match its count is refused, naming the run, the row and what it holds.
template <class T, class Unpack>
std::vector<T> readBlobRows(SqliteDb& db, std::int64_t run_id, const char* sql, const char* key_name,
                            const char* what, const char* items, std::size_t item_bytes, Unpack unpack) {
    std::vector<T> out;
    Statement rows = db.prepare(sql);
    rows.bind(1, run_id);
    while (rows.step()) {
        const int key = rows.intAt(0);
        const std::int64_t count = rows.int64At(1);
        const std::vector<unsigned char> data = rows.blobAt(2);
        if (count < 0 || data.size() != static_cast<std::size_t>(count) * item_bytes)
            throw StoreError(db.path() + ": run " + std::to_string(run_id) + ", " + key_name + " " +
                             std::to_string(key) + ": damaged " + what + " data (" +
                             std::to_string(data.size()) + " bytes for " + std::to_string(count) + " " +
                             items + ")");
        for (std::int64_t k = 0; k < count; ++k) out.push_back(unpack(key, data.data() + k * item_bytes));
    }
    return out;
}

template <class T>
void sortByTime(std::vector<T>& items, double T::*time) {
    std::stable_sort(items.begin(), items.end(),
                     [time](const T& a, const T& b) { return a.*time < b.*time; });
}

}  // namespace

std::size_t storedRunRows(const SimResult& r) {
    return r.jobs.size() + groupedBy(r.segments, &GpuSegment::gpu).size() + r.series.size() +
           groupedBy(r.allocations, &AllocationChange::job).size() +
           groupedBy(r.batches, &BatchChange::job).size() + r.left_out.size() + r.notes.size();
}

namespace {
// One figure column of run_summaries: the Summary field it holds, integer or real. A nullable
// real is NULL for NaN: a size class without a completed job has no figures.
struct SummaryColumn {
    const char* name;
    int* (*count)(Summary&);
    double* (*figure)(Summary&);
    bool nullable = false;
};
// The figure columns in table order, those of schema 1 first, then the ones schema 8 and schema 10
// added. The one table serves the write (at any of these schemas) and the read.
constexpr SummaryColumn kSummaryColumns[] = {
    {"jobs", [](Summary& m) { return &m.jobs; }, nullptr},
    {"completed", [](Summary& m) { return &m.completed; }, nullptr},
    {"avg_jct", nullptr, [](Summary& m) { return &m.avg_jct; }},
    {"median_jct", nullptr, [](Summary& m) { return &m.median_jct; }},
    {"p95_jct", nullptr, [](Summary& m) { return &m.p95_jct; }},
    {"p99_jct", nullptr, [](Summary& m) { return &m.p99_jct; }},
    {"makespan", nullptr, [](Summary& m) { return &m.makespan; }},
    {"avg_queueing_delay", nullptr, [](Summary& m) { return &m.avg_queueing_delay; }},
    // Schema 8.
    {"p95_queueing_delay", nullptr, [](Summary& m) { return &m.p95_queueing_delay; }},
    {"large_completed", [](Summary& m) { return &m.large.completed; }, nullptr},
    {"large_avg_jct", nullptr, [](Summary& m) { return &m.large.avg_jct; }, true},
    {"large_p95_jct", nullptr, [](Summary& m) { return &m.large.p95_jct; }, true},
    {"large_p99_jct", nullptr, [](Summary& m) { return &m.large.p99_jct; }, true},
    {"small_completed", [](Summary& m) { return &m.small.completed; }, nullptr},
    {"small_avg_jct", nullptr, [](Summary& m) { return &m.small.avg_jct; }, true},
    {"small_p95_jct", nullptr, [](Summary& m) { return &m.small.p95_jct; }, true},
    {"small_p99_jct", nullptr, [](Summary& m) { return &m.small.p99_jct; }, true},
    // Schema 10 (0 in rows written before: those engines had no time limits).
    {"timed_out", [](Summary& m) { return &m.timed_out; }, nullptr},
};
constexpr std::size_t kSchema1SummaryColumns = 8;
// A column of schema 8 (large_completed): NULL in a row written before it, by an older build.
constexpr std::size_t kSchema8Marker = 9;
static_assert(std::string_view(kSummaryColumns[kSchema8Marker].name) == "large_completed");
// The first column of schema 10; those before it are the columns of schema 8.
constexpr std::size_t kSchema10Marker = 17;
static_assert(std::string_view(kSummaryColumns[kSchema10Marker].name) == "timed_out");

// How many figure columns run_summaries has: a store opened at an older version stores the
// summary without the later ones.
std::size_t storedSummaryFigures(SqliteDb& db) {
    if (hasColumn(db, "run_summaries", kSummaryColumns[kSchema10Marker].name))
        return std::size(kSummaryColumns);
    if (hasColumn(db, "run_summaries", kSummaryColumns[kSchema8Marker].name)) return kSchema10Marker;
    return kSchema1SummaryColumns;
}
}  // namespace

void writeRunSummary(SqliteDb& db, std::int64_t run_id, const SimResult& r) {
    const std::size_t figures = storedSummaryFigures(db);
    std::string names = "run_id, policy, conventions, events, wall_seconds";
    std::string values = "?1, ?2, ?3, ?4, ?5";
    constexpr int kFirstFigure = 6;
    for (std::size_t i = 0; i < figures; ++i) {
        names += std::string(", ") + kSummaryColumns[i].name;
        values += ", ?" + std::to_string(kFirstFigure + static_cast<int>(i));
    }
    Statement insert = db.prepare("INSERT INTO run_summaries(" + names + ") VALUES(" + values + ")");
    insert.bind(1, run_id)
        .bind(2, r.policy)
        .bind(3, r.conventions)
        .bind(4, static_cast<std::int64_t>(r.events))
        .bind(5, r.wall_seconds);
    Summary m = r.summary;
    for (std::size_t i = 0; i < figures; ++i) {
        const SummaryColumn& c = kSummaryColumns[i];
        const int index = kFirstFigure + static_cast<int>(i);
        if (c.count)
            insert.bind(index, *c.count(m));
        else if (c.nullable)
            bindMaybe(insert, index, *c.figure(m));
        else
            insert.bind(index, *c.figure(m));
    }
    insert.run();
}

std::string runSummaryFigureColumns(const std::string& prefix) {
    std::string list;
    for (const SummaryColumn& c : kSummaryColumns) list += (list.empty() ? "" : ", ") + prefix + c.name;
    return list;
}

bool readRunSummaryFigures(const Statement& s, int first_column, Summary& summary) {
    const bool schema8 = !s.isNull(first_column + static_cast<int>(kSchema8Marker));
    const std::size_t figures = schema8 ? std::size(kSummaryColumns) : kSchema1SummaryColumns;
    for (std::size_t i = 0; i < figures; ++i) {
        const SummaryColumn& c = kSummaryColumns[i];
        const int column = first_column + static_cast<int>(i);
        if (c.count)
            *c.count(summary) = s.intAt(column);
        else
            *c.figure(summary) = c.nullable ? maybeAt(s, column) : s.doubleAt(column);
    }
    return schema8;
}

std::string readRunConventions(SqliteDb& db, std::int64_t run_id) {
    Statement s = db.prepare("SELECT conventions FROM run_summaries WHERE run_id = ?1");
    s.bind(1, run_id);
    return s.step() ? s.textAt(0) : std::string();
}

namespace {

// A packed job record (schema 11): position, gpus, preemptions, restarts (i32 each); flags (u8:
// 1 completed, 2 timed out); iterations, solo_iteration_time, submit, first_start, end, jct,
// queueing_delay, pending_time, running_time (f64 each, NaN for "not started"/"not finished");
// then the job's id and model, each a u32 byte count and its bytes.
constexpr std::size_t kJobFixedBytes = 4 * 4 + 1 + 9 * 8;

bool hasTable(SqliteDb& db, const char* table) {
    Statement s = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1");
    s.bind(1, table);
    return s.step() && s.int64At(0) > 0;
}

template <class T>
void put(std::vector<unsigned char>& out, const T& v) {
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &v, sizeof(T));
}

void putText(std::vector<unsigned char>& out, const std::string& text) {
    put(out, static_cast<std::uint32_t>(text.size()));
    out.insert(out.end(), text.begin(), text.end());
}

// Reads a packed record's fields in order; false once the blob is too short for the next one.
class JobRecordReader {
public:
    explicit JobRecordReader(const std::vector<unsigned char>& data) : data_(data) {}
    template <class T>
    bool get(T& v) {
        if (data_.size() - at_ < sizeof(T)) return false;
        std::memcpy(&v, data_.data() + at_, sizeof(T));
        at_ += sizeof(T);
        return true;
    }
    bool getText(std::string& text) {
        std::uint32_t size = 0;
        if (!get(size) || data_.size() - at_ < size) return false;
        text.assign(reinterpret_cast<const char*>(data_.data() + at_), size);
        at_ += size;
        return true;
    }
    bool atEnd() const { return at_ == data_.size(); }

private:
    const std::vector<unsigned char>& data_;
    std::size_t at_ = 0;
};

bool readPackedJob(JobRecordReader& in, JobRecord& j) {
    std::int32_t index = 0, gpus = 0, preemptions = 0, restarts = 0;
    std::uint8_t flags = 0;
    const bool ok = in.get(index) && in.get(gpus) && in.get(preemptions) && in.get(restarts) &&
                    in.get(flags) && in.get(j.iterations) && in.get(j.solo_iteration_time) &&
                    in.get(j.submit) && in.get(j.first_start) && in.get(j.end) && in.get(j.jct) &&
                    in.get(j.queueing_delay) && in.get(j.pending_time) && in.get(j.running_time) &&
                    in.getText(j.id) && in.getText(j.model);
    j.index = index;
    j.gpus = gpus;
    j.preemptions = preemptions;
    j.restarts = restarts;
    j.completed = (flags & 1) != 0;
    j.timed_out = (flags & 2) != 0;
    return ok;
}

// Before schema 11 (and in runs stored then): one run_jobs row per record, NULL for NaN.
void writeJobRows(SqliteDb& db, std::int64_t run_id, const std::vector<JobRecord>& jobs,
                  const RowWritten& written) {
    // timed_out came with schema 10 (a store opened at an older version writes without it).
    const bool timed_out_column = hasColumn(db, "run_jobs", "timed_out");
    Statement job = db.prepare(
        std::string("INSERT INTO run_jobs(run_id, position, job_id, model, gpus, iterations, "
                    "solo_iteration_time, submit, first_start, end_time, jct, queueing_delay, pending_time, "
                    "running_time, preemptions, restarts, completed") +
        (timed_out_column ? ", timed_out" : "") +
        ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17" +
        (timed_out_column ? ", ?18)" : ")"));
    for (const JobRecord& j : jobs) {
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
            .bind(17, j.completed ? 1 : 0);
        if (timed_out_column) job.bind(18, j.timed_out ? 1 : 0);
        job.run();
        written();
    }
}

std::vector<JobRecord> readJobRows(SqliteDb& db, std::int64_t run_id, std::size_t expected_jobs) {
    const bool timed_out_column = hasColumn(db, "run_jobs", "timed_out");
    Statement job = db.prepare(
        std::string("SELECT position, job_id, model, gpus, iterations, solo_iteration_time, submit, "
                    "first_start, end_time, jct, queueing_delay, pending_time, running_time, preemptions, "
                    "restarts, completed") +
        (timed_out_column ? ", timed_out" : "") + " FROM run_jobs WHERE run_id = ?1 ORDER BY position");
    job.bind(1, run_id);
    std::vector<JobRecord> jobs;
    jobs.reserve(expected_jobs);
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
        j.timed_out = timed_out_column && job.intAt(16) != 0;
        jobs.push_back(std::move(j));
    }
    return jobs;
}

}  // namespace

void writeRunJobs(SqliteDb& db, std::int64_t run_id, const std::vector<JobRecord>& jobs,
                  const RowWritten& written) {
    if (!hasTable(db, "run_job_records")) return writeJobRows(db, run_id, jobs, written);
    std::vector<unsigned char> blob;
    std::size_t text_bytes = 0;
    for (const JobRecord& j : jobs) text_bytes += 8 + j.id.size() + j.model.size();
    blob.reserve(jobs.size() * kJobFixedBytes + text_bytes);
    for (const JobRecord& j : jobs) {
        put(blob, static_cast<std::int32_t>(j.index));
        put(blob, static_cast<std::int32_t>(j.gpus));
        put(blob, static_cast<std::int32_t>(j.preemptions));
        put(blob, static_cast<std::int32_t>(j.restarts));
        put(blob, static_cast<std::uint8_t>((j.completed ? 1 : 0) | (j.timed_out ? 2 : 0)));
        for (double v : {j.iterations, j.solo_iteration_time, j.submit, j.first_start, j.end, j.jct,
                         j.queueing_delay, j.pending_time, j.running_time})
            put(blob, v);
        putText(blob, j.id);
        putText(blob, j.model);
        written();
    }
    db.prepare("INSERT INTO run_job_records(run_id, jobs, data) VALUES(?1, ?2, ?3)")
        .bind(1, run_id)
        .bind(2, static_cast<std::int64_t>(jobs.size()))
        .bindBlob(3, blob)
        .run();
}

std::vector<JobRecord> readRunJobs(SqliteDb& db, std::int64_t run_id, std::size_t expected_jobs) {
    if (!hasTable(db, "run_job_records")) return readJobRows(db, run_id, expected_jobs);
    Statement row = db.prepare("SELECT jobs, data FROM run_job_records WHERE run_id = ?1");
    row.bind(1, run_id);
    if (!row.step()) return readJobRows(db, run_id, expected_jobs);  // stored before schema 11
    const std::int64_t count = row.int64At(0);
    const std::vector<unsigned char> data = row.blobAt(1);
    const auto damaged = [&](const std::string& why) {
        return StoreError(db.path() + ": run " + std::to_string(run_id) + ": damaged job records (" + why +
                          ")");
    };
    if (count < 0 || data.size() < static_cast<std::size_t>(count) * kJobFixedBytes)
        throw damaged(std::to_string(data.size()) + " bytes for " + std::to_string(count) + " jobs");
    std::vector<JobRecord> jobs(static_cast<std::size_t>(count));
    JobRecordReader in(data);
    for (std::size_t k = 0; k < jobs.size(); ++k)
        if (!readPackedJob(in, jobs[k]))
            throw damaged("job " + std::to_string(k + 1) + " of " + std::to_string(count) + " is cut short");
    if (!in.atEnd()) throw damaged("bytes left after " + std::to_string(count) + " jobs");
    return jobs;
}

void writeRunSegments(SqliteDb& db, std::int64_t run_id, const std::vector<GpuSegment>& segments,
                      const RowWritten& written) {
    auto by_gpu = groupedBy(segments, &GpuSegment::gpu);
    Statement insert =
        db.prepare("INSERT INTO run_segments(run_id, gpu, segments, data) VALUES(?1, ?2, ?3, ?4)");
    writeBlobRows(
        insert, run_id, by_gpu, &GpuSegment::t0, kSegmentBytes,
        [](const GpuSegment& g, unsigned char* out) {
            const std::int32_t job_index = g.job;
            std::memcpy(out, &g.t0, 8);
            std::memcpy(out + 8, &g.t1, 8);
            std::memcpy(out + 16, &job_index, 4);
        },
        written);
}

std::vector<GpuSegment> readRunSegments(SqliteDb& db, std::int64_t run_id) {
    return readBlobRows<GpuSegment>(
        db, run_id, "SELECT gpu, segments, data FROM run_segments WHERE run_id = ?1 ORDER BY gpu", "GPU",
        "segment", "segments", kSegmentBytes, [](int gpu, const unsigned char* in) {
            GpuSegment g;
            g.gpu = gpu;
            std::int32_t job_index = 0;
            std::memcpy(&g.t0, in, 8);
            std::memcpy(&g.t1, in + 8, 8);
            std::memcpy(&job_index, in + 16, 4);
            g.job = job_index;
            return g;
        });
}

void writeRunSeries(SqliteDb& db, std::int64_t run_id, const std::vector<TimeSample>& series,
                    const RowWritten& written) {
    Statement insert = db.prepare(
        "INSERT INTO run_series(run_id, position, t, queue_length, running_jobs, gpu_utilization, "
        "blocking_index, "
        "storage_utilization, cpu_utilization, gpu_compute_utilization, network_utilization, cpu_allocated, "
        "memory_allocated) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    for (std::size_t k = 0; k < series.size(); ++k) {
        const TimeSample& t = series[k];
        insert.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(k))
            .bind(3, t.t)
            .bind(4, t.queue_length)
            .bind(5, t.running_jobs)
            .bind(6, t.gpu_utilization);
        bindMaybe(insert, 7, t.blocking_index);
        bindMaybe(insert, 8, t.storage_utilization);
        bindMaybe(insert, 9, t.cpu_utilization);
        bindMaybe(insert, 10, t.gpu_compute_utilization);
        bindMaybe(insert, 11, t.network_utilization);
        bindMaybe(insert, 12, t.cpu_allocated);
        bindMaybe(insert, 13, t.memory_allocated);
        insert.run();
        written();
    }
}

std::vector<TimeSample> readRunSeries(SqliteDb& db, std::int64_t run_id) {
    Statement series = db.prepare(
        "SELECT t, queue_length, running_jobs, gpu_utilization, blocking_index, storage_utilization, "
        "cpu_utilization, gpu_compute_utilization, network_utilization, cpu_allocated, memory_allocated "
        "FROM run_series WHERE run_id = ?1 "
        "ORDER BY position");
    series.bind(1, run_id);
    std::vector<TimeSample> out;
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
        out.push_back(t);
    }
    return out;
}

void writeRunAllocations(SqliteDb& db, std::int64_t run_id, const std::vector<AllocationChange>& allocations,
                         const RowWritten& written) {
    auto by_job = groupedBy(allocations, &AllocationChange::job);
    Statement insert =
        db.prepare("INSERT INTO run_allocations(run_id, job, changes, data) VALUES(?1, ?2, ?3, ?4)");
    writeBlobRows(
        insert, run_id, by_job, &AllocationChange::t, kAllocationBytes,
        [](const AllocationChange& a, unsigned char* out) {
            for (double v : {a.t, a.cpus, a.memory_gb, a.speedup}) {
                std::memcpy(out, &v, 8);
                out += 8;
            }
        },
        written);
}

std::vector<AllocationChange> readRunAllocations(SqliteDb& db, std::int64_t run_id) {
    std::vector<AllocationChange> out = readBlobRows<AllocationChange>(
        db, run_id, "SELECT job, changes, data FROM run_allocations WHERE run_id = ?1 ORDER BY job", "job",
        "allocation", "changes", kAllocationBytes, [](int job, const unsigned char* in) {
            AllocationChange a;
            a.job = job;
            for (double* v : {&a.t, &a.cpus, &a.memory_gb, &a.speedup}) {
                std::memcpy(v, in, 8);
                in += 8;
            }
            return a;
        });
    // Back in time order; the rows were per job, so simultaneous changes come by job.
    sortByTime(out, &AllocationChange::t);
    return out;
}

void writeRunBatches(SqliteDb& db, std::int64_t run_id, const std::vector<BatchChange>& batches,
                     const RowWritten& written) {
    if (batches.empty()) return;
    auto by_job = groupedBy(batches, &BatchChange::job);
    Statement insert =
        db.prepare("INSERT INTO run_batches(run_id, job, changes, data) VALUES(?1, ?2, ?3, ?4)");
    writeBlobRows(
        insert, run_id, by_job, &BatchChange::t, kBatchBytes,
        [](const BatchChange& b, unsigned char* out) {
            const std::int32_t sub_batch = b.sub_batch, steps = b.accumulation_steps;
            std::memcpy(out, &b.t, 8);
            std::memcpy(out + 8, &sub_batch, 4);
            std::memcpy(out + 12, &steps, 4);
            std::memcpy(out + 16, &b.interference, 8);
        },
        written);
}

std::vector<BatchChange> readRunBatches(SqliteDb& db, std::int64_t run_id) {
    std::vector<BatchChange> out = readBlobRows<BatchChange>(
        db, run_id, "SELECT job, changes, data FROM run_batches WHERE run_id = ?1 ORDER BY job", "job",
        "batch", "changes", kBatchBytes, [](int job, const unsigned char* in) {
            BatchChange b;
            b.job = job;
            std::int32_t sub_batch = 0, steps = 0;
            std::memcpy(&b.t, in, 8);
            std::memcpy(&sub_batch, in + 8, 4);
            std::memcpy(&steps, in + 12, 4);
            std::memcpy(&b.interference, in + 16, 8);
            b.sub_batch = sub_batch;
            b.accumulation_steps = steps;
            return b;
        });
    sortByTime(out, &BatchChange::t);
    return out;
}

void writeRunLeftOut(SqliteDb& db, std::int64_t run_id, const std::vector<LeftOutJob>& left_out,
                     const RowWritten& written) {
    if (left_out.empty()) return;
    Statement insert = db.prepare(
        "INSERT INTO run_left_out(run_id, position, job_index, job_id, reason) VALUES(?1, ?2, ?3, ?4, ?5)");
    for (std::size_t k = 0; k < left_out.size(); ++k) {
        const LeftOutJob& left = left_out[k];
        insert.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(k))
            .bind(3, left.index)
            .bind(4, left.id)
            .bind(5, left.reason)
            .run();
        written();
    }
}

std::vector<LeftOutJob> readRunLeftOut(SqliteDb& db, std::int64_t run_id) {
    Statement rows =
        db.prepare("SELECT job_index, job_id, reason FROM run_left_out WHERE run_id = ?1 ORDER BY position");
    rows.bind(1, run_id);
    std::vector<LeftOutJob> out;
    while (rows.step()) out.push_back({rows.intAt(0), rows.textAt(1), rows.textAt(2)});
    return out;
}

void writeRunNotes(SqliteDb& db, std::int64_t run_id, const std::vector<std::string>& notes,
                   const RowWritten& written) {
    if (notes.empty()) return;
    Statement insert = db.prepare("INSERT INTO run_notes(run_id, position, note) VALUES(?1, ?2, ?3)");
    for (std::size_t k = 0; k < notes.size(); ++k) {
        insert.bind(1, run_id).bind(2, static_cast<std::int64_t>(k)).bind(3, notes[k]).run();
        written();
    }
}

std::vector<std::string> readRunNotes(SqliteDb& db, std::int64_t run_id) {
    Statement rows = db.prepare("SELECT note FROM run_notes WHERE run_id = ?1 ORDER BY position");
    rows.bind(1, run_id);
    std::vector<std::string> out;
    while (rows.step()) out.push_back(rows.textAt(0));
    return out;
}

}  // namespace cl
