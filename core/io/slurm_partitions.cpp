#include "core/io/slurm_partitions.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "core/io/csv_table.h"
#include "core/io/parse_error.h"
#include "core/io/read_helpers.h"
#include "core/io/scontrol_records.h"

namespace cl {

namespace {

using io::trim;
using io::wholeNumber;

// As many servers as a layout holds (core/io/layout_json.cpp); a longer hostlist is a typo such
// as node[1-10000000].
constexpr std::size_t kMaxHosts = 100000;
// Slurm stores PriorityTier as a 16-bit number (slurm.conf(5)).
constexpr long long kMaxPriorityTier = 65535;
// A limit beyond a century is a unit error.
constexpr double kMaxTimeLimit = 100.0 * 365 * 86400;

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

bool digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Host and partition names: printable ASCII without spaces, as in slurm_nodes.cpp, so that they
// survive the layout file unchanged.
bool plausibleName(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 127; });
}

std::string padded(long long n, std::size_t width) {
    std::string s = std::to_string(n);
    if (s.size() < width) s.insert(0, width - s.size(), '0');
    return s;
}

// "01-04,07" -> 01 02 03 04 07.
std::vector<std::string> expandRanges(std::string_view ranges) {
    const char* expected = "ranges like [01-04,07] inside the brackets";
    std::vector<std::string> out;
    for (std::string_view range : io::splitAt(ranges, ',')) {
        const auto dash = range.find('-');
        const std::string_view lo = range.substr(0, dash);
        const std::string_view hi = dash == std::string_view::npos ? lo : range.substr(dash + 1);
        if (!digits(lo) || !digits(hi) || lo.size() > 9 || hi.size() > 9)
            throw std::invalid_argument(expected);
        const long long a = *wholeNumber(lo), b = *wholeNumber(hi);
        if (b < a) throw std::invalid_argument("a range from low to high, not [" + std::string(range) + "]");
        if (static_cast<std::size_t>(b - a) >= kMaxHosts)
            throw std::invalid_argument("at most " + std::to_string(kMaxHosts) + " hosts");
        for (long long n = a; n <= b; ++n) out.push_back(padded(n, lo.size()));
    }
    return out;
}

// One hostlist entry, "r[1-2]n[01-02]x": every combination of its bracket groups, the last
// group varying fastest (Slurm's order for multi-dimensional names).
std::vector<std::string> expandEntry(std::string_view entry, std::size_t& total) {
    std::vector<std::string> names = {""};
    std::size_t i = 0;
    while (i < entry.size()) {
        const std::size_t open = entry.find('[', i);
        const std::string_view text = entry.substr(i, open == std::string_view::npos ? entry.npos : open - i);
        if (text.find(']') != std::string_view::npos) throw std::invalid_argument("a ']' closing a '['");
        for (std::string& n : names) n += text;
        if (open == std::string_view::npos) break;
        const std::size_t close = entry.find(']', open);
        if (close == std::string_view::npos) throw std::invalid_argument("a ']' closing the '['");
        const std::vector<std::string> numbers = expandRanges(entry.substr(open + 1, close - open - 1));
        if (names.size() * numbers.size() + total > kMaxHosts)
            throw std::invalid_argument("at most " + std::to_string(kMaxHosts) + " hosts");
        std::vector<std::string> next;
        next.reserve(names.size() * numbers.size());
        for (const std::string& n : names)
            for (const std::string& k : numbers) next.push_back(n + k);
        names = std::move(next);
        i = close + 1;
    }
    total += names.size();
    return names;
}

bool unlimited(std::string_view text) {
    const std::string u = upper(trim(text));
    return u == "UNLIMITED" || u == "INFINITE" || u == "-1";
}

struct Field {
    std::string value;
    int line = 0;
};

class PartitionReader {
public:
    PartitionReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

