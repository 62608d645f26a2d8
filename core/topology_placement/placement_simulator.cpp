#include "core/topology_placement/placement_simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>

#include "core/topology_placement/cluster_occupancy.h"

namespace cl {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// As the main engine: longer jobs are refused, so every completion time stays finite.
constexpr double kMaxAloneSeconds = 3.2e8;

struct Flow {
    int link_begin = 0, link_end = 0;  // into Simulation::flow_links_ of the job
    double gigabits = 0.0;             // sent per step
    double local_gbps = kInf;          // inside one server: PCIe / QPI
};

struct JobState {
    std::vector<int> tasks;  // occupancy ids, workers first
    int worker_count = 0;
    std::vector<Flow> flows;
    std::vector<int> flow_links;        // directed link ids
    std::vector<int> links;             // distinct directed links its flows cross
    std::vector<int> servers;           // distinct
    std::vector<double> tier_gigabits;  // per step, summed over flows x links of the tier
    double remaining = 0.0, step = 0.0, last = 0.0;
    int version = 0;
    bool running = false;
};

struct Completion {
    double time;
    int job;
    int version;
    bool operator>(const Completion& o) const { return time > o.time || (time == o.time && job > o.job); }
};

class Simulation {
public:
    Simulation(const Cluster& cluster, const NetworkTopology& topo, const std::vector<DistributedJob>& jobs,
               const std::vector<DistributedModelType>& models, const PlacementSimOptions& opt)
        : topo_(topo),
          jobs_(jobs),
          models_(models),
          opt_(opt),
          occ_(cluster, opt.interference),
          rng_(deriveSeed(opt.seed, 7)) {
        validate(cluster);
        const int pods = std::max(topo.podCount(), 1);
        pod_servers_.resize(static_cast<std::size_t>(pods));
        pod_free_.assign(static_cast<std::size_t>(pods), 0);
        server_pod_.assign(cluster.servers.size(), 0);
        for (int s = 0; s < static_cast<int>(cluster.servers.size()); ++s) {
            const int pod = networked() ? std::max(topo.podOf(s), 0) : 0;
            server_pod_[static_cast<std::size_t>(s)] = pod;
            pod_servers_[static_cast<std::size_t>(pod)].push_back(s);
            pod_free_[static_cast<std::size_t>(pod)] += occ_.serverGpus(s);
        }
        int largest_pod = 0;
        for (int f : pod_free_) largest_pod = std::max(largest_pod, f);
        for (const DistributedModelType& m : models_) {
            const bool ok = std::isfinite(m.step_seconds) && m.step_seconds > 0 &&
                            std::isfinite(m.worker_cpu_cores) && m.worker_cpu_cores >= 0 &&
                            std::isfinite(m.worker_pcie_gbps) && m.worker_pcie_gbps >= 0 &&
                            std::isfinite(m.gradient_mb) && m.gradient_mb >= 0 &&
                            std::isfinite(m.ps_cpu_cores) && m.ps_cpu_cores >= 0;
            if (!ok)
                throw std::invalid_argument("model type '" + m.name +
                                            "' needs a positive step time and finite, non-negative CPU, PCIe "
                                            "and gradient figures");
        }
        // The most CPU one task can get: on any server, and on a server with GPUs (workers).
        double cpu_any = 0, cpu_gpu = 0;
        for (int s = 0; s < occ_.serverCount(); ++s) {
            cpu_any = std::max(cpu_any, occ_.cpuCapacity(s));
            if (occ_.serverGpus(s) > 0) cpu_gpu = std::max(cpu_gpu, occ_.cpuCapacity(s));
        }
        for (const DistributedJob& j : jobs_) {
            if (j.model < 0 || j.model >= static_cast<int>(models_.size()))
                throw std::invalid_argument("job '" + j.name + "' (#" + std::to_string(j.id) +
                                            ") has model index " + std::to_string(j.model) +
                                            " but there are " + std::to_string(models_.size()) +
                                            " model types");
            if (j.workers < 1 || j.parameter_servers < 0 || !(j.steps > 0) || !std::isfinite(j.steps) ||
                !std::isfinite(j.submit) || j.submit < 0)
                throw std::invalid_argument(
                    "job '" + j.name + "' (#" + std::to_string(j.id) +
                    ") needs at least one worker, no negative parameter servers, a positive "
                    "finite step count and a finite submit time >= 0");
            if (j.workers > largest_pod)
                throw std::invalid_argument("job '" + j.name + "' (#" + std::to_string(j.id) + ") needs " +
                                            std::to_string(j.workers) +
                                            " GPUs but the largest pod has only " +
                                            std::to_string(largest_pod));
            const DistributedModelType& m = models_[static_cast<std::size_t>(j.model)];
            if (m.worker_cpu_cores > cpu_gpu || (j.parameter_servers > 0 && m.ps_cpu_cores > cpu_any))
                throw std::invalid_argument(
                    "job '" + j.name + "' (#" + std::to_string(j.id) + "): a " + m.name +
                    " task needs more CPU than any server has (two threads per core)");
            if (j.steps * m.step_seconds > kMaxAloneSeconds)
                throw std::invalid_argument("job '" + j.name + "' (#" + std::to_string(j.id) +
                                            ") would run more than 10 years (3.2e8 s) alone");
        }
        state_.resize(jobs_.size());
        link_flows_.assign(2 * topo.links().size(), 0);
        link_jobs_.resize(2 * topo.links().size());
        tier_load_.assign(static_cast<std::size_t>(std::max(topo.tierCount(), 0)), 0.0);
        tier_area_.assign(tier_load_.size(), 0.0);
        tier_capacity_.assign(tier_load_.size(), 0.0);
        for (const NetworkLink& l : topo.links())
            tier_capacity_[static_cast<std::size_t>(l.tier)] += 2.0 * l.gbps;
        stamp_.assign(jobs_.size(), 0);
    }

