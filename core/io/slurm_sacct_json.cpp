// `sacct --json` read into the same SlurmJob records as --parsable2 (docs/architecture.md
// section 8.5). The versions differ in form, and the reader accepts each:
//  - Slurm 22.05 (openapi/dbv0.0.38): "state": {"current": "COMPLETED"}; "array": {"task_id": 3}
//    and "het": {"job_offset": 1} as plain numbers (null when unset); "required": {"memory": MB};
//    "time": {"limit": minutes}.
//  - Slurm 23.02 (data_parser v0.0.39): numbers that may be unset are {"set", "infinite",
//    "number"} objects (array.task_id, het.job_offset, time.limit); "required": {"memory": MB},
//    with bit 63 set for a per-CPU request.
//  - Slurm 23.11 and later (data_parser v0.0.40 on): "state": {"current": ["COMPLETED"]} (a list
//    of the base state and its flags); "required": {"memory_per_cpu", "memory_per_node"} as
//    {"set", "infinite", "number"} objects instead of "memory".
// In every version times are Unix epoch seconds (0 = unknown) and TRES are lists of {"type",
// "name", "count"} ({"type": "gres", "name": "gpu:a100", "count": 4}); a TRES string as in the
// text form is also read. A well-formed export is walked by a scanner and only the members the
// reader looks at are parsed (a job's steps are only counted); anything else goes through
// nlohmann's SAX parser, which builds one job at a time and names what is wrong.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/io/csv_table.h"
#include "core/io/json_scanner.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"
#include "core/io/slurm_sacct.h"
#include "core/io/slurm_sacct_rules.h"

