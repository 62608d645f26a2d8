#pragma once
// What is inside a server (the multi-agent placement paper, Sec. IV-A and VI-A): CPU sockets
// with cores, each with GPU groups behind a PCIe switch, sockets joined by QPI. Interference
// depends on it: tasks on one socket share its cores, tasks in one GPU group share its PCIe link.
#include <string>
#include <vector>

namespace cl {

struct GpuGroup {
    int gpus = 2;
    double pcie_gbps = 128.0;  // PCIe v3 x16 switch uplink, multi-agent placement paper Sec. VI-A
    bool operator==(const GpuGroup&) const = default;
};

struct CpuSocket {
    int cores = 8;
    std::vector<GpuGroup> gpu_groups;  // may be empty: a socket without GPUs
    bool operator==(const CpuSocket&) const = default;
};

struct ServerArchitecture {
    std::vector<CpuSocket> sockets;  // empty = not described (one socket, one GPU group)
    double qpi_gbps = 300.0;         // between sockets, multi-agent placement paper Sec. V-B

    bool described() const { return !sockets.empty(); }
    int gpus() const;
    int cores() const;
    int groupCount() const;
    // Socket and GPU group (numbered across the server) of each local GPU, socket-major.
    struct GpuSlot {
        int socket = 0;
        int group = 0;
    };
    std::vector<GpuSlot> gpuSlots() const;
    // The socket each group (numbered across the server) hangs off.
    std::vector<int> groupSockets() const;
    bool operator==(const ServerArchitecture&) const = default;
};

// Named presets (multi-agent placement paper Sec. VI-A and VI-D); names are what layouts and the CLI use.
struct ArchitecturePreset {
    std::string name;
    std::string description;
    ServerArchitecture architecture;
};
// "power8-4gpu" (paper default: 2 sockets x 8 cores, 2 GPUs each), "dgx1-8gpu" (2 x 16 cores,
// 4 GPUs each), "uneven-6gpu" (16 cores + 4 GPUs, 8 cores + 2 GPUs), "small-2gpu" (1 socket
// x 8 cores, 2 GPUs).
const std::vector<ArchitecturePreset>& architecturePresets();
// Throws std::invalid_argument listing the valid names.
const ArchitecturePreset& architecturePreset(const std::string& name);

}  // namespace cl