    PlacementRunResult run() {
        std::vector<int> order(jobs_.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return jobs_[static_cast<std::size_t>(a)].submit < jobs_[static_cast<std::size_t>(b)].submit;
        });
        result_.policy = opt_.policy.name();
        result_.jobs.resize(jobs_.size());
        for (std::size_t i = 0; i < jobs_.size(); ++i) {
            const DistributedJob& j = jobs_[i];
            PlacedJobRecord& r = result_.jobs[i];
            r.id = j.id;
            r.submit = j.submit;
            r.pod_submitted = podIndex(j.pod);
            r.alone_seconds = j.steps * models_[static_cast<std::size_t>(j.model)].step_seconds;
        }
        std::size_t next_arrival = 0;
        std::vector<int> waiting;
        const double first_submit = jobs_.empty() ? 0.0 : jobs_[static_cast<std::size_t>(order[0])].submit;
        // Scheduling rounds fall on whole multiples of the interval (an index, so no drift).
        const double interval = opt_.interval_seconds;
        double round = std::ceil(first_submit / interval - 1e-12);
        auto roundTime = [&] { return round * interval; };
        int running = 0;
        std::size_t finished = 0;
        bool idle_round = false;
        while (next_arrival < order.size() || !waiting.empty() || running > 0) {
            if (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed)) throw PlacementCancelled();
            if (opt_.progress && (result_.events & 1023) == 0)
                opt_.progress(static_cast<double>(finished) / static_cast<double>(jobs_.size()));
            dropStaleCompletions();
            const double completion = completions_.empty() ? kInf : completions_.top().time;
            const bool rounds_matter = next_arrival < order.size() || !waiting.empty();
            const double t = std::min(completion, rounds_matter ? roundTime() : kInf);
            if (!std::isfinite(t))
                throw std::runtime_error(
                    "placement simulation: a job would never finish (its running time overflows)");
            advance(t);
            ++result_.events;
            while (!completions_.empty() && completions_.top().time <= t) {
                const Completion c = completions_.top();
                completions_.pop();
                if (c.version != state_[static_cast<std::size_t>(c.job)].version) continue;
                finish(c.job, t);
                --running;
                ++finished;
            }
            if (rounds_matter && t >= roundTime()) {
                while (next_arrival < order.size() &&
                       jobs_[static_cast<std::size_t>(order[next_arrival])].submit <= t + 1e-9)
                    waiting.push_back(order[next_arrival++]);
                std::vector<int> still;
                bool placed = false;
                for (int j : waiting) {
                    if (place(j, t)) {
                        ++running;
                        placed = true;
                    } else {
                        still.push_back(j);
                    }
                }
                if (running == 0 && !still.empty() && next_arrival == order.size())
                    throw std::runtime_error(
                        "job '" + jobs_[static_cast<std::size_t>(still.front())].name +
                        "' can never be placed: no pod can host its tasks even when empty");
                waiting.swap(still);
                round += 1;
                idle_round = !placed && !waiting.empty();
            }
            recomputeDirty(t);
            if (idle_round) {
                // Nothing can change for the waiting jobs until a job ends or another arrives:
                // skip the rounds in between (a long job would cost one event per interval).
                dropStaleCompletions();
                double wake = completions_.empty() ? kInf : completions_.top().time;
                if (next_arrival < order.size())
                    wake = std::min(wake, jobs_[static_cast<std::size_t>(order[next_arrival])].submit);
                if (std::isfinite(wake)) round = std::max(round, std::ceil(wake / interval - 1e-12));
                idle_round = false;
            }
        }
        if (opt_.progress) opt_.progress(1.0);
        return finishResult(first_submit);
    }

