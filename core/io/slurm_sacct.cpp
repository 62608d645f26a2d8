#include "core/io/slurm_sacct.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "core/io/csv_table.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"
#include "core/io/slurm_sacct_rules.h"

namespace cl {

namespace io::sacct {

std::optional<StateKind> stateKind(std::string_view state) {
    for (std::string_view finished : {"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL",
                                      "PREEMPTED", "BOOT_FAIL", "DEADLINE"})
        if (state == finished) return StateKind::Finished;
    if (state == "CANCELLED") return StateKind::Cancelled;
    if (state == "PENDING") return StateKind::Pending;
    if (state == "RUNNING" || state == "SUSPENDED" || state == "RESIZING") return StateKind::Running;
    if (state == "REQUEUED") return StateKind::Requeued;
    return std::nullopt;
}

std::vector<long long> expandArrayRange(std::string_view spec) {
    if (const auto pct = spec.find('%'); pct != std::string_view::npos) spec = spec.substr(0, pct);
    std::vector<long long> ids;
    for (;;) {
        const auto comma = spec.find(',');
        const std::string_view part = spec.substr(0, comma);
        const auto dash = part.find('-');
        const auto lo = wholeNumber(part.substr(0, dash));
        const auto hi = dash == std::string_view::npos ? lo : wholeNumber(part.substr(dash + 1));
        if (!lo || !hi || *hi < *lo || *lo < 0 || *hi - *lo > 1000000 || ids.size() > 1000000)
            throw std::invalid_argument("an array range like 3-5,7");
        for (long long k = *lo; k <= *hi; ++k) ids.push_back(k);
        if (comma == std::string_view::npos) return ids;
        spec.remove_prefix(comma + 1);
    }
}

void settleCancelled(SlurmJob& job, StateKind kind) {
    if (job.started && job.elapsed <= 0 && kind == StateKind::Cancelled) job.started = false;
}

const char* dropReason(StateKind kind, const SlurmJob& job, const SacctOptions& options) {
    if (kind == StateKind::Requeued) return "requeued attempt";
    if (job.gpus == 0) return "no GPUs";
    if (kind == StateKind::Pending || !job.started) return options.keep_unstarted ? nullptr : "never started";
    if (kind == StateKind::Running) return options.keep_running ? nullptr : "still running";
    return nullptr;
}

double memoryGb(double megabytes, int per) {
    return megabytes * (1.0 / 1024) * std::max(1, per);
}

void GpuTally::add(std::string_view gres_name, long long count) {
    if (gres_name == "gpu") {
        untyped = count;
    } else if (gres_name.substr(0, 4) == "gpu:") {
        typed += count;
        if (typed > 100000) throw std::invalid_argument("GPU counts that add up to at most 100000");
        if (type.empty()) {
            type.assign(gres_name.substr(4));
            for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
}

TresGpus GpuTally::result() const {
    TresGpus out;
    out.count = static_cast<int>(untyped > 0 ? untyped : typed);  // only typed entries were listed
    out.type = type;
    return out;
}

}  // namespace io::sacct

using io::trim;
using io::wholeNumber;
using io::sacct::StateKind;

namespace {

std::optional<double> decimal(std::string_view s) {
    s = trim(s);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

bool noTime(std::string_view s) {
    s = trim(s);
    return s.empty() || s == "Unknown" || s == "None" || s == "N/A";
}

// Splits into `parts` (cleared first, its capacity kept: no allocation per row once warm).
// One pass over the characters: cells are short, and a search call per cell costs more.
void splitInto(std::string_view s, char sep, std::vector<std::string_view>& parts) {
    parts.clear();
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == sep) {
            parts.push_back(s.substr(from, i - from));
            from = i + 1;
        }
    parts.push_back(s.substr(from));
}

// The --format fields the reader uses; any others are ignored.
enum Field {
    kJobId,
    kJobIdRaw,
    kState,
    kSubmit,
    kStart,
    kEnd,
    kElapsed,
    kJobName,
    kUser,
    kAccount,
    kPartition,
    kNcpus,
    kNnodes,
    kReqMem,
    kReqTres,
    kAllocTres,
    kTimelimit,
    kFieldCount
};
constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "JobID",   "JobIDRaw",  "State", "Submit", "Start",  "End",     "Elapsed",   "JobName",  "User",
    "Account", "Partition", "NCPUS", "NNodes", "ReqMem", "ReqTRES", "AllocTRES", "Timelimit"};

// Reasons a job is left out, counted in place while reading (one map entry per reason at the end).
struct DropCounts {
    std::map<std::string_view, int> counts;
    void add(std::string_view reason) { ++counts[reason]; }
    void into(std::map<std::string, int>& out) const {
        for (const auto& [reason, n] : counts) out[std::string(reason)] += n;
    }
};

}  // namespace

double parseSlurmElapsed(std::string_view text) {
    text = trim(text);
    if (text == "UNLIMITED" || text == "Partition_Limit") return std::numeric_limits<double>::infinity();
    double days = 0;
    if (const auto dash = text.find('-'); dash != std::string_view::npos) {
        const auto d = wholeNumber(text.substr(0, dash));
        if (!d || *d < 0) throw std::invalid_argument("[D-][HH:]MM:SS");
        days = static_cast<double>(*d);
        text = text.substr(dash + 1);
    }
    std::array<std::string_view, 3> parts;
    std::size_t count = 0;
    for (;;) {
        const auto colon = text.find(':');
        if (count == parts.size()) throw std::invalid_argument("[D-][HH:]MM:SS");
        parts[count++] = text.substr(0, colon);
        if (colon == std::string_view::npos) break;
        text.remove_prefix(colon + 1);
    }
    if (count < 2) throw std::invalid_argument("[D-][HH:]MM:SS");
    double seconds = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const bool last = i + 1 == count;
        const auto v = last ? decimal(parts[i]) : std::optional<double>(wholeNumber(parts[i]).value_or(-1));
        if (!v || *v < 0 || (i > 0 && *v >= 60)) throw std::invalid_argument("[D-][HH:]MM:SS");
        seconds = seconds * 60 + *v;
    }
    return days * 86400 + seconds;
}

double parseSlurmMemoryGb(std::string_view req_mem, int cpus, int nodes) {
    std::string_view s = trim(req_mem);
    if (s.empty()) throw std::invalid_argument("a size like 64G, 4000M, 4000Mc or 64Gn");
    int per = 1;
    if (s.back() == 'c') {  // per CPU (older Slurm)
        per = std::max(1, cpus);
        s.remove_suffix(1);
    } else if (s.back() == 'n') {  // per node (older Slurm)
        per = std::max(1, nodes);
        s.remove_suffix(1);
    }
    double unit_mb = 1;  // no unit: megabytes
    if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back()))) {
        switch (std::toupper(static_cast<unsigned char>(s.back()))) {
            case 'K':
                unit_mb = 1.0 / 1024;
                break;
            case 'M':
                unit_mb = 1;
                break;
            case 'G':
                unit_mb = 1024;
                break;
            case 'T':
                unit_mb = 1024.0 * 1024;
                break;
            default:
                throw std::invalid_argument("a size like 64G, 4000M, 4000Mc or 64Gn");
        }
        s.remove_suffix(1);
    }
    const auto v = decimal(s);
    if (!v || *v < 0) throw std::invalid_argument("a size like 64G, 4000M, 4000Mc or 64Gn");
    return io::sacct::memoryGb(*v * unit_mb, per);
}

