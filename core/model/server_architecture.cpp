#include "core/model/server_architecture.h"

#include <stdexcept>

namespace cl {

int ServerArchitecture::gpus() const {
    int n = 0;
    for (const auto& s : sockets)
        for (const auto& g : s.gpu_groups) n += g.gpus;
    return n;
}

int ServerArchitecture::cores() const {
    int n = 0;
    for (const auto& s : sockets) n += s.cores;
    return n;
}

int ServerArchitecture::groupCount() const {
    int n = 0;
    for (const auto& s : sockets) n += static_cast<int>(s.gpu_groups.size());
    return n;
}

std::vector<ServerArchitecture::GpuSlot> ServerArchitecture::gpuSlots() const {
    std::vector<GpuSlot> slots;
    int group = 0;
    for (std::size_t s = 0; s < sockets.size(); ++s)
        for (const auto& g : sockets[s].gpu_groups) {
            for (int i = 0; i < g.gpus; ++i) slots.push_back({static_cast<int>(s), group});
            ++group;
        }
    return slots;
}

std::vector<int> ServerArchitecture::groupSockets() const {
    std::vector<int> out;
    for (std::size_t s = 0; s < sockets.size(); ++s)
        for (std::size_t g = 0; g < sockets[s].gpu_groups.size(); ++g) out.push_back(static_cast<int>(s));
    return out;
}

namespace {

ServerArchitecture twoSockets(int cores_a, int gpus_a, int cores_b, int gpus_b) {
    ServerArchitecture a;
    a.sockets.push_back({cores_a, {GpuGroup{gpus_a}}});
    a.sockets.push_back({cores_b, {GpuGroup{gpus_b}}});
    return a;
}

}  // namespace

const std::vector<ArchitecturePreset>& architecturePresets() {
    // Multi-agent placement paper Sec. VI-A (IBM Power8-like default) and Sec. VI-D (DGX-1-like,
    // uneven sockets, and the small server of the mixed cluster).
    static const std::vector<ArchitecturePreset> presets = [] {
        std::vector<ArchitecturePreset> p;
        p.push_back({"power8-4gpu", "4 GPUs, 2 sockets x 8 cores, 2 GPUs per socket (paper default)",
                     twoSockets(8, 2, 8, 2)});
        p.push_back({"dgx1-8gpu", "8 GPUs, 2 sockets x 16 cores, 4 GPUs per socket (DGX-1-like)",
                     twoSockets(16, 4, 16, 4)});
        p.push_back({"uneven-6gpu", "6 GPUs: a 16-core socket with 4 GPUs, an 8-core socket with 2",
                     twoSockets(16, 4, 8, 2)});
        ServerArchitecture small;
        small.sockets.push_back({8, {GpuGroup{2}}});
        p.push_back({"small-2gpu", "2 GPUs, 1 socket x 8 cores", small});
        return p;
    }();
    return presets;
}

const ArchitecturePreset& architecturePreset(const std::string& name) {
    std::string valid;
    for (const auto& p : architecturePresets()) {
        if (p.name == name) return p;
        valid += (valid.empty() ? "" : ", ") + p.name;
    }
    throw std::invalid_argument("unknown server architecture '" + name + "' (valid: " + valid + ")");
}

}  // namespace cl