private:
    void validate(const Cluster& cluster) {
        for (const Server& s : cluster.servers) nic_gbps_.push_back(s.network_gbps);
        if (networked() && topo_.serverCount() != static_cast<int>(cluster.servers.size()))
            throw std::invalid_argument(
                "cluster '" + cluster.name + "' has " + std::to_string(cluster.servers.size()) +
                " servers but its topology has " + std::to_string(topo_.serverCount()));
        if (!(opt_.interval_seconds > 0) || !std::isfinite(opt_.interval_seconds))
            throw std::invalid_argument("the scheduling interval must be a positive number of seconds");
    }

    bool networked() const { return topo_.spec().kind != TopologyKind::Flat; }

    int podIndex(int pod) const {
        const int n = static_cast<int>(pod_servers_.size());
        return ((pod % n) + n) % n;
    }

    void dropStaleCompletions() {
        while (!completions_.empty() &&
               completions_.top().version != state_[static_cast<std::size_t>(completions_.top().job)].version)
            completions_.pop();
    }

    void advance(double t) {
        if (t > now_) {
            for (std::size_t k = 0; k < tier_load_.size(); ++k) tier_area_[k] += tier_load_[k] * (t - now_);
            now_ = t;
        }
    }

    bool place(int j, double t) {
        const DistributedJob& job = jobs_[static_cast<std::size_t>(j)];
        const DistributedModelType& m = models_[static_cast<std::size_t>(job.model)];
        const int pods = static_cast<int>(pod_servers_.size());
        const int home = podIndex(job.pod);
        for (int hop = 0; hop < pods; ++hop) {
            const int pod = (home + hop) % pods;
            if (pod_free_[static_cast<std::size_t>(pod)] < job.workers) continue;
            JobState& st = state_[static_cast<std::size_t>(j)];
            st.tasks.clear();
            st.servers.clear();
            bool ok = true;
            for (int k = 0; k < job.workers + job.parameter_servers && ok; ++k) {
                const bool worker = k < job.workers;
                const TaskRequest req{j, worker, worker ? m.worker_cpu_cores : m.ps_cpu_cores,
                                      worker ? m.worker_pcie_gbps : 0.0, worker ? job.workers - k : 0};
                const DeviceSlot slot = chooseSlot(
                    opt_.policy, occ_, pod_servers_[static_cast<std::size_t>(pod)], req, st.servers, rng_);
                if (!slot.valid()) {
                    ok = false;
                    break;
                }
                st.tasks.push_back(occ_.add({j, slot, worker, req.cpu_cores, req.pcie_gbps}));
                if (worker) --pod_free_[static_cast<std::size_t>(pod)];
                if (std::find(st.servers.begin(), st.servers.end(), slot.server) == st.servers.end())
                    st.servers.push_back(slot.server);
            }
            if (!ok) {
                for (int id : st.tasks) {
                    if (occ_.task(id).worker) ++pod_free_[static_cast<std::size_t>(pod)];
                    occ_.remove(id);
                }
                continue;
            }
            st.worker_count = job.workers;
            start(j, t, pod, hop);
            return true;
        }
        return false;
    }

    double localGbps(const PlacedTask& a, const PlacedTask& b) const {
        auto pcie = [&](const PlacedTask& x) {
            return x.slot.group >= 0 ? occ_.groupPcieCapacity(x.slot.group) : kInf;
        };
        double bw = std::min(pcie(a), pcie(b));
        if (a.slot.socket != b.slot.socket) bw = std::min(bw, occ_.qpiGbps(a.slot.server));
        return std::isfinite(bw) ? bw : occ_.qpiGbps(a.slot.server);
    }

    // Links are full duplex: a flow loads one direction, so routes are kept as directed link
    // ids (2 x link + 1 when crossed downwards, from its upper node to its lower one).
    void appendDirectedPath(int a, int b, std::vector<int>& out) {
        path_buffer_.clear();
        topo_.appendPath(a, b, path_buffer_);
        int at = a;
        for (int l : path_buffer_) {
            const NetworkLink& link = topo_.links()[static_cast<std::size_t>(l)];
            const bool up = link.a == at;
            out.push_back(2 * l + (up ? 0 : 1));
            at = up ? link.b : link.a;
        }
    }

    void addFlow(JobState& st, int task_a, int task_b, double gigabits) {
        const PlacedTask& a = occ_.task(task_a);
        const PlacedTask& b = occ_.task(task_b);
        Flow f;
        f.gigabits = gigabits;
        f.link_begin = static_cast<int>(st.flow_links.size());
        if (a.slot.server == b.slot.server)
            f.local_gbps = localGbps(a, b);
        else if (networked())
            appendDirectedPath(a.slot.server, b.slot.server, st.flow_links);
        else  // no network described: the servers' NICs are the bottleneck
            f.local_gbps = std::min(nic_gbps_[static_cast<std::size_t>(a.slot.server)],
                                    nic_gbps_[static_cast<std::size_t>(b.slot.server)]);
        f.link_end = static_cast<int>(st.flow_links.size());
        st.flows.push_back(f);
    }

    void start(int j, double t, int pod, int hops) {
        const DistributedJob& job = jobs_[static_cast<std::size_t>(j)];
        const DistributedModelType& m = models_[static_cast<std::size_t>(job.model)];
        JobState& st = state_[static_cast<std::size_t>(j)];
        const double gradient_gb = m.gradient_mb * 8.0 / 1000.0;
        st.flows.clear();
        st.flow_links.clear();
        if (job.parameter_servers > 0) {
            // Every worker pushes its gradients to and pulls the parameters from each
            // parameter server's shard.
            const double per_pair = 2.0 * gradient_gb / job.parameter_servers;
            for (int w = 0; w < job.workers; ++w)
                for (int p = 0; p < job.parameter_servers; ++p)
                    addFlow(st, st.tasks[static_cast<std::size_t>(w)],
                            st.tasks[static_cast<std::size_t>(job.workers + p)], per_pair);
        } else if (job.workers > 1) {
            // Ring all-reduce: each worker sends 2 (W-1)/W of the gradients to its neighbour.
            const double per_pair = 2.0 * gradient_gb * (job.workers - 1) / job.workers;
            for (int w = 0; w < job.workers; ++w)
                addFlow(st, st.tasks[static_cast<std::size_t>(w)],
                        st.tasks[static_cast<std::size_t>((w + 1) % job.workers)], per_pair);
        }
        st.links = st.flow_links;
        std::sort(st.links.begin(), st.links.end());
        st.links.erase(std::unique(st.links.begin(), st.links.end()), st.links.end());
        st.tier_gigabits.assign(tier_load_.size(), 0.0);
        for (const Flow& f : st.flows)
            for (int k = f.link_begin; k < f.link_end; ++k) {
                const int l = st.flow_links[static_cast<std::size_t>(k)];
                ++link_flows_[static_cast<std::size_t>(l)];
                st.tier_gigabits[static_cast<std::size_t>(
                    topo_.links()[static_cast<std::size_t>(l / 2)].tier)] += f.gigabits;
            }
        for (int l : st.links) link_jobs_[static_cast<std::size_t>(l)].push_back(j);
        st.remaining = job.steps;
        st.step = 0;
        st.last = t;
        st.running = true;
        PlacedJobRecord& r = result_.jobs[static_cast<std::size_t>(j)];
        r.start = t;
        r.pod_placed = pod;
        r.forwards = hops;
        r.servers = static_cast<int>(st.servers.size());
        markNeighbours(j);
    }

    void finish(int j, double t) {
        JobState& st = state_[static_cast<std::size_t>(j)];
        setTierContribution(st, 0.0);
        for (const Flow& f : st.flows)
            for (int k = f.link_begin; k < f.link_end; ++k)
                --link_flows_[static_cast<std::size_t>(st.flow_links[static_cast<std::size_t>(k)])];
        for (int l : st.links) {
            auto& list = link_jobs_[static_cast<std::size_t>(l)];
            list.erase(std::find(list.begin(), list.end(), j));
        }
        markNeighbours(j);  // before the tasks leave: their servers are the neighbourhood
        for (int id : st.tasks) {
            const PlacedTask& task = occ_.task(id);
            if (task.worker)
                ++pod_free_[static_cast<std::size_t>(
                    server_pod_[static_cast<std::size_t>(task.slot.server)])];
            occ_.remove(id);
        }
        st.running = false;
        ++st.version;
        stamp_[static_cast<std::size_t>(j)] = 0;
        result_.jobs[static_cast<std::size_t>(j)].end = t;
    }

    void mark(int j) {
        if (stamp_[static_cast<std::size_t>(j)] != round_) {
            stamp_[static_cast<std::size_t>(j)] = round_;
            dirty_.push_back(j);
        }
    }

    // Jobs whose step time may change with j's arrival or departure: those on its servers
    // (interference) and those sharing its links (bandwidth shares).
    void markNeighbours(int j) {
        const JobState& st = state_[static_cast<std::size_t>(j)];
        mark(j);
        for (int s : st.servers)
            for (int id : occ_.tasksOn(s)) mark(occ_.task(id).job);
        for (int l : st.links)
            for (int other : link_jobs_[static_cast<std::size_t>(l)]) mark(other);
    }

    double stepTime(int j) const {
        const JobState& st = state_[static_cast<std::size_t>(j)];
        const DistributedModelType& m =
            models_[static_cast<std::size_t>(jobs_[static_cast<std::size_t>(j)].model)];
        double slowest = 1.0;
        for (int w = 0; w < st.worker_count; ++w)
            slowest = std::max(slowest, occ_.slowdown(st.tasks[static_cast<std::size_t>(w)]));
        double comm = 0.0;
        for (const Flow& f : st.flows) {
            double bw = f.local_gbps;
            for (int k = f.link_begin; k < f.link_end; ++k) {
                const int l = st.flow_links[static_cast<std::size_t>(k)];
                bw = std::min(bw, topo_.links()[static_cast<std::size_t>(l / 2)].gbps /
                                      link_flows_[static_cast<std::size_t>(l)]);
            }
            comm = std::max(comm, f.gigabits / bw);
        }
        return m.step_seconds * slowest + comm;
    }

    void setTierContribution(JobState& st, double new_step) {
        for (std::size_t k = 0; k < st.tier_gigabits.size(); ++k) {
            if (st.tier_gigabits[k] == 0) continue;
            if (st.step > 0) tier_load_[k] -= st.tier_gigabits[k] / st.step;
            if (new_step > 0) tier_load_[k] += st.tier_gigabits[k] / new_step;
        }
    }

    void recomputeDirty(double t) {
        for (int j : dirty_) {
            JobState& st = state_[static_cast<std::size_t>(j)];
            if (!st.running) continue;
            if (st.step > 0) st.remaining = std::max(0.0, st.remaining - (t - st.last) / st.step);
            st.last = t;
            const double step = stepTime(j);
            setTierContribution(st, step);
            st.step = step;
            ++st.version;
            completions_.push({t + st.remaining * st.step, j, st.version});
        }
        dirty_.clear();
        ++round_;
    }

    PlacementRunResult finishResult(double first_submit) {
        double last_end = first_submit, jct = 0, slow = 0;
        for (const PlacedJobRecord& r : result_.jobs) {
            last_end = std::max(last_end, r.end);
            jct += r.jct();
            slow += r.slowdown();
            result_.forwarded_jobs += r.forwards > 0;
            result_.multi_server_jobs += r.servers > 1;
        }
        const double n = std::max<double>(1.0, static_cast<double>(result_.jobs.size()));
        result_.average_jct = result_.jobs.empty() ? 0 : jct / n;
        result_.average_slowdown = result_.jobs.empty() ? 0 : slow / n;
        result_.makespan = last_end - first_submit;
        result_.tier_utilization.assign(tier_load_.size(), 0.0);
        for (std::size_t k = 0; k < tier_load_.size(); ++k)
            if (result_.makespan > 0 && tier_capacity_[k] > 0)
                result_.tier_utilization[k] = tier_area_[k] / (result_.makespan * tier_capacity_[k]);
        return std::move(result_);
    }

    const NetworkTopology& topo_;
    const std::vector<DistributedJob>& jobs_;
    const std::vector<DistributedModelType>& models_;
    const PlacementSimOptions& opt_;
    ClusterOccupancy occ_;
    PortableRng rng_;
    std::vector<std::vector<int>> pod_servers_;
    std::vector<int> pod_free_, server_pod_;
    std::vector<double> nic_gbps_;
    std::vector<JobState> state_;
    std::vector<int> link_flows_;  // per directed link
    std::vector<int> path_buffer_;
    std::vector<std::vector<int>> link_jobs_;
    std::vector<double> tier_load_, tier_area_, tier_capacity_;
    std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
    std::vector<int> dirty_;
    std::vector<unsigned> stamp_;
    unsigned round_ = 1;
    double now_ = 0.0;
    PlacementRunResult result_;
};

}  // namespace

PlacementRunResult simulatePlacement(const Cluster& cluster, const NetworkTopology& topology,
                                     const std::vector<DistributedJob>& jobs,
                                     const std::vector<DistributedModelType>& models,
                                     const PlacementSimOptions& options) {
    return Simulation(cluster, topology, jobs, models, options).run();
}

}  // namespace cl
