#pragma once
// What the suites on jobs' requests (partitions and GPU types, docs/architecture.md 2.10) build
// their cases from, and the check they all make: every GPU a run gave is on a server its job may
// use.
#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

#include "core/io/builtin_data.h"
#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/sim_result.h"
#include "core/model/trace.h"
#include "core/policies/simulate_policy.h"
#include "core/sim/job_requests.h"
#include "core/workload/trace_generator.h"

namespace cl::test {

inline Server server(const std::string& name, const std::string& type, int gpus,
                     std::vector<std::string> partitions = {}) {
    Server s;
    s.name = name;
    s.gpu_type = type;
    s.gpus = gpus;
    s.partitions = std::move(partitions);
    return s;
}

// a1 (server 0): 4 A100 in partition gpu-a (the default); v1 (server 1): 4 V100 in gpu-v.
inline Cluster a100AndV100Partitions() {
    Cluster c;
    c.name = "two";
    c.servers = {server("a1", "A100", 4, {"gpu-a"}), server("v1", "V100", 4, {"gpu-v"})};
    c.partitions = {{"gpu-a", 1, 0.0, true}, {"gpu-v", 1, 0.0, false}};
    return c;
}

// The same servers without partitions, and a trace without requests: the runs to compare with.
inline Cluster withoutPartitions(Cluster c) {
    c.partitions.clear();
    for (Server& s : c.servers) s.partitions.clear();
    return c;
}
inline Trace withoutRequests(Trace t) {
    for (Job& j : t.jobs) j.partition.clear(), j.requested_gpu_type.clear();
    return t;
}

// The server of every GPU of the cluster.
inline std::vector<int> serverOfGpu(const Cluster& c) {
    std::vector<int> of;
    for (std::size_t s = 0; s < c.servers.size(); ++s)
        of.insert(of.end(), static_cast<std::size_t>(c.servers[s].gpus), static_cast<int>(s));
    return of;
}

// The servers a job's segments are on, sorted without repeats.
inline std::vector<int> serversOf(const Cluster& c, const SimResult& r, int job) {
    const std::vector<int> server_of = serverOfGpu(c);
    std::vector<int> out;
    for (const GpuSegment& s : r.segments)
        if (s.job == job) out.push_back(server_of[static_cast<std::size_t>(s.gpu)]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Every GPU segment of the run is on a server its job may use.
inline void expectRequestsKept(const Cluster& c, const Trace& t, const SimResult& r) {
    const JobRequests requests(c, t);
    const std::vector<int> server_of = serverOfGpu(c);
    for (const GpuSegment& s : r.segments) {
        const auto excluded = requests.excludedServers(s.job);
        if (excluded.empty()) continue;
        const int on = server_of[static_cast<std::size_t>(s.gpu)];
        QVERIFY2(!excluded[static_cast<std::size_t>(on)],
                 qPrintable(QString::fromStdString(r.policy + ": job '" +
                                                   t.jobs[static_cast<std::size_t>(s.job)].id + "' ran on '" +
                                                   c.servers[static_cast<std::size_t>(on)].name + "'")));
    }
}

// The policy's run under `conventions`; a failed run fails the test, naming the policy (and
// gives an empty result).
inline SimResult runOrFail(const Cluster& c, const Trace& t, const ProfileSet& profiles,
                           const std::string& policy, const Conventions& conventions = Conventions::clean()) {
    SimOptions o;
    o.conventions = conventions;
    try {
        return simulatePolicy(c, t, profiles, policy, o);
    } catch (const std::exception& e) {
        QTest::qFail(qPrintable(QString::fromStdString(policy + " (" + conventions.name + "): " + e.what())),
                     __FILE__, __LINE__);
        return {};
    }
}

// Every job of the run completed, timed out or was left out, named.
inline void expectEveryJobRan(const SimResult& r) {
    for (const JobRecord& j : r.jobs)
        QVERIFY2(j.completed || j.timed_out ||
                     std::any_of(r.left_out.begin(), r.left_out.end(),
                                 [&](const LeftOutJob& l) { return l.index == j.index; }),
                 qPrintable(QString::fromStdString(r.policy + ": job '" + j.id + "' never ran")));
}

// The Muri testbed split into partitions "left" (the default) and "right", its last two servers
// A100s; and a generated trace on it where every third job asks for "right" and the jobs i with
// i % a100_every == a100_at for an A100 (of right's servers, the last two).
inline Cluster partitionedTestbed() {
    Cluster c = builtinCluster("muri-testbed-64");
    for (std::size_t s = 0; s < c.servers.size(); ++s) {
        c.servers[s].partitions = {s < c.servers.size() / 2 ? "left" : "right"};
        if (s + 2 >= c.servers.size()) c.servers[s].gpu_type = "A100";
    }
    c.partitions = {{"left", 1, 0.0, true}, {"right", 1, 0.0, false}};
    return c;
}
inline Trace traceWithRequests(const ProfileSet& profiles, int jobs, std::uint64_t seed, double jobs_per_hour,
                               std::size_t a100_every, std::size_t a100_at) {
    GeneratorConfig g;
    g.jobs = jobs;
    g.seed = seed;
    g.jobs_per_hour = jobs_per_hour;
    g.max_gpus = 16;
    Trace t = generate(g, &profiles);
    for (std::size_t i = 0; i < t.jobs.size(); ++i) {
        if (i % 3 == 1) t.jobs[i].partition = "right";
        if (i % a100_every == a100_at) t.jobs[i].requested_gpu_type = "A100";
    }
    return t;
}

}  // namespace cl::test
