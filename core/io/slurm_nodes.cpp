#include "core/io/slurm_nodes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "core/io/csv_table.h"
#include "core/io/json_doc.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"
#include "core/io/scontrol_records.h"

namespace cl {

namespace {

using io::JsonDoc;
using io::JsonPath;
using nlohmann::json;

// Far above any real node; a larger figure is a unit or data error. The CPU limit is the layout
// format's cpu_cores limit (core/io/layout_json.cpp).
constexpr long long kMaxCount = 1000000;
constexpr long long kMaxMemoryMb = 1LL << 40;

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

using io::trim;
using io::wholeNumber;

// Commas inside "(S:0,2)" separate sockets, not gres entries.
std::vector<std::string_view> splitOutsideParentheses(std::string_view s) {
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && depth > 0) --depth;
        if (s[i] == ',' && depth == 0) {
            parts.push_back(s.substr(from, i - from));
            from = i + 1;
        }
    }
    parts.push_back(s.substr(from));
    return parts;
}

bool noValue(std::string_view s) {
    s = trim(s);
    return s.empty() || s == "(null)" || s == "N/A" || s == "none" || s == "None";
}

// A node listed twice in one partition is listed once: a server's partitions are a set in
// Slurm's order (the layout refuses repeats, docs/architecture.md 8.7).
std::vector<std::string> partitionList(std::string_view csv) {
    std::vector<std::string> out;
    if (noValue(csv)) return out;
    for (std::string_view p : io::splitAt(csv, ',')) {
        p = trim(p);
        if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.emplace_back(p);
    }
    return out;
}

void addGpuWarnings(const SlurmNode& node, const SlurmGres& gres, const std::string& file,
                    std::vector<std::string>& warnings) {
    if (gres.others.empty()) return;
    std::string types = gres.type;
    for (const std::string& t : gres.others) types += ", " + t;
    warnings.push_back(file + ":" + std::to_string(node.line) + ": node " + node.name +
                       " has GPUs of several types (" + types +
                       "); the layout makes one server of each, named " + node.name +
                       ":TYPE (docs/architecture.md 8.7)");
}

// Node names are host names; anything else (control characters, bytes outside ASCII) would make
// server names that do not survive the layout file.
bool plausibleNodeName(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 127; });
}

// The first partition name that is not printable ASCII (partition names become layout names and
// job partition lists, which must survive the files unchanged); nullptr when all are fine.
const std::string* implausiblePartition(const std::vector<std::string>& partitions) {
    for (const std::string& p : partitions)
        if (!plausibleNodeName(p)) return &p;
    return nullptr;
}

void finishNode(SlurmNode& node) {
    node.unavailable = slurmStateUnavailable(node.state);
}

// ---- scontrol show node (one line per node with --oneliner, else indented continuation lines)

struct Field {
    std::string value;
    int line = 0;
};

// Keys scontrol prints after Reason=, whose free text may itself hold "x=y".
bool keyAfterReason(std::string_view key) {
    static const std::set<std::string_view> keys = {
        "Comment",         "Extra",           "ResumeAfterTime", "InstanceId", "InstanceType",
        "NextState",       "CapWatts",        "CurrentWatts",    "AveWatts",   "ExtSensorsJoules",
        "ExtSensorsWatts", "ExtSensorsTemp",  "LastBusyTime",    "Reason",     "Partitions",
        "BootTime",        "SlurmdStartTime", "CfgTRES",         "AllocTRES",  "State"};
    return keys.count(key) > 0;
}

// "Key=..." with Key an identifier starting with an upper-case letter (scontrol's keys are
// CamelCase; MCS_label is the one with an underscore).
std::optional<std::string_view> keyOf(std::string_view token) {
    const auto eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const std::string_view key = token.substr(0, eq);
    if (!std::isupper(static_cast<unsigned char>(key.front()))) return std::nullopt;
    for (char c : key)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
    return key;
}

class ScontrolReader {
public:
    ScontrolReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

