#pragma once
// The Slurm settings the `slurm` scheduler follows (docs/architecture.md 4.8), under Slurm's own
// names and with Slurm 22.05's defaults (slurm.conf: SchedulerType, SchedulerParameters,
// PriorityType, PriorityWeight*, PriorityMaxAge, PriorityDecayHalfLife, PriorityFavorSmall).
// Times are seconds here; Slurm writes bf_window in minutes and the priority times as
// [D-]HH:MM:SS, which the readers convert.
#include <string>
#include <string_view>
#include <vector>

namespace cl {

struct SlurmConfig {
    // SchedulerType: sched/backfill (the main scheduler plus backfill) or sched/builtin (the
    // main scheduler alone, strict priority order per partition).
    bool backfill = true;
    // Not a Slurm setting but how slurmctld behaves: it acts on a submission or a completion at
    // the next tick of its background agent, once a second (0 = at once, the textbook).
    // `--slurm-param event_latency=0` turns it off.
    double event_latency = 1.0;
    // SchedulerParameters.
    double sched_interval = 60.0;  // the main scheduler's periodic pass (infinity = none)
    // sched_interval=-1 turns the main scheduler off altogether, its event-triggered passes too
    // (Slurm's job_scheduler.c returns at once): backfill then starts every job.
    bool main_scheduler = true;
    int default_queue_depth = 100;  // jobs the event-triggered main pass tests
    double bf_interval = 30.0;
    double bf_window = 1440.0 * 60.0;  // how far ahead reservations are planned
    double bf_resolution = 60.0;       // reservations start and end on this grid
    int bf_max_job_test = 500;
    bool bf_continue = false;
    // PriorityType: priority/basic (submit order) or priority/multifactor.
    bool multifactor = false;
    double weight_age = 0.0;
    double weight_job_size = 0.0;
    double weight_partition = 0.0;
    double weight_qos = 0.0;
    double weight_fairshare = 0.0;
    double max_age = 7 * 86400.0;
    double decay_half_life = 7 * 86400.0;
    // PriorityCalcPeriod: multifactor priorities are recomputed this often (Slurm: 5 minutes).
    double priority_calc_period = 300.0;
    bool favor_small = false;

    bool operator==(const SlurmConfig&) const = default;
};

// Sets one parameter by Slurm's name (case-insensitive): a SchedulerParameters option
// ("bf_interval", "bf_window" in minutes, ...), a slurm.conf key ("PriorityType",
// "PriorityWeightAge", "PriorityMaxAge" as [D-]HH:MM:SS, ...), or "SchedulerParameters" itself
// (a comma list). Throws std::invalid_argument naming the key and what it expected; keys Slurm
// has but the scheduler does not model are accepted and ignored.
void setSlurmParameter(SlurmConfig& config, std::string_view key, std::string_view value);

// `scontrol show config` as saved ("Key = Value" lines): the keys above are read, every other
// line is skipped. Throws ParseError with file, line and key for a value that cannot be read.
SlurmConfig parseSlurmConfig(std::string_view text, const std::string& file);
SlurmConfig readSlurmConfig(const std::string& path);

// "bf_interval=2,PriorityType=priority/multifactor" (what --slurm-param takes), applied in order.
void applySlurmParameters(SlurmConfig& config, const std::vector<std::string>& assignments);

// The settings where `config` differs from Slurm's defaults, as KEY=VALUE under Slurm's names, in
// the order of SlurmConfig's fields: applySlurmParameters on a default config gives `config`
// back. What a scenario stores of a saved `scontrol show config` (ScenarioParameters).
std::vector<std::string> slurmParameters(const SlurmConfig& config);

}  // namespace cl
