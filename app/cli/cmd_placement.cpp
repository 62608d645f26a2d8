// clusterloom-cli placement: the multi-agent placement paper's placement baselines on a topology
// (fat-tree, VL2, BCube) with co-location interference; one row per policy and level.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/io/atomic_file.h"
#include "core/io/layout_io.h"
#include "core/io/profile_io.h"
#include "core/io/trace_readers.h"
#include "core/model/topology_cluster.h"
#include "core/topology/network_topology.h"
#include "core/topology_placement/placement_simulator.h"

namespace cli {

namespace {

std::vector<double> tierList(const std::string& text) {
    std::vector<double> out;
    for (const std::string& item : splitList(text)) {
        try {
            std::size_t used = 0;
            out.push_back(std::stod(item, &used));
            if (used != item.size()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            throw UsageError("--tier-gbps: '" + item + "' is not a number (expected e.g. 10,20,40)");
        }
    }
    return out;
}

// An integer option within [low, high] (the parser reads 64-bit values).
int boundedInt(const Args& args, const std::string& name, long long fallback, long long low, long long high) {
    const long long v = args.has(name) ? args.getInt(name) : fallback;
    if (v < low || v > high)
        throw UsageError("--" + name + ": " + std::to_string(v) + " is out of range (" + std::to_string(low) +
                         " to " + std::to_string(high) + ")");
    return static_cast<int>(v);
}

cl::TopologySpec specFromArgs(const Args& args) {
    const cl::TopologyKind kind = cl::topologyKindFromName(args.get("topology"));
    cl::TopologySpec spec;
    // Each kind's defaults are the multi-agent placement paper's (Sec. VI-A and VI-D).
    switch (kind) {
        case cl::TopologyKind::FatTree:
            spec = cl::fatTreeSpec(boundedInt(args, "k", 20, 2, 1000));
            break;
        case cl::TopologyKind::VL2:
            spec = cl::vl2Spec(boundedInt(args, "k", 20, 2, 1000), boundedInt(args, "n", 20, 2, 1000));
            break;
        case cl::TopologyKind::BCube:
            spec = cl::bcubeSpec(boundedInt(args, "n", 36, 2, 1000), boundedInt(args, "k", 1, 0, 20));
            break;
        case cl::TopologyKind::Flat:
            throw UsageError("--topology: placement needs fat-tree, vl2 or bcube");
    }
    if (args.has("tier-gbps")) spec.tier_gbps = tierList(args.get("tier-gbps"));
    return spec;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace

int placementCommand(const std::vector<std::string>& argv) {
    Args args(
        "placement",
        "Place a workload of data-parallel jobs (the multi-agent placement paper's model types,\n"
        "workers and parameter servers) on a data-centre topology with one scheduler per pod, under\n"
        "Tetris, load balancing (lb), least interference first (lif) and Kubernetes-like\n"
        "least-allocated (k8s), each at server and device level, and print average JCT, slowdown and\n"
        "per-tier link utilization. Defaults: the paper's 2,000-server fat-tree (k=20, 10/20/40 Gbps,\n"
        "4-GPU Power8-like servers) and 15 uniform arrivals per pod per 30-minute interval.",
        {{"topology", "KIND", "fat-tree, vl2 or bcube", false, "fat-tree"},
         {"k", "N", "fat-tree k (20); VL2 D_A (20); BCube levels (1)"},
         {"n", "N", "VL2 D_I (20); BCube switch ports (36)"},
         {"tier-gbps", "LIST", "link bandwidth per tier from the servers up, e.g. 10,20,40"},
         {"mix", "NAME", "server architectures: power8, dgx1, uneven or mixed", false, "power8"},
         {"layout", "FILE", "a cluster layout JSON with a topology, instead of --topology/--k/--n/--mix"},
         {"pattern", "NAME", "arrivals: uniform, poisson or trace", false, "uniform"},
         {"rate", "N", "jobs per pod per interval (mean)", false, "15"},
         {"intervals", "N", "30-minute arrival intervals (0 with --trace: the trace's length)", false, "40"},
         {"jobs", "N", "stop the workload after this many jobs (0 = no cap)", false, "10000"},
         {"trace", "FILE", "trace whose arrivals per interval shape the 'trace' pattern"},
         {"seed", "N", "workload and device-draw seed", false, "1"},
         {"policies", "LIST", "comma-separated: tetris, lb, lif, k8s (each may end in @server or @device)",
          false, "tetris,lb,lif,k8s"},
         {"level", "NAME", "server, device or both (for policies without @)", false, "both"},
         {"profiles", "FILE",
          "profile set JSON whose \"interference\" coefficients to use (default: the "
          "documented defaults; fit them with fit-interference)"},
         {"json", "FILE", "also write the results as JSON"}});
    if (!args.parse(argv)) return 0;

    cl::Cluster cluster;
    if (args.has("layout")) {
        cluster = cl::readCluster(args.get("layout"));
        if (cluster.topology.kind == cl::TopologyKind::Flat)
            throw UsageError("--layout " + args.get("layout") + ": the layout describes no topology");
    } else {
        const cl::TopologySpec spec = specFromArgs(args);
        cluster = cl::makeTopologyCluster(args.get("topology") + "-" + args.get("mix"), spec,
                                          cl::architectureMix(args.get("mix")));
    }
    const cl::NetworkTopology topology = cl::NetworkTopology::build(cluster.topology);

    const cl::InterferenceCoefficients coefficients =
        args.has("profiles") ? cl::readProfilesJson(args.get("profiles")).interference
                             : cl::defaultInterferenceCoefficients();
    std::vector<double> step_seconds;
    for (const auto& m : cl::distributedModelTypes()) step_seconds.push_back(m.step_seconds);
    cl::DistributedWorkloadSpec w;
    w.pattern = cl::arrivalPatternFromName(args.get("pattern"));
    w.jobs_per_interval = args.getDouble("rate");
    if (!(w.jobs_per_interval >= 0 && w.jobs_per_interval <= 1e6))
        throw UsageError("--rate: " + args.get("rate") +
                         " is out of range (0 to 1000000 jobs per pod per interval)");
    w.intervals = boundedInt(args, "intervals", 40, 0, 1000000);
    w.max_jobs = static_cast<std::size_t>(std::max(0LL, args.getInt("jobs")));
    w.pods = topology.podCount();
    w.seed = static_cast<std::uint64_t>(args.getInt("seed"));
    if (w.pattern == cl::ArrivalPattern::Trace) {
        if (!args.has("trace")) throw UsageError("--pattern trace needs --trace FILE");
        w.trace_counts = cl::arrivalCountsPerInterval(cl::readTrace(args.get("trace")), w.interval_seconds);
    }
    const std::vector<cl::DistributedJob> jobs = cl::generateDistributedWorkload(w, step_seconds);

    const std::string level = args.get("level");
    if (level != "server" && level != "device" && level != "both")
        throw UsageError("--level: '" + level + "' (valid: server, device, both)");
    const std::vector<std::string> levels =
        level == "both" ? std::vector<std::string>{"server", "device"} : std::vector<std::string>{level};
    std::vector<cl::PlacementPolicy> policies;
    for (const std::string& levelName : levels)
        for (const std::string& item : splitList(args.get("policies"))) {
            cl::PlacementPolicy p = cl::placementPolicyFromName(item);
            if (item.find('@') == std::string::npos)
                p.level = levelName == "device" ? cl::PlacementLevel::Device : cl::PlacementLevel::Server;
            if (std::find(policies.begin(), policies.end(), p) == policies.end()) policies.push_back(p);
        }

    int gpus = cluster.totalGpus();
    std::cout << "Topology: " << cl::topologyKindName(cluster.topology.kind) << ", " << topology.serverCount()
              << " servers, " << topology.switchCount() << " switches, " << gpus << " GPUs, "
              << topology.podCount() << " pods (one scheduler each)\n";
    std::cout << "Workload: " << jobs.size() << " jobs, " << args.get("pattern") << " arrivals, "
              << w.jobs_per_interval << " per pod per 30-min interval, seed " << w.seed << "\n\n";

    std::string tier_header;
    for (int t = 0; t < topology.tierCount(); ++t) {
        const std::string name = "tier" + std::to_string(t) + " " +
                                 fixed(cluster.topology.tier_gbps[static_cast<std::size_t>(t)], 0) + "G";
        tier_header += std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + name;
    }
    char line[256];
    std::snprintf(line, sizeof line, "%-15s %9s %9s %9s %9s %9s", "policy", "avg JCT h", "intervals",
                  "slowdown", "forwarded", "multi-srv");
    std::cout << line << tier_header << "\n";
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const cl::PlacementPolicy& p : policies) {
        cl::PlacementSimOptions opt;
        opt.policy = p;
        opt.interference = coefficients;
        opt.seed = w.seed;
        const cl::PlacementRunResult r =
            cl::simulatePlacement(cluster, topology, jobs, cl::distributedModelTypes(), opt);
        std::snprintf(line, sizeof line, "%-15s %9s %9s %9s %9d %9d", r.policy.c_str(),
                      fixed(r.average_jct / 3600.0, 2).c_str(),
                      fixed(r.average_jct / opt.interval_seconds, 2).c_str(),
                      fixed(r.average_slowdown, 3).c_str(), r.forwarded_jobs, r.multi_server_jobs);
        std::cout << line;
        for (double u : r.tier_utilization) {
            const std::string cell = fixed(u * 100.0, 2) + "%";
            std::cout << std::string(cell.size() < 12 ? 12 - cell.size() : 1, ' ') << cell;
        }
        std::cout << "\n" << std::flush;
        out.push_back({{"policy", r.policy},
                       {"average_jct_seconds", r.average_jct},
                       {"average_slowdown", r.average_slowdown},
                       {"makespan_seconds", r.makespan},
                       {"forwarded_jobs", r.forwarded_jobs},
                       {"multi_server_jobs", r.multi_server_jobs},
                       {"tier_utilization", r.tier_utilization}});
    }
    std::cout
        << "(JCT in hours and in 30-min intervals; slowdown = running time / running time alone without\n"
           " interference or communication; link utilization = time-averaged load / capacity of each tier, "
           "both\n"
           " directions; a job stays inside the pod that places it, so links above the pods carry no "
           "traffic)\n";
    if (args.has("json")) {
        cl::AtomicFile f(args.get("json"));  // a failed write leaves an existing file as it was
        f.stream() << out.dump(2) << "\n";
        f.commit();
    }
    return 0;
}

}  // namespace cli
