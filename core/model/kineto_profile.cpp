#include "core/model/kineto_profile.h"

#include "core/model/gpu_type_table.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace cl {

namespace {

using Interval = std::pair<double, double>;  // [start, end) in microseconds

// Sorts and merges overlapping or touching intervals in place.
void mergeIntervals(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end());
    std::size_t out = 0;
    for (const Interval& i : v) {
        if (out > 0 && i.first <= v[out - 1].second)
            v[out - 1].second = std::max(v[out - 1].second, i.second);
        else
            v[out++] = i;
    }
    v.resize(out);
}

double totalLength(const std::vector<Interval>& merged) {
    double sum = 0.0;
    for (const auto& [a, b] : merged) sum += b - a;
    return sum;
}

// Length of the intersection of two merged lists.
double overlapLength(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    double sum = 0.0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const double lo = std::max(a[i].first, b[j].first);
        const double hi = std::min(a[i].second, b[j].second);
        if (hi > lo) sum += hi - lo;
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return sum;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

KinetoStepFigures medianOf(const std::vector<KinetoStepFigures>& steps) {
    auto column = [&](double KinetoStepFigures::*field) {
        std::vector<double> v;
        v.reserve(steps.size());
        for (const auto& s : steps) v.push_back(s.*field);
        return median(std::move(v));
    };
    KinetoStepFigures m;
    m.step = -1;
    m.iteration_ms = column(&KinetoStepFigures::iteration_ms);
    m.gpu_ms = column(&KinetoStepFigures::gpu_ms);
    m.nccl_ms = column(&KinetoStepFigures::nccl_ms);
    m.network_ms = column(&KinetoStepFigures::network_ms);
    m.storage_ms = column(&KinetoStepFigures::storage_ms);
    m.cpu_ms = column(&KinetoStepFigures::cpu_ms);
    return m;
}

nlohmann::json figuresJson(const KinetoStepFigures& f) {
    return {{"iteration_ms", f.iteration_ms}, {"gpu_ms", f.gpu_ms},         {"nccl_ms", f.nccl_ms},
            {"network_ms", f.network_ms},     {"storage_ms", f.storage_ms}, {"cpu_ms", f.cpu_ms}};
}

// Files are named without their folder: a stored profile should not carry one machine's paths.
std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

nlohmann::json stepsJson(const std::vector<KinetoStepFigures>& steps) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : steps) {
        nlohmann::json j = figuresJson(s);
        j["step"] = s.step;
        out.push_back(std::move(j));
    }
    return out;
}

}  // namespace

KinetoRankProfile kinetoRankProfile(const KinetoEvents& events, const std::string& file) {
    if (events.steps.size() < 2)
        throw std::invalid_argument(
            file + ": " + std::to_string(events.steps.size()) +
            " ProfilerStep#N spans; the first is warm-up, so at least two are needed");
    std::vector<KinetoEvents::Step> steps = events.steps;
    std::stable_sort(steps.begin(), steps.end(),
                     [](const auto& a, const auto& b) { return a.start_us < b.start_us; });
    const std::size_t n = steps.size();

    // The step whose span [start, start + duration) holds t; n when none does. Steps do not
    // overlap in real traces; if they did, the latest-starting one holding t would win.
    auto stepAt = [&](double t) -> std::size_t {
        auto it = std::upper_bound(steps.begin(), steps.end(), t,
                                   [](double x, const KinetoEvents::Step& s) { return x < s.start_us; });
        if (it == steps.begin()) return n;
        const auto& s = *(it - 1);
        return t < s.start_us + s.duration_us ? static_cast<std::size_t>(it - 1 - steps.begin()) : n;
    };

    // A kernel is placed by its launch: the earliest runtime or driver call with its correlation id.
    std::unordered_map<std::int64_t, double> launch_at;
    launch_at.reserve(events.launches.size());
    for (const auto& l : events.launches) {
        auto [it, fresh] = launch_at.emplace(l.correlation, l.start_us);
        if (!fresh) it->second = std::min(it->second, l.start_us);
    }

    std::vector<std::vector<Interval>> compute(n), nccl(n), loading(n);
    std::size_t without_launch = 0, without_id = 0;
    for (const auto& k : events.kernels) {
        double placed_by = k.start_us;
        auto it = k.has_correlation ? launch_at.find(k.correlation) : launch_at.end();
        if (it != launch_at.end()) {
            placed_by = it->second;
        } else {
            ++without_launch;
            if (!k.has_correlation) ++without_id;
        }
        const std::size_t s = stepAt(placed_by);
        if (s == n || s == 0) continue;  // outside every step, or in the warm-up step
        // The whole kernel counts for its launch step, also the part that runs past its end.
        (k.nccl ? nccl : compute)[s].emplace_back(k.start_us, k.start_us + k.duration_us);
    }
    for (const auto& span : events.data_loader_spans) {
        const double a = span.start_us, b = span.start_us + span.duration_us;
        // Each step counts the part of the span inside its own span.
        for (std::size_t s = 1; s < n; ++s) {
            const double lo = std::max(a, steps[s].start_us);
            const double hi = std::min(b, steps[s].start_us + steps[s].duration_us);
            if (hi > lo) loading[s].emplace_back(lo, hi);
        }
    }

    KinetoRankProfile rank;
    rank.file = file;
    rank.rank = events.rank;
    rank.world_size = events.world_size > 0 ? events.world_size : 1;
    rank.gpu_name = events.gpu_name;
    for (std::size_t s = 1; s < n; ++s) {
        mergeIntervals(compute[s]);
        mergeIntervals(nccl[s]);
        mergeIntervals(loading[s]);
        KinetoStepFigures f;
        f.step = steps[s].number;
        f.iteration_ms = steps[s].duration_us / 1000.0;
        // In microseconds first, so that whole-microsecond traces give exact differences.
        const double gpu_us = totalLength(compute[s]);
        const double nccl_us = totalLength(nccl[s]);
        const double network_us = std::max(0.0, nccl_us - overlapLength(nccl[s], compute[s]));
        // Cut to the step, so at most its length (the min only absorbs rounding of large timestamps).
        const double storage_us = std::min(totalLength(loading[s]), steps[s].duration_us);
        f.gpu_ms = gpu_us / 1000.0;
        f.nccl_ms = nccl_us / 1000.0;
        f.network_ms = network_us / 1000.0;
        f.storage_ms = storage_us / 1000.0;
        f.cpu_ms = std::max(0.0, steps[s].duration_us - gpu_us - network_us - storage_us) / 1000.0;
        rank.steps.push_back(f);
    }
    rank.median = medianOf(rank.steps);

    if (events.kernels.empty())
        rank.warnings.push_back(
            "no GPU kernels (category 'kernel') in the trace: gpu, nccl and network are 0");
    if (without_launch > 0)
        rank.warnings.push_back(
            std::to_string(without_launch) + " of " + std::to_string(events.kernels.size()) +
            " kernels have no launch event (" + std::to_string(without_id) +
            " without a correlation id): each was placed in the step holding its own start");
    return rank;
}