    SlurmNodeInventory read() {
        SlurmNodeInventory out;
        out.format = "scontrol";
        io::forEachScontrolRecordLine(
            text_, file_, "NodeName", "node", "scontrol show node --oneliner", [&] { finishRecord(out); },
            [&](int line) { record_line_ = line; },
            [&](std::string_view body, int line) { addTokens(body, line); });
        if (out.nodes.empty())
            throw ParseError(file_, 0, "", "no nodes: expected scontrol show node --oneliner output");
        return out;
    }

private:
    void addTokens(std::string_view body, int line) {
        bool first = true;
        std::size_t i = 0;
        while (i < body.size()) {
            while (i < body.size() && (body[i] == ' ' || body[i] == '\t')) ++i;
            std::size_t j = i;
            while (j < body.size() && body[j] != ' ' && body[j] != '\t') ++j;
            const std::string_view token = body.substr(i, j - i);
            i = j;
            if (token.empty()) continue;
            const auto key = keyOf(token);
            const bool free_text = current_ == "Reason" || current_ == "Comment" || current_ == "Extra";
            if (key && (first || !free_text || keyAfterReason(*key))) {
                current_ = std::string(*key);
                Field& f = fields_[current_];
                f.value = std::string(token.substr(key->size() + 1));
                f.line = line;
            } else if (!current_.empty()) {
                fields_[current_].value += " " + std::string(token);  // OS=Linux 5.10 ..., Reason=a b
            } else {
                throw ParseError(file_, line, "", "expected Key=Value, found '" + std::string(token) + "'");
            }
            first = false;
        }
    }

    const Field* field(const char* key) const {
        const auto it = fields_.find(key);
        return it == fields_.end() ? nullptr : &it->second;
    }

    long long count(const char* key, bool required, long long max = kMaxCount) const {
        const Field* f = field(key);
        if (!f) {
            if (required) throw ParseError(file_, record_line_, key, "missing from node record");
            return 0;
        }
        const auto v = wholeNumber(f->value);
        if (!v || *v < 0 || *v > max)
            throw ParseError(file_, f->line, key,
                             "not a whole number from 0 to " + std::to_string(max) + ": '" + f->value + "'");
        return *v;
    }

    void finishRecord(SlurmNodeInventory& out) {
        if (record_line_ == 0) return;
        SlurmNode node;
        node.line = record_line_;
        const Field* name = field("NodeName");
        node.name = name ? std::string(trim(name->value)) : std::string();
        if (!plausibleNodeName(node.name))
            throw ParseError(file_, record_line_, "NodeName",
                             "expected a host name (printable ASCII), found '" + node.name + "'");
        if (const auto [it, fresh] = seen_.emplace(node.name, record_line_); !fresh)
            throw ParseError(
                file_, record_line_, "NodeName",
                "node '" + node.name + "' is listed twice (also on line " + std::to_string(it->second) + ")");
        node.cpus = static_cast<int>(count("CPUTot", true));
        node.sockets = static_cast<int>(count("Sockets", false));
        node.cores_per_socket = static_cast<int>(count("CoresPerSocket", false));
        node.memory_gb = static_cast<double>(count("RealMemory", false, kMaxMemoryMb)) / 1024.0;
        SlurmGres gres;
        if (const Field* g = field("Gres")) {
            try {
                gres = parseSlurmGres(g->value);
            } catch (const std::invalid_argument& e) {
                throw ParseError(file_, g->line, "Gres",
                                 std::string("expected ") + e.what() + ", found '" + g->value + "'");
            }
        }
        node.gpus = gres.gpus;
        node.gpu_type = gres.type;
        node.gpus_by_type = gres.by_type;
        if (const Field* p = field("Partitions")) {
            node.partitions = partitionList(p->value);
            if (const std::string* bad = implausiblePartition(node.partitions))
                throw ParseError(file_, p->line, "Partitions",
                                 "expected partition names of printable ASCII, found '" + *bad + "'");
        }
        if (const Field* s = field("State")) node.state = upper(trim(s->value));
        finishNode(node);
        addGpuWarnings(node, gres, file_, out.warnings);
        out.nodes.push_back(std::move(node));
        fields_.clear();
        current_.clear();
        record_line_ = 0;
    }

