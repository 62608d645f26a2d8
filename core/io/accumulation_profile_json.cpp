#include "core/io/accumulation_profile_json.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace cl {

namespace {

// Six significant digits: the fit is not more precise, and the file stays readable.
double rounded(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::stod(buf);
}

double ms(double seconds) {
    return rounded(seconds * 1000.0);
}

constexpr int kProfiledGpus[] = {1, 2, 4, 8, 16};
constexpr double kRestartSeconds = 10.0;

}  // namespace

nlohmann::json accumulationSectionJson(const AccumulationFit& fit) {
    const AccumulationProfile& p = fit.profile;
    nlohmann::json s = nlohmann::json::object();
    s["compute_ms"] = {{"alpha", ms(p.alpha_comp)}, {"beta", ms(p.beta_comp)}};
    s["allreduce_ms"] = {{"intra_alpha", ms(p.alpha_comm_intra)},
                         {"intra_beta", ms(p.beta_comm_intra)},
                         {"inter_alpha", ms(p.alpha_comm_inter)},
                         {"inter_beta", ms(p.beta_comm_inter)}};
    s["gradient_mb"] = rounded(p.gradient_mb);
    s["overlap_delta"] = rounded(p.delta);
    s["memory_mb"] = {{"m0", rounded(p.memory_base_mb)}, {"m1", rounded(p.memory_per_sample_mb)}};
    s["default_batch"] = p.default_batch;
    s["train_samples"] = std::llround(p.train_samples);  // exact: epochs x dataset size
    s["fit"] = {
        {"rows", fit.error.rows},
        {"rms_rel_error", rounded(fit.error.rms_rel_error)},
        {"max_rel_error", rounded(fit.error.max_rel_error)},
        {"source", "Pollux artifact measurements " + fit.model + "/placements.csv and " + fit.model +
                       "/scalability.csv (" + std::to_string(fit.single_gpu_rows) + " one-GPU, " +
                       std::to_string(fit.intra_rows) + " one-node, " + std::to_string(fit.inter_rows) +
                       " multi-node rows), least squares by clusterloom-cli fit-profile"}};
    return s;
}

ModelProfile accumulationModelProfile(const AccumulationFit& fit) {
    ModelProfile m;
    m.name = fit.model;
    m.extra.edit() = nlohmann::json::object();
    m.extra.edit()["sjf_bsbf"] = accumulationSectionJson(fit);
    // The rows follow from the rounded parameters as stored, so that file and rows agree.
    const AccumulationProfile p = *accumulationProfileOf(m);
    const int local = p.default_batch;
    const int sub = largestFittingSubBatch(p, local, p.reference_gpu_memory_mb);
    if (sub <= 0)
        throw std::invalid_argument("model '" + fit.model + "': one sample does not fit in " +
                                    std::to_string(p.reference_gpu_memory_mb) + " MB");
    m.batch_size = p.default_batch;
    m.gpu_memory_mb = rounded(workerMemoryMb(p, sub));
    for (int gpus : kProfiledGpus) {
        GpuCountProfile row;
        row.gpus = gpus;
        const int servers = consolidatedServers(gpus, p.reference_gpus_per_server);
        row.solo_iteration_time =
            rounded(accumulatedIterationTime(p, gpus, servers, p.default_batch * gpus, sub));
        row.restart_overhead = kRestartSeconds;
        m.by_gpus.push_back(row);
    }
    return m;
}

ProfileSet accumulationProfileSet(const std::vector<AccumulationFit>& fits) {
    ProfileSet set;
    set.name = "sjf-bsbf";
    set.source =
        "SJF-BSBF speed model (Luo et al., 2024, Eq. 7) fitted by clusterloom-cli fit-profile "
        "(core/model/accumulation_fit.cpp) to the Pollux artifact's throughput measurements "
        "(Qiao et al., OSDI 2021; simulator traces placements.csv and scalability.csv, measured on "
        "4 x T4 nodes); gradient size, memory, batch and training length from published model figures "
        "(data/README.md, sjf_bsbf section). iteration_ms: Eq. 7 at default_batch x GPUs on "
        "consolidated 4 x 11 GB RTX 2080 Ti servers, largest fitting sub-batch.";
    set.default_restart_overhead = kRestartSeconds;
    for (const auto& fit : fits) set.models[fit.model] = accumulationModelProfile(fit);
    return set;
}

}  // namespace cl
