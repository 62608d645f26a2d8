#include "core/model/optimistic_profiling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace cl {

namespace {

void checkLevels(const std::vector<double>& levels, const char* what) {
    if (levels.empty())
        throw std::invalid_argument(std::string("optimistic profiling: no ") + what + " levels");
    for (std::size_t i = 0; i < levels.size(); ++i) {
        if (!(levels[i] > 0) || !std::isfinite(levels[i]))
            throw std::invalid_argument(std::string("optimistic profiling: ") + what +
                                        " levels must be positive");
        if (i > 0 && levels[i] <= levels[i - 1])
            throw std::invalid_argument(std::string("optimistic profiling: ") + what +
                                        " levels must be strictly ascending");
    }
}

double readParameter(const nlohmann::json& section, const char* key, double fallback,
                     const std::string& where) {
    const auto it = section.find(key);
    if (it == section.end()) return fallback;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
        throw std::invalid_argument(where + "." + key + ": expected a non-negative number");
    return it->get<double>();
}

// The CPU search of the header comment, on one probe at full memory.
class CpuSearch {
public:
    CpuSearch(const ThroughputProbe& measure, const std::vector<double>& levels, double full_memory,
              double threshold, OptimisticProfile& out)
        : m_measure(measure),
          m_levels(levels),
          m_full(full_memory),
          m_threshold(threshold),
          m_out(out),
          m_w(levels.size(), 0.0),
          m_known(levels.size(), false) {}

    std::vector<double> run() {
        const std::size_t n = m_levels.size();
        probe(n - 1);
        if (n > 1) {
            probe(0);
            refine(0, n - 1);
        }
        fillSkipped();
        return m_w;
    }

private:
    void probe(std::size_t i) {
        const double w = m_measure(m_levels[i], m_full);
        if (!(w > 0) || !std::isfinite(w))
            throw std::invalid_argument("optimistic profiling: the measurement at " +
                                        std::to_string(m_levels[i]) +
                                        " CPU per GPU is not a positive number");
        m_w[i] = w;
        m_known[i] = true;
        m_out.measured_cpus.push_back(m_levels[i]);
        ++m_out.measurements;
    }

    void refine(std::size_t lo, std::size_t hi) {
        if (hi - lo < 2) return;
        if (m_w[hi] < (1.0 + m_threshold) * m_w[lo]) return;
        const double middle = 0.5 * (m_levels[lo] + m_levels[hi]);
        std::size_t p = lo + 1;
        for (std::size_t i = lo + 2; i < hi; ++i)
            if (std::abs(m_levels[i] - middle) < std::abs(m_levels[p] - middle)) p = i;
        probe(p);
        refine(p, hi);
        refine(lo, p);
    }

    void fillSkipped() {
        std::size_t lo = 0;
        for (std::size_t hi = 1; hi < m_levels.size(); ++hi) {
            if (!m_known[hi]) continue;
            for (std::size_t i = lo + 1; i < hi; ++i) {
                const double t = (m_levels[i] - m_levels[lo]) / (m_levels[hi] - m_levels[lo]);
                m_w[i] = m_w[lo] + t * (m_w[hi] - m_w[lo]);
            }
            lo = hi;
        }
    }

    const ThroughputProbe& m_measure;
    const std::vector<double>& m_levels;
    double m_full;
    double m_threshold;
    OptimisticProfile& m_out;
    std::vector<double> m_w;
    std::vector<bool> m_known;
};

}  // namespace

double CacheModel::storageCeiling(double memory_gb) const {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    if (dataset_gb <= 0 || input_mb_s <= 0) return kNever;
    const double miss = 1.0 - std::min(1.0, std::max(0.0, memory_gb - process_gb) / dataset_gb);
    if (miss <= 0) return kNever;
    return storage_mb_s / (input_mb_s * miss);
}

double CacheModel::throughput(double full_memory_throughput, double memory_gb) const {
    if (memory_gb < process_gb) return std::min(full_memory_throughput, starved_throughput);
    return std::min(full_memory_throughput, storageCeiling(memory_gb));
}

