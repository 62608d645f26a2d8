#include "core/io/result_writers.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>

namespace cl {

namespace {

// Rows are formatted into a buffer with std::to_chars and written in large blocks: snprintf's
// "%.17g" and one stream insertion per field made writing the segments of a run with millions
// of them take longer than simulating it. std::to_chars with a precision is specified to give
// printf's text for the same format, so the files are byte for byte what they were.
class RowBuffer {
public:
    explicit RowBuffer(std::ostream& out) : out_(out) { buf_.reserve(kFlushAt + 512); }
    ~RowBuffer() = default;
    RowBuffer(const RowBuffer&) = delete;
    RowBuffer& operator=(const RowBuffer&) = delete;

    void text(std::string_view s) { buf_.append(s); }
    void ch(char c) { buf_.push_back(c); }
    void integer(long long v) {
        char tmp[24];
        buf_.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    }
    // "%.17g", empty for NaN (unfinished values). The same times recur on many rows (every
    // segment that ends at one event), so recent texts are kept by the value's bits.
    void num(double v) {
        if (std::isnan(v)) return;
        const auto bits = std::bit_cast<std::uint64_t>(v);
        Cached& c = cache_[(bits ^ (bits >> 29) ^ (bits >> 43)) & (kCacheSize - 1)];
        if (c.length == 0 || c.bits != bits) {
            c.bits = bits;
            c.length = static_cast<std::uint8_t>(
                std::to_chars(c.text, c.text + sizeof c.text, v, std::chars_format::general, 17).ptr -
                c.text);
        }
        buf_.append(c.text, c.length);
    }
    // One row: the fields separated by commas, each written as its type is (text quoted as
    // CSV needs, numbers as num() and integer() write them).
    template <class... Fields>
    void row(const Fields&... fields) {
        bool first = true;
        ((first ? void(first = false) : ch(','), field(fields)), ...);
        endRow();
    }
    void csvText(const std::string& s) {
        if (s.find_first_of(",\"\n") == std::string::npos) {
            buf_.append(s);
            return;
        }
        buf_.push_back('"');
        for (char c : s) {
            if (c == '"') buf_.push_back('"');
            buf_.push_back(c);
        }
        buf_.push_back('"');
    }
    // At the end of a row: hands the buffer to the stream once it is large.
    void endRow() {
        buf_.push_back('\n');
        if (buf_.size() >= kFlushAt) flush();
    }
    void flush() {
        out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        buf_.clear();
    }

private:
    void field(double v) { num(v); }
    void field(int v) { integer(v); }
    void field(long long v) { integer(v); }
    void field(const std::string& s) { csvText(s); }