namespace cl {

namespace {

using io::sacct::StateKind;
using nlohmann::json;

// Walks the start of a file for looksLikeSacct.
struct Scanner : io::JsonScanner {
    // At '{' or ',' of an object: moves past the next member's key and colon. False at its end.
    bool nextKey(std::string_view& key) {
        ws();
        if (!at('{') && !at(',')) return false;
        ++i;
        ws();
        if (!at('"')) return false;
        const std::size_t start = i;
        if (!skipString()) return false;
        key = s.substr(start + 1, i - start - 2);
        ws();
        if (!at(':')) return false;
        ++i;
        ws();
        return true;
    }
    // At '[' or ',' of an array: moves to the next element. False at its end.
    bool nextElement() {
        ws();
        if (!at('[') && !at(',')) return false;
        ++i;
        ws();
        return i < s.size() && !at(']');
    }
};

// A job that cannot be read: the field (its path in the job object) and what is wrong.
struct Refusal {
    std::string field;
    std::string what;
};

std::string brief(const json& v) {
    std::string s = v.dump();
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

const json* find(const json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const json* find(const json& obj, const char* key, const char* inner) {
    const json* outer = find(obj, key);
    return outer ? find(*outer, inner) : nullptr;
}

std::string text(const json* v, const std::string& field) {
    if (!v || v->is_null()) return {};
    if (!v->is_string()) throw Refusal{field, "expected a string, found " + brief(*v)};
    return v->get<std::string>();
}

// A number Slurm may leave unset: a plain number or null (22.05), or {"set", "infinite",
// "number"} (data_parser v0.0.39 and later).
struct MaybeNumber {
    bool set = false;
    bool infinite = false;
    double number = 0;
};

MaybeNumber maybeNumber(const json* v, const std::string& field) {
    if (!v || v->is_null()) return {};
    if (v->is_number()) return {true, false, v->get<double>()};
    if (!v->is_object())
        throw Refusal{field, "expected a number or {\"set\", \"infinite\", \"number\"}, found " + brief(*v)};
    const json* set = find(*v, "set");
    const json* infinite = find(*v, "infinite");
    const json* number = find(*v, "number");
    if (set && !set->is_boolean())
        throw Refusal{field + ".set", "expected true or false, found " + brief(*set)};
    if (infinite && !infinite->is_boolean())
        throw Refusal{field + ".infinite", "expected true or false, found " + brief(*infinite)};
    if (infinite && infinite->get<bool>()) return {true, true, 0};
    if (set && !set->get<bool>()) return {};
    if (!number || !number->is_number())
        throw Refusal{field + ".number", "expected a number, found " + (number ? brief(*number) : "nothing")};
    return {true, false, number->get<double>()};
}

// A whole number in [min, max], or nullopt when unset (or infinite).
std::optional<long long> whole(const json* v, const std::string& field, long long min, long long max) {
    const MaybeNumber n = maybeNumber(v, field);
    if (!n.set || n.infinite) return std::nullopt;
    if (n.number != std::floor(n.number) || n.number < static_cast<double>(min) ||
        n.number > static_cast<double>(max))
        throw Refusal{field, "expected a whole number from " + std::to_string(min) + " to " +
                                 std::to_string(max) + ", found " + brief(*v)};
    return static_cast<long long>(n.number);
}

// Seconds since 1970 (0 means unknown in Slurm's records).
double epoch(const json* v, const std::string& field) {
    const auto t = whole(v, field, 0, 1LL << 40);
    return t && *t > 0 ? static_cast<double>(*t) : std::numeric_limits<double>::quiet_NaN();
}

// "COMPLETED" (22.05, 23.02) or ["COMPLETED"] / ["PENDING", "REQUEUED"] (23.11 on, the base state
// and its flags). sacct's text form prints REQUEUED for a requeued attempt whatever its base, and
// so does this.
std::string stateOf(const json& job) {
    const json* state = find(job, "state");
    const json* current = state && state->is_object() ? find(*state, "current") : state;
    const std::string field = state && state->is_object() ? "state.current" : "state";
    if (!current || current->is_null()) throw Refusal{field, "missing"};
    if (current->is_string()) {
        const std::string s = current->get<std::string>();
        return s.substr(0, s.find(' '));
    }
    if (!current->is_array() || current->empty())
        throw Refusal{field, "expected a state name or a list of them, found " + brief(*current)};
    std::string first;
    for (std::size_t k = 0; k < current->size(); ++k) {
        const json& s = (*current)[k];
        if (!s.is_string())
            throw Refusal{field + "[" + std::to_string(k) + "]", "expected a state name, found " + brief(s)};
        const std::string name = s.get<std::string>();
        if (name == "REQUEUED") return name;
        if (first.empty() && io::sacct::stateKind(name)) first = name;
    }
    return first.empty() ? (*current)[0].get<std::string>() : first;
}

// The count of one TRES type ("cpu", "node") in a list of {"type", "name", "count"}; nullopt when
// the list does not name it.
std::optional<long long> tresCount(const json* list, const std::string& field, const char* type) {
    if (!list || !list->is_array()) return std::nullopt;
    for (std::size_t k = 0; k < list->size(); ++k) {
        const json& item = (*list)[k];
        if (text(find(item, "type"), field + "[" + std::to_string(k) + "].type") != type) continue;
        return whole(find(item, "count"), field + "[" + std::to_string(k) + "].count", 0, 1LL << 30);
    }
    return std::nullopt;
}

bool tresEmpty(const json* list) {
    return !list || list->is_null() || (list->is_array() && list->empty()) ||
           (list->is_string() && io::trim(list->get_ref<const std::string&>()).empty());
}

TresGpus tresGpus(const json* list, const std::string& field) {
    if (!list || list->is_null()) return {};
    if (list->is_string()) {
        try {
            return parseTresGpus(list->get_ref<const std::string&>());
        } catch (const std::invalid_argument& ex) {
            throw Refusal{field, std::string("expected ") + ex.what()};
        }
    }
    if (!list->is_array()) throw Refusal{field, "expected a list of TRES, found " + brief(*list)};
    io::sacct::GpuTally tally;
    for (std::size_t k = 0; k < list->size(); ++k) {
        const json& item = (*list)[k];
        const std::string at = field + "[" + std::to_string(k) + "]";
        if (!item.is_object())
            throw Refusal{at, "expected {\"type\", \"name\", \"count\"}, found " + brief(item)};
        if (text(find(item, "type"), at + ".type") != "gres") continue;
        const std::string name = text(find(item, "name"), at + ".name");
        if (name != "gpu" && name.rfind("gpu:", 0) != 0) continue;
        const auto n = whole(find(item, "count"), at + ".count", 0, 100000);
        try {
            tally.add(name, n.value_or(0));
        } catch (const std::invalid_argument& ex) {
            throw Refusal{at + ".count", std::string("expected ") + ex.what()};
        }
    }
    return tally.result();
}

// The tasks of a pending array record: "3-5,7%2" as sacct prints it, or the accounting
// database's hexadecimal bit mask ("0x38" = tasks 3, 4, 5), which a JSON dump may carry as stored.
std::vector<long long> pendingTasks(const std::string& spec) {
    if (spec.rfind("0x", 0) != 0 && spec.rfind("0X", 0) != 0) return io::sacct::expandArrayRange(spec);
    std::string_view hex = std::string_view(spec).substr(2);
    if (const auto pct = hex.find('%'); pct != std::string_view::npos) hex = hex.substr(0, pct);
    if (hex.empty() || hex.size() > 250000) throw std::invalid_argument("a hexadecimal task mask like 0x38");
    std::vector<long long> tasks;
    for (std::size_t d = 0; d < hex.size(); ++d) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(hex[hex.size() - 1 - d])));
        const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) throw std::invalid_argument("a hexadecimal task mask like 0x38");
        for (int b = 0; b < 4; ++b)
            if (v & (1 << b)) tasks.push_back(static_cast<long long>(d) * 4 + b);
    }
    if (tasks.empty()) throw std::invalid_argument("a task mask with at least one task");
    return tasks;
}

