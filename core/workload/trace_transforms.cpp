#include "core/workload/trace_transforms.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/util/number_format.h"
#include "core/util/portable_random.h"
#include "core/workload/model_assignment.h"

namespace cl {

namespace {

// The per-job figures that depend on the model or GPU count (see the header).
void dropSettingDependentFigures(Job& job) {
    job.solo_iteration_time = 0.0;
    job.stage_times.clear();
    if (job.duration > 0.0) job.iterations = 0.0;
}

std::string secondsText(double t) {
    return std::isinf(t) ? "inf" : formatNumber(t);
}

}  // namespace

Trace scaleLoad(const Trace& trace, double factor) {
    if (!std::isfinite(factor) || !(factor > 0.0))
        throw std::invalid_argument("scale load: factor must be a finite number > 0, got " +
                                    formatNumber(factor));
    Trace out = trace;
    for (auto& job : out.jobs) job.submit_time /= factor;
    out.provenance.push_back("scale load x" + formatNumber(factor) + ": submit times divided by " +
                             formatNumber(factor));
    return out;
}

Trace allAtZero(const Trace& trace) {
    Trace out = trace;
    for (auto& job : out.jobs) job.submit_time = 0.0;
    out.provenance.push_back("all-at-zero: every job submitted at time 0");
    return out;
}

Trace timeWindow(const Trace& trace, double t0, double t1) {
    if (!std::isfinite(t0))
        throw std::invalid_argument("time window: start must be a finite number of seconds, got " +
                                    secondsText(t0));
    if (std::isnan(t1) || !(t1 > t0))
        throw std::invalid_argument("time window: end (" + secondsText(t1) +
                                    ") must be greater than start (" + secondsText(t0) + ")");
    Trace out = trace;
    out.jobs.clear();
    for (const auto& job : trace.jobs) {
        if (job.submit_time >= t0 && job.submit_time < t1) {
            out.jobs.push_back(job);
            out.jobs.back().submit_time -= t0;
        }
    }
    out.provenance.push_back("time window [" + secondsText(t0) + ", " + secondsText(t1) + ") s: kept " +
                             std::to_string(out.jobs.size()) + " of " + std::to_string(trace.jobs.size()) +
                             " jobs, submit times shifted by -" + secondsText(t0) + " s");
    return out;
}

Trace subsample(const Trace& trace, std::size_t n, std::uint64_t seed) {
    const std::size_t size = trace.jobs.size();
    if (n < 1) throw std::invalid_argument("subsample: the number of jobs must be >= 1");
    if (n > size)
        throw std::invalid_argument("subsample: cannot keep " + std::to_string(n) + " jobs of a trace with " +
                                    std::to_string(size));
    std::vector<std::size_t> idx(size);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    PortableRng rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = i + static_cast<std::size_t>(rng.below(size - i));
        std::swap(idx[i], idx[j]);
    }
    idx.resize(n);
    std::sort(idx.begin(), idx.end());
    Trace out = trace;
    out.jobs.clear();
    out.jobs.reserve(n);
    for (std::size_t i : idx) out.jobs.push_back(trace.jobs[i]);
    out.provenance.push_back("subsample " + std::to_string(n) + " of " + std::to_string(size) +
                             " jobs (seed " + std::to_string(seed) + ")");
    return out;
}

Trace resampleBlocks(const Trace& trace, double block_seconds, std::uint64_t seed) {
    if (!(block_seconds > 0) || !std::isfinite(block_seconds))
        throw std::invalid_argument("resample: the block length must be a positive number of seconds");
    Trace out = trace;
    out.jobs.clear();
    if (!trace.jobs.empty()) {
        double first = trace.jobs.front().submit_time, last = first;
        for (const Job& j : trace.jobs) {
            first = std::min(first, j.submit_time);
            last = std::max(last, j.submit_time);
        }
        const auto blockOf = [&](double submit) {
            return static_cast<std::size_t>(std::floor((submit - first) / block_seconds));
        };
        const std::size_t blocks = blockOf(last) + 1;
        std::vector<std::vector<std::size_t>> members(blocks);
        for (std::size_t i = 0; i < trace.jobs.size(); ++i)
            members[blockOf(trace.jobs[i].submit_time)].push_back(i);
        PortableRng rng(seed);
        out.jobs.reserve(trace.jobs.size());
        for (std::size_t k = 0; k < blocks; ++k) {
            const std::size_t drawn = static_cast<std::size_t>(rng.below(blocks));
            const double shift = (static_cast<double>(k) - static_cast<double>(drawn)) * block_seconds;
            for (std::size_t i : members[drawn]) {
                Job j = trace.jobs[i];
                j.id += "~" + std::to_string(k);
                j.submit_time += shift;
                j.recorded_start = -1.0;
                out.jobs.push_back(std::move(j));
            }
        }
    }
    out.provenance.push_back("resample blocks of " + formatNumber(block_seconds) +
                             " s by arrival (block bootstrap, seed " + std::to_string(seed) + ")");
    return out;
}

Trace reassignModels(const Trace& trace, const ModelMix& mix, std::uint64_t seed) {
    if (mix.empty() || !(mix.totalWeight() > 0.0))
        throw std::invalid_argument("reassign models: the model mix needs at least one positive weight");
    Trace out = trace;
    assignModels(out, mix, seed, /*only_missing=*/false);
    out.provenance.push_back("models reassigned from mix " + mix.toString() + " (seed " +
                             std::to_string(seed) + ")");
    return out;
}