    static constexpr std::size_t kFlushAt = 1 << 20;
    static constexpr std::size_t kCacheSize = 4096;
    struct Cached {
        std::uint64_t bits = 0;
        std::uint8_t length = 0;  // 0 = empty; "%.17g" of a double is at most 24 characters
        char text[31];
    };
    std::ostream& out_;
    std::string buf_;
    std::vector<Cached> cache_ = std::vector<Cached>(kCacheSize);
};

void segmentRows(RowBuffer& o, std::span<const GpuSegment> segments) {
    for (const auto& s : segments) o.row(s.gpu, s.t0, s.t1, s.job);
}

constexpr std::string_view kSegmentsHeader = "gpu,t0,t1,job_index\n";

// One CSV file: the header, then what `rows` puts into the buffer, committed as a whole.
template <class Rows>
void writeCsv(const std::string& path, std::string_view header, const Rows& rows) {
    AtomicFile f(path);
    RowBuffer o(f.stream());
    o.text(header);
    rows(o);
    o.flush();
    f.commit();
}

}  // namespace

void writeJobsCsv(const SimResult& r, const std::string& path) {
    const std::string header =
        "job_index,job_id,model,gpus,iterations,submit,first_start,end,jct,queueing_delay,pending_time,"
        "preemptions,restarts";
    // A run where a job hit its time limit says which (1 in `timeout`); other runs keep the
    // columns they always had.
    const bool any_timeout =
        std::any_of(r.jobs.begin(), r.jobs.end(), [](const JobRecord& j) { return j.timed_out; });
    writeCsv(path, header + (any_timeout ? ",timeout\n" : "\n"), [&](RowBuffer& o) {
        for (const auto& j : r.jobs) {
            if (any_timeout)
                o.row(j.index, j.id, j.model, j.gpus, j.iterations, j.submit, j.first_start, j.end, j.jct,
                      j.queueing_delay, j.pending_time, j.preemptions, j.restarts, j.timed_out ? 1 : 0);
            else
                o.row(j.index, j.id, j.model, j.gpus, j.iterations, j.submit, j.first_start, j.end, j.jct,
                      j.queueing_delay, j.pending_time, j.preemptions, j.restarts);
        }
    });
}

void writeSegmentsCsv(const SimResult& r, const std::string& path) {
    writeCsv(path, kSegmentsHeader, [&](RowBuffer& o) { segmentRows(o, r.segments); });
}

// The rows are formatted and written on a thread of their own while the run goes on
// (docs/architecture.md section 2.9): formatting and the write calls were an eighth of a
// queued run's time. The run hands over a copy of each batch; at most kMaxQueued batches wait,
// so memory stays bounded when the disk is slower than the run. Batches are written in the
// order they came, so the file is the same bytes as written in the run's own thread.
struct SegmentsCsvWriter::Impl {
    static constexpr std::size_t kMaxQueued = 8;

    std::string path;
    std::optional<AtomicFile> file;
    std::optional<RowBuffer> rows;
    std::size_t count = 0;

    std::mutex mutex;
    std::condition_variable work_ready, space_ready;
    std::deque<std::vector<GpuSegment>> queue;
    std::vector<std::vector<GpuSegment>> spare;  // written batches, their memory reused
    bool closing = false;
    std::exception_ptr error;  // the worker's failure, rethrown by the next write or commit
    std::thread worker;

    ~Impl() { stop(); }

    void open() {
        if (file) return;
        file.emplace(path);
        rows.emplace(file->stream());
        rows->text(kSegmentsHeader);
        try {
            worker = std::thread([this] { work(); });
        } catch (const std::system_error&) {
            // No thread to be had: write() formats in the caller's thread instead.
        }
    }

    void work() {
        std::unique_lock lock(mutex);
        for (;;) {
            work_ready.wait(lock, [&] { return closing || !queue.empty(); });
            if (queue.empty()) return;
            std::vector<GpuSegment> batch = std::move(queue.front());
            queue.pop_front();
            space_ready.notify_one();
            lock.unlock();
            try {
                if (!error) segmentRows(*rows, batch);
            } catch (...) {
                lock.lock();
                error = std::current_exception();
                lock.unlock();
            }
            batch.clear();
            lock.lock();
            spare.push_back(std::move(batch));
        }
    }

    void write(std::span<const GpuSegment> segments) {
        if (!worker.joinable()) {
            segmentRows(*rows, segments);
            return;
        }
        std::unique_lock lock(mutex);
        if (error) std::rethrow_exception(error);
        space_ready.wait(lock, [&] { return queue.size() < kMaxQueued; });
        std::vector<GpuSegment> batch;
        if (!spare.empty()) {
            batch = std::move(spare.back());
            spare.pop_back();
        }
        lock.unlock();
        batch.assign(segments.begin(), segments.end());
        lock.lock();
        queue.push_back(std::move(batch));
        work_ready.notify_one();
    }