// Memory in GB: per CPU or per node (23.11 on), or "memory" (22.05, 23.02), whose bit 63 marks a
// per-CPU request in 23.02 (22.05 prints only the low 32 bits, without the mark).
double memoryOf(const json& job, int cpus, int nodes) {
    const json* required = find(job, "required");
    if (!required) return std::numeric_limits<double>::quiet_NaN();
    for (const auto& [key, per] : {std::pair{"memory_per_cpu", cpus}, std::pair{"memory_per_node", nodes}}) {
        const MaybeNumber m = maybeNumber(find(*required, key), std::string("required.") + key);
        if (!m.set || m.infinite) continue;
        if (!(m.number >= 0) || m.number > 1e12)
            throw Refusal{std::string("required.") + key,
                          "expected megabytes, found " + std::to_string(m.number)};
        return io::sacct::memoryGb(m.number, per);
    }
    const json* memory = find(*required, "memory");
    constexpr std::uint64_t kPerCpu = std::uint64_t{1} << 63;
    if (memory && memory->is_number_unsigned() && (memory->get<std::uint64_t>() & kPerCpu)) {
        const std::uint64_t mb = memory->get<std::uint64_t>() & ~kPerCpu;
        if (mb > 1000000000000ULL) return std::numeric_limits<double>::quiet_NaN();  // NO_VAL and the like
        return io::sacct::memoryGb(static_cast<double>(mb), cpus);
    }
    const auto mb = whole(memory, "required.memory", 0, 1000000000000LL);
    return mb ? io::sacct::memoryGb(static_cast<double>(*mb), 1) : std::numeric_limits<double>::quiet_NaN();
}

// time.limit in minutes, as the text form's Timelimit (docs/architecture.md 8.5): infinite is
// UNLIMITED and unset is Partition_Limit (no limit of its own: NaN, the partition's MaxTime). 22.05
// prints the stored number plainly, so Slurm's INFINITE and NO_VAL (0xFFFFFFFF, 0xFFFFFFFE) mean
// the same there.
double timeLimit(const json* v) {
    const MaybeNumber limit = maybeNumber(v, "time.limit");
    if (limit.infinite || (limit.set && limit.number == 4294967295.0))
        return std::numeric_limits<double>::infinity();
    if (!limit.set || limit.number == 4294967294.0) return std::numeric_limits<double>::quiet_NaN();
    if (!(limit.number >= 0) || limit.number > 1e9)
        throw Refusal{"time.limit", "expected minutes, found " + std::to_string(limit.number)};
    return limit.number * 60.0;  // sacct --json states the limit in minutes
}

