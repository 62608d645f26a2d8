// Cluster layout JSON: {"format":"clusterloom-cluster","version":1,"name":...,
// "description":...,"servers":[...],"server_groups":[{"count":n,"name_prefix":...}]}.
// Servers come first, then each group expanded in order (prefix + index from 0 per group).
// Missing per-server fields take the Server defaults; the writer always writes every field
// of every server explicitly, so a file does not change meaning if those defaults change
// (for the same reason it writes a described "architecture" as an object, never as a preset
// name). An optional "topology" names the network generator; with it and no servers, the
// servers are generated (makeTopologyCluster) from "architecture_mix" and "gpu_type". The
// cluster's "partitions" and each server's are written only when there are some, so that other
// layouts keep their text and content hash (docs/architecture.md 8.1).
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "core/io/json_doc.h"
#include "core/io/layout_io.h"
#include "core/io/read_helpers.h"
#include "core/io/server_json.h"
#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"

namespace cl {

namespace {

using io::JsonDoc;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "clusterloom-cluster";
constexpr int kVersion = 1;
constexpr int kMaxGpusPerServer = 64;
constexpr long long kMaxServers = 100000;

// A preset name or {"qpi_gbps":..,"sockets":[{"cores":..,"gpu_groups":[{"gpus":..,"pcie_gbps":..}]}]}.
ServerArchitecture readArchitecture(const JsonDoc& doc, const json& v, const JsonPath& at) {
    if (v.is_string()) {
        try {
            return architecturePreset(v.get<std::string>()).architecture;
        } catch (const std::invalid_argument& e) {
            doc.fail(at, e.what());
        }
    }
    if (!v.is_object()) doc.fail(at, "expected a preset name or an object");
    doc.rejectUnknownKeys(v, at, {"qpi_gbps", "sockets"});
    ServerArchitecture a;
    if (const json* x = doc.member(v, at, "qpi_gbps")) a.qpi_gbps = doc.positive(*x, at / "qpi_gbps");
    const json& sockets = doc.array(doc.require(v, at, "sockets"), at / "sockets");
    if (sockets.empty()) doc.fail(at / "sockets", "an architecture needs at least one socket");
    for (std::size_t i = 0; i < sockets.size(); ++i) {
        const JsonPath sat = (at / "sockets")[i];
        const json& so = doc.object(sockets[i], sat);
        doc.rejectUnknownKeys(so, sat, {"cores", "gpu_groups"});
        CpuSocket socket;
        socket.cores =
            static_cast<int>(doc.integer(doc.require(so, sat, "cores"), sat / "cores", 1, 1000000));
        if (const json* groups = doc.member(so, sat, "gpu_groups")) {
            doc.array(*groups, sat / "gpu_groups");
            for (std::size_t g = 0; g < groups->size(); ++g) {
                const JsonPath gat = (sat / "gpu_groups")[g];
                const json& go = doc.object((*groups)[g], gat);
                doc.rejectUnknownKeys(go, gat, {"gpus", "pcie_gbps"});
                GpuGroup group;
                group.gpus = static_cast<int>(
                    doc.integer(doc.require(go, gat, "gpus"), gat / "gpus", 1, kMaxGpusPerServer));
                if (const json* x = doc.member(go, gat, "pcie_gbps"))
                    group.pcie_gbps = doc.positive(*x, gat / "pcie_gbps");
                socket.gpu_groups.push_back(group);
            }
        }
        a.sockets.push_back(std::move(socket));
    }
    if (a.gpus() < 1 || a.gpus() > kMaxGpusPerServer)
        doc.fail(at, "the architecture has " + std::to_string(a.gpus()) + " GPUs; a server holds 1 to " +
                         std::to_string(kMaxGpusPerServer));
    return a;
}

// {"per_hour": USD} or {"purchase": USD, "amortization_years": Y, "power_per_hour": USD}, with an
// optional "source" and "approximate" (docs/architecture.md 7.8).
ServerPrice readPrice(const JsonDoc& doc, const json& v, const JsonPath& at) {
    doc.object(v, at);
    doc.rejectUnknownKeys(
        v, at, {"per_hour", "purchase", "amortization_years", "power_per_hour", "source", "approximate"});
    ServerPrice p;
    const json* hourly = doc.member(v, at, "per_hour");
    const json* purchase = doc.member(v, at, "purchase");
    if (hourly && purchase)
        doc.fail(at, "a price is either \"per_hour\" or \"purchase\" with \"amortization_years\", not both");
    if (hourly) {
        p.basis = PriceBasis::Hourly;
        p.per_hour = doc.nonNegative(*hourly, at / "per_hour");
        for (const char* key : {"amortization_years", "power_per_hour"})
            if (doc.member(v, at, key))
                doc.fail(at / key, std::string(key) + " belongs to a purchase price, not to \"per_hour\"");
    } else if (purchase) {
        p.basis = PriceBasis::Amortized;
        p.purchase = doc.nonNegative(*purchase, at / "purchase");
        p.amortization_years =
            doc.positive(doc.require(v, at, "amortization_years"), at / "amortization_years");
        if (const json* x = doc.member(v, at, "power_per_hour"))
            p.power_per_hour = doc.nonNegative(*x, at / "power_per_hour");
    } else {
        doc.fail(at, "a price needs \"per_hour\" or \"purchase\" (US dollars)");
    }
    if (const json* x = doc.member(v, at, "source")) p.source = doc.string(*x, at / "source");
    if (const json* x = doc.member(v, at, "approximate")) {
        if (!x->is_boolean()) doc.fail(at / "approximate", "expected true or false");
        p.approximate = x->get<bool>();
    }
    return p;
}

// The fields a server and a server group share.
void readServerFields(const JsonDoc& doc, const json& v, const JsonPath& at, Server& s) {
    auto opt = [&](const char* key) { return doc.member(v, at, key); };
    if (const json* x = opt("rack")) s.rack = doc.string(*x, at / "rack");
    if (const json* x = opt("gpu_type")) s.gpu_type = doc.string(*x, at / "gpu_type", false);
    if (const json* x = opt("architecture"))
        applyArchitecture(s, readArchitecture(doc, *x, at / "architecture"));
    // With an architecture, the counts are derived from it; stated ones must agree.
    const bool described = s.architecture.described();
    if (const json* x = opt("gpus")) {
        const int gpus = static_cast<int>(doc.integer(*x, at / "gpus", 1, kMaxGpusPerServer));
        if (described && gpus != s.gpus)
            doc.fail(at / "gpus", "gpus " + std::to_string(gpus) + " disagrees with the architecture's " +
                                      std::to_string(s.gpus) +
                                      " GPUs (state the same count or leave it out)");
        s.gpus = gpus;
    }
    if (const json* x = opt("cpu_cores")) {
        const int cores = static_cast<int>(doc.integer(*x, at / "cpu_cores", 1, 1000000));
        if (described && cores != s.cpu_cores)
            doc.fail(at / "cpu_cores",
                     "cpu_cores " + std::to_string(cores) + " disagrees with the architecture's " +
                         std::to_string(s.cpu_cores) + " cores (state the same count or leave it out)");
        s.cpu_cores = cores;
    }
    if (const json* x = opt("memory_gb")) s.memory_gb = doc.positive(*x, at / "memory_gb");
    if (const json* x = opt("gpu_memory_gb")) s.gpu_memory_gb = doc.positive(*x, at / "gpu_memory_gb");
    if (const json* x = opt("network_gbps")) s.network_gbps = doc.positive(*x, at / "network_gbps");
    if (const json* x = opt("state")) s.state = doc.string(*x, at / "state");
    if (const json* x = opt("unavailable")) {
        if (!x->is_boolean()) doc.fail(at / "unavailable", "expected true or false");
        s.unavailable = x->get<bool>();
    }
    if (const json* x = opt("price")) s.price = readPrice(doc, *x, at / "price");
}

// Partition names end up in comma lists (a job's partitions, the cluster editor's column), so a
// name holds no comma, no space and no control character.
std::string partitionName(const JsonDoc& doc, const json& v, const JsonPath& at) {
    const std::string name = doc.string(v, at, false);
    for (char c : name)
        if (c == ',' || static_cast<unsigned char>(c) <= ' ')
            doc.fail(at, "a partition name has no comma, space or control character: '" + name + "'");
    return name;
}

// The cluster's "partitions": [{"name", "priority_tier", "max_time", "default"}]
// (docs/architecture.md 8.1); names unique, at most one default.
std::vector<Partition> readPartitions(const JsonDoc& doc, const json& v, const JsonPath& at) {
    doc.array(v, at);
    std::vector<Partition> out;
    std::unordered_map<std::string, std::size_t> seen;
    std::optional<std::size_t> default_at;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const JsonPath pat = at[i];
        const json& o = doc.object(v[i], pat);
        doc.rejectUnknownKeys(o, pat, {"name", "priority_tier", "max_time", "default"});
        Partition p;
        p.name = partitionName(doc, doc.require(o, pat, "name"), pat / "name");
        if (const auto [it, fresh] = seen.emplace(p.name, i); !fresh)
            doc.fail(pat / "name", "duplicate partition '" + p.name + "' (also partitions[" +
                                       std::to_string(it->second) + "])");
        if (const json* x = doc.member(o, pat, "priority_tier"))
            p.priority_tier = static_cast<int>(doc.integer(*x, pat / "priority_tier", 0, 65535));
        if (const json* x = doc.member(o, pat, "max_time"))
            p.max_time = doc.nonNegative(*x, pat / "max_time");
        if (const json* x = doc.member(o, pat, "default")) {
            if (!x->is_boolean()) doc.fail(pat / "default", "expected true or false");
            p.is_default = x->get<bool>();
        }
        if (p.is_default && default_at)
            doc.fail(pat / "default",
                     "a second default partition (also partitions[" + std::to_string(*default_at) + "])");
        if (p.is_default) default_at = i;
        out.push_back(std::move(p));
    }
    return out;
}

// A server's (or server group's) "partitions": names, each once, and each declared by the
// cluster's "partitions" when the layout has that list.
void readServerPartitions(const JsonDoc& doc, const json& v, const JsonPath& at, const Cluster& c,
                          Server& s) {
    const json* x = doc.member(v, at, "partitions");
    if (!x) return;
    const JsonPath pat = at / "partitions";
    doc.array(*x, pat);
    for (std::size_t i = 0; i < x->size(); ++i) {
        std::string name = partitionName(doc, (*x)[i], pat[i]);
        if (std::find(s.partitions.begin(), s.partitions.end(), name) != s.partitions.end())
            doc.fail(pat[i], "partition '" + name + "' is listed twice");
        if (!c.partitions.empty() && !c.partition(name))
            doc.fail(pat[i], "partition '" + name + "' is not in the layout's \"partitions\"");
        s.partitions.push_back(std::move(name));
    }
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

nlohmann::ordered_json architectureJson(const ServerArchitecture& a) {
    nlohmann::ordered_json o;
    o["qpi_gbps"] = io::jsonNumber(a.qpi_gbps);
    o["sockets"] = nlohmann::ordered_json::array();
    for (const CpuSocket& socket : a.sockets) {
        nlohmann::ordered_json so;
        so["cores"] = socket.cores;
        so["gpu_groups"] = nlohmann::ordered_json::array();
        for (const GpuGroup& g : socket.gpu_groups) {
            nlohmann::ordered_json go;
            go["gpus"] = g.gpus;
            go["pcie_gbps"] = io::jsonNumber(g.pcie_gbps);
            so["gpu_groups"].push_back(go);
        }
        o["sockets"].push_back(so);
    }
    return o;
}

}  // namespace

nlohmann::ordered_json priceJson(const ServerPrice& p) {
    nlohmann::ordered_json o;
    if (p.basis == PriceBasis::Hourly) {
        o["per_hour"] = io::jsonNumber(p.per_hour);
    } else {
        o["purchase"] = io::jsonNumber(p.purchase);
        o["amortization_years"] = io::jsonNumber(p.amortization_years);
        o["power_per_hour"] = io::jsonNumber(p.power_per_hour);
    }
    if (!p.source.empty()) o["source"] = p.source;
    if (p.approximate) o["approximate"] = true;
    return o;
}

ServerPrice parsePriceJson(const JsonDoc& doc, const nlohmann::json& v, const JsonPath& at) {
    return readPrice(doc, v, at);
}

Server parseServerFieldsJson(const JsonDoc& doc, const nlohmann::json& v, const JsonPath& at) {
    doc.object(v, at);
    doc.rejectUnknownKeys(v, at,
                          {"gpu_type", "gpus", "cpu_cores", "memory_gb", "gpu_memory_gb", "network_gbps",
                           "architecture", "price"});
    Server s;
    readServerFields(doc, v, at, s);
    return s;
}

namespace {

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
    if (s.architecture.described()) o["architecture"] = architectureJson(s.architecture);
    // Written only when set, so that layouts without them keep their text and content hash.
    if (!s.state.empty()) o["state"] = s.state;
    if (s.unavailable) o["unavailable"] = true;
    if (s.price.stated()) o["price"] = priceJson(s.price);
    if (!s.partitions.empty()) o["partitions"] = s.partitions;
    return o.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string partitionJson(const Partition& p) {
    nlohmann::ordered_json o;
    o["name"] = p.name;
    o["priority_tier"] = p.priority_tier;
    o["max_time"] = io::jsonNumber(p.max_time);
    o["default"] = p.is_default;
    return o.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The parameter a NetworkTopology validation message is about, when the object states it.
JsonPath topologyField(const json& v, const JsonPath& at, const std::string& message) {
    for (const char* key : {"tier_gbps", "servers_per_tor", "servers_per_pod", "d_a", "d_i"})
        if (message.find(key) != std::string::npos && v.contains(key)) return at / key;
    for (const char* key : {"k", "n"})
        if ((message.find(std::string(" ") + key + " ") != std::string::npos) && v.contains(key))
            return at / key;
    return at;
}

TopologySpec readTopology(const JsonDoc& doc, const json& v, const JsonPath& at) {
    doc.object(v, at);
    const std::string kind_name = doc.string(doc.require(v, at, "kind"), at / "kind");
    TopologySpec spec;
    try {
        spec.kind = topologyKindFromName(kind_name);
    } catch (const std::invalid_argument& e) {
        doc.fail(at / "kind", e.what());
    }
    auto param = [&](const char* key, int fallback) {
        const json* x = doc.member(v, at, key);
        return x ? static_cast<int>(doc.integer(*x, at / key, 0, 1000000)) : fallback;
    };
    switch (spec.kind) {
        case TopologyKind::Flat:
            doc.rejectUnknownKeys(v, at, {"kind"});
            return spec;
        case TopologyKind::FatTree:
            doc.rejectUnknownKeys(v, at, {"kind", "k", "tier_gbps"});
            spec = fatTreeSpec(param("k", 20));
            break;
        case TopologyKind::VL2:
            doc.rejectUnknownKeys(v, at, {"kind", "d_a", "d_i", "servers_per_tor", "tier_gbps"});
            spec = vl2Spec(param("d_a", 20), param("d_i", 20), param("servers_per_tor", 20));
            break;
        case TopologyKind::BCube:
            doc.rejectUnknownKeys(v, at, {"kind", "n", "k", "servers_per_pod", "tier_gbps"});
            spec = bcubeSpec(param("n", 36), param("k", 1));
            spec.servers_per_pod = param("servers_per_pod", 0);
            break;
    }
    if (const json* t = doc.member(v, at, "tier_gbps")) {
        doc.array(*t, at / "tier_gbps");
        spec.tier_gbps.clear();
        for (std::size_t i = 0; i < t->size(); ++i)
            spec.tier_gbps.push_back(doc.positive((*t)[i], (at / "tier_gbps")[i]));
    }
    try {
        NetworkTopology::serverCount(spec);
    } catch (const std::invalid_argument& e) {
        doc.fail(topologyField(v, at, e.what()), e.what());
    }
    return spec;
}

nlohmann::ordered_json topologyJson(const TopologySpec& spec) {
    nlohmann::ordered_json o;
    o["kind"] = topologyKindName(spec.kind);
    switch (spec.kind) {
        case TopologyKind::Flat:
            break;
        case TopologyKind::FatTree:
            o["k"] = spec.k;
            break;
        case TopologyKind::VL2:
            o["d_a"] = spec.k;
            o["d_i"] = spec.n;
            o["servers_per_tor"] = spec.servers_per_tor;
            break;
        case TopologyKind::BCube:
            o["n"] = spec.n;
            o["k"] = spec.k;
            o["servers_per_pod"] = spec.servers_per_pod;
            break;
    }
    if (spec.kind != TopologyKind::Flat) {
        o["tier_gbps"] = nlohmann::ordered_json::array();
        for (double g : spec.tier_gbps) o["tier_gbps"].push_back(io::jsonNumber(g));
    }
    return o;
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

    const json* servers = doc.member(root, top, "servers");
    const json* groups = doc.member(root, top, "server_groups");
    const json* topology = doc.member(root, top, "topology");
    const json* mix = doc.member(root, top, "architecture_mix");
    const json* gpu_type = doc.member(root, top, "gpu_type");
    if (topology) c.topology = readTopology(doc, *topology, top / "topology");
    if (const json* p = doc.member(root, top, "partitions"))
        c.partitions = readPartitions(doc, *p, top / "partitions");
    if (servers || groups || !topology) {
        for (const auto& [key, x] : {std::pair{"architecture_mix", mix}, std::pair{"gpu_type", gpu_type}})
            if (x)
                doc.fail(top / key, std::string("\"") + key +
                                        "\" only applies when the servers are generated from \"topology\" "
                                        "(a layout without \"servers\" and \"server_groups\")");
    }
    if (topology && !servers && !groups && c.topology.kind != TopologyKind::Flat) {
        const std::string mix_name = mix ? doc.string(*mix, top / "architecture_mix") : "power8";
        const std::string type = gpu_type ? doc.string(*gpu_type, top / "gpu_type", false) : "V100";
        std::vector<ArchitectureShare> shares;
        try {
            shares = architectureMix(mix_name);
        } catch (const std::invalid_argument& e) {
            doc.fail(top / "architecture_mix", e.what());
        }
        Cluster generated = makeTopologyCluster(c.name, c.topology, shares, type);
        c.servers = std::move(generated.servers);
        return c;
    }

    ServerList list(doc, c);
    if (!servers && !groups) doc.fail(top / "servers", "a layout needs \"servers\" or \"server_groups\"");
    if (servers) {
        doc.array(*servers, top / "servers");
        for (std::size_t i = 0; i < servers->size(); ++i) {
            const JsonPath at = (top / "servers")[i];
            const json& v = doc.object((*servers)[i], at);
            doc.rejectUnknownKeys(
                v, at,
                {"name", "rack", "gpu_type", "gpus", "cpu_cores", "memory_gb", "gpu_memory_gb",
                 "network_gbps", "architecture", "state", "unavailable", "price", "partitions"});
            Server s;
            s.name = doc.string(doc.require(v, at, "name"), at / "name", false);
            readServerFields(doc, v, at, s);
            readServerPartitions(doc, v, at, c, s);
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
                                   "memory_gb", "gpu_memory_gb", "network_gbps", "architecture", "state",
                                   "unavailable", "price", "partitions"});
            const long long count = doc.integer(doc.require(v, at, "count"), at / "count", 1, kMaxServers);
            Server proto;
            proto.name = doc.string(doc.require(v, at, "name_prefix"), at / "name_prefix", false);
            readServerFields(doc, v, at, proto);
            readServerPartitions(doc, v, at, c, proto);
            for (long long k = 0; k < count; ++k) {
                Server s = proto;
                s.name = proto.name + std::to_string(k);
                list.add(std::move(s), at / "name_prefix");
            }
        }
    }
    if (c.servers.empty())
        doc.fail(servers ? top / "servers" : top / "server_groups", "the layout has no servers");
    if (c.topology.kind != TopologyKind::Flat) {
        const int want = NetworkTopology::serverCount(c.topology);
        if (static_cast<int>(c.servers.size()) != want)
            doc.fail(servers ? top / "servers" : top / "server_groups",
                     "the topology has " + std::to_string(want) + " servers but the layout lists " +
                         std::to_string(c.servers.size()));
    }
    return c;
}

}  // namespace

