#include "core/io/slurm_sacct.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/io/csv_table.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"

namespace cl {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t from = 0;
    for (;;) {
        const std::size_t at = s.find(sep, from);
        parts.push_back(s.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
        if (at == std::string_view::npos) return parts;
        from = at + 1;
    }
}

std::optional<long long> wholeNumber(std::string_view s) {
    s = trim(s);
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

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

// The states a row can be in (sacct(1), JOB STATE CODES), by what the job contributes.
enum class StateKind { Finished, Cancelled, Pending, Running, Requeued };

std::optional<StateKind> stateKind(const std::string& state) {
    static const std::set<std::string> finished = {"COMPLETED", "FAILED",    "TIMEOUT",   "OUT_OF_MEMORY",
                                                   "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE"};
    if (finished.count(state)) return StateKind::Finished;
    if (state == "CANCELLED") return StateKind::Cancelled;
    if (state == "PENDING") return StateKind::Pending;
    if (state == "RUNNING" || state == "SUSPENDED" || state == "RESIZING") return StateKind::Running;
    if (state == "REQUEUED") return StateKind::Requeued;
    return std::nullopt;
}

// "3-5,7,9-10%2" -> 3,4,5,7,9,10 (the %limit is how many may run at once).
std::vector<long long> expandArrayRange(std::string_view spec) {
    if (const auto pct = spec.find('%'); pct != std::string_view::npos) spec = spec.substr(0, pct);
    std::vector<long long> ids;
    for (std::string_view part : split(spec, ',')) {
        const auto dash = part.find('-');
        const auto lo = wholeNumber(part.substr(0, dash));
        const auto hi = dash == std::string_view::npos ? lo : wholeNumber(part.substr(dash + 1));
        if (!lo || !hi || *hi < *lo || *lo < 0 || *hi - *lo > 1000000)
            throw std::invalid_argument("an array range like 3-5,7 in the brackets");
        for (long long k = *lo; k <= *hi; ++k) ids.push_back(k);
    }
    return ids;
}

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
    const std::vector<std::string_view> parts = split(text, ':');
    if (parts.size() < 2 || parts.size() > 3) throw std::invalid_argument("[D-][HH:]MM:SS");
    double seconds = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const bool last = i + 1 == parts.size();
        const auto v = last ? decimal(parts[i]) : std::optional<double>(wholeNumber(parts[i]).value_or(-1));
        if (!v || *v < 0 || (i > 0 && *v >= 60)) throw std::invalid_argument("[D-][HH:]MM:SS");
        seconds = seconds * 60 + *v;
    }
    return days * 86400 + seconds;
}

double parseSlurmMemoryGb(std::string_view req_mem, int cpus, int nodes) {
    std::string_view s = trim(req_mem);
    if (s.empty()) throw std::invalid_argument("a size like 64G, 4000M, 4000Mc or 64Gn");
    double per = 1;
    if (s.back() == 'c') {  // per CPU (older Slurm)
        per = std::max(1, cpus);
        s.remove_suffix(1);
    } else if (s.back() == 'n') {  // per node (older Slurm)
        per = std::max(1, nodes);
        s.remove_suffix(1);
    }
    double unit_gb = 1.0 / 1024;  // no unit: megabytes
    if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back()))) {
        switch (std::toupper(static_cast<unsigned char>(s.back()))) {
            case 'K':
                unit_gb = 1.0 / (1024.0 * 1024.0);
                break;
            case 'M':
                unit_gb = 1.0 / 1024;
                break;
            case 'G':
                unit_gb = 1;
                break;
            case 'T':
                unit_gb = 1024;
                break;
            default:
                throw std::invalid_argument("a size like 64G, 4000M, 4000Mc or 64Gn");
        }
        s.remove_suffix(1);
    }
    const auto v = decimal(s);
    if (!v || *v < 0) throw std::invalid_argument("a size like 64G, 4000M, 4000Mc or 64Gn");
    return *v * unit_gb * per;
}

