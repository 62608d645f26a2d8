#include "core/planning/capacity_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "core/metrics/cluster_cost.h"
#include "core/metrics/job_size.h"
#include "core/model/cluster.h"
#include "core/planning/boundary_search.h"

namespace cl {

Cluster candidateCluster(const Cluster& base, const ServerType& type, int servers, bool keep_base) {
    if (servers < minimumServers(keep_base))
        throw std::invalid_argument("a candidate needs at least " +
                                    std::to_string(minimumServers(keep_base)) + " servers of " +
                                    serverTypeKey(type) + ", not " + std::to_string(servers));
    const std::string key = serverTypeKey(type);
    if (keep_base) {
        Cluster c = base;
        for (int k = 0; k < servers; ++k) {
            Server s = type.server;
            s.name = key + "-" + std::to_string(k);
            s.rack = key;
            c.servers.push_back(std::move(s));
        }
        c.name = base.name + " + " + std::to_string(servers) + " x " + key;
        return c;
    }
    if (base.servers.empty()) throw std::invalid_argument("base cluster '" + base.name + "' has no servers");
    Cluster retyped = base;
    for (Server& s : retyped.servers) {
        Server t = type.server;
        t.name = s.name;
        t.rack = s.rack;
        s = std::move(t);
    }
    Cluster c = withServerCount(retyped, servers);
    // The base's own servers keep withServerCount's name, "base (N servers)".
    if (!(retyped.servers == base.servers))
        c.name = base.name + " as " + std::to_string(servers) + " x " + key;
    return c;
}

std::string baseShapeReason(const Cluster& base) {
    std::vector<Server> kinds;
    for (Server s : base.servers) {
        s.name.clear();
        s.rack.clear();
        s.state.clear();
        s.unavailable = false;
        s.partitions.clear();
        if (std::find(kinds.begin(), kinds.end(), s) == kinds.end()) kinds.push_back(s);
    }
    std::vector<std::string> partitions;
    for (const Server& s : base.servers)
        for (const std::string& p : s.partitions)
            if (std::find(partitions.begin(), partitions.end(), p) == partitions.end())
                partitions.push_back(p);
    std::string why;
    if (kinds.size() > 1) why = std::to_string(kinds.size()) + " kinds of server";
    if (!partitions.empty())
        why += (why.empty() ? "" : " in ") + std::to_string(partitions.size()) +
               (partitions.size() == 1 ? " partition" : " partitions");
    return why;
}

bool addsToBase(const PlanRequest& request) {
    return request.keep_base || !request.grow_partition.empty() || !baseShapeReason(request.base).empty();
}

Cluster candidateCluster(const PlanRequest& request, int server_type, int servers) {
    const bool adds = addsToBase(request);
    Cluster c = candidateCluster(request.base, request.server_types.at(server_type), servers, adds);
    if (!adds) return c;
    std::vector<std::string> partitions;
    if (!request.grow_partition.empty()) {
        bool known = false;
        for (const Server& s : request.base.servers)
            for (const std::string& p : s.partitions) known = known || p == request.grow_partition;
        if (!known)
            throw std::invalid_argument("the base cluster '" + request.base.name + "' has no partition '" +
                                        request.grow_partition + "' to grow");
        partitions = {request.grow_partition};
        c.name += " in " + request.grow_partition;
    } else {
        for (const Server& s : request.base.servers)
            for (const std::string& p : s.partitions)
                if (std::find(partitions.begin(), partitions.end(), p) == partitions.end())
                    partitions.push_back(p);
    }
    for (std::size_t k = request.base.servers.size(); k < c.servers.size(); ++k)
        c.servers[k].partitions = partitions;
    return c;
}

ServerType baseServerType(const Cluster& base) {
    if (base.servers.empty()) throw std::invalid_argument("base cluster '" + base.name + "' has no servers");
    ServerType own;
    own.id = "base";
    own.label = base.name;
    own.server = base.servers.front();
    own.server.name.clear();
    own.server.rack.clear();
    return own;
}

const PlanEvaluation* evaluationOf(const PlanReport& report, const CandidateResult& candidate) {
    return candidate.evaluation ? &report.evaluations.at(*candidate.evaluation) : nullptr;
}

int minimumServers(bool keep_base) {
    return keep_base ? 0 : 1;
}

int smallestRunnableCount(const PlanRequest& request, int server_type) {
    const ServerType& type = request.server_types.at(server_type);
    const bool adds = addsToBase(request);
    const int base_gpus = adds ? request.base.totalGpus() : 0;
    const int missing = std::max(0, request.largest_job_gpus - base_gpus);
    const int per_server = std::max(1, type.server.gpus);
    return std::max(minimumServers(adds), (missing + per_server - 1) / per_server);
}

std::string serverTypeKey(const ServerType& type) {
    // A layout file's id is its path; its stem reads better in scenario names and reports.
    if (type.id.find('/') != std::string::npos || type.id.find('.') != std::string::npos)
        return std::filesystem::path(type.id).stem().string();
    return type.id;
}

namespace {

bool lowerIsBetter(const PlanTarget& t) {
    return t.comparison == TargetComparison::AtMost || t.comparison == TargetComparison::Below;
}

// The load check of a point over its seeds: the mean of each figure, assessed when every seed's
// run was, overloaded when the mean drain share exceeds the limit (as targets hold for the mean).
PlanLoadCheck meanLoadCheck(const std::vector<PlanLoadCheck>& checks, double drain_share_limit) {
    PlanLoadCheck mean;
    if (checks.empty()) return mean;
    mean.assessed = true;
    for (const PlanLoadCheck& c : checks) {
        mean.assessed = mean.assessed && c.assessed;
        mean.stopped_early = mean.stopped_early || c.stopped_early;
        mean.offered_load += c.offered_load;
        mean.backlog_gpu_hours += c.backlog_gpu_hours;
        mean.drain_share += c.drain_share;
        mean.arrival_window_s += c.arrival_window_s;
        mean.last_end_after_window_s += c.last_end_after_window_s;
    }
    const double n = static_cast<double>(checks.size());
    mean.offered_load /= n;
    mean.backlog_gpu_hours /= n;
    mean.drain_share /= n;
    mean.arrival_window_s /= n;
    mean.last_end_after_window_s /= n;
    mean.overloaded = mean.assessed && mean.drain_share > drain_share_limit;
    return mean;
}

struct PointKey {
    int server_type = 0;
    std::string policy;
    int servers = 0;
    int load_step = 0;  // 0: the planned load; k: (1 + k * resolution) times it
    auto tie() const { return std::tie(server_type, policy, servers, load_step); }
    bool operator<(const PointKey& o) const { return tie() < o.tie(); }
};

class Planner {
public:
    Planner(const PlanRequest& request, const PlanEvaluator& evaluate,
            const std::function<void(const PlanProgress&)>& progress, const std::atomic<bool>* stop)
        : r_(request), evaluate_(evaluate), progress_(progress), stop_(stop) {
        // Every target and the all-jobs metrics, each once.
        for (const PlanTarget& t : r_.targets) addMetric(t);
        for (const std::string& m : planTargetMetrics()) {
            PlanTarget all_jobs;
            all_jobs.metric = m;
            addMetric(all_jobs);
        }
    }