Cluster readLayoutJson(const std::string& path) {
    return layoutFromDoc(JsonDoc::read(path), io::fileStem(path));
}

Cluster parseLayoutJson(const std::string& text, const std::string& source) {
    return layoutFromDoc(JsonDoc::parse(text, source), source);
}

std::string layoutJsonText(const Cluster& cluster) {
    std::string out = "{\n";
    out += "  \"format\": \"" + std::string(kFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kVersion) + ",\n";
    out += "  \"name\": " + json(cluster.name).dump(-1, ' ', false, json::error_handler_t::replace) + ",\n";
    if (cluster.topology.kind != TopologyKind::Flat)
        out += "  \"topology\": " + topologyJson(cluster.topology).dump() + ",\n";
    // Written only when described, so that layouts without partitions keep their text and content
    // hash (docs/architecture.md 8.1).
    if (!cluster.partitions.empty()) {
        out += "  \"partitions\": [";
        for (std::size_t k = 0; k < cluster.partitions.size(); ++k)
            out += (k ? ",\n    " : "\n    ") + partitionJson(cluster.partitions[k]);
        out += "\n  ],\n";
    }
    out += "  \"servers\": [";
    for (std::size_t k = 0; k < cluster.servers.size(); ++k)
        out += (k ? ",\n    " : "\n    ") + serverJson(cluster.servers[k]);
    out += cluster.servers.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

void writeLayoutJson(const Cluster& cluster, const std::string& path) {
    io::writeTextFile(path, layoutJsonText(cluster));
}

}  // namespace cl