// A job keeps only the members the reader looks at: its own record is about a tenth of what sacct
// prints for it (its steps' statistics, comments, exit codes), and a JSON value takes several times
// its text. `depth` counts the open containers: 3 for a job's members, 4 and 5 below them; a
// step's members (depth 5) go, so its object stays only to be counted.
bool keepKey(int depth, const std::string& key) {
    const auto any = [&](std::initializer_list<std::string_view> names) {
        return std::find(names.begin(), names.end(), key) != names.end();
    };
    switch (depth) {
        case 3:
            return any({"job_id", "name", "user", "account", "partition", "state", "time", "tres", "required",
                        "array", "het", "allocation_nodes", "steps"});
        case 4:
            return any({"submission", "start", "end", "elapsed", "limit", "allocated", "requested", "CPUs",
                        "memory", "memory_per_cpu", "memory_per_node", "job_id", "task_id", "task",
                        "job_offset", "current"});
        case 5:
            return any({"set", "infinite", "number"});
        default:
            return true;
    }
}

// One element of "jobs": kept, dropped for a reason, or refused with its line and field.
void readJob(const json& entry, int line, const std::string& file, const SacctOptions& options,
             SacctImport& out) {
    std::map<std::string, int>& dropped = out.dropped;
    ++out.rows;
    try {
        if (!entry.is_object()) throw Refusal{"", "expected a job object, found " + brief(entry)};
        if (const json* steps = find(entry, "steps"); steps && !steps->is_null()) {
            if (!steps->is_array())
                throw Refusal{"steps", "expected a list of steps, found " + brief(*steps)};
            out.rows += static_cast<int>(steps->size());  // folded into the job
        }
        const json* job_id = find(entry, "job_id");
        if (!job_id) throw Refusal{"job_id", "missing"};
        const auto raw_id = whole(job_id, "job_id", 0, 0xFFFFFFFFLL);
        if (!raw_id) throw Refusal{"job_id", "missing"};
        const long long array_job =
            whole(find(entry, "array", "job_id"), "array.job_id", 0, 0xFFFFFFFFLL).value_or(0);
        const auto task_id = whole(find(entry, "array", "task_id"), "array.task_id", 0, 0xFFFFFFFFLL);
        const std::string task_spec = text(find(entry, "array", "task"), "array.task");
        const long long het_job =
            whole(find(entry, "het", "job_id"), "het.job_id", 0, 0xFFFFFFFFLL).value_or(0);
        const auto het_offset = whole(find(entry, "het", "job_offset"), "het.job_offset", 0, 0xFFFFFFFFLL);

        SlurmJob job;
        job.line = line;
        job.state = stateOf(entry);
        const auto kind = io::sacct::stateKind(job.state);
        if (!kind) throw Refusal{"state.current", "unknown state '" + job.state + "'"};
        const json* time = find(entry, "time");
        job.submit = epoch(time ? find(*time, "submission") : nullptr, "time.submission");
        job.start = epoch(time ? find(*time, "start") : nullptr, "time.start");
        job.end = epoch(time ? find(*time, "end") : nullptr, "time.end");
        if (std::isnan(job.submit)) throw Refusal{"time.submission", "no submit time"};
        job.started = !std::isnan(job.start) && *kind != StateKind::Pending;
        if (job.started) {
            const MaybeNumber elapsed = maybeNumber(time ? find(*time, "elapsed") : nullptr, "time.elapsed");
            if (elapsed.set && !elapsed.infinite) {
                if (!(elapsed.number >= 0) || elapsed.number > 1e10)
                    throw Refusal{"time.elapsed",
                                  "expected seconds, found " + std::to_string(elapsed.number)};
                job.elapsed = elapsed.number;
            } else if (!std::isnan(job.end)) {
                job.elapsed = std::max(0.0, job.end - job.start);
            }
        }
        job.time_limit = timeLimit(time ? find(*time, "limit") : nullptr);
        io::sacct::settleCancelled(job, *kind);

        const json* allocated = find(entry, "tres", "allocated");
        const json* requested = find(entry, "tres", "requested");
        const bool use_alloc = job.started && !tresEmpty(allocated);
        const json* counted = use_alloc ? allocated : requested;
        const std::string counted_field = use_alloc ? "tres.allocated" : "tres.requested";
        job.cpus = static_cast<int>(
            tresCount(counted, counted_field, "cpu")
                .value_or(whole(find(entry, "required", "CPUs"), "required.CPUs", 0, 1LL << 30).value_or(0)));
        const long long alloc_nodes =
            whole(find(entry, "allocation_nodes"), "allocation_nodes", 0, 1LL << 30).value_or(0);
        job.nodes = static_cast<int>(alloc_nodes > 0 ? alloc_nodes
                                                     : tresCount(counted, counted_field, "node").value_or(0));
        TresGpus asked = tresGpus(requested, "tres.requested");
        TresGpus g = use_alloc ? tresGpus(allocated, "tres.allocated") : asked;
        if (g.count == 0 && use_alloc) g = asked;
        job.gpus = g.count;
        job.gpu_type = std::move(g.type);
        job.requested_gpu_type = std::move(asked.type);
        job.memory_gb = memoryOf(entry, job.cpus, job.nodes);
        job.name = text(find(entry, "name"), "name");
        job.user = text(find(entry, "user"), "user");
        job.account = text(find(entry, "account"), "account");
        job.partition = text(find(entry, "partition"), "partition");

        // One id as sacct's JobID column prints it: 123_4 for an array task, 123+1 for a
        // heterogeneous component; a pending array record is one never-started job per task.
        std::vector<std::string> ids;
        if (array_job > 0 && task_id) {
            ids.push_back(std::to_string(array_job) + "_" + std::to_string(*task_id));
        } else if (array_job > 0 && !task_spec.empty()) {
            try {
                for (long long task : pendingTasks(task_spec))
                    ids.push_back(std::to_string(array_job) + "_" + std::to_string(task));
            } catch (const std::invalid_argument& ex) {
                throw Refusal{"array.task",
                              std::string("expected ") + ex.what() + ", got '" + task_spec + "'"};
            }
        } else if (het_job > 0 && het_offset) {
            ids.push_back(std::to_string(het_job) + "+" + std::to_string(*het_offset));
        } else {
            ids.push_back(std::to_string(*raw_id));
        }
        for (std::string& id : ids) {
            SlurmJob j = ids.size() == 1 ? std::move(job) : job;
            j.id = std::move(id);
            if (const char* reason = io::sacct::dropReason(*kind, j, options)) {
                ++dropped[reason];
                continue;
            }
            out.jobs.push_back(std::move(j));
        }
    } catch (const Refusal& r) {
        out.refused.push_back(file + ":" + std::to_string(line) + ": " + r.field + ": " + r.what);
        ++dropped["refused row"];
    }
}