    PlanReport run();

private:
    void addMetric(const PlanTarget& t) {
        const std::string key = planMetricKey(t);
        for (const auto& [k, _] : metrics_)
            if (k == key) return;
        metrics_.emplace_back(key, t);
    }
    // Rounded to 1e-9 so that names and reports read "x1.15", not "x1.1500000000000001".
    double loadOf(int step) const {
        return std::round(r_.load_factor * (1.0 + step * r_.headroom_resolution) * 1e9) / 1e9;
    }
    // Evaluates the points not evaluated yet, in one batch; false when the plan must stop.
    bool evaluate(const std::vector<PointKey>& keys, const std::string& phase);
    const PlanEvaluation& at(const PointKey& k) const { return memo_.at(k); }
    // The cluster's GPUs in reference GPUs: each weighted by its type's speed.
    double referenceCapacity(const Cluster& c) const {
        double capacity = 0.0;
        for (const Server& s : c.servers) {
            const auto it = r_.gpu_type_speed.find(s.gpu_type);
            capacity += s.gpus * (it == r_.gpu_type_speed.end() ? 1.0 : it->second);
        }
        return capacity;
    }
    bool meets(const PlanEvaluation& e) const {
        for (const PlanTarget& t : r_.targets)
            if (!meetsPlanTarget(t, e.metrics.at(planMetricKey(t)).mean)) return false;
        return true;
    }
    void checkNeighbours(CandidateResult& c);
    // The steps of run(), in order (docs/architecture.md 7.9).
    bool searchBoundaries();
    void explainNoBoundary(CandidateResult& c, const BoundarySearch& search);
    std::string overloadNote(const CandidateResult& c, std::optional<int> below) const;
    bool settleNeighbours(bool searched);
    // The lowest count checked below a candidate's answer (request.verify_below counts, not
    // below the smallest that runs the trace).
    int lowestVerified(const CandidateResult& c) const {
        const int lowest = smallestRunnableCount(r_, c.server_type);
        return *c.servers - lowest <= r_.verify_below ? lowest : *c.servers - r_.verify_below;
    }
    // The ranking key of a candidate: its cost per month, or its GPUs when ranked by GPU count.
    double costOf(const CandidateResult& c) const {
        const PlanEvaluation& e = at({c.server_type, c.policy, *c.servers, 0});
        return report_.ranked_by_gpus ? e.gpus : e.cost_per_month;
    }
    bool better(std::size_t a, std::size_t b, const std::string& first_key) const;
    void choosePlans(const std::string& first_key);
    void rankingBasis();
    void evaluateCliffs();
    void findHeadroom();
    void listEvaluations(const std::string& first_key);
    // More servers stop helping once no job waits, or once a larger count missing the targets
    // gives the same figures as the smaller one before it: the search stops adding then.
    bool saturated(const CandidateResult& c, int x, const BoundarySearch& search) const {
        const PlanEvaluation& e = at({c.server_type, c.policy, x, 0});
        if (e.no_queueing) return true;
        std::optional<int> below;
        for (const auto& [y, holds] : search.known())
            if (y < x && !holds) below = y;
        if (!below) return false;
        const PlanEvaluation& b = at({c.server_type, c.policy, *below, 0});
        for (const auto& [key, est] : e.metrics) {
            const double v = est.mean, w = b.metrics.at(key).mean;
            if (std::isnan(v) != std::isnan(w)) return false;
            if (!std::isnan(v) && std::abs(v - w) > 1e-9 * std::max(1.0, std::abs(w))) return false;
        }
        return true;
    }

