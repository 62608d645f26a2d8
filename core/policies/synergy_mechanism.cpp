#include "core/policies/synergy_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cl {

SynergyScheduler::SynergyScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                   SynergyOptions options)
    : name_(std::move(name)), order_(std::move(order)), options_(options) {}

SynergyScheduler::~SynergyScheduler() = default;

const SynergyScheduler::ModelDemand& SynergyScheduler::demandOf(const JobState& job,
                                                                const SchedulerInput& in) {
    auto it = demands_.find(job.model);
    if (it != demands_.end()) return it->second;
    ModelDemand d;
    const ModelProfile* profile = in.profiles ? in.profiles->find(std::string(job.model)) : nullptr;
    if (profile) d.matrix = sensitivityOf(*profile);
    // Without a matrix nothing is known about the job's sensitivity: it asks for its
    // proportional share and runs at its base speed.
    d.best = d.matrix ? d.matrix->best() : SensitivityMatrix::Point{reference_share_, 1.0};
    d.fair_cap = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    if (d.matrix) {
        const SensitivityMatrix& m = *d.matrix;
        d.proportional_throughput = m.throughputAt(reference_share_);
        // A job asking for less than its share in some resource keeps just what it asks for,
        // unless that would cost it throughput.
        const AuxShare capped{std::min(d.best.per_gpu.cpus, reference_share_.cpus),
                              std::min(d.best.per_gpu.memory_gb, reference_share_.memory_gb)};
        if (m.throughputAt(capped) >= d.proportional_throughput) d.fair_cap = d.best.per_gpu;
        for (const auto& p : m.paretoPoints()) {
            if (p.throughput >= d.proportional_throughput) d.choices.push_back(p);
            if (p.throughput > d.proportional_throughput && p.throughput < d.best.throughput)
                d.lesser.push_back(p);
        }
        std::stable_sort(d.lesser.begin(), d.lesser.end(),
                         [](const auto& a, const auto& b) { return a.throughput > b.throughput; });
    }
    return demands_.emplace(std::string(job.model), std::move(d)).first->second;
}

// With requests (docs/architecture.md 2.10) the runnable set is still picked by GPUs alone, but
// on each job's own servers: a job counts when the servers it may use have its GPUs left, and
// takes them from the servers it holds (a running job keeping its GPUs), then from its servers in
// index order. Like the count without requests this is an estimate: the packing, which keeps
// every request, decides where jobs go and which of them fit.
bool SynergyScheduler::countOnItsServers(const JobState& job) {
    const auto may_use = [&](std::size_t s) {
        return job.excluded_servers.empty() || !job.excluded_servers[s];
    };
    int room = 0;
    for (std::size_t s = 0; s < free_on_.size(); ++s)
        if (may_use(s)) room += free_on_[s];
    if (room < job.gpus) return false;
    int left = job.gpus;
    if (options_.keep_running_in_place && job.running)
        for (int g : job.held) {
            int& here = free_on_[static_cast<std::size_t>(ledger_->serverOf(g))];
            if (left > 0 && here > 0) {
                --here;
                --left;
            }
        }
    for (std::size_t s = 0; s < free_on_.size() && left > 0; ++s) {
        if (!may_use(s)) continue;
        const int take = std::min(left, free_on_[s]);
        free_on_[s] -= take;
        left -= take;
    }
    return true;
}

void SynergyScheduler::select(const SchedulerInput& in) {
    order_->rank(in, ranked_);
    std::vector<int> candidates;
    candidates.reserve(ranked_.size());
    // Non-preemptive orders (FIFO) never stop a running job for a waiting one; the authors'
    // simulator re-packs every round in the order alone (a job GREEDY skipped gets first
    // claim again next round, even over a younger running job).
    const bool running_first = !order_->preemptive() && options_.keep_running_in_place;
    if (running_first)
        for (int j : ranked_)
            if (in.by_index[j]->running) candidates.push_back(j);
    for (int j : ranked_)
        if (!running_first || !in.by_index[j]->running) candidates.push_back(j);

    packed_.clear();
    packed_demand_.clear();
    int free = in.cluster->totalGpus();
    const int largest_server = in.cluster->maxGpusPerServer();
    const bool by_server = in.servers_requested && options_.mechanism != SynergyMechanism::Greedy;
    if (by_server) {
        free_on_.clear();
        for (const Server& s : in.cluster->servers) free_on_.push_back(s.gpus);
    }
    for (int j : candidates) {
        const JobState& job = *in.by_index[j];
        // GREEDY lets the packing skip what does not fit; the others pick the runnable set by
        // GPUs alone (section 4.2: "irrespective of the job's other resource demands").
        if (options_.mechanism != SynergyMechanism::Greedy) {
            if (by_server ? !countOnItsServers(job) : job.gpus > free) continue;
            free -= job.gpus;
        }
        const ModelDemand& demand = demandOf(job, in);
        PackJob p;
        p.job = j;
        p.gpus = job.gpus;
        p.ask = demand.best.per_gpu;
        p.fair_cap = demand.fair_cap;
        if (!options_.artifact) p.lesser = demand.lesser;
        if (options_.artifact && job.gpus > largest_server) p.ask = reference_share_;
        if (options_.keep_running_in_place && job.running) p.pinned = job.held;
        p.excluded = job.excluded_servers;
        p.nodes = job.nodes;
        packed_.push_back(std::move(p));
        packed_demand_.push_back(&demand);
        if (options_.mechanism != SynergyMechanism::Greedy && free == 0) break;
    }
}