    SlurmPartitionList read() {
        SlurmPartitionList out;
        out.file = file_;
        io::forEachScontrolRecordLine(
            text_, file_, "PartitionName", "partition", "scontrol show partition --oneliner",
            [&] { finishRecord(out); }, [&](int line) { record_line_ = line; },
            [&](std::string_view body, int line) { addTokens(body, line); });
        if (out.partitions.empty())
            throw ParseError(file_, 0, "",
                             "no partitions: expected scontrol show partition --oneliner output");
        return out;
    }

private:
    void addTokens(std::string_view body, int line) {
        for (std::string_view token : io::splitAt(body, ' ')) {
            token = trim(token);
            if (token.empty()) continue;
            for (std::string_view piece : io::splitAt(token, '\t')) {
                if (piece.empty()) continue;
                const auto eq = piece.find('=');
                if (eq == std::string_view::npos || eq == 0)
                    throw ParseError(file_, line, "",
                                     "expected Key=Value, found '" + std::string(piece) + "'");
                Field& f = fields_[std::string(piece.substr(0, eq))];
                f.value = std::string(piece.substr(eq + 1));
                f.line = line;
            }
        }
    }

    const Field* field(const char* key) const {
        const auto it = fields_.find(key);
        return it == fields_.end() ? nullptr : &it->second;
    }

    void readAttributes(SlurmPartition& p, SlurmPartitionList& out) {
        if (const Field* f = field("PriorityTier")) {
            const auto v = wholeNumber(f->value);
            if (!v || *v < 0 || *v > kMaxPriorityTier)
                throw ParseError(file_, f->line, "PriorityTier",
                                 "not a whole number from 0 to " + std::to_string(kMaxPriorityTier) + ": '" +
                                     f->value + "'");
            p.priority_tier = static_cast<int>(*v);
        }
        if (const Field* f = field("MaxTime")) {
            try {
                p.max_time = parseSlurmTimeLimit(f->value);
            } catch (const std::invalid_argument& e) {
                throw ParseError(file_, f->line, "MaxTime",
                                 std::string("expected ") + e.what() + ", found '" + f->value + "'");
            }
            // Slurm's MaxTime=0 admits no job; our model's 0 means no limit, so it cannot be kept.
            if (p.max_time == 0 && !unlimited(f->value))
                throw ParseError(file_, f->line, "MaxTime",
                                 "a limit of 0 lets no job run; give UNLIMITED or a positive time, found '" +
                                     f->value + "'");
        }
        if (const Field* f = field("Default")) {
            const std::string v = upper(trim(f->value));
            if (v != "YES" && v != "NO")
                throw ParseError(file_, f->line, "Default", "expected YES or NO, found '" + f->value + "'");
            p.is_default = v == "YES";
            if (p.is_default && default_line_ > 0)
                throw ParseError(file_, f->line, "Default",
                                 "a second default partition (also line " + std::to_string(default_line_) +
                                     "); Slurm has one");
            if (p.is_default) default_line_ = p.line;
        }
        if (const Field* f = field("State")) {
            p.state = upper(trim(f->value));
            if (p.state != "UP" && !p.state.empty())
                out.warnings.push_back(file_ + ":" + std::to_string(f->line) + ": partition " + p.name +
                                       " is " + p.state + " in Slurm; the layout keeps it like any other");
        }
    }

    void finishRecord(SlurmPartitionList& out) {
        if (record_line_ == 0) return;
        SlurmPartition p;
        p.line = record_line_;
        p.name = std::string(trim(field("PartitionName")->value));
        if (!plausibleName(p.name) || p.name.find(',') != std::string::npos)
            throw ParseError(file_, record_line_, "PartitionName",
                             "expected a partition name (printable ASCII, no comma), found '" + p.name + "'");
        if (const auto [it, fresh] = seen_.emplace(p.name, record_line_); !fresh)
            throw ParseError(file_, record_line_, "PartitionName",
                             "partition '" + p.name + "' is listed twice (also on line " +
                                 std::to_string(it->second) + ")");
        readAttributes(p, out);
        if (const Field* f = field("Nodes")) {
            p.nodes_line = f->line;
            const std::string_view v = trim(f->value);
            if (v == "ALL") {
                p.all_nodes = true;
            } else if (!v.empty() && v != "(null)") {
                try {
                    p.nodes = expandSlurmHostlist(v);
                } catch (const std::invalid_argument& e) {
                    throw ParseError(file_, f->line, "Nodes",
                                     std::string("expected a hostlist such as node[01-04,07],gpu5 (") +
                                         e.what() + "), found '" + f->value + "'");
                }
            }
        }
        out.partitions.push_back(std::move(p));
        fields_.clear();
        record_line_ = 0;
    }