    const PlanRequest& r_;
    const PlanEvaluator& evaluate_;
    const std::function<void(const PlanProgress&)>& progress_;
    const std::atomic<bool>* stop_;
    std::vector<std::pair<std::string, PlanTarget>> metrics_;
    std::map<PointKey, PlanEvaluation> memo_;
    std::map<int, bool> steady_arrivals_;  // per server type, at the planned load
    PlanReport report_;
    int round_ = 0;
};

bool Planner::evaluate(const std::vector<PointKey>& wanted, const std::string& phase) {
    std::vector<PointKey> keys;
    for (const PointKey& k : wanted)
        if (!memo_.count(k) && std::find_if(keys.begin(), keys.end(), [&](const PointKey& o) {
                                   return !(o < k) && !(k < o);
                               }) == keys.end())
            keys.push_back(k);
    if (keys.empty()) return true;
    if (stop_ && stop_->load()) {
        report_.interrupted = true;
        return false;
    }
    std::vector<PlanPoint> points;
    for (const PointKey& k : keys)
        for (std::uint64_t seed : r_.seeds)
            points.push_back({k.server_type, k.policy, k.servers, loadOf(k.load_step), seed});
    ++round_;
    if (progress_) progress_({phase, round_, report_.simulations});
    const auto results = evaluate_(points);
    report_.simulations += static_cast<int>(points.size());
    if (results.size() != points.size())
        throw std::logic_error("the plan's evaluator answered the wrong number of points");
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!results[i]) {
            if (stop_ && stop_->load()) {
                report_.interrupted = true;
            } else {
                const PlanPoint& p = points[i];
                report_.error = "the simulation of " + serverTypeKey(r_.server_types[p.server_type]) + " x" +
                                std::to_string(p.servers) + " with " + p.policy + " (seed " +
                                std::to_string(p.seed) + ") did not finish";
            }
            return false;
        }
    const std::size_t seeds = r_.seeds.size();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const PointKey& k = keys[i];
        PlanEvaluation e;
        e.server_type = k.server_type;
        e.policy = k.policy;
        e.servers = k.servers;
        e.load_factor = loadOf(k.load_step);
        const Cluster candidate = candidateCluster(r_, k.server_type, k.servers);
        const ClusterCost cost = clusterCost(candidate);
        e.cost_per_month = cost.per_month;
        e.unpriced_servers = cost.unpriced_servers;
        e.gpus = candidate.totalGpus();
        e.no_queueing = true;
        std::map<std::string, std::vector<double>> values;
        std::vector<PlanLoadCheck> checks;
        for (std::size_t s = 0; s < seeds; ++s) {
            const SimResult& run = *results[i * seeds + s];
            for (const std::string& note : run.notes)
                e.missed_early = e.missed_early || note.rfind(kStoppedTargetMissedNote, 0) == 0;
            for (const JobRecord& j : run.jobs)
                if (!j.completed || j.pending_time > 0 || !(j.queueing_delay <= 0)) e.no_queueing = false;
            for (const auto& [key, target] : metrics_)
                values[key].push_back(planTargetValue(target, run.jobs, r_.large_above_gpus));
            checks.push_back(overloadCheck(run, referenceCapacity(candidate), r_.overload_drain_share));
        }
        e.load = meanLoadCheck(checks, r_.overload_drain_share);
        // Whether the trace arrives steadily or in a burst is its own property at the planned
        // load: a higher load compresses the arrivals, and the headroom must not stop judging
        // overload because of it.
        if (e.missed_early) {
            e.load.overloaded = false;  // not established: the run stopped for another reason
        } else if (k.load_step == 0) {
            steady_arrivals_.try_emplace(k.server_type, e.load.assessed);
        } else if (auto it = steady_arrivals_.find(k.server_type); it != steady_arrivals_.end()) {
            e.load.assessed = it->second;
            e.load.overloaded = e.load.assessed && e.load.drain_share > r_.overload_drain_share;
        }
        e.queue = queueOverTime(results[i * seeds]->series);
        for (auto& [key, v] : values) {
            // A class with no completed job in some seed has no value there; the mean is NaN then,
            // and a target on it is not met.
            const bool any_nan = std::any_of(v.begin(), v.end(), [](double x) { return std::isnan(x); });
            Estimate est = estimate(v);
            if (any_nan || e.missed_early) est.mean = std::nan("");
            e.metrics[key] = est;
        }
        e.feasible = !e.load.overloaded && meets(e);
        memo_.emplace(k, std::move(e));
    }
    return true;
}