    std::string_view text_;
    const std::string& file_;
    std::unordered_map<std::string, Field> fields_;
    std::string current_;
    int record_line_ = 0;
    std::unordered_map<std::string, int> seen_;
};

// ---- JSON: {"nodes": [{...}, ...]} of sinfo/scontrol --json

// The line of each element of the root's "nodes" array, in one pass (JsonDoc::lineOf walks from
// the start for every call, which is quadratic over thousands of nodes). Empty when the text is
// not shaped as expected; the caller then falls back to JsonDoc::lineOf.
std::vector<int> nodeElementLines(std::string_view s) {
    std::vector<int> lines;
    int line = 1, depth = 0;
    bool in_nodes = false, done = false, expect = false;
    std::string_view key;
    auto record = [&] {
        if (expect) lines.push_back(line);
        expect = false;
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\n') {
            ++line;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == ':') continue;
        if (c == '"') {
            const std::size_t start = ++i;
            while (i < s.size() && s[i] != '"') {
                if (s[i] == '\\') ++i;
                ++i;
            }
            record();
            if (depth == 1 && i <= s.size()) key = s.substr(start, std::min(i, s.size()) - start);
            continue;
        }
        if (c == '{' || c == '[') {
            record();
            ++depth;
            if (c == '[' && depth == 2 && key == "nodes" && !done) in_nodes = expect = true;
            continue;
        }
        if (c == '}' || c == ']') {
            if (in_nodes && depth == 2) {
                in_nodes = expect = false;
                done = true;
            }
            --depth;
            continue;
        }
        if (c == ',') {
            if (in_nodes && depth == 2) expect = true;
            continue;
        }
        record();
    }
    return lines;
}

// A count as plain number or as the {"set": true, "infinite": false, "number": N} of newer
// data_parser versions; an unset one is 0.
long long jsonCount(const JsonDoc& doc, const json& v, const JsonPath& at, long long max = kMaxCount) {
    if (v.is_object() && v.contains("number")) {
        if (const json* set = doc.member(v, at, "set"); set && set->is_boolean() && !set->get<bool>())
            return 0;
        return doc.integer(v.at("number"), at / "number", 0, max);
    }
    if (v.is_null()) return 0;
    return doc.integer(v, at, 0, max);
}

std::string jsonText(const JsonDoc& doc, const json& v, const JsonPath& at) {
    if (v.is_null()) return {};
    if (v.is_array()) {  // a list where older versions had a comma-separated string
        std::string joined;
        for (std::size_t i = 0; i < v.size(); ++i) joined += (i ? "," : "") + doc.string(v[i], at[i]);
        return joined;
    }
    return doc.string(v, at);
}

