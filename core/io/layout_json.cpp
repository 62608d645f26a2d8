// Cluster layout JSON: {"format":"clusterloom-cluster","version":1,"name":...,
// "description":...,"servers":[...],"server_groups":[{"count":n,"name_prefix":...}]}.
// Servers come first, then each group expanded in order (prefix + index from 0 per group).
// Missing per-server fields take the Server defaults; the writer always writes every field
// of every server explicitly, so a file does not change meaning if those defaults change.
#include <unordered_map>

#include "core/io/json_doc.h"
#include "core/io/layout_io.h"
#include "core/io/read_helpers.h"

namespace cl {

namespace {

using io::JsonDoc;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "clusterloom-cluster";
constexpr int kVersion = 1;
constexpr int kMaxGpusPerServer = 64;
constexpr long long kMaxServers = 100000;

// The fields a server and a server group share.
void readServerFields(const JsonDoc& doc, const json& v, const JsonPath& at, Server& s) {
    auto opt = [&](const char* key) { return doc.member(v, at, key); };
    if (const json* x = opt("rack")) s.rack = doc.string(*x, at / "rack");
    if (const json* x = opt("gpu_type")) s.gpu_type = doc.string(*x, at / "gpu_type", false);
    if (const json* x = opt("gpus"))
        s.gpus = static_cast<int>(doc.integer(*x, at / "gpus", 1, kMaxGpusPerServer));
    if (const json* x = opt("cpu_cores"))
        s.cpu_cores = static_cast<int>(doc.integer(*x, at / "cpu_cores", 1, 1000000));
    if (const json* x = opt("memory_gb")) s.memory_gb = doc.positive(*x, at / "memory_gb");
    if (const json* x = opt("gpu_memory_gb")) s.gpu_memory_gb = doc.positive(*x, at / "gpu_memory_gb");
    if (const json* x = opt("network_gbps")) s.network_gbps = doc.positive(*x, at / "network_gbps");
}

class ServerList {
public:
    ServerList(const JsonDoc& doc, Cluster& c) : doc_(doc), c_(c) {}
    void add(Server s, const JsonPath& name_at) {
        if (c_.servers.size() >= static_cast<std::size_t>(kMaxServers))
            doc_.fail(name_at, "more than " + std::to_string(kMaxServers) + " servers");
        if (!names_.emplace(s.name, c_.servers.size()).second)
            doc_.fail(name_at, "duplicate server name '" + s.name + "'");
        c_.servers.push_back(std::move(s));
    }

private:
    const JsonDoc& doc_;
    Cluster& c_;
    std::unordered_map<std::string, std::size_t> names_;
};

std::string serverJson(const Server& s) {
    nlohmann::ordered_json o;
    o["name"] = s.name;
    o["rack"] = s.rack;
    o["gpu_type"] = s.gpu_type;
    o["gpus"] = s.gpus;
    o["cpu_cores"] = s.cpu_cores;
    o["memory_gb"] = io::jsonNumber(s.memory_gb);
    o["gpu_memory_gb"] = io::jsonNumber(s.gpu_memory_gb);
    o["network_gbps"] = io::jsonNumber(s.network_gbps);
    return o.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

namespace {

Cluster layoutFromDoc(const JsonDoc& doc, const std::string& default_name) {
    doc.checkHeader(kFormat, kVersion);
    const json& root = doc.root();
    const JsonPath top;

    Cluster c;
    c.name = default_name;
    if (const json* n = doc.member(root, top, "name")) c.name = doc.string(*n, top / "name");
    // "description" is for people reading the file; the model has no place for it.
    if (const json* d = doc.member(root, top, "description")) doc.string(*d, top / "description");

    ServerList list(doc, c);
    const json* servers = doc.member(root, top, "servers");
    const json* groups = doc.member(root, top, "server_groups");
    if (!servers && !groups) doc.fail(top / "servers", "a layout needs \"servers\" or \"server_groups\"");
    if (servers) {
        doc.array(*servers, top / "servers");
        for (std::size_t i = 0; i < servers->size(); ++i) {
            const JsonPath at = (top / "servers")[i];
            const json& v = doc.object((*servers)[i], at);
            doc.rejectUnknownKeys(v, at,
                                  {"name", "rack", "gpu_type", "gpus", "cpu_cores", "memory_gb",
                                   "gpu_memory_gb", "network_gbps"});
            Server s;
            s.name = doc.string(doc.require(v, at, "name"), at / "name", false);
            readServerFields(doc, v, at, s);
            list.add(std::move(s), at / "name");
        }
    }
    if (groups) {
        doc.array(*groups, top / "server_groups");
        for (std::size_t i = 0; i < groups->size(); ++i) {
            const JsonPath at = (top / "server_groups")[i];
            const json& v = doc.object((*groups)[i], at);
            doc.rejectUnknownKeys(v, at,
                                  {"count", "name_prefix", "rack", "gpu_type", "gpus", "cpu_cores",
                                   "memory_gb", "gpu_memory_gb", "network_gbps"});
            const long long count = doc.integer(doc.require(v, at, "count"), at / "count", 1, kMaxServers);
            Server proto;
            proto.name = doc.string(doc.require(v, at, "name_prefix"), at / "name_prefix", false);
            readServerFields(doc, v, at, proto);
            for (long long k = 0; k < count; ++k) {
                Server s = proto;
                s.name = proto.name + std::to_string(k);
                list.add(std::move(s), at / "name_prefix");
            }
        }
    }
    if (c.servers.empty())
        doc.fail(servers ? top / "servers" : top / "server_groups", "the layout has no servers");
    return c;
}

}  // namespace

Cluster readLayoutJson(const std::string& path) { return layoutFromDoc(JsonDoc::read(path), io::fileStem(path)); }

Cluster parseLayoutJson(const std::string& text, const std::string& source) {
    return layoutFromDoc(JsonDoc::parse(text, source), source);
}

std::string layoutJsonText(const Cluster& cluster) {
    std::string out = "{\n";
    out += "  \"format\": \"" + std::string(kFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kVersion) + ",\n";
    out += "  \"name\": " + json(cluster.name).dump(-1, ' ', false, json::error_handler_t::replace) + ",\n";
    out += "  \"servers\": [";
    for (std::size_t k = 0; k < cluster.servers.size(); ++k)
        out += (k ? ",\n    " : "\n    ") + serverJson(cluster.servers[k]);
    out += cluster.servers.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

void writeLayoutJson(const Cluster& cluster, const std::string& path) { io::writeTextFile(path, layoutJsonText(cluster)); }

}  // namespace cl