// Follows the characters as nlohmann reads them and notes the line where each element of the
// top-level "jobs" array starts: nlohmann keeps no positions, and the text may be a file too
// large to hold.
class JobLines {
public:
    void feed(char c) {
        if (c == '\n') ++line_;
        if (in_string_) {
            if (escape_)
                escape_ = false;
            else if (c == '\\')
                escape_ = true;
            else if (c == '"')
                in_string_ = false;
            else if (depth_ == 1 && key_.size() < 5)
                key_ += c;
            return;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return;
        last_content_line_ = line_;
        if (in_jobs_ && depth_ == 2 && expect_element_ && c != ']') {
            starts_.push_back(line_);
            expect_element_ = false;
        }
        switch (c) {
            case '"':
                in_string_ = true;
                jobs_next_ = false;
                if (depth_ == 1) key_.clear();
                break;
            case ':':
                jobs_next_ = depth_ == 1 && key_ == "jobs";
                break;
            case '[':
                ++depth_;
                if (depth_ == 2 && jobs_next_) in_jobs_ = expect_element_ = true;
                jobs_next_ = false;
                break;
            case '{':
                ++depth_;
                jobs_next_ = false;
                break;
            case ']':
            case '}':
                if (depth_ == 2) in_jobs_ = false;
                --depth_;
                break;
            case ',':
                expect_element_ = in_jobs_ && depth_ == 2;
                break;
            default:
                jobs_next_ = false;
        }
    }
    int lineOf(std::size_t job) const { return job < starts_.size() ? starts_[job] : last_content_line_; }
    int lastLine() const { return last_content_line_; }

private:
    int line_ = 1;
    int last_content_line_ = 1;
    int depth_ = 0;
    bool in_string_ = false, escape_ = false;
    std::string key_;  // the latest string of the top-level object (enough of it to tell "jobs")
    bool jobs_next_ = false, in_jobs_ = false, expect_element_ = false;
    std::vector<int> starts_;
};

// The characters nlohmann reads, from a text in memory or a file read a block at a time. JobLines
// follows them lazily, in one tight loop up to what nlohmann has taken whenever a line is asked
// for or a block is left: a call per character would double the reading time.
class TrackedChars {
public:
    explicit TrackedChars(std::string_view text) : block_(text) {}
    bool done() const { return pos_ >= block_.size(); }
    char peek() const { return block_[pos_]; }
    void take() { ++pos_; }
    const JobLines& lines() {
        for (; scanned_ < pos_; ++scanned_) lines_.feed(block_[scanned_]);
        return lines_;
    }

private:
    std::string_view block_;
    std::size_t pos_ = 0, scanned_ = 0;
    JobLines lines_;
};

// An input iterator over TrackedChars, the form of input nlohmann::json::parse reads char by char.
struct TrackedIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = char;
    TrackedChars* chars = nullptr;  // nullptr: the end
    char operator*() const { return chars->peek(); }
    TrackedIterator& operator++() {
        chars->take();
        return *this;
    }
    TrackedIterator operator++(int) {
        TrackedIterator before = *this;
        ++*this;
        return before;
    }
    bool atEnd() const { return !chars || chars->done(); }
    bool operator==(const TrackedIterator& other) const { return atEnd() == other.atEnd(); }
    bool operator!=(const TrackedIterator& other) const { return !(*this == other); }
};

