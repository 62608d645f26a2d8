#include "core/topology_placement/cluster_occupancy.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace cl {

namespace {

// A server without a described architecture is one socket with one GPU group.
ServerArchitecture effectiveArchitecture(const Server& s) {
    if (s.architecture.described()) return s.architecture;
    ServerArchitecture a;
    a.sockets.push_back({s.cpu_cores, {GpuGroup{s.gpus}}});
    return a;
}

}  // namespace

ClusterOccupancy::ClusterOccupancy(const Cluster& cluster, InterferenceCoefficients coefficients)
    : coefficients_(coefficients) {
    std::map<std::string, int> racks;
    server_socket_begin_.push_back(0);
    server_group_begin_.push_back(0);
    for (const Server& s : cluster.servers) {
        const ServerArchitecture a = effectiveArchitecture(s);
        double pcie = 0;
        for (const CpuSocket& socket : a.sockets) {
            const int socket_id = static_cast<int>(socket_cores_.size());
            socket_cores_.push_back(std::max(socket.cores, 1));
            for (const GpuGroup& g : socket.gpu_groups) {
                group_socket_.push_back(socket_id);
                group_gpus_.push_back(g.gpus);
                group_pcie_cap_.push_back(g.pcie_gbps);
                pcie += g.pcie_gbps;
            }
        }
        server_socket_begin_.push_back(static_cast<int>(socket_cores_.size()));
        server_group_begin_.push_back(static_cast<int>(group_gpus_.size()));
        server_qpi_.push_back(a.qpi_gbps);
        server_gpus_.push_back(a.gpus());
        server_cores_.push_back(std::max(a.cores(), 1));
        server_pcie_cap_.push_back(pcie > 0 ? pcie : 1.0);
        server_rack_.push_back(
            racks.emplace(s.rack.empty() ? s.name : s.rack, static_cast<int>(racks.size())).first->second);
    }
    server_free_gpus_ = server_gpus_;
    group_free_ = group_gpus_;
    server_cpu_.assign(server_gpus_.size(), 0.0);
    server_pcie_.assign(server_gpus_.size(), 0.0);
    socket_cpu_.assign(socket_cores_.size(), 0.0);
    group_pcie_.assign(group_gpus_.size(), 0.0);
    server_tasks_.resize(server_gpus_.size());
}

bool ClusterOccupancy::fits(const PlacedTask& t) const {
    const int s = t.slot.server;
    if (s < 0 || s >= serverCount()) return false;
    if (t.slot.socket < socketBegin(s) || t.slot.socket >= socketEnd(s)) return false;
    if (serverCpu(s) + t.cpu_cores > cpuCapacity(s) + 1e-9) return false;
    if (!t.worker) return t.slot.group < 0;
    return t.slot.group >= groupBegin(s) && t.slot.group < groupEnd(s) &&
           groupSocket(t.slot.group) == t.slot.socket && groupFreeGpus(t.slot.group) > 0;
}

int ClusterOccupancy::add(const PlacedTask& t) {
    if (!fits(t)) throw std::logic_error("ClusterOccupancy::add: the task does not fit its slot");
    int id;
    if (!free_task_ids_.empty()) {
        id = free_task_ids_.back();
        free_task_ids_.pop_back();
        tasks_[static_cast<std::size_t>(id)] = t;
    } else {
        id = static_cast<int>(tasks_.size());
        tasks_.push_back(t);
    }
    const auto s = static_cast<std::size_t>(t.slot.server);
    server_cpu_[s] += t.cpu_cores;
    socket_cpu_[static_cast<std::size_t>(t.slot.socket)] += t.cpu_cores;
    if (t.worker) {
        const auto g = static_cast<std::size_t>(t.slot.group);
        --group_free_[g];
        --server_free_gpus_[s];
        ++used_gpus_;
        group_pcie_[g] += t.pcie_gbps;
        server_pcie_[s] += t.pcie_gbps;
    }
    server_tasks_[s].push_back(id);
    return id;
}