Trace capGpus(const Trace& trace, int max_gpus) {
    if (max_gpus < 1)
        throw std::invalid_argument("cap GPUs: the cap must be >= 1, got " + std::to_string(max_gpus));
    Trace out = trace;
    std::size_t changed = 0;
    for (auto& job : out.jobs) {
        if (job.gpus > max_gpus) {
            job.gpus = max_gpus;
            dropSettingDependentFigures(job);
            ++changed;
        }
    }
    out.provenance.push_back("GPU counts capped at " + std::to_string(max_gpus) + " (" +
                             std::to_string(changed) + " jobs changed)");
    return out;
}

std::vector<std::string> transformSpecSyntax() {
    return {
        "scale=F (submit times divided by F > 0)",
        "all-at-zero (every job submitted at 0)",
        "window=T0:T1 (jobs submitted in [T0, T1) s, shifted to start at 0; T1 may be inf)",
        "subsample=N[:SEED] (N jobs chosen at random, order kept; SEED defaults to 1)",
        "models=MIX[@SEED] (models redrawn from e.g. resnet18:1,bert:2; SEED defaults to 1)",
        "tasks=SPLIT[@SEED] (models redrawn from a task split, e.g. image:20,language:70,rl:10)",
        "cap-gpus=C (GPU counts above C become C)",
        "resample=day|week[@SEED] (the arrivals resampled by day or week blocks, with replacement; SEED "
        "defaults to 1)",
    };
}

namespace {

[[noreturn]] void specError(const std::string& spec, const std::string& what) {
    std::string msg = "invalid trace transform '" + spec + "': " + what + "; valid transforms: ";
    bool first = true;
    for (const auto& s : transformSpecSyntax()) {
        msg += (first ? "" : ", ") + s;
        first = false;
    }
    throw std::invalid_argument(msg);
}

double parseNumber(const std::string& spec, const std::string& text, const char* what) {
    double v = 0.0;
    if (text == "inf" || text == "+inf") return std::numeric_limits<double>::infinity();
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
        specError(spec, std::string(what) + " '" + text + "' is not a number");
    return v;
}

template <typename Int>
Int parseInteger(const std::string& spec, const std::string& text, const char* what) {
    Int v = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
        specError(spec, std::string(what) + " '" + text + "' is not a non-negative integer");
    return v;
}

// "body@seed" -> (body, seed); no '@' -> (body, 1)
std::pair<std::string, std::uint64_t> splitSeed(const std::string& spec, const std::string& value) {
    const auto at = value.rfind('@');
    if (at == std::string::npos) return {value, 1};
    return {value.substr(0, at), parseInteger<std::uint64_t>(spec, value.substr(at + 1), "seed")};
}

}  // namespace

Trace applyTransform(const Trace& trace, const std::string& spec) {
    const auto eq = spec.find('=');
    const std::string name = spec.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? spec.substr(eq + 1) : std::string();
    const auto need_value = [&] {
        if (!has_value || value.empty()) specError(spec, "'" + name + "' needs a value");
    };
    try {
        if (name == "all-at-zero") {
            if (has_value) specError(spec, "'all-at-zero' takes no value");
            return allAtZero(trace);
        }
        if (name == "scale") {
            need_value();
            return scaleLoad(trace, parseNumber(spec, value, "scale factor"));
        }
        if (name == "window") {
            need_value();
            const auto colon = value.find(':');
            if (colon == std::string::npos) specError(spec, "expected window=T0:T1");
            return timeWindow(trace, parseNumber(spec, value.substr(0, colon), "window start"),
                              parseNumber(spec, value.substr(colon + 1), "window end"));
        }
        if (name == "subsample") {
            need_value();
            const auto colon = value.find(':');
            const auto n = parseInteger<std::size_t>(spec, value.substr(0, colon), "job count");
            const std::uint64_t seed =
                colon == std::string::npos
                    ? 1
                    : parseInteger<std::uint64_t>(spec, value.substr(colon + 1), "seed");
            return subsample(trace, n, seed);
        }
        if (name == "models") {
            need_value();
            const auto [mix, seed] = splitSeed(spec, value);
            return reassignModels(trace, parseModelMix(mix), seed);
        }
        if (name == "tasks") {
            need_value();
            const auto [split, seed] = splitSeed(spec, value);
            const TaskSplit parsed = parseTaskSplit(split);
            Trace out = reassignModels(trace, mixFromTaskSplit(parsed, muriTaskCatalog()), seed);
            out.provenance.back() += " = task split " + parsed.toString() + " over the muri models";
            return out;
        }
        if (name == "resample") {
            need_value();
            const auto [unit, seed] = splitSeed(spec, value);
            if (unit != "day" && unit != "week") specError(spec, "resample by 'day' or 'week'");
            return resampleBlocks(trace, unit == "day" ? 86400.0 : 7 * 86400.0, seed);
        }
        if (name == "cap-gpus") {
            need_value();
            const auto c = parseInteger<long long>(spec, value, "GPU cap");
            if (c > std::numeric_limits<int>::max()) specError(spec, "GPU cap too large");
            return capGpus(trace, static_cast<int>(c));
        }
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        if (what.rfind("invalid trace transform", 0) == 0) throw;
        specError(spec, what);
    }
    specError(spec, "unknown transform '" + name + "'");
}

Trace applyTransforms(const Trace& trace, const std::vector<std::string>& specs) {
    Trace out = trace;
    for (const auto& s : specs) out = applyTransform(out, s);
    return out;
}

}  // namespace cl
