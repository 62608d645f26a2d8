#include "core/model/accumulation_speed.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cl {

namespace {

double number(const nlohmann::json& obj, const char* key, const std::string& where, double min_value,
              bool required = true) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required) throw std::invalid_argument(where + ": missing field '" + key + "'");
        return min_value;
    }
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < min_value)
        throw std::invalid_argument(where + ": field '" + key +
                                    "' must be a number >= " + std::to_string(min_value));
    return it->get<double>();
}

const nlohmann::json& object(const nlohmann::json& obj, const char* key, const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_object())
        throw std::invalid_argument(where + ": missing object '" + key + "'");
    return *it;
}

}  // namespace

std::optional<AccumulationProfile> accumulationProfileOf(const ModelProfile& model) {
    if (!model.extra.get().is_object()) return std::nullopt;
    auto section = model.extra.get().find("sjf_bsbf");
    if (section == model.extra.get().end()) return std::nullopt;
    const std::string where = "model '" + model.name + "' extra.sjf_bsbf";
    if (!section->is_object()) throw std::invalid_argument(where + " must be an object");
    const nlohmann::json& s = *section;
    AccumulationProfile p;
    const nlohmann::json& comp = object(s, "compute_ms", where);
    p.alpha_comp = number(comp, "alpha", where + ".compute_ms", 0) / 1000.0;
    p.beta_comp = number(comp, "beta", where + ".compute_ms", 0) / 1000.0;
    const nlohmann::json& comm = object(s, "allreduce_ms", where);
    p.alpha_comm_intra = number(comm, "intra_alpha", where + ".allreduce_ms", 0) / 1000.0;
    p.beta_comm_intra = number(comm, "intra_beta", where + ".allreduce_ms", 0) / 1000.0;
    p.alpha_comm_inter = number(comm, "inter_alpha", where + ".allreduce_ms", 0) / 1000.0;
    p.beta_comm_inter = number(comm, "inter_beta", where + ".allreduce_ms", 0) / 1000.0;
    p.gradient_mb = number(s, "gradient_mb", where, 0);
    p.delta = number(s, "overlap_delta", where, 1);
    const nlohmann::json& mem = object(s, "memory_mb", where);
    p.memory_base_mb = number(mem, "m0", where + ".memory_mb", 0);
    p.memory_per_sample_mb = number(mem, "m1", where + ".memory_mb", 0);
    const double default_batch = number(s, "default_batch", where, 1);
    if (default_batch > kMaxBatch || default_batch != std::floor(default_batch))
        throw std::invalid_argument(where + ": field 'default_batch' must be a whole number up to " +
                                    std::to_string(kMaxBatch));
    p.default_batch = static_cast<int>(default_batch);
    if (!(p.alpha_comp + p.beta_comp > 0))
        throw std::invalid_argument(where + ".compute_ms: alpha and beta cannot both be 0");
    if (p.delta > 100) throw std::invalid_argument(where + ": field 'overlap_delta' must be at most 100");
    p.train_samples = number(s, "train_samples", where, 0, false);
    if (s.contains("reference_gpu_memory_mb"))
        p.reference_gpu_memory_mb = number(s, "reference_gpu_memory_mb", where, 1);
    if (s.contains("reference_gpus_per_server"))
        p.reference_gpus_per_server = static_cast<int>(number(s, "reference_gpus_per_server", where, 1));
    if (auto xi = s.find("interference"); xi != s.end()) {
        if (!xi->is_object())
            throw std::invalid_argument(where + ".interference must be an object model -> ratio");
        for (const auto& [other, value] : xi->items()) {
            if (!value.is_number() || !(value.get<double>() >= 1.0) || !std::isfinite(value.get<double>()))
                throw std::invalid_argument(where + ".interference['" + other + "'] must be a number >= 1");
            p.interference[other] = value.get<double>();
        }
    }
    return p;
}

double computeTime(const AccumulationProfile& p, double sub_batch) {
    return p.alpha_comp + p.beta_comp * sub_batch;
}

double allReduceTime(const AccumulationProfile& p, int gpus, int servers) {
    if (gpus <= 1) return 0.0;
    const double sent_mb = p.gradient_mb * 2.0 * (gpus - 1) / gpus;
    return servers <= 1 ? p.alpha_comm_intra + p.beta_comm_intra * sent_mb
                        : p.alpha_comm_inter + p.beta_comm_inter * sent_mb;
}

int localBatch(int batch, int gpus) {
    const long long n = std::max(gpus, 1);
    return static_cast<int>(std::max<long long>(1, (static_cast<long long>(batch) + n - 1) / n));
}

int jobBatch(const AccumulationProfile& p, int trace_batch, int gpus) {
    const long long batch =
        trace_batch > 0 ? trace_batch : static_cast<long long>(p.default_batch) * std::max(gpus, 1);
    if (batch > kMaxBatch)
        throw std::invalid_argument("batch size " + std::to_string(batch) +
                                    " is above the largest supported, " + std::to_string(kMaxBatch));
    return static_cast<int>(batch);
}

double accumulatedIterationTime(const AccumulationProfile& p, int gpus, int servers, int batch,
                                int sub_batch) {
    const int local = localBatch(batch, gpus);
    const int b = std::clamp(sub_batch, 1, local);
    const int steps = static_cast<int>((static_cast<long long>(local) + b - 1) / b);
    const double comp = computeTime(p, b);
    const double comm = allReduceTime(p, gpus, servers);
    double last = comp;
    if (comm > 0) last = std::pow(std::pow(comp, p.delta) + std::pow(comm, p.delta), 1.0 / p.delta);
    return (steps - 1) * comp + last;
}

double workerMemoryMb(const AccumulationProfile& p, int sub_batch) {
    return p.memory_base_mb + p.memory_per_sample_mb * sub_batch;
}

int largestFittingSubBatch(const AccumulationProfile& p, int local_batch, double memory_mb) {
    for (int b = std::max(local_batch, 1);; b -= b / 2) {  // ceil(b / 2) without overflow
        if (workerMemoryMb(p, b) <= memory_mb) return b;
        if (b == 1) return 0;
    }
}

int consolidatedServers(int gpus, int gpus_per_server) {
    if (gpus_per_server <= 0) return 1;
    return std::max(1, (gpus + gpus_per_server - 1) / gpus_per_server);
}

}  // namespace cl