SlurmNodeInventory readJsonNodes(std::string_view text, const std::string& file) {
    const JsonDoc doc = JsonDoc::parse(std::string(text), file);
    const JsonPath top;
    const json& root = doc.object(doc.root(), top);
    if (!root.contains("nodes") && root.contains("sinfo"))
        doc.fail(top / "sinfo",
                 "this is sinfo --json of Slurm 23.02 or later, which groups nodes by partition and state; "
                 "export the nodes with scontrol show node --json instead");
    const json& nodes = doc.array(doc.require(root, top, "nodes"), top / "nodes");
    if (nodes.empty()) doc.fail(top / "nodes", "no nodes");
    std::vector<int> lines = nodeElementLines(text);
    if (lines.size() != nodes.size()) lines.clear();

    SlurmNodeInventory out;
    std::unordered_map<std::string, std::size_t> seen;
    bool state_is_list = false, state_seen = false;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const JsonPath at = (top / "nodes")[i];
        const json& v = doc.object(nodes[i], at);
        SlurmNode node;
        node.line = lines.empty() ? doc.lineOf(at) : lines[i];
        const char* name_key = v.contains("name") && !v.at("name").is_null() ? "name" : "hostname";
        const json* name = doc.member(v, at, name_key);
        if (!name) doc.fail(at / "name", "a node needs a \"name\"");
        node.name = std::string(trim(doc.string(*name, at / name_key, false)));
        if (!plausibleNodeName(node.name))
            doc.fail(at / name_key, "expected a host name (printable ASCII), found '" + node.name + "'");
        if (const auto [it, fresh] = seen.emplace(node.name, i); !fresh)
            doc.fail(at / name_key, "node '" + node.name + "' is listed twice (also nodes[" +
                                        std::to_string(it->second) + "])");
        node.cpus = static_cast<int>(jsonCount(doc, doc.require(v, at, "cpus"), at / "cpus"));
        if (const json* x = doc.member(v, at, "sockets"))
            node.sockets = static_cast<int>(jsonCount(doc, *x, at / "sockets"));
        if (const json* x = doc.member(v, at, "cores"))
            node.cores_per_socket = static_cast<int>(jsonCount(doc, *x, at / "cores"));
        if (const json* x = doc.member(v, at, "real_memory"))
            node.memory_gb =
                static_cast<double>(jsonCount(doc, *x, at / "real_memory", kMaxMemoryMb)) / 1024.0;
        SlurmGres gres;
        if (const json* x = doc.member(v, at, "gres")) {
            const std::string text_gres = jsonText(doc, *x, at / "gres");
            try {
                gres = parseSlurmGres(text_gres);
            } catch (const std::invalid_argument& e) {
                doc.fail(at / "gres", std::string("expected ") + e.what() + ", found '" + text_gres + "'");
            }
        }
        node.gpus = gres.gpus;
        node.gpu_type = gres.type;
        node.gpus_by_type = gres.by_type;
        if (const json* x = doc.member(v, at, "partitions")) {
            node.partitions = partitionList(jsonText(doc, *x, at / "partitions"));
            if (const std::string* bad = implausiblePartition(node.partitions))
                doc.fail(at / "partitions",
                         "expected partition names of printable ASCII, found '" + *bad + "'");
        }
        // Slurm 22.05 (openapi v0.0.38): "state": "idle" plus "state_flags": ["DRAIN"];
        // 23.02 and later (data_parser v0.0.39+): "state": ["IDLE", "DRAIN"].
        std::vector<std::string> words;
        if (const json* x = doc.member(v, at, "state")) {
            if (x->is_array()) {
                state_is_list = true;
                for (std::size_t k = 0; k < x->size(); ++k)
                    words.push_back(upper(doc.string((*x)[k], (at / "state")[k])));
            } else if (!x->is_null()) {
                words.push_back(upper(doc.string(*x, at / "state")));
            }
            state_seen = true;
        }
        if (const json* x = doc.member(v, at, "state_flags")) {
            doc.array(*x, at / "state_flags");
            for (std::size_t k = 0; k < x->size(); ++k)
                words.push_back(upper(doc.string((*x)[k], (at / "state_flags")[k])));
        }
        for (const std::string& w : words)
            if (!w.empty()) node.state += (node.state.empty() ? "" : "+") + w;
        finishNode(node);
        addGpuWarnings(node, gres, file, out.warnings);
        out.nodes.push_back(std::move(node));
    }
    // Which release wrote it shows in the state's shape; without states, in meta.Slurm.version.
    if (!state_seen) {
        const json* meta = doc.member(root, top, "meta");
        if (meta && meta->is_object() && meta->contains("Slurm") && meta->at("Slurm").is_object() &&
            meta->at("Slurm").contains("version") && meta->at("Slurm").at("version").is_object()) {
            const json& version = meta->at("Slurm").at("version");
            state_is_list = !(version.contains("major") && version.at("major").is_number_integer() &&
                              version.at("major").get<long long>() < 23);
        } else {
            state_is_list = true;
        }
    }
    out.format = state_is_list ? "scontrol-json" : "sinfo-json";
    return out;
}

std::size_t firstContent(std::string_view text) {
    std::size_t at = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") at = 3;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    return at;
}

}  // namespace