    // Waits until every batch is written and the worker has ended.
    void stop() {
        if (!worker.joinable()) return;
        {
            std::lock_guard lock(mutex);
            closing = true;
        }
        work_ready.notify_one();
        worker.join();
    }
};

SegmentsCsvWriter::SegmentsCsvWriter(std::string path) : impl_(std::make_unique<Impl>()) {
    impl_->path = std::move(path);
}

SegmentsCsvWriter::~SegmentsCsvWriter() = default;

void SegmentsCsvWriter::write(std::span<const GpuSegment> segments) {
    impl_->open();
    impl_->write(segments);
    impl_->count += segments.size();
}

std::size_t SegmentsCsvWriter::rows() const {
    return impl_->count;
}

void SegmentsCsvWriter::commit() {
    impl_->open();
    impl_->stop();
    if (impl_->error) std::rethrow_exception(impl_->error);
    impl_->rows->flush();
    impl_->file->commit();
}

void writeSeriesCsv(const SimResult& r, const std::string& path) {
    writeCsv(path,
             "t,queue_length,running_jobs,blocking_index,gpu_utilization,storage_utilization,cpu_utilization,"
             "gpu_compute_utilization,network_utilization\n",
             [&](RowBuffer& o) {
                 for (const auto& s : r.series)
                     o.row(s.t, s.queue_length, s.running_jobs, s.blocking_index, s.gpu_utilization,
                           s.storage_utilization, s.cpu_utilization, s.gpu_compute_utilization,
                           s.network_utilization);
             });
}

namespace {
// NaN (a size class without a completed job) is written as null.
nlohmann::json maybeNumber(double v) {
    return std::isnan(v) ? nlohmann::json() : nlohmann::json(v);
}
}  // namespace

nlohmann::json summaryJson(const Summary& s) {
    // The new figures take the planning targets' names (docs/architecture.md 7.7).
    return {{"jobs", s.jobs},
            {"completed", s.completed},
            {"avg_jct", s.avg_jct},
            {"median_jct", s.median_jct},
            {"p95_jct", s.p95_jct},
            {"p99_jct", s.p99_jct},
            {"makespan", s.makespan},
            {"avg_queueing_delay", s.avg_queueing_delay},
            {"p95_queueing", s.p95_queueing_delay},
            {"small:completed", s.small.completed},
            {"small:avg_jct", maybeNumber(s.small.avg_jct)},
            {"small:p95_jct", maybeNumber(s.small.p95_jct)},
            {"small:p99_jct", maybeNumber(s.small.p99_jct)},
            {"large:completed", s.large.completed},
            {"large:avg_jct", maybeNumber(s.large.avg_jct)},
            {"large:p95_jct", maybeNumber(s.large.p95_jct)},
            {"large:p99_jct", maybeNumber(s.large.p99_jct)}};
}

namespace {
// The figures only some runs have, added only when they have them: runs without time limits
// or left-out jobs keep their metrics.json byte for byte.
void addReplayFigures(nlohmann::json& p, const SimResult& r) {
    if (r.summary.timed_out > 0) p["timed_out"] = r.summary.timed_out;
    if (!r.notes.empty()) p["notes"] = r.notes;
    if (r.left_out.empty()) return;
    nlohmann::json left = nlohmann::json::array();
    for (const LeftOutJob& l : r.left_out)
        left.push_back({{"job_index", l.index}, {"job_id", l.id}, {"reason", l.reason}});
    p["left_out"] = std::move(left);
}
}  // namespace

nlohmann::json metricsJson(const std::vector<SimResult>& results, const nlohmann::json& context) {
    nlohmann::json j = context.is_object() ? context : nlohmann::json::object();
    j["units"] = "seconds";
    nlohmann::json avg = nlohmann::json::object();
    nlohmann::json policies = nlohmann::json::object();
    for (const auto& r : results) {
        avg[r.policy] = r.summary.avg_jct;
        nlohmann::json p = summaryJson(r.summary);
        p["conventions"] = r.conventions;
        p["events"] = r.events;
        p["wall_seconds"] = r.wall_seconds;
        addReplayFigures(p, r);
        policies[r.policy] = p;
    }
    j["avg_jct"] = avg;
    j["policies"] = policies;
    return j;
}

void writeJson(const nlohmann::json& j, const std::string& path) {
    AtomicFile f(path);
    f.stream() << j.dump(2) << '\n';
    f.commit();
}

}  // namespace cl
