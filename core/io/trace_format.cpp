// Trace format names, detection from a file's name and first bytes, and dispatch.
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/io/read_helpers.h"
#include "core/io/slurm_sacct.h"
#include "core/io/trace_readers.h"
#include "core/io/trace_writers.h"

namespace cl {

namespace {

using Reader = std::function<Trace(const std::string&, const TraceReadOptions&)>;

Trace readAlibabaBeside(const std::string& job_table, const TraceReadOptions& opts) {
    // The PAI release ships the two tables side by side under their fixed names.
    const std::string task_table =
        (std::filesystem::path(io::directoryOf(job_table)) / "pai_task_table.csv").string();
    if (!std::filesystem::exists(task_table))
        throw ParseError(job_table, 0, "",
                         "an Alibaba PAI job table needs pai_task_table.csv in the same folder (looked for " +
                             task_table + ")");
    return readAlibabaPai(job_table, task_table, opts);
}

struct Format {
    const char* name;
    Reader read;
};

// Name -> reader; "auto" is handled by readTrace itself.
const std::array<Format, 11>& formats() {
    static const std::array<Format, 11> table = {{
        {"muri", readMuriTraceCsv},
        {"tiresias", readMuriTraceCsv},  // same reader: the header tells the two variants apart
        {"synergy", readSynergyReplayCsv},
        {"philly-json", readPhillyJobLogJson},
        {"pollux-philly", readPolluxPhillyCsv},
        {"pollux-workload", readPolluxWorkloadCsv},
        {"helios", readHeliosCsv},
        {"alibaba", readAlibabaBeside},
        {"sacct", readSacctTrace},
        {"json", readTraceJson},
        {"csv", readTraceCsv},
    }};
    return table;
}

std::string supportedList() {
    std::string s;
    for (const auto& f : formats()) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Detection needs only the start of a file; traces can be hundreds of megabytes.
std::string readHead(const std::string& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParseError(path, 0, "", std::string("cannot open file: ") + std::strerror(errno));
    std::string head(bytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(bytes));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

std::vector<std::string> firstLineCells(std::string_view text) {
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true) {
        auto comma = line.find(',', start);
        std::string cell(
            line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        cell.erase(std::remove_if(cell.begin(), cell.end(), [](char c) { return c == '"' || c == '\r'; }),
                   cell.end());
        auto b = cell.find_first_not_of(" \t");
        auto e = cell.find_last_not_of(" \t");
        cells.push_back(b == std::string::npos ? std::string() : cell.substr(b, e - b + 1));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return cells;
}

bool hasAll(const std::vector<std::string>& cells, std::initializer_list<const char*> names) {
    return std::all_of(names.begin(), names.end(), [&](const char* n) {
        return std::find(cells.begin(), cells.end(), n) != cells.end();
    });
}

bool hasAny(const std::vector<std::string>& cells, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) {
        return std::find(cells.begin(), cells.end(), n) != cells.end();
    });
}

bool isNumber(const std::string& s) {
    if (s.empty()) return false;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
}

}  // namespace

std::vector<std::string> traceFormatNames() {
    std::vector<std::string> names{"auto"};
    for (const auto& f : formats()) names.emplace_back(f.name);
    return names;
}

std::string detectTraceFormat(const std::string& path) {
    const std::string head = readHead(path, 64 * 1024);
    if (lower(io::fileName(path)).find("pai_job_table") != std::string::npos) return "alibaba";
    if (looksLikeSacct(path)) return "sacct";

    std::size_t p = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    while (p < head.size() && std::isspace(static_cast<unsigned char>(head[p]))) ++p;
    std::string_view text = std::string_view(head).substr(p);
    if (!text.empty() && text.front() == '{') {
        if (text.find("\"clusterloom-trace\"") != std::string_view::npos) return "json";
    } else if (!text.empty() && text.front() == '[') {
        return "philly-json";  // the Philly cluster_job_log is the only array-shaped format
    } else if (!text.empty()) {
        const auto cells = firstLineCells(text);
        // job_id + num_gpu is the Muri/Tiresias family; the reader then names any missing
        // column. Muri's 13 columns include Tiresias' 7 and add iteration/stage times.
        if (hasAll(cells, {"job_id", "num_gpu"}))
            return hasAny(cells, {"batch_size", "iteration_time", "resource_time_0", "resource_time_1",
                                  "resource_time_2", "priority"})
                       ? "muri"
                       : "tiresias";
        if (hasAll(cells, {"timestamp", "duration", "num_gpus", "cluster"})) return "pollux-philly";
        if (hasAll(cells, {"name", "time", "application", "num_replicas"})) return "pollux-workload";
        if (hasAll(cells, {"job_id", "gpu_num", "submit_time", "duration"})) return "helios";
        if (hasAll(cells, {"job_id", "submit_time", "gpus"})) return "csv";
        if (hasAll(cells, {"job_name", "inst_id", "start_time", "end_time"})) return "alibaba";
        // Synergy replay files have no header: five cells, the last three numeric.
        if (cells.size() == 5 && isNumber(cells[2]) && isNumber(cells[3]) && isNumber(cells[4]))
            return "synergy";
    }
    throw ParseError(path, 0, "",
                     "cannot tell the trace format from the file name and first line; supported formats: " +
                         supportedList() + " (choose one explicitly)");
}

Trace readTrace(const std::string& path, const std::string& format, const TraceReadOptions& opts) {
    const std::string name = (format.empty() || format == "auto") ? detectTraceFormat(path) : lower(format);
    for (const auto& f : formats())
        if (name == f.name) return f.read(path, opts);
    throw ParseError(path, 0, "",
                     "unknown trace format '" + format + "'; supported formats: auto, " + supportedList());
}

void writeTrace(const Trace& trace, const std::string& path) {
    if (lower(std::filesystem::path(path).extension().string()) == ".json")
        writeTraceJson(trace, path);
    else
        writeTraceCsv(trace, path);
}

}  // namespace cl