// "[json.exception.parse_error.101] parse error at line 2, column 3: syntax error ..." -> from
// "syntax error" on, as JsonDoc reports it.
std::string jsonError(const json::exception& e) {
    std::string what = e.what();
    if (const auto colon = what.find(": ");
        what.find("parse error") != std::string::npos && colon != std::string::npos)
        return what.substr(colon + 2);
    if (const auto bracket = what.find("] ");
        !what.empty() && what.front() == '[' && bracket != std::string::npos)
        return what.substr(bracket + 2);
    return what;
}

// Reads the jobs as nlohmann's SAX parser meets them: each element of the top-level "jobs" array
// is built (with the members keepKey keeps), read as soon as it ends and forgotten, and nothing
// else is built. The memory held is one job's, whatever the size of the export.
class JobsReader final : public nlohmann::json_sax<json> {
public:
    JobsReader(TrackedChars& chars, const std::string& file, const SacctOptions& options, SacctImport& out)
        : chars_(chars), file_(file), options_(options), out_(out) {}

    bool null() override { return value(json()); }
    bool boolean(bool v) override { return value(json(v)); }
    bool number_integer(number_integer_t v) override { return value(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
    bool string(string_t& v) override { return value(json(std::move(v))); }
    bool binary(binary_t&) override { return value(json()); }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        if (skipped_ > 0) return true;
        if (!building_.empty() && keepKey(depth_, k)) {
            key_ = k;
        } else if (building_.empty() && depth_ == 1 && k == "jobs") {
            jobs_next_ = true;
        } else {
            skip_next_ = true;
        }
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        error_ = jsonError(ex);
        return false;
    }

    bool sawJobs() const { return saw_jobs_; }
    const std::string& error() const { return error_; }

private:
    // A value inside a job goes into the container being built; an element of "jobs" that is not
    // an object or a list is a job of its own (and refused).
    bool value(json&& v) {
        if (skipped_ > 0) return true;
        if (skip_next_ || jobs_next_) {
            skip_next_ = jobs_next_ = false;
            return true;
        }
        if (!building_.empty()) {
            insert(std::move(v));
        } else if (in_jobs_ && depth_ == 2) {
            readJob(v, chars_.lines().lineOf(index_++), file_, options_, out_);
        }
        return true;
    }
    bool open(json&& container) {
        if (skipped_ > 0 || skip_next_) {
            skip_next_ = false;
            ++skipped_;
            return true;
        }
        if (jobs_next_) {
            jobs_next_ = false;
            if (!container.is_array()) {
                ++skipped_;
                return true;
            }
            in_jobs_ = saw_jobs_ = true;
        } else if (!building_.empty()) {
            building_.push_back(&insert(std::move(container)));
        } else if (in_jobs_ && depth_ == 2) {
            job_ = std::move(container);
            building_.push_back(&job_);
        }
        ++depth_;
        return true;
    }
    bool close() {
        if (skipped_ > 0) {
            --skipped_;
            return true;
        }
        --depth_;
        if (!building_.empty()) {
            building_.pop_back();
            if (building_.empty()) readJob(job_, chars_.lines().lineOf(index_++), file_, options_, out_);
        } else if (in_jobs_ && depth_ == 1) {
            in_jobs_ = false;
        }
        return true;
    }
    // Into the innermost container being built: under the last key of an object (a repeated key
    // keeps its last value, as a DOM would), or at the end of a list.
    json& insert(json&& v) {
        json& into = *building_.back();
        if (into.is_object()) return into[key_] = std::move(v);
        into.push_back(std::move(v));
        return into.back();
    }

    TrackedChars& chars_;
    const std::string& file_;
    const SacctOptions& options_;
    SacctImport& out_;
    int depth_ = 0;           // open containers that are not skipped
    int skipped_ = 0;         // open containers inside a skipped value
    bool skip_next_ = false;  // the next value belongs to a key that is not kept
    bool jobs_next_ = false;  // the next value is the top-level "jobs"
    bool in_jobs_ = false, saw_jobs_ = false;
    std::vector<json*> building_;  // the containers of the current job, outermost first
    json job_;
    std::string key_;
    std::size_t index_ = 0;
    std::string error_;
};

// The job members readJob looks at (keepKey's depth 3), parsed one by one.
bool readMember(std::string_view key) {
    for (std::string_view name : {"job_id", "name", "user", "account", "partition", "state", "time", "tres",
                                  "required", "array", "het", "allocation_nodes"})
        if (key == name) return true;
    return false;
}

// The fast path for a text in memory: the scanner walks the document, and only the members readJob
// looks at are parsed (a job's steps, most of an export, are only counted). It gives up (nullopt)
// on anything it does not expect, and the SAX reader then reads the text and names the problem; a
// well-formed export reads the same either way (the tests read every fixture both ways).
std::optional<SacctImport> scanJobs(std::string_view text, const std::string& file,
                                    const SacctOptions& options) {
    Scanner sc{text};
    SacctImport out;
    int line = 1;
    std::size_t counted = 0;  // newlines are counted up to here
    const auto lineAt = [&](std::size_t pos) {
        line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                            text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
        counted = pos;
        return line;
    };
    bool saw_jobs = false;
    std::string_view key;
    std::string kept;
    sc.ws();
    if (!sc.at('{')) return std::nullopt;
    try {
        while (sc.nextKey(key)) {
            if (key == "jobs" && saw_jobs) return std::nullopt;  // the SAX reader reads every "jobs"
            if (key != "jobs") {
                if (!sc.skipValue()) return std::nullopt;
                sc.ws();
                continue;
            }
            saw_jobs = true;
            if (!sc.at('[')) return std::nullopt;
            while (sc.nextElement()) {
                const int job_line = lineAt(sc.i);
                if (!sc.at('{')) {  // not a job: readJob refuses it
                    const std::size_t start = sc.i;
                    if (!sc.skipValue()) return std::nullopt;
                    readJob(json::parse(text.substr(start, sc.i - start)), job_line, file, options, out);
                    sc.ws();
                    continue;
                }
                // The kept members' text, parsed at once (a parse per member costs more in setting
                // up than in reading); the steps only counted.
                kept.assign(1, '{');
                long long steps = -1;  // counted steps; -1 = none as a list
                std::string_view member;
                while (sc.nextKey(member)) {
                    const std::size_t start = sc.i;
                    if (member == "steps" && sc.at('[')) {
                        std::size_t n = 0;
                        while (sc.nextElement()) {
                            if (!sc.skipValue()) return std::nullopt;
                            ++n;
                        }
                        sc.ws();
                        if (!sc.at(']')) return std::nullopt;
                        ++sc.i;
                        steps = static_cast<long long>(n);
                    } else {
                        if (!sc.skipValue()) return std::nullopt;
                        if (readMember(member) || member == "steps") {
                            if (member == "steps") steps = -1;
                            if (kept.size() > 1) kept += ',';
                            kept += '"';
                            kept += member;
                            kept += "\":";
                            kept += text.substr(start, sc.i - start);
                        }
                    }
                    sc.ws();
                }
                if (!sc.at('}')) return std::nullopt;
                ++sc.i;
                kept += '}';
                json entry = json::parse(kept);
                if (steps >= 0) entry["steps"] = json::array_t(static_cast<std::size_t>(steps));
                readJob(entry, job_line, file, options, out);
                sc.ws();
            }
            sc.ws();
            if (!sc.at(']')) return std::nullopt;
            ++sc.i;
            sc.ws();
        }
        if (!sc.at('}') || !saw_jobs) return std::nullopt;
        ++sc.i;
        sc.ws();
        if (sc.i != text.size()) return std::nullopt;
    } catch (const json::exception&) {
        return std::nullopt;
    }
    return out;
}

SacctImport readJobs(TrackedChars& chars, const std::string& file, const SacctOptions& options) {
    SacctImport out;
    JobsReader reader(chars, file, options, out);
    if (!json::sax_parse(TrackedIterator{&chars}, TrackedIterator{}, &reader))
        throw ParseError(file, chars.lines().lastLine(), "", "invalid JSON: " + reader.error());
    if (!reader.sawJobs())
        throw ParseError(file, 0, "jobs", "expected sacct --json output: an object with a \"jobs\" array");
    return out;
}

}  // namespace