    std::string_view text_;
    const std::string& file_;
    std::unordered_map<std::string, Field> fields_;
    int record_line_ = 0;
    int default_line_ = 0;
    std::unordered_map<std::string, int> seen_;
};

std::string nameList(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 10; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 10) s += " and " + std::to_string(names.size() - 10) + " more";
    return s;
}

}  // namespace

std::vector<std::string> expandSlurmHostlist(std::string_view hostlist) {
    std::vector<std::string> out;
    std::size_t total = 0;
    int depth = 0;
    std::size_t from = 0;
    std::set<std::string> seen;
    auto flush = [&](std::size_t to) {
        const std::string_view entry = trim(hostlist.substr(from, to - from));
        if (entry.empty()) throw std::invalid_argument("host names separated by single commas");
        for (std::string& name : expandEntry(entry, total)) {
            if (!plausibleName(name)) throw std::invalid_argument("host names of printable ASCII");
            if (seen.insert(name).second) out.push_back(std::move(name));
        }
    };
    for (std::size_t i = 0; i < hostlist.size(); ++i) {
        if (hostlist[i] == '[' && ++depth > 1) throw std::invalid_argument("no '[' inside brackets");
        if (hostlist[i] == ']' && --depth < 0) throw std::invalid_argument("a '[' before each ']'");
        if (hostlist[i] == ',' && depth == 0) {
            flush(i);
            from = i + 1;
        }
    }
    if (depth != 0) throw std::invalid_argument("a ']' closing each '['");
    flush(hostlist.size());
    return out;
}

double parseSlurmTimeLimit(std::string_view text) {
    text = trim(text);
    if (unlimited(text)) return 0.0;
    const char* expected = "a time as MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED";
    long long days = 0;
    std::string_view rest = text;
    const bool has_days = text.find('-') != std::string_view::npos;
    if (has_days) {
        const auto dash = text.find('-');
        if (!digits(text.substr(0, dash)) || dash > 6) throw std::invalid_argument(expected);
        days = *wholeNumber(text.substr(0, dash));
        rest = text.substr(dash + 1);
    }
    const std::vector<std::string_view> parts = io::splitAt(rest, ':');
    if (parts.size() > 3) throw std::invalid_argument(expected);
    std::vector<long long> n;
    for (std::string_view p : parts) {
        if (!digits(p) || p.size() > 9) throw std::invalid_argument(expected);
        n.push_back(*wholeNumber(p));
    }
    double seconds = 0;
    if (has_days) {
        // days-hours[:minutes[:seconds]]
        seconds = static_cast<double>(days) * 86400 + static_cast<double>(n[0]) * 3600;
        if (n.size() > 1) seconds += static_cast<double>(n[1]) * 60;
        if (n.size() > 2) seconds += static_cast<double>(n[2]);
    } else if (n.size() == 1) {
        seconds = static_cast<double>(n[0]) * 60;  // minutes
    } else if (n.size() == 2) {
        seconds = static_cast<double>(n[0]) * 60 + static_cast<double>(n[1]);  // minutes:seconds
    } else {
        seconds =
            static_cast<double>(n[0]) * 3600 + static_cast<double>(n[1]) * 60 + static_cast<double>(n[2]);
    }
    if (seconds > kMaxTimeLimit) throw std::invalid_argument("a time limit of at most 100 years");
    return seconds;
}

bool looksLikeSlurmPartitions(std::string_view text) {
    std::size_t at = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    return text.substr(at, 14) == "PartitionName=";
}

