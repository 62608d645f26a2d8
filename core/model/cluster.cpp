#include "core/model/cluster.h"

#include <algorithm>
#include <stdexcept>

namespace cl {

int Cluster::totalGpus() const {
    int n = 0;
    for (const auto& s : servers) n += s.gpus;
    return n;
}

int Cluster::totalCpuCores() const {
    int n = 0;
    for (const auto& s : servers) n += s.cpu_cores;
    return n;
}

double Cluster::totalMemoryGb() const {
    double m = 0;
    for (const auto& s : servers) m += s.memory_gb;
    return m;
}

int Cluster::maxGpusPerServer() const {
    int m = 0;
    for (const auto& s : servers) m = std::max(m, s.gpus);
    return m;
}

std::vector<int> Cluster::gpuOffsets() const {
    std::vector<int> off;
    off.reserve(servers.size() + 1);
    int n = 0;
    for (const auto& s : servers) {
        off.push_back(n);
        n += s.gpus;
    }
    off.push_back(n);
    return off;
}

std::map<std::string, int> Cluster::gpusByType() const {
    std::map<std::string, int> m;
    for (const auto& s : servers) m[s.gpu_type] += s.gpus;
    return m;
}

std::vector<std::string> Cluster::racks() const {
    std::vector<std::string> r;
    for (const auto& s : servers)
        if (!s.rack.empty() && std::find(r.begin(), r.end(), s.rack) == r.end()) r.push_back(s.rack);
    return r;
}

const Partition* Cluster::partition(const std::string& name) const {
    for (const auto& p : partitions)
        if (p.name == name) return &p;
    return nullptr;
}

Cluster withServerCount(const Cluster& cluster, int servers) {
    if (servers < 1)
        throw std::invalid_argument("a cluster needs at least one server, not " + std::to_string(servers));
    if (cluster.servers.empty())
        throw std::invalid_argument("cluster '" + cluster.name + "' has no servers to copy");
    Cluster c = cluster;
    const std::size_t n = static_cast<std::size_t>(servers);
    if (n <= c.servers.size()) {
        c.servers.resize(n);
    } else {
        const Server last = cluster.servers.back();
        for (std::size_t k = cluster.servers.size(); k < n; ++k) {
            Server s = last;
            s.name = last.name + "+" + std::to_string(k - cluster.servers.size() + 1);
            c.servers.push_back(std::move(s));
        }
    }
    c.name = cluster.name + " (" + std::to_string(servers) + " servers)";
    return c;
}

}  // namespace cl