void Planner::checkNeighbours(CandidateResult& c) {
    const int n = *c.servers;
    std::vector<std::string> notes;
    if (n + 1 <= r_.max_servers && !at({c.server_type, c.policy, n + 1, 0}).feasible)
        notes.push_back(std::to_string(n + 1) + " servers miss a target that " + std::to_string(n) + " meet");
    for (const PlanTarget& t : r_.targets) {
        const std::string key = planMetricKey(t);
        std::vector<double> v;
        for (int x = n - 1; x <= n + 1; ++x)
            if (x >= smallestRunnableCount(r_, c.server_type) && x <= r_.max_servers)
                v.push_back(at({c.server_type, c.policy, x, 0}).metrics.at(key).mean);
        for (std::size_t i = 1; i < v.size(); ++i) {
            if (std::isnan(v[i]) || std::isnan(v[i - 1])) continue;
            const double tol = 1e-9 * std::max(1.0, std::abs(v[i - 1]));
            const bool worse = lowerIsBetter(t) ? v[i] > v[i - 1] + tol : v[i] < v[i - 1] - tol;
            if (worse) {
                notes.push_back(key + " is not monotone around " + std::to_string(n) + " servers");
                break;
            }
        }
    }
    if (!notes.empty()) {
        c.monotone = false;
        for (const std::string& s : notes) c.note += (c.note.empty() ? "" : "; ") + s;
    }
}

