#include "core/planning/plan_report_format.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/io/csv_field.h"
#include "core/metrics/summary_table.h"
#include "core/util/number_format.h"

namespace cl {

namespace {

// Every metric key of a report's evaluations, in a stable order: the targets first.
std::vector<std::string> metricKeys(const PlanRequest& request, const PlanReport& report) {
    std::vector<std::string> keys;
    auto add = [&](const std::string& k) {
        for (const std::string& x : keys)
            if (x == k) return;
        keys.push_back(k);
    };
    for (const PlanTarget& t : request.targets) add(planMetricKey(t));
    for (const std::string& m : planTargetMetrics()) add(m);
    if (!report.evaluations.empty())
        for (const auto& [k, _] : report.evaluations.front().metrics) add(k);
    return keys;
}

nlohmann::ordered_json number(double v) {
    if (std::isnan(v)) return nullptr;
    return v;
}

nlohmann::ordered_json metricsJson(const PlanEvaluation& e, const std::vector<std::string>& keys) {
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (const std::string& k : keys)
        if (auto it = e.metrics.find(k); it != e.metrics.end())
            m[k] = {
                {"mean", number(it->second.mean)}, {"ci95", number(it->second.ci95)}, {"n", it->second.n}};
    return m;
}

// The figures of the overload check (docs/architecture.md 7.9).
nlohmann::ordered_json loadJson(const PlanLoadCheck& l) {
    return {{"assessed", l.assessed},
            {"overloaded", l.overloaded},
            {"offered_load", l.offered_load},
            {"backlog_gpu_hours", l.backlog_gpu_hours},
            {"drain_share", l.drain_share},
            {"arrival_window_s", l.arrival_window_s},
            {"last_end_after_window_s", l.last_end_after_window_s},
            {"stopped_early", l.stopped_early}};
}

nlohmann::ordered_json pointJson(const PlanRequest& r, const PlanEvaluation& e,
                                 const std::vector<std::string>& keys) {
    nlohmann::ordered_json o;
    o["server_type"] = serverTypeKey(r.server_types.at(e.server_type));
    o["policy"] = e.policy;
    o["servers"] = e.servers;
    o["load_factor"] = e.load_factor;
    o["feasible"] = e.feasible;
    o["cost_per_month"] = e.cost_per_month;
    if (e.unpriced_servers > 0) o["unpriced_servers"] = e.unpriced_servers;
    o["gpus"] = e.gpus;
    o["metrics"] = metricsJson(e, keys);
    o["load"] = loadJson(e.load);
    if (e.missed_early) o["missed_early"] = true;
    return o;
}

std::string metricText(const std::string& key, const Estimate& e) {
    if (std::isnan(e.mean)) return "-";
    // An interval that rounds to nothing (seeds that change no job) is left out.
    const std::string ci = formatPlanMetric(key, e.ci95);
    if (e.n > 1 && ci != "0 s" && ci != "0.00") return formatPlanMetric(key, e.mean) + " +- " + ci;
    return formatPlanMetric(key, e.mean);
}

// One sentence on whether the plan keeps up with the arrivals, with the figures.
std::string loadText(const PlanRequest& request, const PlanLoadCheck& l) {
    char buf[400];
    if (!l.assessed) {
        std::snprintf(
            buf, sizeof buf,
            "Overload: not assessed; the jobs arrive within %s, less than %.0f median job run times, "
            "so there is no steady arrival rate to keep up with\n",
            humanDuration(l.arrival_window_s).c_str(), kSteadyStateJobLifetimes);
        return buf;
    }
    std::snprintf(
        buf, sizeof buf,
        "Load: %.2f of every GPU offered over the %s arrival window; the backlog at the last arrival "
        "(%s reference-GPU hours) drains in %.1f%% of it (overloaded above %.0f%%)\n",
        l.offered_load, humanDuration(l.arrival_window_s).c_str(),
        formatNumber(std::round(l.backlog_gpu_hours)).c_str(), l.drain_share * 100,
        request.overload_drain_share * 100);
    return buf;
}

// The counts a candidate's answer was checked against: "all" (an exhaustive sweep would agree)
// or the range "9..12".
std::string verifiedText(const PlanRequest& request, const CandidateResult& c) {
    if (!c.servers || c.verified_from == 0) return "-";
    if (c.exhaustive) return "all";
    return std::to_string(c.verified_from) + ".." +
           std::to_string(std::min(*c.servers + 1, request.max_servers));
}

std::string csvNumber(double v) {
    return std::isnan(v) ? "" : formatNumberPlain(v);
}

}  // namespace

nlohmann::ordered_json planJson(const PlanRequest& request, const PlanReport& report) {
    const std::vector<std::string> keys = metricKeys(request, report);
    nlohmann::ordered_json j;
    j["targets"] = nlohmann::ordered_json::array();
    for (const PlanTarget& t : request.targets) j["targets"].push_back(t.text);
    j["load_factor"] = request.load_factor;
    j["adds_to_base"] = addsToBase(request);
    if (!request.grow_partition.empty()) j["grow_partition"] = request.grow_partition;
    if (request.budget_per_month) j["budget_per_month"] = *request.budget_per_month;
    j["seeds"] = request.seeds;
    if (!report.seeds_vary.empty()) j["seeds_vary"] = report.seeds_vary;
    nlohmann::ordered_json plans = nlohmann::ordered_json::object();
    for (const std::string& p : request.policies) {
        nlohmann::ordered_json o;
        const auto it = report.plans.find(p);
        if (it == report.plans.end() || !it->second) {
            o["feasible"] = false;
        } else {
            const CandidateResult& c = report.candidates[*it->second];
            const PlanEvaluation* e = evaluationOf(report, c);
            o["feasible"] = true;
            o["server_type"] = serverTypeKey(request.server_types[c.server_type]);
            o["servers"] = *c.servers;
            o["cost_per_month"] = e->cost_per_month;
            if (e->unpriced_servers > 0) o["unpriced_servers"] = e->unpriced_servers;
            o["metrics"] = metricsJson(*e, keys);
            o["load"] = loadJson(e->load);
            o["monotone"] = c.monotone;
            o["verified_from"] = c.verified_from;
            o["exhaustive"] = c.exhaustive;
            if (!c.note.empty()) o["note"] = c.note;
        }
        plans[p] = o;
    }
    j["plans"] = plans;
    j["ranked_by"] = report.ranked_by_gpus ? "gpus" : "cost";
    if (!report.ranking_note.empty()) j["ranking_note"] = report.ranking_note;
    if (report.chosen) {
        const CandidateResult& c = report.candidates[*report.chosen];
        j["chosen"] = {{"policy", c.policy},
                       {"server_type", serverTypeKey(request.server_types[c.server_type])},
                       {"servers", *c.servers}};
    } else {
        j["chosen"] = nullptr;
    }
    j["frontier"] = nlohmann::ordered_json::array();
    for (std::size_t i : report.frontier)
        j["frontier"].push_back(pointJson(request, report.evaluations[i], keys));
    j["cliff"] = nlohmann::ordered_json::array();
    for (std::size_t i : report.cliff) j["cliff"].push_back(pointJson(request, report.evaluations[i], keys));
    nlohmann::ordered_json h;
    if (report.headroom.computed) {
        const PlanHeadroom& hr = report.headroom;
        h["policy"] = hr.policy;
        h["server_type"] = serverTypeKey(request.server_types[hr.server_type]);
        h["servers"] = hr.servers;
        h["load_factor"] = hr.load_factor;
        h["over_planned"] = hr.over_planned;
        h["resolution"] = hr.resolution;
        h["at_least"] = hr.at_least;
    }
    j["headroom"] = report.headroom.computed ? h : nlohmann::ordered_json(nullptr);
    j["candidates"] = nlohmann::ordered_json::array();
    for (const CandidateResult& c : report.candidates) {
        nlohmann::ordered_json o;
        o["server_type"] = serverTypeKey(request.server_types[c.server_type]);
        o["policy"] = c.policy;
        o["feasible"] = c.servers.has_value();
        if (c.servers) {
            o["servers"] = *c.servers;
            o["cost_per_month"] = evaluationOf(report, c)->cost_per_month;
            o["within_budget"] = c.within_budget;
            o["monotone"] = c.monotone;
            o["verified_from"] = c.verified_from;
            o["exhaustive"] = c.exhaustive;
        }
        if (!c.note.empty()) o["note"] = c.note;
        j["candidates"].push_back(o);
    }
    j["simulations"] = report.simulations;
    if (report.interrupted) j["interrupted"] = true;
    if (!report.error.empty()) j["error"] = report.error;
    return j;
}

std::string planCsv(const PlanRequest& request, const PlanReport& report) {
    const std::vector<std::string> keys = metricKeys(request, report);
    std::string out =
        "kind,server_type,policy,servers,load_factor,feasible,cost_per_month,on_frontier,overloaded,offered_"
        "load,"
        "backlog_gpu_hours,drain_share";
    for (const std::string& k : keys) out += "," + csvField(k) + "," + csvField(k + "_ci95");
    out += "\n";
    auto row = [&](const char* kind, const PlanEvaluation& e, bool frontier) {
        out += std::string(kind) + "," + csvField(serverTypeKey(request.server_types[e.server_type])) + "," +
               csvField(e.policy) + "," + std::to_string(e.servers) + "," + formatNumber(e.load_factor) +
               "," + (e.feasible ? "true" : "false") + "," + formatNumberPlain(e.cost_per_month) + "," +
               (frontier ? "true" : "false") + "," + (e.load.overloaded ? "true" : "false") + "," +
               (e.load.assessed ? formatNumberPlain(e.load.offered_load) : "") + "," +
               formatNumberPlain(e.load.backlog_gpu_hours) + "," +
               (e.load.assessed ? formatNumberPlain(e.load.drain_share) : "");
        for (const std::string& k : keys) {
            const auto it = e.metrics.find(k);
            out += "," + (it == e.metrics.end() ? std::string() : csvNumber(it->second.mean)) + "," +
                   (it == e.metrics.end() ? std::string() : csvNumber(it->second.ci95));
        }
        out += "\n";
    };
    for (std::size_t i = 0; i < report.evaluations.size(); ++i) {
        bool frontier = false;
        for (std::size_t f : report.frontier) frontier = frontier || f == i;
        row("planned_load", report.evaluations[i], frontier);
    }
    for (const PlanEvaluation& e : report.headroom_scan) row("headroom", e, false);
    return out;
}

std::string planText(const PlanRequest& request, const PlanReport& report) {
    std::string out;
    std::string targets;
    for (const PlanTarget& t : request.targets) targets += (targets.empty() ? "" : ", ") + t.text;
    out += "Targets: " + targets + " at load x" + formatNumber(request.load_factor) + ", mean over " +
           std::to_string(request.seeds.size()) + (request.seeds.size() == 1 ? " seed" : " seeds") + "\n";
    if (!report.seeds_vary.empty() && request.seeds.size() > 1)
        out += "Seeds vary: " + report.seeds_vary + "\n";
    if (addsToBase(request)) {
        const std::string why = baseShapeReason(request.base);
        out +=
            "Candidates add servers to the base " + request.base.name + (why.empty() ? "" : " (" + why + ")");
        out += request.grow_partition.empty() ? "" : ", in partition " + request.grow_partition;
        out += "\n";
    }
    out += "\n";
    std::vector<std::vector<std::string>> rows = {{"policy", "plan", "servers", "cost/month"}};
    for (const PlanTarget& t : request.targets) rows.front().push_back(planMetricKey(t));
    for (const std::string& p : request.policies) {
        const auto it = report.plans.find(p);
        if (it == report.plans.end() || !it->second) {
            std::vector<std::string> r = {p, "none meets the targets", "-", "-"};
            for (std::size_t k = 0; k < request.targets.size(); ++k) r.push_back("-");
            rows.push_back(r);
            continue;
        }
        const CandidateResult& c = report.candidates[*it->second];
        const PlanEvaluation* e = evaluationOf(report, c);
        std::vector<std::string> r = {p, serverTypeKey(request.server_types[c.server_type]),
                                      std::to_string(*c.servers), formatUsd(e->cost_per_month)};
        for (const PlanTarget& t : request.targets)
            r.push_back(metricText(planMetricKey(t), e->metrics.at(planMetricKey(t))));
        rows.push_back(r);
    }
    out += renderTextTable(rows);
    if (report.chosen) {
        const CandidateResult& c = report.candidates[*report.chosen];
        const PlanEvaluation* e = evaluationOf(report, c);
        if (report.ranked_by_gpus) {
            out += "\nSmallest plan by GPU count: " + std::to_string(*c.servers) + " x " +
                   serverTypeKey(request.server_types[c.server_type]) + " with " + c.policy + " (" +
                   std::to_string(e->gpus) + " GPUs)";
        } else {
            out += "\nCheapest plan: " + std::to_string(*c.servers) + " x " +
                   serverTypeKey(request.server_types[c.server_type]) + " with " + c.policy + ", " +
                   formatUsd(e->cost_per_month) + " a month";
        }
        out += "\n";
        if (!report.ranking_note.empty()) out += "Ranking: " + report.ranking_note + "\n";
        if (!c.exhaustive && c.verified_from > 0)
            out += "Verified for " + verifiedText(request, c) +
                   " servers: a smaller count was not tried "
                   "everywhere (--verify-below all checks every count)\n";
        out += loadText(request, e->load);
        if (report.headroom.computed && report.headroom.over_planned <= 1.0) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "Headroom: none; %.0f%% more load already misses a target\n",
                          report.headroom.resolution * 100);
            out += buf;
        } else if (report.headroom.computed) {
            char buf[160];
            std::snprintf(
                buf, sizeof buf,
                "Headroom: meets the targets with up to %s%.0f%% more load (load x%s), to within %.0f%%\n",
                report.headroom.at_least ? "at least " : "", (report.headroom.over_planned - 1) * 100,
                formatNumber(report.headroom.load_factor).c_str(), report.headroom.resolution * 100);
            out += buf;
        }
    } else if (report.error.empty() && !report.interrupted) {
        out += "\nNo candidate meets every target";
        if (request.budget_per_month) out += " within " + formatUsd(*request.budget_per_month) + " a month";
        out += ".\n";
    }
    out += "\nCandidates:\n";
    std::vector<std::vector<std::string>> cand = {
        {"server type", "policy", "servers", "verified", "cost/month", "note"}};
    for (const CandidateResult& c : report.candidates) {
        const PlanEvaluation* e = evaluationOf(report, c);
        std::string note = c.note;
        if (c.servers && !c.within_budget) note = "over budget" + (note.empty() ? "" : "; " + note);
        cand.push_back({serverTypeKey(request.server_types[c.server_type]), c.policy,
                        c.servers ? std::to_string(*c.servers) : "-", verifiedText(request, c),
                        e ? formatUsd(e->cost_per_month) : "-", note});
    }
    out += renderTextTable(cand);
    if (!report.frontier.empty()) {
        const bool gpus = report.ranked_by_gpus;
        out += std::string("\nFrontier (") + (gpus ? "fewest GPUs" : "cheapest cluster") +
               " for each level of " + planMetricKey(request.targets.front()) + "):\n";
        std::vector<std::vector<std::string>> f = {{gpus ? "GPUs" : "cost/month",
                                                    planMetricKey(request.targets.front()), "server type",
                                                    "policy", "servers", "meets all"}};
        for (std::size_t i : report.frontier) {
            const PlanEvaluation& e = report.evaluations[i];
            f.push_back({gpus ? std::to_string(e.gpus) : formatUsd(e.cost_per_month),
                         metricText(planMetricKey(request.targets.front()),
                                    e.metrics.at(planMetricKey(request.targets.front()))),
                         serverTypeKey(request.server_types[e.server_type]), e.policy,
                         std::to_string(e.servers), e.feasible ? "yes" : "no"});
        }
        out += renderTextTable(f);
    }
    if (!report.cliff.empty()) {
        out += "\nCliff (target metrics by server count around each plan):\n";
        std::vector<std::vector<std::string>> t = {{"policy", "server type", "servers"}};
        for (const PlanTarget& x : request.targets) t.front().push_back(planMetricKey(x));
        t.front().push_back("meets all");
        for (std::size_t i : report.cliff) {
            const PlanEvaluation& e = report.evaluations[i];
            std::vector<std::string> r = {e.policy, serverTypeKey(request.server_types[e.server_type]),
                                          std::to_string(e.servers)};
            for (const PlanTarget& x : request.targets)
                r.push_back(metricText(planMetricKey(x), e.metrics.at(planMetricKey(x))));
            r.push_back(e.feasible             ? "yes"
                        : e.missed_early       ? "no (target missed, stopped early)"
                        : e.load.stopped_early ? "no (overloaded, stopped early)"
                        : e.load.overloaded    ? "no (overloaded)"
                                               : "no");
            t.push_back(r);
        }
        out += renderTextTable(t);
    }
    if (report.interrupted)
        out += "\nInterrupted: the plan above covers what finished; run it again to complete it.\n";
    if (!report.error.empty()) out += "\nStopped: " + report.error + "\n";
    int stopped = 0, missed = 0;
    for (const auto* list : {&report.evaluations, &report.headroom_scan})
        for (const PlanEvaluation& e : *list) {
            stopped += e.load.stopped_early && !e.missed_early;
            missed += e.missed_early;
        }
    out += "\n" + std::to_string(report.simulations) + " simulations";
    if (stopped > 0)
        out += "; the runs of " + std::to_string(stopped) + (stopped == 1 ? " point" : " points") +
               " stopped as soon as overload was established";
    if (missed > 0)
        out += "; the runs of " + std::to_string(missed) + (missed == 1 ? " point" : " points") +
               " stopped as soon as a target was sure to be missed";
    out += "\n";
    return out;
}

}  // namespace cl