SacctImport parseSacctJson(std::string_view text, const std::string& file, const SacctOptions& options) {
    if (auto scanned = scanJobs(text, file, options)) return std::move(*scanned);
    TrackedChars chars(text);
    return readJobs(chars, file, options);
}

// The whole file in memory and the fast path (scanJobs): the speed target of a million rows is
// met this way, at the cost of holding the file's text (docs/architecture.md 8.5).
SacctImport readSacctJson(const std::string& path, const SacctOptions& options) {
    return parseSacctJson(readWholeFile(path), io::fileName(path), options);
}

namespace io::sacct {

bool looksLikeSacctJson(std::string_view prefix) {
    Scanner sc{prefix};
    sc.ws();
    std::string_view key;
    while (sc.nextKey(key)) {
        if (key != "jobs") {
            if (!sc.skipValue()) return false;
            sc.ws();
            continue;
        }
        if (!sc.at('[') || !sc.nextElement() || !sc.at('{')) return false;
        bool job_id = false, steps_or_tres = false;
        while (sc.nextKey(key)) {
            job_id = job_id || key == "job_id";
            steps_or_tres = steps_or_tres || key == "steps" || key == "tres";
            if (job_id && steps_or_tres) return true;
            if (!sc.skipValue()) return false;
            sc.ws();
        }
        return false;
    }
    return false;
}

}  // namespace io::sacct

}  // namespace cl