TresGpus parseTresGpus(std::string_view tres) {
    io::sacct::GpuTally tally;
    tres = trim(tres);
    while (!tres.empty()) {
        const auto comma = tres.find(',');
        const std::string_view item = trim(tres.substr(0, comma));
        tres = comma == std::string_view::npos ? std::string_view() : tres.substr(comma + 1);
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string_view::npos) throw std::invalid_argument("TRES entries like gres/gpu=4");
        const std::string_view key = item.substr(0, eq);
        if (key.substr(0, 5) != "gres/") continue;
        const std::string_view name = key.substr(5);
        if (name != "gpu" && name.substr(0, 4) != "gpu:") continue;
        const auto n = wholeNumber(item.substr(eq + 1));
        if (!n || *n < 0 || *n > 100000) throw std::invalid_argument("a GPU count in " + std::string(item));
        tally.add(name, *n);
    }
    return tally.result();
}

double parseUtcOffset(std::string_view text) {
    text = trim(text);
    if (text == "UTC" || text == "Z" || text == "utc") return 0;
    if (text.empty() || (text.front() != '+' && text.front() != '-'))
        throw std::invalid_argument("UTC or an offset like +02:00");
    const double sign = text.front() == '-' ? -1 : 1;
    std::string digits;
    for (char c : text.substr(1))
        if (c != ':') digits += c;
    const auto v = wholeNumber(digits);
    if (!v || digits.size() > 4) throw std::invalid_argument("UTC or an offset like +02:00");
    const long long hours = digits.size() <= 2 ? *v : *v / 100;
    const long long minutes = digits.size() <= 2 ? 0 : *v % 100;
    if (hours > 14 || minutes >= 60) throw std::invalid_argument("UTC or an offset like +02:00");
    return sign * static_cast<double>(hours * 3600 + minutes * 60);
}

