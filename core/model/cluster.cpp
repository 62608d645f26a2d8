#include "core/model/cluster.h"

#include <algorithm>

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

}  // namespace cl