SlurmPartitionList parseSlurmPartitions(std::string_view text, const std::string& file) {
    std::size_t at = 0;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    if (at >= text.size())
        throw ParseError(file, 0, "", "empty file: expected scontrol show partition --oneliner output");
    if (text[at] == '{')
        throw ParseError(
            file, 1, "",
            "JSON is not read here: export the partitions with scontrol show partition --oneliner");
    return PartitionReader(text, file).read();
}

SlurmPartitionList readSlurmPartitions(const std::string& path) {
    return parseSlurmPartitions(readWholeFile(path), io::fileName(path));
}

SlurmPartitionsApplied applySlurmPartitions(Cluster& cluster, const SlurmPartitionList& list,
                                            const SlurmNodeInventory* inventory) {
    SlurmPartitionsApplied out;
    // A node's servers: itself, or NODE:TYPE for each type of a node with GPUs of several types
    // (clusterFromSlurmNodes, docs/architecture.md 8.7).
    std::unordered_map<std::string, std::vector<std::size_t>> servers_of;
    for (std::size_t i = 0; i < cluster.servers.size(); ++i) {
        const std::string& name = cluster.servers[i].name;
        servers_of[name].push_back(i);
        if (const auto colon = name.find(':'); colon != std::string::npos)
            servers_of[name.substr(0, colon)].push_back(i);
    }
    std::unordered_set<std::string> in_inventory;
    if (inventory)
        for (const SlurmNode& n : inventory->nodes) in_inventory.insert(n.name);

    // Membership by the file, in file order.
    std::vector<std::vector<std::string>> member_of(cluster.servers.size());
    std::set<std::string> declared, left_out;
    for (const SlurmPartition& p : list.partitions) {
        declared.insert(p.name);
        if (p.all_nodes) {
            for (auto& m : member_of) m.push_back(p.name);
            continue;
        }
        for (const std::string& node : p.nodes) {
            if (const auto it = servers_of.find(node); it != servers_of.end()) {
                for (std::size_t server : it->second) member_of[server].push_back(p.name);
            } else if (in_inventory.count(node)) {
                if (left_out.insert(node).second) out.left_out_nodes.push_back(node);
            } else {
                throw ParseError(list.file, p.nodes_line, "Nodes",
                                 "partition " + p.name + " names node '" + node + "', which the " +
                                     (inventory ? "node list" : "cluster") + " does not have");
            }
        }
    }

    Cluster result = cluster;
    result.partitions.clear();
    for (const SlurmPartition& p : list.partitions)
        result.partitions.push_back(Partition{p.name, p.priority_tier, p.max_time, p.is_default});
    // Partitions described elsewhere (an earlier layout) keep their attributes.
    for (const Partition& p : cluster.partitions)
        if (!declared.count(p.name)) result.partitions.push_back(p);
    std::set<std::string> undeclared;
    for (std::size_t i = 0; i < result.servers.size(); ++i) {
        Server& s = result.servers[i];
        std::vector<std::string> partitions = member_of[i];
        for (const std::string& own : s.partitions) {
            if (declared.count(own)) continue;
            partitions.push_back(own);
            if (undeclared.insert(own).second) out.undeclared.push_back(own);
            if (!result.partition(own)) result.partitions.push_back(Partition{own, 1, 0.0, false});
        }
        std::vector<std::string> before = s.partitions, after = partitions;
        std::sort(before.begin(), before.end());
        std::sort(after.begin(), after.end());
        if (before != after) out.changed_servers.push_back(s.name);
        out.memberships += static_cast<int>(member_of[i].size());
        s.partitions = std::move(partitions);
    }
    if (!out.changed_servers.empty())
        out.warnings.push_back(std::to_string(out.changed_servers.size()) +
                               " server(s) whose partitions in the node list differ from the partition "
                               "file, which is followed: " +
                               nameList(out.changed_servers));
    if (!out.undeclared.empty())
        out.warnings.push_back(
            "partitions named only by the node list, with default attributes (PriorityTier "
            "1, no MaxTime): " +
            nameList(out.undeclared));
    cluster = std::move(result);
    return out;
}

}  // namespace cl
