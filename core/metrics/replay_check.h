#pragma once
// How closely a replay follows the run that was recorded (docs/architecture.md 7.10): per job
// the simulated against the recorded start, the distribution of the absolute differences, the
// waits (start - submit) of both, the agreement of the two start orders (Kendall's tau), the same
// per partition, and a verdict. Only jobs with a recorded start that the replay started count.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/sim_result.h"
#include "core/model/trace.h"

namespace cl {

struct ReplayJob {
    int index = 0;  // position in the trace
    std::string id;
    std::string partition;
    int gpus = 0;
    double submit = 0.0;
    double recorded_start = 0.0;
    double simulated_start = 0.0;
    double difference = 0.0;  // simulated - recorded, seconds
};

struct ReplayFigures {
    int jobs = 0;
    double median_difference = 0.0;  // of |simulated - recorded start|
    double p90_difference = 0.0;
    double max_difference = 0.0;
    double mean_wait_recorded = 0.0;
    double p95_wait_recorded = 0.0;
    double mean_wait_simulated = 0.0;
    double p95_wait_simulated = 0.0;
    double kendall_tau = 1.0;  // start orders: 1 = the same, -1 = reversed
};

struct ReplayCheck {
    ReplayFigures all;
    std::map<std::string, ReplayFigures> by_partition;  // jobs without a partition under ""
    std::vector<ReplayJob> jobs;                        // compared jobs, largest |difference| first
    int without_recorded_start = 0;
    int not_started = 0;  // recorded a start, but the replay never started them
    std::string verdict;
};

// `result` must be a run of `trace` (the same jobs in the same order).
ReplayCheck checkReplay(const Trace& trace, const SimResult& result);
// The verdict's rule: "close" when the median |difference| is at most 10 s, the p90 at most 60 s
// and the simulated mean wait within 15% of the recorded one; "rough" within 5x those bounds;
// else "far". The line names the figures.
std::string replayVerdict(const ReplayFigures& f);
nlohmann::json replayCheckJson(const ReplayCheck& check, int worst_jobs = 20);
std::string formatReplayCheck(const ReplayCheck& check, int worst_jobs = 10);

}  // namespace cl