namespace {

// One pass over the text without copying it: rows are string_views, cells are split into a
// reused vector, and a job's strings are made only once its row is accepted. A step row is
// folded on the spot when it follows its job (as sacct prints it); any other step is checked
// against the jobs seen at the end. 1,000,000 rows read in well under the 5 s target
// (bench/bench_slurm_import.cpp).
class ParsableReader {
public:
    ParsableReader(std::string_view text, const std::string& file, const SacctOptions& options)
        : text_(text), file_(file), options_(options) {}

    SacctImport read() {
        readHeader();
        std::string_view raw;
        while (nextLine(raw)) {
            if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
            if (trim(raw).empty()) continue;
            ++out_.rows;
            readRow(raw);
        }
        reportLooseSteps();
        drops_.into(out_.dropped);
        return std::move(out_);
    }

private:
    bool nextLine(std::string_view& row) {
        if (pos_ >= text_.size()) return false;
        const std::size_t nl = text_.find('\n', pos_);
        row = text_.substr(pos_, nl == std::string_view::npos ? std::string_view::npos : nl - pos_);
        pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
        ++line_;
        return true;
    }

    // The first non-blank line: which column holds which field.
    void readHeader() {
        std::string_view header_text;
        while (nextLine(header_text) && trim(header_text).empty()) {
        }
        header_text = trim(header_text);
        if (header_text.empty())
            throw ParseError(file_, 0, "", "empty file: expected sacct --parsable2 output with its header");
        column_.fill(-1);
        splitInto(header_text, '|', cells_);
        width_ = cells_.size();
        for (std::size_t c = 0; c < width_; ++c)
            for (int f = 0; f < kFieldCount; ++f)
                if (trim(cells_[c]) == kFieldNames[f]) column_[f] = static_cast<int>(c);
        const int header_line = line_;
        id_col_ = column_[kJobId] >= 0 ? column_[kJobId] : column_[kJobIdRaw];
        if (id_col_ < 0 || column_[kState] < 0 || column_[kSubmit] < 0)
            throw ParseError(file_, header_line, "",
                             "the header needs JobID (or JobIDRaw), State and Submit (sacct --parsable2 "
                             "--format=JobID,State,Submit,...); it has: " +
                                 std::string(header_text));
    }

    std::string_view cell(int f) const {
        const int c = f == kJobId ? id_col_ : column_[f];
        return c >= 0 ? trim(cells_[c]) : std::string_view();
    }

    void refuse(const std::string& field, const std::string& what) {
        out_.refused.push_back(file_ + ":" + std::to_string(line_) + ": " + field + ": " + what);
        drops_.add("refused row");
    }

    bool timeAt(Field f, const char* field, double& into) {
        const std::string_view v = cell(f);
        if (noTime(v)) return true;
        const auto t = io::parseDateTime(v);
        if (!t) {
            refuse(field, "cannot read '" + std::string(v) + "' as a time (2024-03-01T12:00:00)");
            return false;
        }
        into = *t - options_.utc_offset_s;
        return true;
    }

    bool count(Field f, int& into) const {
        const std::string_view n = cell(f);
        if (!n.empty())
            into = static_cast<int>(std::clamp<long long>(wholeNumber(n).value_or(-1), -1, 1 << 30));
        return into >= 0;
    }