SlurmGres parseSlurmGres(std::string_view gres) {
    SlurmGres out;
    if (noValue(gres)) return out;
    const char* expected = "gres entries like gpu:a100:4(S:0-1) or gpu:2, separated by commas";
    for (std::string_view entry : splitOutsideParentheses(trim(gres))) {
        entry = trim(entry);
        if (entry.empty()) continue;
        if (const auto paren = entry.find('('); paren != std::string_view::npos) {
            if (entry.back() != ')') throw std::invalid_argument(expected);
            entry = trim(entry.substr(0, paren));
        }
        std::vector<std::string_view> parts = io::splitAt(entry, ':');
        if (trim(parts.front()) != "gpu") continue;  // shard, mps, nic, ...: not GPUs
        parts.erase(parts.begin());
        parts.erase(std::remove(parts.begin(), parts.end(), std::string_view("no_consume")), parts.end());
        long long count = 1;
        std::string_view type;
        if (!parts.empty()) {
            if (const auto n = wholeNumber(parts.back())) {
                count = *n;
                parts.pop_back();
            } else if (parts.size() > 1) {
                throw std::invalid_argument(expected);
            }
        }
        if (parts.size() > 1) throw std::invalid_argument(expected);
        if (!parts.empty()) type = trim(parts.front());
        if (!parts.empty() && type.empty()) throw std::invalid_argument(expected);
        if (count < 0 || count > 100000) throw std::invalid_argument("a GPU count from 0 to 100000");
        out.gpus += static_cast<int>(count);
        if (out.gpus > 100000) throw std::invalid_argument("at most 100000 GPUs on a node");
        if (count > 0) {
            const auto same = std::find_if(out.by_type.begin(), out.by_type.end(),
                                           [&](const auto& entry) { return entry.first == type; });
            if (same == out.by_type.end())
                out.by_type.emplace_back(std::string(type), static_cast<int>(count));
            else
                same->second += static_cast<int>(count);
        }
        if (type.empty() || count == 0) continue;
        if (out.type.empty())
            out.type = std::string(type);
        else if (type != out.type &&
                 std::find(out.others.begin(), out.others.end(), std::string(type)) == out.others.end())
            out.others.emplace_back(type);
    }
    return out;
}

bool slurmStateUnavailable(const std::string& state) {
    static const std::set<std::string> unavailable = {"DOWN",   "DRAIN",   "DRAINED",        "DRAINING",
                                                      "FAIL",   "FAILING", "NOT_RESPONDING", "NO_RESPOND",
                                                      "FUTURE", "INVAL",   "INVALID_REG"};
    for (std::string_view word : io::splitAt(state, '+')) {
        word = trim(word);
        if (word.empty()) continue;
        if (word.back() == '*') return true;  // scontrol/sinfo mark a node that does not respond with '*'
        while (!word.empty() && std::string_view("~#%!$@^-").find(word.back()) != std::string_view::npos)
            word.remove_suffix(1);
        if (unavailable.count(upper(word))) return true;
    }
    return false;
}

bool looksLikeSlurmNodes(std::string_view text) {
    const std::size_t at = firstContent(text);
    if (text.substr(at, 9) == "NodeName=") return true;
    if (at >= text.size() || text[at] != '{') return false;
    if (text.find("\"nodes\"") == std::string_view::npos ||
        text.find("clusterloom-cluster") != std::string_view::npos)
        return false;
    try {
        const json root = json::parse(text);
        return root.is_object() && root.contains("nodes") && root.at("nodes").is_array();
    } catch (const json::exception&) {
        return false;
    }
}

SlurmNodeInventory parseSlurmNodes(std::string_view text, const std::string& file) {
    const std::size_t at = firstContent(text);
    if (at >= text.size())
        throw ParseError(file, 0, "", "empty file: expected scontrol show node --oneliner or --json output");
    SlurmNodeInventory out = text[at] == '{' ? readJsonNodes(text, file) : ScontrolReader(text, file).read();
    out.file = file;
    return out;
}

SlurmNodeInventory readSlurmNodes(const std::string& path) {
    return parseSlurmNodes(readWholeFile(path), io::fileName(path));
}

}  // namespace cl
