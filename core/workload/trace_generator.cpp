#include "core/workload/trace_generator.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <stdexcept>

#include "core/util/number_format.h"
#include "core/util/portable_random.h"
#include "core/workload/model_assignment.h"

namespace cl {

namespace {

enum Stream : std::uint64_t { kArrivals = 1, kGpus = 2, kDurations = 3, kModels = 4 };

bool isPhillyDefault(const GeneratorConfig& c) {
    return c.gpu_weights.empty();
}

void validateGpuWeights(const std::vector<std::pair<int, double>>& weights) {
    std::set<int> seen;
    double total = 0.0;
    for (const auto& [gpus, w] : weights) {
        if (gpus < 1)
            throw std::invalid_argument("GPU weights: GPU count " + std::to_string(gpus) + " must be >= 1");
        if (!std::isfinite(w) || w < 0.0)
            throw std::invalid_argument("GPU weights: weight of " + std::to_string(gpus) +
                                        " GPUs must be finite and >= 0");
        if (!seen.insert(gpus).second)
            throw std::invalid_argument("GPU weights: GPU count " + std::to_string(gpus) + " given twice");
        total += w;
    }
    if (!(total > 0.0)) throw std::invalid_argument("GPU weights: no positive weight");
}

std::vector<std::pair<int, double>> effectiveGpuWeights(const GeneratorConfig& c) {
    auto weights = isPhillyDefault(c) ? phillyGpuCountWeights() : c.gpu_weights;
    validateGpuWeights(weights);
    if (c.max_gpus < 0) throw std::invalid_argument("max_gpus must be >= 0 (0 = no cap)");
    if (c.max_gpus > 0) {
        std::vector<std::pair<int, double>> kept;
        for (const auto& e : weights)
            if (e.first <= c.max_gpus) kept.push_back(e);
        double total = 0.0;
        for (const auto& e : kept) total += e.second;
        if (!(total > 0.0))
            throw std::invalid_argument("max_gpus " + std::to_string(c.max_gpus) +
                                        " is below every GPU count with a positive weight");
        weights = std::move(kept);
    }
    return weights;
}

std::string weightsToString(const std::vector<std::pair<int, double>>& weights) {
    std::string out;
    for (const auto& [g, w] : weights)
        out += (out.empty() ? "" : ",") + std::to_string(g) + ":" + formatNumber(w);
    return out;
}

ModelMix effectiveModelMix(const GeneratorConfig& c, const ProfileSet* profiles, std::string* how) {
    if (!c.models.empty()) {
        if (how) *how = "mix " + c.models.toString();
        if (!(c.models.totalWeight() > 0.0)) throw std::invalid_argument("model mix has no positive weight");
        return c.models;
    }
    if (!c.tasks.empty()) {
        const TaskCatalog& catalog = taskCatalog(c.task_catalog);
        if (how) *how = "task split " + c.tasks.toString() + " over the " + catalog.name + " models";
        return mixFromTaskSplit(c.tasks, catalog);
    }
    if (profiles && !profiles->models.empty()) {
        if (how)
            *how = "uniform over the " + std::to_string(profiles->models.size()) +
                   " models of profile set '" + profiles->name + "'";
        return ModelMix::uniform(profiles->modelNames());
    }
    if (how) *how = "uniform over the 8 built-in Muri models";
    return ModelMix::uniform(muriTaskCatalog().allModels());
}

void validate(const GeneratorConfig& c) {
    if (c.jobs < 0) throw std::invalid_argument("job count must be >= 0, got " + std::to_string(c.jobs));
    if (c.model_rule == ModelRule::TaskShare && c.tasks.empty())
        throw std::invalid_argument(
            "the task-share model rule needs a task split, e.g. image:20,language:70,speech:10");
    if (c.arrival == ArrivalProcess::Poisson && !(std::isfinite(c.jobs_per_hour) && c.jobs_per_hour > 0.0))
        throw std::invalid_argument("Poisson arrival rate must be a positive number of jobs per hour, got " +
                                    formatNumber(c.jobs_per_hour));
}

double roundTo(double x, double unit) {
    return std::round(x / unit) * unit;
}

double drawDuration(PortableRng& rng, DurationModel model) {
    double seconds = 0.0;
    if (model == DurationModel::PhillyLognormal) {
        const double z = rng.standardNormal();
        seconds = std::exp(std::log(kPhillyMedianDurationS) + kPhillyLogDurationSigma * z);
        seconds = std::min(seconds, kPhillyMaxDurationS);
    } else {
        const double branch = rng.uniform01();
        const double v = rng.uniform01();
        const double x = branch < 0.8 ? 1.5 + 1.5 * v : 3.0 + v;
        seconds = 60.0 * std::pow(10.0, x);
    }
    return std::max(1.0, std::round(seconds));
}

}  // namespace

std::vector<std::pair<int, double>> phillyGpuCountWeights() {
    return {{1, 76627}, {2, 1818}, {4, 1870}, {8, 1643}, {16, 199}, {32, 67}};
}

std::vector<std::pair<int, double>> parseGpuWeights(const std::string& spec) {
    // Reuse the name:weight grammar, then read the names as GPU counts.
    ModelMix generic;
    try {
        generic = parseModelMix(spec);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("GPU weights: ") + e.what() +
                                    " (expected e.g. \"1:0.7,2:0.1,4:0.2\")");
    }
    std::vector<std::pair<int, double>> out;
    for (const auto& [name, w] : generic.entries) {
        int gpus = 0;
        auto res = std::from_chars(name.data(), name.data() + name.size(), gpus);
        if (res.ec != std::errc() || res.ptr != name.data() + name.size() || gpus < 1)
            throw std::invalid_argument("GPU weights: '" + name +
                                        "' is not a GPU count >= 1 (expected e.g. \"1:0.7,2:0.1,4:0.2\")");
        out.emplace_back(gpus, w);
    }
    validateGpuWeights(out);
    return out;
}