// 1. The smallest count per (type, policy), all searches advancing together; false when the
// plan stopped (interrupted or failed) before every search finished.
bool Planner::searchBoundaries() {
    std::vector<BoundarySearch> searches;
    for (std::size_t t = 0; t < r_.server_types.size(); ++t)
        for (const std::string& p : r_.policies) {
            const int lowest = smallestRunnableCount(r_, static_cast<int>(t));
            int start = lowest;
            if (!addsToBase(r_)) {
                // As many servers of this type as the base has GPUs, rounded up.
                const int gpus = std::max(1, r_.server_types[t].server.gpus);
                start = std::max(lowest, (r_.base.totalGpus() + gpus - 1) / gpus);
            }
            searches.emplace_back(start, lowest, std::max(lowest, r_.max_servers));
            CandidateResult c;
            c.server_type = static_cast<int>(t);
            c.policy = p;
            report_.candidates.push_back(std::move(c));
        }
    for (;;) {
        std::vector<PointKey> keys;
        for (std::size_t i = 0; i < searches.size(); ++i) {
            const CandidateResult& c = report_.candidates[i];
            if (auto x = searches[i].next()) {
                keys.push_back({c.server_type, c.policy, *x, 0});
            } else if (const std::optional<int> n = searches[i].boundary()) {
                // A finished search's neighbours (step 2) join the batches of the searches still
                // running: a batch waits for its slowest point, and the cores would idle meanwhile.
                CandidateResult answered = c;
                answered.servers = n;
                for (int x = lowestVerified(answered); x <= *n + 1 && x <= r_.max_servers; ++x)
                    if (!memo_.count({c.server_type, c.policy, x, 0}))
                        keys.push_back({c.server_type, c.policy, x, 0});
            }
        }
        if (keys.empty()) break;
        if (!evaluate(keys, "search")) break;
        for (std::size_t i = 0; i < searches.size(); ++i)
            if (auto x = searches[i].next()) {
                const CandidateResult& c = report_.candidates[i];
                const PlanEvaluation& e = at({c.server_type, c.policy, *x, 0});
                searches[i].record(*x, e.feasible, !e.feasible && saturated(c, *x, searches[i]));
            }
    }
    const bool searched = !report_.interrupted && report_.error.empty();
    for (std::size_t i = 0; i < searches.size() && searched; ++i) {
        CandidateResult& c = report_.candidates[i];
        c.servers = searches[i].boundary();
        if (!c.servers) explainNoBoundary(c, searches[i]);
    }
    return searched;
}

// The largest count of a candidate found overloaded below `below` (all counts when nullopt), as a
// note with the figures; empty when none was.
std::string Planner::overloadNote(const CandidateResult& c, std::optional<int> below) const {
    std::optional<int> largest;
    for (const auto& [k, e] : memo_)
        if (k.server_type == c.server_type && k.policy == c.policy && k.load_step == 0 && e.load.overloaded &&
            (!below || k.servers < *below))
            largest = k.servers;
    if (!largest) return {};
    const PlanLoadCheck& l = at({c.server_type, c.policy, *largest, 0}).load;
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "%d servers are overloaded (%.2f of every GPU offered; the backlog at the last arrival "
                  "drains in %.0f%% of the arrival window)",
                  *largest, l.offered_load, l.drain_share * 100);
    return buf;
}

// Why a finished search found no count that meets the targets.
void Planner::explainNoBoundary(CandidateResult& c, const BoundarySearch& search) {
    const auto& known = search.known();
    const int top = known.empty() ? r_.max_servers : known.rbegin()->first;
    const PlanEvaluation& e = at({c.server_type, c.policy, top, 0});
    if (e.load.overloaded)
        c.note = "no count up to " + std::to_string(top) +
                 " servers keeps up with the arrivals: " + overloadNote(c, std::nullopt);
    else if (e.no_queueing)
        c.note = "no count meets the targets: with " + std::to_string(top) +
                 " servers no job waits and a target is still missed";
    else if (top < r_.max_servers && known.size() >= 2)
        c.note = "no count meets the targets: " + std::to_string(std::next(known.rbegin())->first) + " and " +
                 std::to_string(top) + " servers give the same figures, and a target is still missed";
    else
        c.note = "no count up to " + std::to_string(top) + " servers meets the targets";
}