    // One non-blank row: a job (kept, dropped with a reason, or refused) or a step.
    void readRow(std::string_view raw) {
        splitInto(raw, '|', cells_);
        if (cells_.size() != width_) {
            refuse("row",
                   "has " + std::to_string(cells_.size()) + " fields, the header " + std::to_string(width_));
            return;
        }
        const std::string_view id = cell(kJobId);
        if (id.empty()) {
            refuse("JobID", "empty");
            return;
        }
        if (const auto dot = id.find('.'); dot != std::string_view::npos) {  // a step: folded into its job
            const std::string_view base = id.substr(0, dot);
            if (base != last_seen_ || last_seen_.empty()) loose_steps_.emplace_back(base, line_);
            return;
        }
        SlurmJob job;
        job.line = line_;
        const std::string_view state_text = cell(kState);
        const std::string_view state = state_text.substr(0, state_text.find(' '));
        const auto kind = io::sacct::stateKind(state);
        if (!kind) {
            refuse("State", "unknown state '" + std::string(state_text) + "'");
            return;
        }
        if (!readTimesAndCounts(job, *kind)) return;
        io::sacct::settleCancelled(job, *kind);
        if (!readResources(job)) return;
        // A pending array range stands for one never-started job per task.
        std::vector<long long> tasks;
        const auto bracket = id.find("_[");
        const bool range = bracket != std::string_view::npos && id.back() == ']';
        if (range) {
            try {
                tasks = io::sacct::expandArrayRange(id.substr(bracket + 2, id.size() - bracket - 3));
            } catch (const std::invalid_argument& ex) {
                refuse("JobID", std::string("expected ") + ex.what() + " in the brackets, got '" +
                                    std::string(id) + "'");
                return;
            }
        }
        job.state.assign(state);
        job.name.assign(cell(kJobName));
        job.user.assign(cell(kUser));
        job.account.assign(cell(kAccount));
        job.partition.assign(cell(kPartition));
        seen_.push_back(id);
        last_seen_ = id;
        if (!range) {
            job.id.assign(id);
            finish(std::move(job), *kind);
            return;
        }
        const std::string base(id.substr(0, bracket));
        for (long long task : tasks) {
            SlurmJob t = job;
            t.id = base + "_" + std::to_string(task);
            seen_expanded_.push_back(t.id);
            finish(std::move(t), *kind);
        }
    }

    // Submit, start and end, CPUs and nodes, elapsed time and time limit; false when the row
    // is refused.
    bool readTimesAndCounts(SlurmJob& job, StateKind kind) {
        if (!timeAt(kSubmit, "Submit", job.submit) || !timeAt(kStart, "Start", job.start) ||
            !timeAt(kEnd, "End", job.end))
            return false;
        if (std::isnan(job.submit)) {
            refuse("Submit", "no submit time");
            return false;
        }
        if (!count(kNcpus, job.cpus)) {
            refuse("NCPUS", "not a whole number: '" + std::string(cell(kNcpus)) + "'");
            return false;
        }
        if (!count(kNnodes, job.nodes)) {
            refuse("NNodes", "not a whole number: '" + std::string(cell(kNnodes)) + "'");
            return false;
        }
        job.started = !std::isnan(job.start) && kind != StateKind::Pending;
        if (const std::string_view e = cell(kElapsed); !e.empty() && job.started) {
            try {
                job.elapsed = parseSlurmElapsed(e);
            } catch (const std::invalid_argument& ex) {
                refuse("Elapsed", "cannot read '" + std::string(e) + "' as " + ex.what());
                return false;
            }
        } else if (job.started && !std::isnan(job.end)) {
            job.elapsed = std::max(0.0, job.end - job.start);
        }
        return readTimeLimit(job);
    }

    // Timelimit as sacct(1) prints it: [D-]HH:MM:SS, UNLIMITED, or Partition_Limit for a job that
    // set none of its own (its partition's MaxTime applies, which the engine takes from the
    // cluster); empty on a record without a limit, INVALID for a value the accounting database
    // holds damaged. Those, Partition_Limit and the words of no time (Unknown, None) leave it
    // unset (NaN); any other text is refused (docs/architecture.md 8.5).
    bool readTimeLimit(SlurmJob& job) {
        const std::string_view limit = cell(kTimelimit);
        if (noTime(limit) || limit == "Partition_Limit" || limit == "INVALID") return true;
        try {
            job.time_limit = parseSlurmElapsed(limit);
        } catch (const std::invalid_argument& ex) {
            refuse("Timelimit", "cannot read '" + std::string(limit) + "' as " + ex.what() +
                                    ", UNLIMITED or Partition_Limit");
            return false;
        }
        return true;
    }