void ClusterOccupancy::remove(int id) {
    const PlacedTask t = tasks_[static_cast<std::size_t>(id)];
    const auto s = static_cast<std::size_t>(t.slot.server);
    server_cpu_[s] -= t.cpu_cores;
    socket_cpu_[static_cast<std::size_t>(t.slot.socket)] -= t.cpu_cores;
    if (t.worker) {
        const auto g = static_cast<std::size_t>(t.slot.group);
        ++group_free_[g];
        ++server_free_gpus_[s];
        --used_gpus_;
        group_pcie_[g] -= t.pcie_gbps;
        server_pcie_[s] -= t.pcie_gbps;
    }
    // Sums of loads that do not add up to zero exactly must not go negative.
    server_cpu_[s] = std::max(0.0, server_cpu_[s]);
    socket_cpu_[static_cast<std::size_t>(t.slot.socket)] =
        std::max(0.0, socket_cpu_[static_cast<std::size_t>(t.slot.socket)]);
    if (t.worker) {
        const auto g = static_cast<std::size_t>(t.slot.group);
        group_pcie_[g] = std::max(0.0, group_pcie_[g]);
        server_pcie_[s] = std::max(0.0, server_pcie_[s]);
    }
    auto& list = server_tasks_[s];
    list.erase(std::find(list.begin(), list.end(), id));
    if (list.empty()) {  // no drift from adding and subtracting loads
        server_cpu_[s] = server_pcie_[s] = 0;
        for (int k = socketBegin(t.slot.server); k < socketEnd(t.slot.server); ++k)
            socket_cpu_[static_cast<std::size_t>(k)] = 0;
        for (int g = groupBegin(t.slot.server); g < groupEnd(t.slot.server); ++g)
            group_pcie_[static_cast<std::size_t>(g)] = 0;
    }
    tasks_[static_cast<std::size_t>(id)].job = -1;
    free_task_ids_.push_back(id);
}

double ClusterOccupancy::slowdownWith(const PlacedTask& t, const PlacedTask* extra) const {
    // Interference comes from the other jobs: a job's own tasks are part of its running time
    // alone (the multi-agent placement paper's Sec. V-B defines the slowdown against the job alone
    // on the server).
    const int server = t.slot.server;
    const int first = socketBegin(server);
    std::vector<double> load(static_cast<std::size_t>(socketEnd(server) - first));
    std::vector<int> cores(load.size());
    for (std::size_t k = 0; k < load.size(); ++k) {
        load[k] = socketCpu(first + static_cast<int>(k));
        cores[k] = socketCores(first + static_cast<int>(k));
    }
    double group_pcie = t.worker && t.slot.group >= 0 ? groupPcie(t.slot.group) : 0.0;
    auto account = [&](const PlacedTask& u, double sign) {
        if (u.job != t.job && sign < 0) return;
        load[static_cast<std::size_t>(u.slot.socket - first)] += sign * u.cpu_cores;
        if (t.worker && u.worker && u.slot.group == t.slot.group) group_pcie += sign * u.pcie_gbps;
    };
    if (extra) account(*extra, +1.0);
    for (int id : tasksOn(server)) account(task(id), -1.0);
    if (extra) account(*extra, -1.0);
    for (double& l : load) l = std::max(0.0, l);

    TaskInterferenceInput in;
    in.own_cpu_cores = t.cpu_cores;
    in.socket_cores = socketCores(t.slot.socket);
    in.other_cpu_cores = socketLoadsWithSpill(load, cores)[static_cast<std::size_t>(t.slot.socket - first)];
    if (t.worker && t.slot.group >= 0) {
        in.own_pcie_gbps = t.pcie_gbps;
        in.pcie_gbps = groupPcieCapacity(t.slot.group);
        in.other_pcie_gbps = std::max(0.0, group_pcie);
    }
    return interferenceSlowdown(coefficients_, in);
}

double ClusterOccupancy::slowdown(int id) const {
    return slowdownWith(task(id), nullptr);
}

double ClusterOccupancy::serverInterference(int server, const PlacedTask* extra) const {
    double sum = 0;
    for (int id : tasksOn(server)) sum += slowdownWith(task(id), extra) - 1.0;
    if (extra) sum += slowdownWith(*extra, extra) - 1.0;
    return sum;
}

}  // namespace cl