// 2. The neighbours of every answer, to tell a real threshold from a non-monotone metric.
//    The counts below each answer (request.verify_below of them, 2 by default) are tried too:
//    one that meets the targets below a count that misses them moves the answer down (and the
//    metric is not monotone there), and its own counts below are tried in turn. Returns whether
//    every neighbour is known.
bool Planner::settleNeighbours(bool searched) {
    bool neighbours_known = searched;
    for (bool moved = true; moved && neighbours_known;) {
        moved = false;
        std::vector<PointKey> keys;
        for (const CandidateResult& c : report_.candidates)
            if (c.servers)
                for (int x = lowestVerified(c); x <= *c.servers + 1; ++x)
                    if (x <= r_.max_servers) keys.push_back({c.server_type, c.policy, x, 0});
        if (!evaluate(keys, "neighbours")) {
            neighbours_known = false;
            break;
        }
        for (CandidateResult& c : report_.candidates) {
            if (!c.servers) continue;
            const int n = *c.servers;
            for (int x = lowestVerified(c); x < n; ++x)
                if (at({c.server_type, c.policy, x, 0}).feasible) {
                    c.monotone = false;
                    // The smallest count above x known to miss (the search's answer sat above one).
                    int miss = std::numeric_limits<int>::max();
                    for (const auto& [k, e] : memo_)
                        if (k.server_type == c.server_type && k.policy == c.policy && k.load_step == 0 &&
                            k.servers > x && k.servers < miss && !e.feasible)
                            miss = k.servers;
                    c.note += (c.note.empty() ? "" : "; ") + std::to_string(x) +
                              " servers meet the targets although " + std::to_string(miss) +
                              " miss them (not monotone)";
                    c.servers = x;
                    moved = true;
                    break;
                }
        }
    }
    if (neighbours_known)
        for (CandidateResult& c : report_.candidates)
            if (c.servers) {
                c.verified_from = lowestVerified(c);
                c.exhaustive = c.verified_from == smallestRunnableCount(r_, c.server_type);
            }
    return neighbours_known;
}

