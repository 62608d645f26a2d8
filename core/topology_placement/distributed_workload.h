#pragma once
// Workloads of data-parallel jobs arriving at the pod schedulers in 30-minute scheduling
// intervals (the multi-agent placement paper, Sec. VI-A/B): uniform, Poisson, or following a
// trace's arrivals.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/trace.h"

namespace cl {

enum class ArrivalPattern { Uniform, Poisson, Trace };
std::string arrivalPatternName(ArrivalPattern p);           // "uniform", "poisson", "trace"
ArrivalPattern arrivalPatternFromName(const std::string&);  // throws std::invalid_argument

struct DistributedJob {
    int id = 0;
    std::string name;
    int model = 0;  // index into the model types
    int workers = 1;
    int parameter_servers = 0;  // 0 = ring all-reduce among the workers
    double steps = 1.0;         // synchronous steps to run
    double submit = 0.0;        // seconds; the start of an interval
    int pod = 0;                // the scheduler it is submitted to
};

struct DistributedWorkloadSpec {
    ArrivalPattern pattern = ArrivalPattern::Uniform;
    double jobs_per_interval = 15.0;  // per pod (the paper's rate, Sec. VI-B)
    int intervals = 10;
    int pods = 1;
    double interval_seconds = 1800.0;
    // Trace pattern: jobs per interval in the trace; rescaled so its mean is jobs_per_interval.
    std::vector<double> trace_counts;
    int min_workers = 1;
    int max_workers = 4;
    double ps_share = 0.5;  // of jobs that use parameter servers (1 .. max_ps of them)
    int max_ps = 2;
    double min_hours = 0.25;  // running time alone, drawn log-uniformly
    double max_hours = 4.0;
    std::size_t max_jobs = 0;  // 0 = no cap
    std::uint64_t seed = 1;
};

// Throws std::invalid_argument naming the bad field. `model_count` model types are drawn
// uniformly; `step_seconds[m]` converts the drawn running time into steps.
std::vector<DistributedJob> generateDistributedWorkload(const DistributedWorkloadSpec& spec,
                                                        const std::vector<double>& step_seconds);

// Jobs submitted per interval of `interval_seconds`, from the first submit on.
std::vector<double> arrivalCountsPerInterval(const Trace& trace, double interval_seconds);

}  // namespace cl