std::string describeConfig(const GeneratorConfig& c, const ProfileSet* profiles) {
    std::string models_how;
    effectiveModelMix(c, profiles, &models_how);
    std::string line = "generated " + std::to_string(c.jobs) + " jobs, seed " + std::to_string(c.seed) + ": ";
    if (c.arrival == ArrivalProcess::Poisson)
        line += "Poisson arrivals at " + formatNumber(c.jobs_per_hour) + " jobs/h";
    else
        line += "all jobs at time 0";
    line += "; durations ";
    if (c.duration == DurationModel::PhillyLognormal)
        line += "Philly-like lognormal (median " + formatNumber(kPhillyMedianDurationS) + " s, sigma " +
                formatNumber(kPhillyLogDurationSigma) + ", at most 60 days)";
    else
        line += "Synergy log-uniform (10^x min, x~U[1.5,3] w.p. 0.8, U[3,4] w.p. 0.2)";
    line += "; GPU counts " + weightsToString(isPhillyDefault(c) ? phillyGpuCountWeights() : c.gpu_weights);
    if (isPhillyDefault(c)) line += " (Philly trace job counts)";
    if (c.max_gpus > 0) line += " capped at " + std::to_string(c.max_gpus);
    line += "; models " + models_how;
    if (c.model_rule == ModelRule::TaskShare)
        line += ", each job to the task furthest below its share, round-robin within it";
    if (profiles) line += "; iterations and batch sizes from profile set '" + profiles->name + "'";
    return line;
}

Trace generate(const GeneratorConfig& c, const ProfileSet* profiles) {
    validate(c);
    const auto gpu_weights = effectiveGpuWeights(c);
    const ModelMix mix = effectiveModelMix(c, profiles, nullptr);

    std::vector<double> weights;
    for (const auto& e : gpu_weights) weights.push_back(e.second);

    Trace trace;
    trace.name = c.name.empty() ? "generated" : c.name;
    trace.jobs.resize(static_cast<std::size_t>(c.jobs));

    PortableRng arrivals(deriveSeed(c.seed, kArrivals));
    PortableRng gpus(deriveSeed(c.seed, kGpus));
    PortableRng durations(deriveSeed(c.seed, kDurations));
    const double mean_gap = c.arrival == ArrivalProcess::Poisson ? 3600.0 / c.jobs_per_hour : 0.0;
    double t = 0.0;
    for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
        Job& job = trace.jobs[i];
        job.id = std::to_string(i);
        if (c.arrival == ArrivalProcess::Poisson && i > 0) t += arrivals.exponential(1.0 / mean_gap);
        job.submit_time = roundTo(t, 1e-3);
        job.gpus = gpu_weights[pickWeighted(weights, gpus.uniform01())].first;
        job.duration = drawDuration(durations, c.duration);
    }
    if (c.model_rule == ModelRule::TaskShare)
        assignModelsByTaskShare(trace, c.tasks, taskCatalog(c.task_catalog), /*only_missing=*/false);
    else
        assignModels(trace, mix, deriveSeed(c.seed, kModels), /*only_missing=*/false);
    if (profiles) {
        fillBatchSizes(trace, *profiles);
        deriveIterations(trace, *profiles);
    }
    trace.provenance.push_back(describeConfig(c, profiles));
    return trace;
}

}  // namespace cl