// How candidates can be ranked: by cost when every server a candidate can hold is priced on one
// basis; by GPUs when some has no price. Prices on two bases are refused unless the request mixes
// them knowingly (docs/architecture.md 7.9, "Prices").
void Planner::rankingBasis() {
    std::vector<std::string> unpriced, hourly, amortized;
    const auto sort = [&](const Server& s, const std::string& name) {
        auto& list = s.price.basis == PriceBasis::None     ? unpriced
                     : s.price.basis == PriceBasis::Hourly ? hourly
                                                           : amortized;
        if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    for (const ServerType& t : r_.server_types) sort(t.server, serverTypeKey(t));
    if (addsToBase(r_))
        for (const Server& s : r_.base.servers) sort(s, "the base's " + s.name);
    const auto names = [](const std::vector<std::string>& v) {
        std::string out;
        for (const std::string& n : v) out += (out.empty() ? "" : ", ") + n;
        return out;
    };
    if (!hourly.empty() && !amortized.empty()) {
        const std::string what = "prices on two bases: " + names(hourly) + " at a cloud rental price, " +
                                 names(amortized) + " at an amortized purchase price";
        if (!r_.mix_price_bases)
            throw std::invalid_argument(what +
                                        "; a cloud price covers space, network and staff and an owned "
                                        "one does not, so they rank unlike costs (choose server types "
                                        "priced on one basis, or pass --mix-price-bases)");
        report_.ranking_note = "ranked across " + what + " (--mix-price-bases)";
    }
    if (!unpriced.empty()) {
        report_.ranked_by_gpus = true;
        report_.ranking_note = "ranked by GPU count: " + names(unpriced) +
                               (unpriced.size() == 1 ? " has" : " have") +
                               " no price, so no plan is called cheapest (set prices to rank by cost)";
        if (r_.budget_per_month)
            throw std::invalid_argument("a budget needs prices, and " + names(unpriced) +
                                        (unpriced.size() == 1 ? " has" : " have") + " none");
    }
}

// Candidate a before b: cheaper, else better on the first target's metric, else fewer servers.
bool Planner::better(std::size_t a, std::size_t b, const std::string& first_key) const {
    const CandidateResult& x = report_.candidates[a];
    const CandidateResult& y = report_.candidates[b];
    if (costOf(x) != costOf(y)) return costOf(x) < costOf(y);
    const double mx = at({x.server_type, x.policy, *x.servers, 0}).metrics.at(first_key).mean;
    const double my = at({y.server_type, y.policy, *y.servers, 0}).metrics.at(first_key).mean;
    if (mx != my) return lowerIsBetter(r_.targets.front()) ? mx < my : mx > my;
    return *x.servers < *y.servers;
}

// 3. Ranking by cost, within the budget: each policy's plan and the chosen one.
void Planner::choosePlans(const std::string& first_key) {
    for (std::size_t i = 0; i < report_.candidates.size(); ++i) {
        CandidateResult& c = report_.candidates[i];
        if (!c.servers) continue;
        c.within_budget = !r_.budget_per_month ||
                          at({c.server_type, c.policy, *c.servers, 0}).cost_per_month <= *r_.budget_per_month;
        if (!c.within_budget) continue;
        auto& plan = report_.plans[c.policy];
        if (!plan || better(i, *plan, first_key)) plan = i;
        if (!report_.chosen || better(i, *report_.chosen, first_key)) report_.chosen = i;
    }
}

// 4. The cliff: every target metric against the server count around each policy's plan.
void Planner::evaluateCliffs() {
    std::vector<PointKey> keys;
    for (const auto& [policy, plan] : report_.plans)
        if (plan) {
            const CandidateResult& c = report_.candidates[*plan];
            for (int x = *c.servers - r_.cliff_radius; x <= *c.servers + r_.cliff_radius; ++x)
                if (x >= smallestRunnableCount(r_, c.server_type) && x <= r_.max_servers)
                    keys.push_back({c.server_type, c.policy, x, 0});
        }
    // The headroom search's first step (findHeadroom) runs in this batch: on its own it would
    // leave all cores but one idle.
    if (report_.chosen) {
        const CandidateResult& c = report_.candidates[*report_.chosen];
        keys.push_back({c.server_type, c.policy, *c.servers, 1});
    }
    evaluate(keys, "cliff");
}

// 5. Headroom of the chosen plan: the largest load step that still meets every target.
void Planner::findHeadroom() {
    const CandidateResult& c = report_.candidates[*report_.chosen];
    const int top =
        std::max(1, static_cast<int>(std::ceil((r_.headroom_max - 1.0) / r_.headroom_resolution - 1e-9)));
    BoundarySearch fails(1, 1, top);
    while (auto k = fails.next()) {
        if (!evaluate({{c.server_type, c.policy, *c.servers, *k}}, "headroom")) break;
        fails.record(*k, !at({c.server_type, c.policy, *c.servers, *k}).feasible);
    }
    if (fails.done()) {
        PlanHeadroom& h = report_.headroom;
        h.computed = true;
        h.server_type = c.server_type;
        h.policy = c.policy;
        h.servers = *c.servers;
        h.resolution = r_.headroom_resolution;
        const std::optional<int> first_fail = fails.boundary();
        h.at_least = !first_fail;
        const int last_ok = first_fail ? *first_fail - 1 : top;
        h.over_planned = 1.0 + last_ok * r_.headroom_resolution;
        h.load_factor = loadOf(last_ok);
    }
}

// The report: every point at the planned load, ordered, with the frontier and cliff by index.
void Planner::listEvaluations(const std::string& first_key) {
    std::map<PointKey, std::size_t> index;
    for (const auto& [k, e] : memo_) {
        if (k.load_step == 0) {
            index[k] = report_.evaluations.size();
            report_.evaluations.push_back(e);
        } else {
            report_.headroom_scan.push_back(e);
        }
    }
    for (CandidateResult& c : report_.candidates)
        if (c.servers)
            if (auto it = index.find({c.server_type, c.policy, *c.servers, 0}); it != index.end())
                c.evaluation = it->second;
    std::vector<std::size_t> by_cost(report_.evaluations.size());
    for (std::size_t i = 0; i < by_cost.size(); ++i) by_cost[i] = i;
    const bool lower = lowerIsBetter(r_.targets.front());
    auto metric = [&](std::size_t i) { return report_.evaluations[i].metrics.at(first_key).mean; };
    std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) {
        const auto key = [&](std::size_t i) {
            const PlanEvaluation& e = report_.evaluations[i];
            return report_.ranked_by_gpus ? static_cast<double>(e.gpus) : e.cost_per_month;
        };
        const double ca = key(a), cb = key(b);
        if (ca != cb) return ca < cb;
        return lower ? metric(a) < metric(b) : metric(a) > metric(b);
    });
    std::optional<double> best;
    for (std::size_t i : by_cost) {
        const double m = metric(i);
        // An overloaded cluster's metric says nothing of the cluster's service (section 7.9).
        if (std::isnan(m) || report_.evaluations[i].load.overloaded) continue;
        if (!best || (lower ? m < *best : m > *best)) {
            report_.frontier.push_back(i);
            best = m;
        }
    }
    for (const auto& [policy, plan] : report_.plans)
        if (plan) {
            const CandidateResult& c = report_.candidates[*plan];
            for (int x = *c.servers - r_.cliff_radius; x <= *c.servers + r_.cliff_radius; ++x)
                if (auto it = index.find({c.server_type, c.policy, x, 0}); it != index.end())
                    report_.cliff.push_back(it->second);
        }
}

