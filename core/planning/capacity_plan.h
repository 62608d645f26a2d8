#pragma once
// The capacity planner (docs/architecture.md 7.9): for every (server type, policy)
// the smallest server count that meets every target at the planned load, ranked by cost, with
// the cost-vs-metric frontier, the cliff around each answer and the chosen plan's headroom.
// Pure search over an evaluator that simulates batches of points: the store-backed one lives in
// core/store/plan_runner.h, tests use exhaustive sweeps over the same evaluator.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/comparison.h"
#include "core/metrics/overload_check.h"
#include "core/metrics/plan_target.h"
#include "core/metrics/queue_over_time.h"
#include "core/model/cluster.h"
#include "core/model/server_type.h"

namespace cl {

struct PlanRequest {
    Cluster base;  // the base cluster
    std::vector<ServerType> server_types;
    bool keep_base = false;  // add servers of a type to the base instead of retyping it
    // Added servers join this partition of the base only (implies adding to the base); empty:
    // they join every partition the base has.
    std::string grow_partition;
    std::vector<std::string> policies;
    std::vector<PlanTarget> targets;  // at least one; the first is the frontier's metric
    std::vector<std::uint64_t> seeds = {1};
    double load_factor = 1.0;                // the planned load, as a scenario's load factor
    std::optional<double> budget_per_month;  // USD; dearer candidates are not plans
    // Rank candidates priced on different bases (a cloud rental and an amortized purchase)
    // together; without it such a request is refused (section 7.9, "Prices").
    bool mix_price_bases = false;
    int max_servers = 4096;
    int large_above_gpus = 8;           // the large/small split of targets (section 7.3)
    double headroom_resolution = 0.05;  // steps of the planned load
    double headroom_max = 8.0;          // search headroom up to this multiple of the planned load
    int cliff_radius = 3;               // server counts each side of an answer
    // A candidate whose backlog at the last arrival takes more than this share of the arrival
    // window to drain is overloaded (section 7.9, "Overload").
    double overload_drain_share = kDefaultOverloadDrainShare;
    // The most GPUs one job of the trace asks for: a candidate with fewer GPUs in all cannot run
    // the trace, so every search starts at a count that holds it.
    int largest_job_gpus = 1;
    // The fewest GPUs one job of the trace asks for: with largest_job_gpus, tells a target on a
    // size class with no job (section 7.3) before anything is simulated.
    int smallest_job_gpus = 1;
    // Counts below each answer that are checked (the claim "N is the smallest count" holds
    // for them): 2 by default; a larger number, or kVerifyEveryCount, checks more.
    int verify_below = 2;
    // Speed per GPU type relative to the reference GPU (the profile set's gpu_type_speed; a type
    // not listed counts 1): the overload check counts a candidate's capacity in reference GPUs.
    std::map<std::string, double> gpu_type_speed;
};

// PlanRequest::verify_below for "check every count below each answer": the answer then equals an
// exhaustive sweep.
inline constexpr int kVerifyEveryCount = 1 << 30;

// One simulation the planner asks for.
struct PlanPoint {
    int server_type = 0;  // index into PlanRequest::server_types
    std::string policy;
    int servers = 0;
    double load_factor = 1.0;
    std::uint64_t seed = 1;
};

// The run of each point (its per-job records and series; segments are not needed), in the order
// asked; nullopt where the simulation failed or was cancelled (the plan then stops and says so).
using PlanEvaluator = std::function<std::vector<std::optional<SimResult>>(const std::vector<PlanPoint>&)>;

// A candidate cluster: the base with every server retyped to `type` and resized to `servers`
// (as --servers resizes), or with keep_base the base plus `servers` servers of the type. Throws
// std::invalid_argument when the result has no server.
Cluster candidateCluster(const Cluster& base, const ServerType& type, int servers, bool keep_base);
// Whether candidates add servers to the base rather than retype it: asked for (keep_base, a
// grown partition), or the base is heterogeneous or has partitions, a shape that retyping every
// server would flatten (docs/architecture.md 7.9, "Candidates").
bool addsToBase(const PlanRequest& request);
// Why candidates add to this base without being asked ("3 kinds of server"); empty when they
// do not or were asked to.
std::string baseShapeReason(const Cluster& base);
// The candidate of a request: candidateCluster with addsToBase, the added servers in the grown
// partition (or in every partition of the base), named "base + 6 x dgx-h100 in gpu". Throws
// std::invalid_argument for a grown partition the base does not have.
Cluster candidateCluster(const PlanRequest& request, int server_type, int servers);
// The base cluster's own server type (what --server-types and the Plan view default to): a
// preset with id "base", labelled with the cluster's name, whose server is the base's first one
// without its name and rack. Throws std::invalid_argument when the base has no servers.
ServerType baseServerType(const Cluster& base);
// The smallest count a search over this type may try (1, or 0 when servers are added to a base).
int minimumServers(bool keep_base);
// The smallest count of the type whose candidate cluster holds the request's largest job.
int smallestRunnableCount(const PlanRequest& request, int server_type);
// "muri-testbed-64 retyped to dgx-a100" style key for reports: the preset id or file stem.
std::string serverTypeKey(const ServerType& type);

// A cluster size evaluated over every seed at one load.
struct PlanEvaluation {
    int server_type = 0;
    std::string policy;
    int servers = 0;
    double load_factor = 1.0;
    double cost_per_month = 0.0;
    int unpriced_servers = 0;
    int gpus = 0;              // of the candidate cluster
    bool feasible = false;     // not overloaded, and every target's mean meets it
    bool no_queueing = false;  // no job of any seed waited: more servers change nothing
    PlanLoadCheck load;        // means over the seeds; overloaded means not feasible
    // A run stopped as soon as a target was sure to be missed (SimOptions::stop_when_missed,
    // with one seed): not feasible; its metrics are unknown (NaN), and its overload figures
    // cover the run up to the stop only.
    bool missed_early = false;
    std::vector<QueueSample> queue;  // the first seed's run, at most 200 samples
    // By metric key: every target ("large:p99_jct") and the all-jobs metrics of planTargetMetrics().
    std::map<std::string, Estimate> metrics;
};

struct CandidateResult {
    int server_type = 0;
    std::string policy;
    std::optional<int> servers;  // the smallest count found to meet every target
    // Index into PlanReport::evaluations of that count at the planned load (set with servers).
    std::optional<std::size_t> evaluation;
    bool within_budget = true;
    bool monotone = true;  // the targets' metrics fall with capacity around the answer
    // Every count from verified_from to servers + 1 was simulated: the claim "servers is the
    // smallest count that meets the targets" holds from verified_from on. It is exhaustive when
    // verified_from is the smallest count that can run the trace.
    int verified_from = 0;
    bool exhaustive = false;
    std::string note;  // why there is no answer, or where a metric is not monotone
};

struct PlanHeadroom {
    bool computed = false;
    int server_type = 0;
    std::string policy;
    int servers = 0;
    double load_factor = 0.0;   // the largest load (as --load) found to meet every target
    double over_planned = 0.0;  // that load / the planned load (1.2 = 20% more load)
    double resolution = 0.0;    // of over_planned
    bool at_least = false;      // still met at the search's upper end
};

struct PlanReport {
    std::vector<std::string> policies;
    std::vector<CandidateResult> candidates;                  // per (server type, policy)
    std::map<std::string, std::optional<std::size_t>> plans;  // policy -> cheapest candidate
    std::optional<std::size_t> chosen;                        // the cheapest plan overall
    std::vector<PlanEvaluation> evaluations;                  // every point at the planned load
    std::vector<std::size_t> frontier;          // evaluations on the cost vs first-target frontier, by cost
    std::vector<std::size_t> cliff;             // evaluations around each plan's answer
    std::vector<PlanEvaluation> headroom_scan;  // the chosen plan at other loads
    PlanHeadroom headroom;
    // How candidates are ranked (section 7.9, "Prices"): by cost per month when every candidate
    // server has a price, else by GPU count (nothing is then called cheapest), with the reason.
    bool ranked_by_gpus = false;
    std::string ranking_note;
    int simulations = 0;  // points asked of the evaluator (seeds counted)
    // What the seeds vary, as reports say it ("the models of jobs without one"); set by the
    // runner, which knows the trace (core/runs/plan_runner.h).
    std::string seeds_vary;
    // How the seeds resampled the trace: "none", "day" or "week" (set by the runner, and part of
    // each point's scenario name).
    std::string resample = "none";
    bool interrupted = false;
    std::string error;  // why the plan stopped early
};

// The evaluation of a candidate's answer at the planned load, or nullptr when it has none.
const PlanEvaluation* evaluationOf(const PlanReport& report, const CandidateResult& candidate);

struct PlanProgress {
    std::string phase;  // "search", "neighbours", "cliff", "headroom"
    int round = 0;
    int simulations = 0;
};

// Throws std::invalid_argument for an empty request (no type, policy, target or seed) or a bad
// setting. `stop` (optional) ends the plan after the current batch, with what it found so far.
PlanReport planCapacity(const PlanRequest& request, const PlanEvaluator& evaluate,
                        const std::function<void(const PlanProgress&)>& progress = {},
                        const std::atomic<bool>* stop = nullptr);

}  // namespace cl
