#pragma once
// Co-location interference (the multi-agent placement paper, Sec. V-B; its equations were lost
// in our copy, so the forms below are ours, as docs/architecture.md section 5.4 records):
//   CPU:  s_cpu  = 1 + a_cpu * (u / C) * (exp(b_cpu * U / C) - 1)
//         u = the task's own CPU use (cores), U = CPU use of the other tasks on its socket
//         (including what spills over from a full socket), C = cores of the socket.
//   PCIe: s_pcie = 1 + a_pcie * (p / B) * (P / B)
//         p = the task's own PCIe traffic (Gbps), P = the other tasks' traffic in its GPU
//         group, B = the group's PCIe bandwidth.
//   Both: s = s_cpu + s_pcie - 1 (the two phases are separate, Sec. V-B).
// s is 1.0 for a task alone and grows monotonically with co-located load.
#include <vector>

#include "core/interference/interference_coefficients.h"

namespace cl {

struct TaskInterferenceInput {
    double own_cpu_cores = 0.0;
    double other_cpu_cores = 0.0;  // U, already including spill
    double socket_cores = 1.0;     // C
    double own_pcie_gbps = 0.0;
    double other_pcie_gbps = 0.0;  // P
    double pcie_gbps = 128.0;      // B
};

double cpuSlowdown(const InterferenceCoefficients& c, const TaskInterferenceInput& in);
double pcieSlowdown(const InterferenceCoefficients& c, const TaskInterferenceInput& in);
double interferenceSlowdown(const InterferenceCoefficients& c, const TaskInterferenceInput& in);

// CPU load each socket carries once full sockets spill their excess onto the others (a task
// first uses its own socket, Sec. V-B): result[i] = affinity_load[i] + the share of the other
// sockets' excess over their cores that lands on i, shared evenly among the sockets with room
// left (or all others when none has). A full socket keeps its whole load: its tasks still
// contend there. `affinity_load[i]` = cores asked of socket i by the tasks placed on it.
std::vector<double> socketLoadsWithSpill(const std::vector<double>& affinity_load,
                                         const std::vector<int>& socket_cores);

}  // namespace cl