KinetoProfile combineKinetoRanks(std::vector<KinetoRankProfile> ranks, const std::string& name) {
    if (ranks.empty()) throw std::invalid_argument("a Kineto profile needs at least one trace");
    if (name.empty()) throw std::invalid_argument("a Kineto profile needs a name");
    KinetoProfile p;
    p.name = name;
    p.world_size = static_cast<int>(ranks.size());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r].rank < 0) ranks[r].rank = static_cast<int>(r);
        p.world_size = std::max(p.world_size, ranks[r].world_size);
        if (ranks[r].median.iteration_ms > ranks[p.slowest_rank].median.iteration_ms) p.slowest_rank = r;
    }
    p.median = ranks[p.slowest_rank].median;
    p.gpu_name = ranks[p.slowest_rank].gpu_name;
    for (const auto& r : ranks)
        if (p.gpu_name.empty()) p.gpu_name = r.gpu_name;
    p.ranks = std::move(ranks);
    return p;
}

nlohmann::json kinetoProfileJson(const KinetoProfile& profile) {
    const KinetoRankProfile& slowest = profile.ranks.at(profile.slowest_rank);
    nlohmann::json j = figuresJson(profile.median);
    j["name"] = profile.name;
    j["world_size"] = profile.world_size;
    if (!profile.gpu_name.empty()) j["gpu_name"] = profile.gpu_name;
    j["steps"] = stepsJson(slowest.steps);
    nlohmann::json files = nlohmann::json::array(), warnings = nlohmann::json::array();
    for (const auto& r : profile.ranks) {
        files.push_back(fileName(r.file));
        for (const auto& w : r.warnings) warnings.push_back(fileName(r.file) + ": " + w);
    }
    j["files"] = std::move(files);
    if (!warnings.empty()) j["warnings"] = std::move(warnings);
    if (profile.ranks.size() > 1) {
        j["slowest_rank"] = slowest.rank;
        nlohmann::json ranks = nlohmann::json::array();
        for (const auto& r : profile.ranks) {
            nlohmann::json rj = figuresJson(r.median);
            rj["file"] = fileName(r.file);
            rj["rank"] = r.rank;
            rj["world_size"] = r.world_size;
            if (!r.gpu_name.empty()) rj["gpu_name"] = r.gpu_name;
            rj["steps"] = stepsJson(r.steps);
            rj["warnings"] = r.warnings;
            ranks.push_back(std::move(rj));
        }
        j["ranks"] = std::move(ranks);
    }
    return j;
}

ModelProfile modelProfileFromKineto(const KinetoProfile& profile,
                                    const std::map<std::string, double>* reference_speeds) {
    ModelProfile m;
    m.name = profile.name;
    GpuCountProfile g;
    g.gpus = profile.world_size;
    const KinetoStepFigures& f = profile.median;
    g.solo_iteration_time = f.iteration_ms / 1000.0;
    g.stage_times = {f.storage_ms / 1000.0, f.cpu_ms / 1000.0, f.gpu_ms / 1000.0, f.network_ms / 1000.0};
    m.by_gpus.push_back(std::move(g));
    m.extra.edit() = nlohmann::json::object();
    m.extra.edit()["kineto"] = kinetoProfileJson(profile);
    if (reference_speeds && !profile.gpu_name.empty()) {
        const auto measured = matchGpuType(profile.gpu_name);
        const auto it = measured ? reference_speeds->find(measured->name) : reference_speeds->end();
        if (it != reference_speeds->end() && it->second > 0) {
            for (const auto& [type, speed] : *reference_speeds)
                m.speed_by_gpu_type[type] = speed / it->second;
            m.extra.edit()["kineto"]["measured_gpu_type"] = measured->name;
        }
    }
    return m;
}

}  // namespace cl