PlanReport Planner::run() {
    report_.policies = r_.policies;
    rankingBasis();
    const bool searched = searchBoundaries();
    if (settleNeighbours(searched))
        for (CandidateResult& c : report_.candidates)
            if (c.servers) checkNeighbours(c);
    for (CandidateResult& c : report_.candidates)
        if (c.servers)
            if (const std::string note = overloadNote(c, c.servers); !note.empty())
                c.note += (c.note.empty() ? "" : "; ") + note;
    const std::string first_key = planMetricKey(r_.targets.front());
    for (const std::string& p : r_.policies) report_.plans[p] = std::nullopt;
    if (searched && report_.error.empty() && !report_.interrupted) {
        choosePlans(first_key);
        evaluateCliffs();
    }
    if (report_.chosen && !report_.interrupted && report_.error.empty()) findHeadroom();
    listEvaluations(first_key);
    return report_;
}

}  // namespace

PlanReport planCapacity(const PlanRequest& request, const PlanEvaluator& evaluate,
                        const std::function<void(const PlanProgress&)>& progress,
                        const std::atomic<bool>* stop) {
    if (request.server_types.empty()) throw std::invalid_argument("a plan needs at least one server type");
    if (request.policies.empty()) throw std::invalid_argument("a plan needs at least one policy");
    if (request.targets.empty()) throw std::invalid_argument("a plan needs at least one target (--target)");
    if (request.seeds.empty()) throw std::invalid_argument("a plan needs at least one seed");
    if (!(request.load_factor > 0)) throw std::invalid_argument("the load factor must be a positive number");
    if (!(request.headroom_resolution > 0 && request.headroom_resolution <= 1))
        throw std::invalid_argument("the headroom resolution must be in (0, 1]");
    if (!(request.headroom_max > 1)) throw std::invalid_argument("the headroom search must go above 1");
    if (request.max_servers < minimumServers(addsToBase(request)) || request.max_servers > 100000)
        throw std::invalid_argument("--max-servers must be 1..100000");
    if (!(request.overload_drain_share > 0))
        throw std::invalid_argument(
            "the overload drain share must be a positive fraction of the arrival window");
    if (request.budget_per_month && !(*request.budget_per_month >= 0))
        throw std::invalid_argument("the budget must be a non-negative amount per month");
    for (const ServerType& t : request.server_types)
        if (t.server.gpus < 1) throw std::invalid_argument("server type " + t.id + " has no GPU");
    if (request.verify_below < 0) throw std::invalid_argument("--verify-below must be 0 or more");
    for (const PlanTarget& t : request.targets) {
        // A size class with no job has no value: every candidate would miss, after simulating
        // up to --max-servers.
        const std::string split = std::to_string(request.large_above_gpus);
        if (t.jobs == TargetJobs::Large && !isLargeJob(request.largest_job_gpus, request.large_above_gpus))
            throw std::invalid_argument("target '" + t.text + "': the trace has no large job (more than " +
                                        split + " GPUs; its largest asks for " +
                                        std::to_string(request.largest_job_gpus) + ")");
        if (t.jobs == TargetJobs::Small && isLargeJob(request.smallest_job_gpus, request.large_above_gpus))
            throw std::invalid_argument("target '" + t.text + "': the trace has no small job (at most " +
                                        split + " GPUs; its smallest asks for " +
                                        std::to_string(request.smallest_job_gpus) + ")");
    }
    Planner planner(request, evaluate, progress, stop);
    return planner.run();
}

}  // namespace cl