    // GPUs (allocated if it started, else requested) and memory; false when the row is refused.
    bool readResources(SlurmJob& job) {
        const std::string_view alloc = cell(kAllocTres), req = cell(kReqTres);
        const bool use_alloc = job.started && !alloc.empty();
        TresGpus requested;
        try {
            requested = parseTresGpus(req);
        } catch (const std::invalid_argument& ex) {
            refuse("ReqTRES", std::string("expected ") + ex.what());
            return false;
        }
        try {
            TresGpus g = use_alloc ? parseTresGpus(alloc) : requested;
            if (g.count == 0 && use_alloc) g = requested;
            job.gpus = g.count;
            job.gpu_type = std::move(g.type);
        } catch (const std::invalid_argument& ex) {
            refuse("AllocTRES", std::string("expected ") + ex.what());
            return false;
        }
        job.requested_gpu_type = std::move(requested.type);
        if (const std::string_view mem = cell(kReqMem); !mem.empty()) {
            try {
                job.memory_gb = parseSlurmMemoryGb(mem, job.cpus, job.nodes);
            } catch (const std::invalid_argument& ex) {
                refuse("ReqMem", "cannot read '" + std::string(mem) + "' as " + ex.what());
                return false;
            }
        }
        return true;
    }

    void finish(SlurmJob&& j, StateKind kind) {
        if (const char* reason = io::sacct::dropReason(kind, j, options_)) {
            drops_.add(reason);
            return;
        }
        out_.jobs.push_back(std::move(j));
    }

    // Steps that did not follow their job: refused unless the file lists that job somewhere.
    void reportLooseSteps() {
        if (loose_steps_.empty()) return;
        std::unordered_set<std::string_view> known(seen_.begin(), seen_.end());
        known.insert(seen_expanded_.begin(), seen_expanded_.end());
        for (const auto& [base, step_line] : loose_steps_)
            if (!known.count(base)) {
                drops_.add("step without its job");
                out_.refused.push_back(file_ + ":" + std::to_string(step_line) + ": JobID: step of job " +
                                       std::string(base) + ", which the file does not list");
            }
    }

    std::string_view text_;
    const std::string& file_;
    const SacctOptions& options_;
    SacctImport out_;
    std::size_t pos_ = 0;
    int line_ = 0;
    std::array<int, kFieldCount> column_;
    std::size_t width_ = 0;
    int id_col_ = -1;
    std::vector<std::string_view> cells_;
    DropCounts drops_;
    std::vector<std::string_view> seen_;                         // ids of accepted job rows (views into text)
    std::vector<std::string> seen_expanded_;                     // the tasks of pending ranges
    std::string_view last_seen_;                                 // the latest accepted job row, for its steps
    std::vector<std::pair<std::string_view, int>> loose_steps_;  // steps not after their job
};

}  // namespace

SacctImport parseSacctParsable(std::string_view text, const std::string& file, const SacctOptions& options) {
    return ParsableReader(text, file, options).read();
}

SacctImport readSacctParsable(const std::string& path, const SacctOptions& options) {
    return parseSacctParsable(readWholeFile(path), io::fileName(path), options);
}

namespace {

std::string_view withoutBom(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}

std::string_view afterSpaceAndBom(std::string_view text) {
    text = withoutBom(text);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    return text;
}

}  // namespace

SacctImport readSacct(const std::string& path, const SacctOptions& options) {
    std::ifstream in(path, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    std::string_view start = afterSpaceAndBom(head);
    while (start.empty() && in && !head.empty()) {  // a long run of white space
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        start = afterSpaceAndBom(head);
    }
    if (!start.empty() && start.front() == '{') return readSacctJson(path, options);
    // Leading blank lines stay in the text so that lines keep their numbers.
    const std::string text = readWholeFile(path);
    return parseSacctParsable(withoutBom(text), io::fileName(path), options);
}

bool looksLikeSacct(const std::string& path) {
    // The first megabyte is enough for the header line or the start of the first job.
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::string prefix(1 << 20, '\0');
    in.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    prefix.resize(static_cast<std::size_t>(in.gcount()));
    std::string_view text = afterSpaceAndBom(prefix);
    if (!text.empty() && text.front() == '{') return io::sacct::looksLikeSacctJson(text);
    const std::string_view header = trim(text.substr(0, text.find('\n')));
    bool id = false, state = false;
    std::vector<std::string_view> names;
    splitInto(header, '|', names);
    if (names.size() < 2) return false;
    for (std::string_view name : names) {
        name = trim(name);
        id = id || name == "JobID" || name == "JobIDRaw";
        state = state || name == "State";
    }
    return id && state;
}

}  // namespace cl