double SynergyScheduler::speedOf(const PackJob& packed, const JobState& job,
                                 const ModelDemand& demand) const {
    if (!demand.matrix) return 1.0;
    if (!options_.artifact) return demand.matrix->throughputAt(packed.per_gpu);
    // The authors' two-level model: the best-case speed-up at the full ask, 1.0 otherwise
    // (OPT's chosen points are read from the matrix). A job capped by the size of one server
    // gets the speed-up in proportion to how much of the way from proportional share to its
    // ask the cap lets it go (linearly, the less of its two resources deciding).
    if (options_.mechanism == SynergyMechanism::Opt) return demand.matrix->throughputAt(packed.per_gpu);
    if (packed.grant != Grant::Ask || options_.mechanism == SynergyMechanism::Proportional) return 1.0;
    const AuxShare want = demand.best.per_gpu;
    double reach = 1.0;
    const auto part = [&](double got, double asked, double fair) {
        if (asked <= fair) return;
        reach = std::min(reach, std::clamp((got - fair) / (asked - fair), 0.0, 1.0));
    };
    part(packed.per_gpu.cpus, want.cpus, reference_share_.cpus);
    part(packed.per_gpu.memory_gb, want.memory_gb, reference_share_.memory_gb);
    (void)job;
    return 1.0 + (demand.best.throughput - 1.0) * reach;
}

// Tune and opt pack in demand order, but ties follow the priority order: only an order that
// time does not change, or a single job, makes an unchanged round repeat itself.
bool SynergyScheduler::roundsRepeatWhenUnchanged(std::size_t running_jobs) const {
    return !options_.artifact && options_.keep_running_in_place &&
           (running_jobs <= 1 || !order_->rankingChangesWithTime());
}

Decision SynergyScheduler::schedule(const SchedulerInput& in) {
    if (ledger_cluster_ != in.cluster) {
        ledger_ = std::make_unique<AuxLedger>(*in.cluster);
        ledger_cluster_ = in.cluster;
        const int gpus = in.cluster->totalGpus();
        reference_share_ = {static_cast<double>(in.cluster->totalCpuCores()) / gpus,
                            in.cluster->totalMemoryGb() / gpus};
        demands_.clear();
    }
    order_->observe(in);
    Decision d;
    if (in.active.empty()) return d;
    select(in);

    // Capping artifact asks at one server's size (jobs up to a server's GPUs).
    if (options_.artifact) {
        double max_cpus = 0, max_memory = 0;
        for (const Server& s : in.cluster->servers) {
            max_cpus = std::max(max_cpus, static_cast<double>(s.cpu_cores));
            max_memory = std::max(max_memory, s.memory_gb);
        }
        for (PackJob& p : packed_) {
            p.ask.cpus = std::min(p.ask.cpus, max_cpus / p.gpus);
            p.ask.memory_gb = std::min(p.ask.memory_gb, max_memory / p.gpus);
        }
    }
    if (options_.mechanism == SynergyMechanism::Opt) chooseOptAsks(in);

    // Packing order: jobs keeping their GPUs first (their GPUs are spoken for); then, for TUNE
    // and OPT under clean conventions, by GPU, CPU and memory demand, largest first.
    std::vector<std::size_t> order(packed_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    const bool sort_by_demand = !options_.artifact && (options_.mechanism == SynergyMechanism::Tune ||
                                                       options_.mechanism == SynergyMechanism::Opt);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const PackJob& x = packed_[a];
        const PackJob& y = packed_[b];
        if (x.pinned.empty() != y.pinned.empty()) return !x.pinned.empty();
        if (!sort_by_demand) return false;
        if (x.gpus != y.gpus) return x.gpus > y.gpus;
        if (x.ask.cpus * x.gpus != y.ask.cpus * y.gpus) return x.ask.cpus * x.gpus > y.ask.cpus * y.gpus;
        return x.ask.memory_gb * x.gpus > y.ask.memory_gb * y.gpus;
    });
    std::vector<PackJob> sorted;
    std::vector<const ModelDemand*> sorted_demand;
    sorted.reserve(order.size());
    for (std::size_t i : order) {
        sorted.push_back(std::move(packed_[i]));
        sorted_demand.push_back(packed_demand_[i]);
    }
    packed_ = std::move(sorted);
    packed_demand_ = std::move(sorted_demand);

    PackingOptions po;
    po.proportional_only = options_.mechanism == SynergyMechanism::Proportional;
    po.fall_back = options_.mechanism != SynergyMechanism::Greedy;
    po.first_fit = options_.artifact || options_.mechanism == SynergyMechanism::Greedy;
    po.artifact_revert = options_.artifact;
    po.take_lesser_points = !options_.artifact && (options_.mechanism == SynergyMechanism::Tune ||
                                                   options_.mechanism == SynergyMechanism::Opt);
    po.ignore_aux_capacity = options_.artifact && options_.mechanism == SynergyMechanism::Opt;
    po.move_for_ask = po.take_lesser_points;
    po.reserve = {synergyCpuLevels().front(), synergyMemoryLevelsGb().front()};
    ledger_->reset();
    ledger_->pack(packed_, po);

    bool shortfall = false;
    for (std::size_t i = 0; i < packed_.size(); ++i) {
        const PackJob& p = packed_[i];
        if (p.grant == Grant::None) continue;
        if (p.grant != Grant::Ask) shortfall = true;
        const JobState& job = *in.by_index[p.job];
        Assignment a;
        a.job = p.job;
        a.gpus = p.gpu_ids;
        a.shared_iteration_time = job.solo_iteration_time / speedOf(p, job, *packed_demand_[i]);
        a.cpus = p.cpus;
        a.memory_gb = p.memory_gb;
        d.start.push_back(std::move(a));
    }
    if (options_.mechanism == SynergyMechanism::Opt && shortfall) ++opt_shortfall_;
    return d;
}

}  // namespace cl
