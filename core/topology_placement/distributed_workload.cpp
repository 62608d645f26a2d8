#include "core/topology_placement/distributed_workload.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/util/portable_random.h"

namespace cl {

std::string arrivalPatternName(ArrivalPattern p) {
    switch (p) {
        case ArrivalPattern::Uniform:
            return "uniform";
        case ArrivalPattern::Poisson:
            return "poisson";
        case ArrivalPattern::Trace:
            return "trace";
    }
    return "uniform";
}

ArrivalPattern arrivalPatternFromName(const std::string& name) {
    for (auto p : {ArrivalPattern::Uniform, ArrivalPattern::Poisson, ArrivalPattern::Trace})
        if (arrivalPatternName(p) == name) return p;
    throw std::invalid_argument("unknown arrival pattern '" + name + "' (valid: uniform, poisson, trace)");
}

namespace {

constexpr std::size_t kMaxGeneratedJobs = 10'000'000;

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("distributed workload: " + what);
}

void validate(const DistributedWorkloadSpec& s, const std::vector<double>& step_seconds) {
    require(std::isfinite(s.jobs_per_interval) && s.jobs_per_interval >= 0 && s.jobs_per_interval <= 1e6,
            "jobs_per_interval must be between 0 and 1e6");
    require(s.intervals >= 0 && s.intervals <= 1000000, "intervals must be between 0 and 1,000,000");
    require(s.pods >= 1 && s.pods <= 100000, "pods must be between 1 and 100,000");
    require(std::isfinite(s.interval_seconds) && s.interval_seconds > 0, "interval_seconds must be positive");
    require(s.min_workers >= 1 && s.max_workers >= s.min_workers && s.max_workers <= 4096,
            "workers must satisfy 1 <= min_workers <= max_workers <= 4096");
    require(s.ps_share >= 0 && s.ps_share <= 1, "ps_share must be between 0 and 1");
    require(s.max_ps >= 0 && s.max_ps <= 4096, "max_ps must be between 0 and 4096");
    require(
        std::isfinite(s.min_hours) && s.min_hours > 0 && s.max_hours >= s.min_hours && s.max_hours <= 87600,
        "hours must satisfy 0 < min_hours <= max_hours <= 87600");
    require(!step_seconds.empty(), "no model types");
    for (double t : step_seconds) require(std::isfinite(t) && t > 0, "model step times must be positive");
    if (s.pattern == ArrivalPattern::Trace) {
        require(!s.trace_counts.empty(), "the trace pattern needs arrival counts from a trace");
        for (double c : s.trace_counts)
            require(std::isfinite(c) && c >= 0, "trace counts must be non-negative");
    }
}

int poisson(PortableRng& rng, double mean) {
    // Counts unit-rate exponential gaps inside [0, mean): exact, and O(mean) draws.
    int n = 0;
    for (double t = rng.exponential(1.0); t < mean; t += rng.exponential(1.0)) ++n;
    return n;
}

}  // namespace

std::vector<DistributedJob> generateDistributedWorkload(const DistributedWorkloadSpec& spec,
                                                        const std::vector<double>& step_seconds) {
    validate(spec, step_seconds);
    PortableRng arrivals(deriveSeed(spec.seed, 0));
    PortableRng attributes(deriveSeed(spec.seed, 1));

    const int intervals = spec.pattern == ArrivalPattern::Trace && spec.intervals == 0
                              ? static_cast<int>(spec.trace_counts.size())
                              : spec.intervals;
    double trace_scale = 0.0;
    if (spec.pattern == ArrivalPattern::Trace) {
        double total = 0;
        for (double c : spec.trace_counts) total += c;
        require(total > 0, "the trace has no arrivals");
        trace_scale = spec.jobs_per_interval * static_cast<double>(spec.trace_counts.size()) / total;
    }

    const double expected = spec.jobs_per_interval * intervals * static_cast<double>(spec.pods);
    require(spec.max_jobs > 0 || expected <= static_cast<double>(kMaxGeneratedJobs),
            "the workload would exceed 10,000,000 jobs; lower the rate or intervals, or cap the jobs");
    std::vector<DistributedJob> jobs;
    const double log_min = std::log(spec.min_hours), log_max = std::log(spec.max_hours);
    for (int i = 0; i < intervals; ++i) {
        for (int pod = 0; pod < spec.pods; ++pod) {
            int count = 0;
            switch (spec.pattern) {
                case ArrivalPattern::Uniform: {
                    // Uniform over 0 .. m with m = 2 x rate, its fraction rounded at random:
                    // the mean is the rate, fractional rates included.
                    const double top = 2 * spec.jobs_per_interval;
                    auto m = static_cast<std::uint64_t>(std::floor(top));
                    if (arrivals.uniform01() < top - std::floor(top)) ++m;
                    count = static_cast<int>(arrivals.below(m + 1));
                    break;
                }
                case ArrivalPattern::Poisson:
                    count = poisson(arrivals, spec.jobs_per_interval);
                    break;
                case ArrivalPattern::Trace: {
                    // Each pod follows the trace's shape; the fraction is rounded at random.
                    const double want =
                        spec.trace_counts[static_cast<std::size_t>(i) % spec.trace_counts.size()] *
                        trace_scale;
                    count = static_cast<int>(std::floor(want));
                    if (arrivals.uniform01() < want - std::floor(want)) ++count;
                    break;
                }
            }
            for (int k = 0; k < count; ++k) {
                if (spec.max_jobs && jobs.size() >= spec.max_jobs) return jobs;
                require(jobs.size() < kMaxGeneratedJobs,
                        "the workload would exceed 10,000,000 jobs; lower the rate or intervals, or cap the "
                        "jobs");
                DistributedJob j;
                j.id = static_cast<int>(jobs.size()) + 1;
                j.name = "job-" + std::to_string(j.id);
                j.submit = i * spec.interval_seconds;
                j.pod = pod;
                j.model = static_cast<int>(attributes.below(step_seconds.size()));
                j.workers = spec.min_workers + static_cast<int>(attributes.below(static_cast<std::uint64_t>(
                                                   spec.max_workers - spec.min_workers + 1)));
                const double ps_draw = attributes.uniform01();
                const std::uint64_t ps_count =
                    attributes.below(static_cast<std::uint64_t>(std::max(spec.max_ps, 1)));
                if (spec.max_ps > 0 && ps_draw < spec.ps_share)
                    j.parameter_servers = 1 + static_cast<int>(ps_count);
                const double hours = std::exp(log_min + (log_max - log_min) * attributes.uniform01());
                j.steps = std::max(
                    1.0, std::round(hours * 3600.0 / step_seconds[static_cast<std::size_t>(j.model)]));
                jobs.push_back(std::move(j));
            }
        }
    }
    return jobs;
}

std::vector<double> arrivalCountsPerInterval(const Trace& trace, double interval_seconds) {
    if (!(interval_seconds > 0)) throw std::invalid_argument("interval_seconds must be positive");
    std::vector<double> counts;
    if (trace.jobs.empty()) return counts;
    const double first = trace.firstSubmit();
    for (const auto& job : trace.jobs) {
        const double k = std::floor((job.submit_time - first) / interval_seconds);
        if (!(k >= 0) || k > 1e6) continue;  // a trace spanning more than 57 years is cut there
        const auto index = static_cast<std::size_t>(k);
        if (counts.size() <= index) counts.resize(index + 1, 0.0);
        counts[index] += 1.0;
    }
    return counts;
}

}  // namespace cl