std::optional<CacheModel> cacheModelOf(const ModelProfile& profile) {
    if (!profile.extra.get().is_object()) return std::nullopt;
    const auto synergy = profile.extra.get().find("synergy");
    if (synergy == profile.extra.get().end() || !synergy->is_object()) return std::nullopt;
    const auto section = synergy->find("cache");
    if (section == synergy->end()) return std::nullopt;
    const std::string where = "model '" + profile.name + "' extra.synergy.cache";
    if (!section->is_object()) throw std::invalid_argument(where + ": expected an object");
    CacheModel c;
    c.dataset_gb = readParameter(*section, "dataset_gb", c.dataset_gb, where);
    c.process_gb = readParameter(*section, "process_gb", c.process_gb, where);
    c.storage_mb_s = readParameter(*section, "storage_mb_s", c.storage_mb_s, where);
    c.input_mb_s = readParameter(*section, "input_mb_s", c.input_mb_s, where);
    c.starved_throughput = readParameter(*section, "starved_throughput", c.starved_throughput, where);
    // Zero storage bandwidth would make every miss an infinite stall; a zero floor a job that
    // never progresses. Both are typos, not profiles.
    if (!(c.storage_mb_s > 0)) throw std::invalid_argument(where + ".storage_mb_s: must be positive");
    if (!(c.starved_throughput > 0))
        throw std::invalid_argument(where + ".starved_throughput: must be positive");
    return c;
}

nlohmann::json cacheModelJson(const CacheModel& cache) {
    return {{"dataset_gb", cache.dataset_gb},
            {"process_gb", cache.process_gb},
            {"storage_mb_s", cache.storage_mb_s},
            {"input_mb_s", cache.input_mb_s},
            {"starved_throughput", cache.starved_throughput}};
}

OptimisticProfile optimisticProfile(const ThroughputProbe& measure, const std::vector<double>& cpu_levels,
                                    const std::vector<double>& memory_levels_gb, const CacheModel& cache,
                                    double threshold) {
    checkLevels(cpu_levels, "CPU");
    checkLevels(memory_levels_gb, "memory");
    if (!(threshold >= 0) || !std::isfinite(threshold))
        throw std::invalid_argument("optimistic profiling: the threshold must be a non-negative number");
    if (!measure) throw std::invalid_argument("optimistic profiling: no measurement function");

    OptimisticProfile out;
    const std::vector<double> full =
        CpuSearch(measure, cpu_levels, memory_levels_gb.back(), threshold, out).run();
    out.matrix.cpu_levels = cpu_levels;
    out.matrix.memory_levels_gb = memory_levels_gb;
    out.matrix.throughput.reserve(cpu_levels.size() * memory_levels_gb.size());
    for (double w_full : full)
        for (std::size_t m = 0; m < memory_levels_gb.size(); ++m)
            out.matrix.throughput.push_back(
                m + 1 == memory_levels_gb.size() ? w_full : cache.throughput(w_full, memory_levels_gb[m]));
    return out;
}

std::optional<OptimisticProfile> optimisticProfileOf(const ModelProfile& profile, double threshold) {
    const std::optional<SensitivityMatrix> truth = sensitivityOf(profile);
    if (!truth) return std::nullopt;
    const CacheModel cache = cacheModelOf(profile).value_or(CacheModel{});
    const SensitivityMatrix& m = *truth;
    const ThroughputProbe lookup = [&m](double cpus, double memory_gb) {
        return m.throughputAt({cpus, memory_gb});
    };
    return optimisticProfile(lookup, m.cpu_levels, m.memory_levels_gb, cache, threshold);
}

ProfileSet withOptimisticProfiles(const ProfileSet& profiles, double threshold) {
    ProfileSet out = profiles;
    for (auto& [name, model] : out.models) {
        const auto estimate = optimisticProfileOf(model, threshold);
        if (!estimate) continue;
        const nlohmann::json& extra = model.extra.get();
        nlohmann::json section =
            extra.is_object() && extra.contains("synergy") ? extra["synergy"] : nlohmann::json();
        const nlohmann::json fresh = sensitivityJson(estimate->matrix);
        section["throughput"] = fresh["throughput"];
        model.extra.edit()["synergy"] = section;
    }
    out.name = profiles.name + "-optimistic";
    out.source = profiles.source +
                 " Matrices estimated by optimistic profiling (CPU bisection at full memory, "
                 "analytic cache model for the memory columns).";
    return out;
}

}  // namespace cl
