#include "core/model/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cl {

namespace {

// Index of the largest level <= x (0 when x is below every level).
std::size_t levelIndex(const std::vector<double>& levels, double x) {
    auto it = std::upper_bound(levels.begin(), levels.end(), x * (1.0 + 1e-9));
    return it == levels.begin() ? 0 : static_cast<std::size_t>(it - levels.begin() - 1);
}

std::vector<double> readLevels(const nlohmann::json& section, const char* key, const std::string& where) {
    const auto it = section.find(key);
    if (it == section.end() || !it->is_array() || it->empty())
        throw std::invalid_argument(where + "." + key + ": expected a non-empty array of numbers");
    std::vector<double> levels;
    for (const auto& v : *it) {
        if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
            throw std::invalid_argument(where + "." + key + ": levels must be positive numbers");
        if (!levels.empty() && v.get<double>() <= levels.back())
            throw std::invalid_argument(where + "." + key + ": levels must be strictly ascending");
        levels.push_back(v.get<double>());
    }
    return levels;
}

}  // namespace

double SensitivityMatrix::throughputAt(AuxShare per_gpu) const {
    return at(levelIndex(cpu_levels, per_gpu.cpus), levelIndex(memory_levels_gb, per_gpu.memory_gb));
}

SensitivityMatrix::Point SensitivityMatrix::best(double tolerance) const {
    const double top = *std::max_element(throughput.begin(), throughput.end());
    for (std::size_t c = 0; c < cpuCount(); ++c)
        for (std::size_t m = 0; m < memoryCount(); ++m)
            if (at(c, m) >= top * (1.0 - tolerance)) return {{cpu_levels[c], memory_levels_gb[m]}, at(c, m)};
    return {{cpu_levels.back(), memory_levels_gb.back()}, top};
}

std::vector<SensitivityMatrix::Point> SensitivityMatrix::paretoPoints() const {
    std::vector<Point> out;
    for (std::size_t c = 0; c < cpuCount(); ++c) {
        for (std::size_t m = 0; m < memoryCount(); ++m) {
            const double w = at(c, m);
            bool dominated = false;
            // A point with no more cores and no more memory that does at least as well (and is
            // cheaper in something) makes this one pointless.
            for (std::size_t c2 = 0; c2 <= c && !dominated; ++c2)
                for (std::size_t m2 = 0; m2 <= m && !dominated; ++m2)
                    if ((c2 != c || m2 != m) && at(c2, m2) >= w) dominated = true;
            if (!dominated) out.push_back({{cpu_levels[c], memory_levels_gb[m]}, w});
        }
    }
    std::sort(out.begin(), out.end(), [](const Point& a, const Point& b) {
        if (a.per_gpu.cpus != b.per_gpu.cpus) return a.per_gpu.cpus < b.per_gpu.cpus;
        return a.per_gpu.memory_gb < b.per_gpu.memory_gb;
    });
    return out;
}

SensitivityMatrix SensitivityMatrix::flat(std::vector<double> cpu_levels,
                                          std::vector<double> memory_levels_gb) {
    SensitivityMatrix m;
    m.cpu_levels = std::move(cpu_levels);
    m.memory_levels_gb = std::move(memory_levels_gb);
    m.throughput.assign(m.cpu_levels.size() * m.memory_levels_gb.size(), 1.0);
    return m;
}

const std::vector<double>& synergyCpuLevels() {
    static const std::vector<double> levels = {1, 2, 3, 4, 5, 6, 9, 12, 24};
    return levels;
}

const std::vector<double>& synergyMemoryLevelsGb() {
    static const std::vector<double> levels = {20.83, 62.5, 125, 187.5, 250};
    return levels;
}

std::optional<SensitivityMatrix> sensitivityOf(const ModelProfile& profile) {
    if (!profile.extra.get().is_object()) return std::nullopt;
    const auto section = profile.extra.get().find("synergy");
    if (section == profile.extra.get().end()) return std::nullopt;
    const std::string where = "model '" + profile.name + "' extra.synergy";
    if (!section->is_object()) throw std::invalid_argument(where + ": expected an object");
    SensitivityMatrix m;
    m.cpu_levels = readLevels(*section, "cpu_per_gpu", where);
    m.memory_levels_gb = readLevels(*section, "memory_gb_per_gpu", where);
    const auto rows = section->find("throughput");
    if (rows == section->end() || !rows->is_array() || rows->size() != m.cpu_levels.size())
        throw std::invalid_argument(where + ".throughput: expected one row per CPU level (" +
                                    std::to_string(m.cpu_levels.size()) + ")");
    for (std::size_t r = 0; r < rows->size(); ++r) {
        const auto& row = (*rows)[r];
        if (!row.is_array() || row.size() != m.memory_levels_gb.size())
            throw std::invalid_argument(where + ".throughput[" + std::to_string(r) + "]: expected " +
                                        std::to_string(m.memory_levels_gb.size()) +
                                        " values, one per memory level");
        for (const auto& v : row) {
            if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
                throw std::invalid_argument(where + ".throughput[" + std::to_string(r) +
                                            "]: throughputs must be positive numbers");
            m.throughput.push_back(v.get<double>());
        }
    }
    return m;
}

nlohmann::json sensitivityJson(const SensitivityMatrix& matrix) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t c = 0; c < matrix.cpuCount(); ++c) {
        nlohmann::json row = nlohmann::json::array();
        for (std::size_t m = 0; m < matrix.memoryCount(); ++m) row.push_back(matrix.at(c, m));
        rows.push_back(row);
    }
    return {{"cpu_per_gpu", matrix.cpu_levels},
            {"memory_gb_per_gpu", matrix.memory_levels_gb},
            {"throughput", rows}};
}

}  // namespace cl
