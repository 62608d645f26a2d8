#pragma once
// Small inputs the engine suites build their scenarios from.
#include <string>

#include "core/model/cluster.h"
#include "core/model/job.h"

namespace cl::test {

// One server of `gpus` GPUs (the Server defaults otherwise), in a cluster named "test".
inline Cluster oneServer(int gpus) {
    Cluster c;
    c.name = "test";
    Server s;
    s.name = "s0";
    s.gpus = gpus;
    c.servers.push_back(s);
    return c;
}

// n identical servers named s0, s1, ... in a cluster named "<n>x<gpus>".
inline Cluster servers(int n, int gpus = 8, int cpus = 24, double memory = 500) {
    Cluster c;
    c.name = std::to_string(n) + "x" + std::to_string(gpus);
    for (int i = 0; i < n; ++i) {
        Server s;
        s.name = "s" + std::to_string(i);
        s.gpus = gpus;
        s.cpu_cores = cpus;
        s.memory_gb = memory;
        c.servers.push_back(s);
    }
    return c;
}

// A job of one-second iterations, so that iterations = seconds of solo run time.
inline Job job(const std::string& id, double submit, int gpus, double seconds) {
    Job j;
    j.id = id;
    j.submit_time = submit;
    j.gpus = gpus;
    j.iterations = seconds;
    j.solo_iteration_time = 1.0;
    return j;
}

}  // namespace cl::test
