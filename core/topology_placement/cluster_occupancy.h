#pragma once
// Who runs where on a cluster of described servers, and the interference that follows:
// flat per-socket and per-GPU-group tables so placement policies can score thousands of
// candidate devices per job quickly. Only the placement simulator changes it.
#include <vector>

#include "core/interference/interference_model.h"
#include "core/model/cluster.h"

namespace cl {

// A place for one task: a server, a socket and (for a worker) a GPU group. Socket and group
// ids are numbered across the cluster.
struct DeviceSlot {
    int server = -1;
    int socket = -1;
    int group = -1;  // -1 for a parameter server (CPU only)
    bool valid() const { return server >= 0; }
};

struct PlacedTask {
    int job = -1;
    DeviceSlot slot;
    bool worker = true;
    double cpu_cores = 0.0;
    double pcie_gbps = 0.0;
};

class ClusterOccupancy {
public:
    ClusterOccupancy(const Cluster& cluster, InterferenceCoefficients coefficients);

    int serverCount() const { return static_cast<int>(server_socket_begin_.size()) - 1; }
    int socketBegin(int server) const { return server_socket_begin_[static_cast<std::size_t>(server)]; }
    int socketEnd(int server) const { return server_socket_begin_[static_cast<std::size_t>(server) + 1]; }
    int groupBegin(int server) const { return server_group_begin_[static_cast<std::size_t>(server)]; }
    int groupEnd(int server) const { return server_group_begin_[static_cast<std::size_t>(server) + 1]; }
    int groupSocket(int group) const { return group_socket_[static_cast<std::size_t>(group)]; }
    int socketCores(int socket) const { return socket_cores_[static_cast<std::size_t>(socket)]; }
    int groupGpus(int group) const { return group_gpus_[static_cast<std::size_t>(group)]; }
    double groupPcieCapacity(int group) const { return group_pcie_cap_[static_cast<std::size_t>(group)]; }
    double qpiGbps(int server) const { return server_qpi_[static_cast<std::size_t>(server)]; }
    int serverGpus(int server) const { return server_gpus_[static_cast<std::size_t>(server)]; }
    int serverCores(int server) const { return server_cores_[static_cast<std::size_t>(server)]; }
    double serverPcieCapacity(int server) const { return server_pcie_cap_[static_cast<std::size_t>(server)]; }
    int rackOf(int server) const { return server_rack_[static_cast<std::size_t>(server)]; }
    // Logical cores (two hyper-threads per core): what a server can hand out at most.
    double cpuCapacity(int server) const { return 2.0 * serverCores(server); }
    double socketCpuCapacity(int socket) const { return 2.0 * socketCores(socket); }

    int freeGpus(int server) const { return server_free_gpus_[static_cast<std::size_t>(server)]; }
    int groupFreeGpus(int group) const { return group_free_[static_cast<std::size_t>(group)]; }
    double serverCpu(int server) const { return server_cpu_[static_cast<std::size_t>(server)]; }
    double socketCpu(int socket) const { return socket_cpu_[static_cast<std::size_t>(socket)]; }
    double groupPcie(int group) const { return group_pcie_[static_cast<std::size_t>(group)]; }
    double serverPcie(int server) const { return server_pcie_[static_cast<std::size_t>(server)]; }
    int usedGpus() const { return used_gpus_; }

    bool fits(const PlacedTask& task) const;
    int add(const PlacedTask& task);  // returns the task id
    void remove(int task_id);
    const PlacedTask& task(int task_id) const { return tasks_[static_cast<std::size_t>(task_id)]; }
    const std::vector<int>& tasksOn(int server) const {
        return server_tasks_[static_cast<std::size_t>(server)];
    }

    // Slowdown of a placed task from the other jobs' tasks on its socket and in its GPU group
    // (1.0 for a job alone on its servers).
    double slowdown(int task_id) const;
    // Sum over the server's tasks of (slowdown - 1), with `extra` added when not null: the
    // interference level Least-Interference-First compares.
    double serverInterference(int server, const PlacedTask* extra) const;
    const InterferenceCoefficients& coefficients() const { return coefficients_; }

private:
    // With `extra` counted as placed too (it may be t itself).
    double slowdownWith(const PlacedTask& t, const PlacedTask* extra) const;

    InterferenceCoefficients coefficients_;
    std::vector<int> server_socket_begin_, server_group_begin_, group_socket_, socket_cores_, group_gpus_;
    std::vector<double> group_pcie_cap_, server_qpi_, server_pcie_cap_;
    std::vector<int> server_gpus_, server_cores_, server_rack_;
    std::vector<int> server_free_gpus_, group_free_;
    std::vector<double> server_cpu_, socket_cpu_, group_pcie_, server_pcie_;
    std::vector<PlacedTask> tasks_;
    std::vector<int> free_task_ids_;
    std::vector<std::vector<int>> server_tasks_;
    int used_gpus_ = 0;
};

}  // namespace cl
