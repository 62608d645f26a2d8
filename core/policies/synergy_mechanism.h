#pragma once
// Synergy's mechanisms (Mohan et al., OSDI 2022; docs/architecture.md section 4.6): every round a
// priority order picks the runnable jobs by their GPUs, and a mechanism gives each its CPU cores and
// DRAM, which set its speed (iteration time = base / W[c, m], sensitivity.h):
//   proportional  every job gets its GPU-proportional share (the baseline);
//   greedy        jobs in priority order at their best-case demand, first fit on every
//                 resource; a job that does not fit is skipped for the round (section 3.3);
//   tune          section 4.2: runnable jobs by GPUs alone (backfilling), packed by GPU, CPU,
//                 then memory demand, descending, each on the best-fitting server at its
//                 best-case demand, else at proportional share, else on the server that just
//                 has its GPUs after peers above proportional are reverted; never below
//                 proportional throughput;
//   opt           section 4.1: an ILP over the discrete (c, m) points with the cluster as one
//                 machine (GLPK, time limit per round) chooses every job's allocation, which
//                 is then packed like tune. The ILP objective is an upper bound on the round's
//                 throughput; the packed allocation reaches it whenever every choice fits
//                 (optPlacedShortfall() counts the rounds where one did not).
//                 Under synergy-artifact, OPT is the authors' idealisation: the ILP's choices
//                 are granted wherever the jobs' GPUs are, without packing CPU and memory
//                 per server, which makes it the upper bound the paper plots.
// Clean conventions: running jobs that stay selected keep their GPUs (a lease renewal) and are
// re-allocated CPU and memory every round; the synergy-artifact conventions recompute the
// whole placement from an empty cluster every round with the authors' simplifications
// (first fit, no demand sort, their peer-revert order, a two-level speed model).
// Requests (docs/architecture.md 2.10): the runnable set is counted on each job's own servers and
// the packing never chooses a server a job may not use (PackJob::excluded); OPT's ILP pools the
// cluster and has no servers, so its asks are placed by that packing (synergy_opt_asks.cpp).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/sensitivity.h"
#include "core/policies/priority_order.h"
#include "core/policies/synergy_packing.h"
#include "core/sim/scheduler.h"

namespace cl {

enum class SynergyMechanism { Proportional, Greedy, Tune, Opt };

struct SynergyOptions {
    SynergyMechanism mechanism = SynergyMechanism::Tune;
    double round_s = 300.0;  // the paper's round
    bool keep_running_in_place = true;
    bool artifact = false;          // the authors' simulator's simplifications (above)
    double opt_time_limit_s = 1.0;  // GLPK's limit per round
};

class SynergyScheduler : public Scheduler {
public:
    SynergyScheduler(std::string name, std::unique_ptr<PriorityOrder> order, SynergyOptions options);
    ~SynergyScheduler() override;
    std::string name() const override { return name_; }
    Decision schedule(const SchedulerInput& input) override;
    double roundInterval() const override { return options_.round_s; }
    // With every job running and kept in place, proportional and greedy give each the same
    // share again (its GPU-proportional share; its best-case ask, which fitted). Tune and opt
    // may move jobs between servers round after round to serve asks better (until a round
    // changes nothing), and the artifact recomputes the placement from an empty cluster in
    // priority order: its rounds all run.
    bool roundsOnlyPlaceWaitingJobs() const override {
        return !options_.artifact && options_.keep_running_in_place &&
               (options_.mechanism == SynergyMechanism::Proportional ||
                options_.mechanism == SynergyMechanism::Greedy);
    }
    bool roundsRepeatWhenUnchanged(std::size_t running_jobs) const override;

    // Rounds in which OPT's ILP allocation could not be packed as chosen (some job fell back).
    long long optPlacedShortfall() const { return opt_shortfall_; }
    long long optTimeLimitedRounds() const { return opt_time_limited_; }

    // What the mechanism knows about a model: its matrix (none = insensitive, asks for its
    // proportional share), best-case demand per GPU and throughput there.
    struct ModelDemand {
        std::optional<SensitivityMatrix> matrix;
        SensitivityMatrix::Point best;
        AuxShare fair_cap;                             // PackJob::fair_cap
        std::vector<SensitivityMatrix::Point> lesser;  // PackJob::lesser
        std::vector<SensitivityMatrix::Point>
            choices;  // OPT: Pareto points at or above proportional throughput
        double proportional_throughput = 1.0;
    };

private:
    const ModelDemand& demandOf(const JobState& job, const SchedulerInput& in);
    void select(const SchedulerInput& in);
    bool countOnItsServers(const JobState& job);
    void chooseOptAsks(const SchedulerInput& in);
    double speedOf(const PackJob& packed, const JobState& job, const ModelDemand& demand) const;

    std::string name_;
    std::unique_ptr<PriorityOrder> order_;
    SynergyOptions options_;
    std::unique_ptr<AuxLedger> ledger_;
    const Cluster* ledger_cluster_ = nullptr;
    AuxShare reference_share_;  // the cluster's average cores and GB per GPU
    std::map<std::string, ModelDemand, std::less<>> demands_;
    std::vector<int> ranked_;
    std::vector<int> free_on_;  // select(), with requests: GPUs per server not yet counted
    std::vector<PackJob> packed_;
    std::vector<const ModelDemand*> packed_demand_;
    long long opt_shortfall_ = 0;
    long long opt_time_limited_ = 0;
};

}  // namespace cl