TresGpus parseTresGpus(std::string_view tres) {
    TresGpus out;
    int typed = 0;
    for (std::string_view item : split(trim(tres), ',')) {
        item = trim(item);
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string_view::npos) throw std::invalid_argument("TRES entries like gres/gpu=4");
        const std::string_view key = item.substr(0, eq);
        if (key != "gres/gpu" && key.rfind("gres/gpu:", 0) != 0) continue;
        const auto n = wholeNumber(item.substr(eq + 1));
        if (!n || *n < 0 || *n > 100000) throw std::invalid_argument("a GPU count in " + std::string(item));
        if (key == "gres/gpu") {
            out.count = static_cast<int>(*n);
        } else {
            typed += static_cast<int>(*n);
            if (out.type.empty()) out.type = lower(key.substr(9));
        }
    }
    if (out.count == 0) out.count = typed;  // only typed entries were listed
    return out;
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

SacctImport parseSacctParsable(std::string_view text, const std::string& file, const SacctOptions& options) {
    SacctImport out;
    std::vector<std::string_view> lines = split(text, '\n');
    std::size_t first = 0;
    while (first < lines.size() && trim(lines[first]).empty()) ++first;
    if (first == lines.size())
        throw ParseError(file, 0, "", "empty file: expected sacct --parsable2 output with its header");
    std::map<std::string, int> column;
    const std::vector<std::string_view> header = split(trim(lines[first]), '|');
    for (std::size_t c = 0; c < header.size(); ++c)
        column[std::string(trim(header[c]))] = static_cast<int>(c);
    const int header_line = static_cast<int>(first) + 1;
    const auto col = [&](const char* name) { return column.count(name) ? column.at(name) : -1; };
    const int id_col = col("JobID") >= 0 ? col("JobID") : col("JobIDRaw");
    if (id_col < 0 || col("State") < 0 || col("Submit") < 0)
        throw ParseError(file, header_line, "",
                         "the header needs JobID (or JobIDRaw), State and Submit (sacct --parsable2 "
                         "--format=JobID,State,Submit,...); it has: " +
                             std::string(trim(lines[first])));

    std::set<std::string> jobs_seen;
    std::vector<std::pair<std::string, int>> orphan_steps;  // base id, line
    auto refuse = [&](int line, const std::string& field, const std::string& what) {
        out.refused.push_back(file + ":" + std::to_string(line) + ": " + field + ": " + what);
        ++out.dropped["refused row"];
    };
    auto timeAt = [&](const std::vector<std::string_view>& cells, int c, int line, const char* field,
                      double& into) -> bool {
        if (c < 0 || c >= static_cast<int>(cells.size()) || noTime(cells[c])) return true;
        const auto t = io::parseDateTime(trim(cells[c]));
        if (!t) {
            refuse(line, field,
                   "cannot read '" + std::string(trim(cells[c])) + "' as a time (2024-03-01T12:00:00)");
            return false;
        }
        into = *t - options.utc_offset_s;
        return true;
    };

    for (std::size_t i = first + 1; i < lines.size(); ++i) {
        std::string_view raw = lines[i];
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        if (trim(raw).empty()) continue;
        const int line = static_cast<int>(i) + 1;
        ++out.rows;
        const std::vector<std::string_view> cells = split(raw, '|');
        if (cells.size() != header.size()) {
            refuse(line, "",
                   "has " + std::to_string(cells.size()) + " fields, the header " +
                       std::to_string(header.size()));
            continue;
        }
        const auto cell = [&](const char* name) -> std::string {
            const int c = col(name);
            return c >= 0 ? std::string(trim(cells[c])) : std::string();
        };
        const std::string id = cell(id_col == col("JobID") ? "JobID" : "JobIDRaw");
        if (id.empty()) {
            refuse(line, "JobID", "empty");
            continue;
        }
        if (const auto dot = id.find('.'); dot != std::string::npos) {  // a step: folded into its job
            orphan_steps.push_back({id.substr(0, dot), line});
            continue;
        }
        SlurmJob job;
        job.id = id;
        job.line = line;
        job.name = cell("JobName");
        job.user = cell("User");
        job.account = cell("Account");
        job.partition = cell("Partition");
        const std::string state_text = cell("State");
        job.state = state_text.substr(0, state_text.find(' '));
        const auto kind = stateKind(job.state);
        if (!kind) {
            refuse(line, "State", "unknown state '" + state_text + "'");
            continue;
        }
        if (!timeAt(cells, col("Submit"), line, "Submit", job.submit) ||
            !timeAt(cells, col("Start"), line, "Start", job.start) ||
            !timeAt(cells, col("End"), line, "End", job.end))
            continue;
        if (std::isnan(job.submit)) {
            refuse(line, "Submit", "no submit time");
            continue;
        }
        if (const std::string n = cell("NCPUS"); !n.empty())
            job.cpus = static_cast<int>(std::clamp<long long>(wholeNumber(n).value_or(-1), -1, 1 << 30));
        if (const std::string n = cell("NNodes"); !n.empty())
            job.nodes = static_cast<int>(std::clamp<long long>(wholeNumber(n).value_or(-1), -1, 1 << 30));
        if (job.cpus < 0) {
            refuse(line, "NCPUS", "not a whole number: '" + cell("NCPUS") + "'");
            continue;
        }
        if (job.nodes < 0) {
            refuse(line, "NNodes", "not a whole number: '" + cell("NNodes") + "'");
            continue;
        }
        job.started = !std::isnan(job.start) && *kind != StateKind::Pending;
        if (const std::string e = cell("Elapsed"); !e.empty() && job.started) {
            try {
                job.elapsed = parseSlurmElapsed(e);
            } catch (const std::invalid_argument& ex) {
                refuse(line, "Elapsed", "cannot read '" + e + "' as " + ex.what());
                continue;
            }
        } else if (job.started && !std::isnan(job.end)) {
            job.elapsed = std::max(0.0, job.end - job.start);
        }
        if (job.started && job.elapsed <= 0 && *kind == StateKind::Cancelled) job.started = false;
        const std::string alloc = cell("AllocTRES"), req = cell("ReqTRES");
        try {
            TresGpus g = parseTresGpus(job.started && !alloc.empty() ? alloc : req);
            if (g.count == 0 && job.started && !alloc.empty()) g = parseTresGpus(req);
            job.gpus = g.count;
            job.gpu_type = g.type;
        } catch (const std::invalid_argument& ex) {
            refuse(line, job.started && !alloc.empty() ? "AllocTRES" : "ReqTRES",
                   std::string("expected ") + ex.what());
            continue;
        }
        if (const std::string mem = cell("ReqMem"); !mem.empty()) {
            try {
                job.memory_gb = parseSlurmMemoryGb(mem, job.cpus, job.nodes);
            } catch (const std::invalid_argument& ex) {
                refuse(line, "ReqMem", "cannot read '" + mem + "' as " + ex.what());
                continue;
            }
        }
        // A pending array range stands for one never-started job per task.
        std::vector<SlurmJob> expanded;
        if (const auto bracket = id.find("_["); bracket != std::string::npos && id.back() == ']') {
            try {
                for (long long task :
                     expandArrayRange(std::string_view(id).substr(bracket + 2, id.size() - bracket - 3))) {
                    SlurmJob t = job;
                    t.id = id.substr(0, bracket) + "_" + std::to_string(task);
                    expanded.push_back(std::move(t));
                }
            } catch (const std::invalid_argument& ex) {
                refuse(line, "JobID", std::string("expected ") + ex.what() + ", got '" + id + "'");
                continue;
            }
        } else {
            expanded.push_back(std::move(job));
        }
        for (SlurmJob& j : expanded) {
            jobs_seen.insert(j.id);
            jobs_seen.insert(id);
            const std::string reason = *kind == StateKind::Requeued                  ? "requeued attempt"
                                       : j.gpus == 0                                 ? "no GPUs"
                                       : (*kind == StateKind::Pending || !j.started) ? "never started"
                                       : *kind == StateKind::Running                 ? "still running"
                                                                                     : "";
            const bool keep = reason.empty() || (reason == "never started" && options.keep_unstarted) ||
                              (reason == "still running" && options.keep_running);
            if (!keep) {
                ++out.dropped[reason];
                continue;
            }
            out.jobs.push_back(std::move(j));
        }
    }
    for (const auto& [base, line] : orphan_steps)
        if (!jobs_seen.count(base)) {
            ++out.dropped["step without its job"];
            out.refused.push_back(file + ":" + std::to_string(line) + ": JobID: step of job " + base +
                                  ", which the file does not list");
        }
    return out;
}

SacctImport readSacctParsable(const std::string& path, const SacctOptions& options) {
    return parseSacctParsable(readWholeFile(path), io::fileName(path), options);
}

}  // namespace cl
