#include "core/model/topology_cluster.h"

#include "core/topology/network_topology.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cl {

namespace {

// Server DRAM scales with the cores: 16 GB per core gives the DGX-1-like preset (32 cores)
// a DGX-1's 512 GB and the Power8-like one 256 GB.
constexpr double kMemoryGbPerCore = 16.0;

struct MixDef {
    const char* name;
    std::vector<ArchitectureShare> shares;
};

const std::vector<MixDef>& mixes() {
    static const std::vector<MixDef> m = {
        {"power8", {{"power8-4gpu", 1.0}}},
        {"dgx1", {{"dgx1-8gpu", 1.0}}},
        {"uneven", {{"uneven-6gpu", 1.0}}},
        // Multi-agent placement paper Sec. VI-D: per pod 20% small, 40% Power8-like, 40% DGX-1-like servers.
        {"mixed", {{"small-2gpu", 0.2}, {"power8-4gpu", 0.4}, {"dgx1-8gpu", 0.4}}},
    };
    return m;
}

// Largest remainder: counts summing to `total` in proportion to the fractions; ties go to
// the share listed first.
std::vector<int> shareCounts(const std::vector<ArchitectureShare>& mix, int total) {
    double sum = 0;
    for (const auto& s : mix) sum += s.fraction;
    std::vector<int> counts(mix.size());
    std::vector<double> rest(mix.size());
    int given = 0;
    for (std::size_t i = 0; i < mix.size(); ++i) {
        const double exact = total * mix[i].fraction / sum;
        counts[i] = static_cast<int>(std::floor(exact));
        rest[i] = exact - counts[i];
        given += counts[i];
    }
    std::vector<std::size_t> order(mix.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return rest[x] > rest[y]; });
    for (std::size_t i = 0; given < total; ++i, ++given) ++counts[order[i % order.size()]];
    return counts;
}

}  // namespace

std::vector<ArchitectureShare> architectureMix(const std::string& name) {
    for (const auto& m : mixes())
        if (m.name == name) return m.shares;
    std::string valid;
    for (const auto& n : architectureMixNames()) valid += (valid.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown architecture mix '" + name + "' (valid: " + valid + ")");
}

std::vector<std::string> architectureMixNames() {
    std::vector<std::string> names;
    for (const auto& m : mixes()) names.emplace_back(m.name);
    return names;
}

void applyArchitecture(Server& server, const ServerArchitecture& architecture) {
    server.architecture = architecture;
    if (!architecture.described()) return;
    server.gpus = architecture.gpus();
    server.cpu_cores = architecture.cores();
}

Cluster makeTopologyCluster(const std::string& name, const TopologySpec& spec,
                            const std::vector<ArchitectureShare>& mix, const std::string& gpu_type) {
    if (mix.empty()) throw std::invalid_argument("the architecture mix is empty");
    std::vector<ServerArchitecture> archs;
    for (const auto& share : mix) {
        if (!std::isfinite(share.fraction) || share.fraction <= 0) {
            std::ostringstream got;
            got << share.fraction;
            throw std::invalid_argument("architecture mix fraction of '" + share.preset +
                                        "' must be positive (got " + got.str() + ")");
        }
        archs.push_back(architecturePreset(share.preset).architecture);
    }
    const NetworkTopology topo = NetworkTopology::build(spec);
    Cluster c;
    c.name = name;
    c.topology = spec;
    c.servers.resize(static_cast<std::size_t>(topo.serverCount()));
    const bool flat = spec.kind == TopologyKind::Flat;
    for (int s = 0; s < topo.serverCount(); ++s) {
        Server& server = c.servers[static_cast<std::size_t>(s)];
        server.name = topo.nodes()[static_cast<std::size_t>(s)].name;
        if (!flat) {
            const NetworkLink& access = topo.links()[static_cast<std::size_t>(s)];
            server.rack = topo.nodes()[static_cast<std::size_t>(access.b)].name;
            server.network_gbps = access.gbps;
        }
        server.gpu_type = gpu_type;
        server.gpu_memory_gb = 32.0;
    }
    // serversOfPod per pod would be quadratic on a BCube with thousands of pods.
    std::vector<std::vector<int>> pods(static_cast<std::size_t>(topo.podCount()));
    for (int s = 0; s < topo.serverCount(); ++s) pods[static_cast<std::size_t>(topo.podOf(s))].push_back(s);
    for (const std::vector<int>& members : pods) {
        const std::vector<int> counts = shareCounts(mix, static_cast<int>(members.size()));
        std::size_t next = 0;
        for (std::size_t i = 0; i < counts.size(); ++i)
            for (int j = 0; j < counts[i]; ++j) {
                Server& server = c.servers[static_cast<std::size_t>(members[next++])];
                applyArchitecture(server, archs[i]);
                server.memory_gb = kMemoryGbPerCore * server.cpu_cores;
            }
    }
    return c;
}

}  // namespace cl
