#pragma once
// SJF-BSBF's workloads (docs/architecture.md section 5.3): n jobs sampled from the busiest period
// of the Philly trace as published with the Pollux artifact (philly_jobs.csv: timestamp, duration,
// num_gpus, gpu_time in GPU-seconds, cluster) and annotated with Pollux's six models the way
// Pollux's own workload generator annotates them (Qiao et al., OSDI 2021, artifact
// simulator/workload.py, whose thresholds and coin flips are followed here). The rule:
//  1. Filters (Pollux's): keep jobs with duration >= 60 s and gpu_time < 1000 GPU-hours.
//  2. Busiest period: of all windows of `window_hours` consecutive clock hours starting on a
//     whole hour between the first and the last submission (absolute time, not hour of day
//     as Pollux uses), the one with the most filtered submissions; ties to the earliest.
//     Timestamps are taken as they stand (no time zone).
//  2b. With hour_of_day (what Pollux's generator does, and what the experiment uses): the
//     `window_hours` hours of the day (e.g. 02:00-10:00) in which the most filtered jobs were
//     submitted over all days of the trace; every such job is a candidate and its submit
//     time is the seconds since the window's start hour on its own day.
//  3. With max_gpus > 0, jobs of the window needing more GPUs are dropped (they could never
//     run on the cluster); the window itself is chosen before this cap.
//  4. Sample `jobs` of the window's jobs uniformly without replacement: the window's rows in
//     (timestamp, file row) order, a partial Fisher-Yates shuffle whose k-th step swaps
//     position k with k + below(m - k), PortableRng(seed). Sorted by (timestamp, file row).
//  5. Model by gpu_time, drawing from the same stream after the sampling, job by job in
//     submit order: < 1 GPU-hour cifar10 or ncf (below(2): 0 = cifar10); < 10 deepspeech2,
//     or bert when below(2) is 1; < 100 yolov3; else imagenet.
//  6. Job k: id "<model>-<k>", submit = seconds since the window start, gpus = num_gpus,
//     duration = the Philly duration (the job's solo run time; the engine derives
//     iterations from it), vc = cluster, batch_size = the model's extra.sjf_bsbf
//     default_batch x gpus when a profile set holding it is given, else 0 (the engine then
//     uses the default).
//  7. With `configurations` (Pollux's per-model (replicas, batch) choices, e.g. read from
//     Pollux's published workloads by polluxConfigurations): GPU count and batch are drawn
//     uniformly from the model's configurations (same stream, right after the model), as
//     Pollux's generator draws from its get_configurations list, and the job states no
//     length: like Pollux's, it trains the model's train_samples (extra.sjf_bsbf). The
//     paper: "the settings of GPU numbers and training iterations also follow those of
//     Pollux". Configurations above max_gpus are left out; a model without any keeps rule 6.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

namespace cl {

struct PhillyJobRow {
    double submit = 0.0;    // seconds since 1970-01-01 of the stated timestamp
    double duration = 0.0;  // seconds
    int gpus = 1;
    double gpu_time = 0.0;  // GPU-seconds
    std::string cluster;
    int row = 0;  // data row index in the file (0 = first row after the header)
};

struct PhillyWorkloadOptions {
    int jobs = 240;
    std::uint64_t seed = 1;
    int window_hours = 8;
    int max_gpus = 0;  // 0 = no cap
    // Rule 2 by hours of the day as Pollux's generator does (rule 2b); false = one absolute
    // window of consecutive hours.
    bool hour_of_day = false;
    // Rule 7 with the Philly run time kept as the job's solo run time instead of the model's
    // training samples.
    bool keep_philly_duration = false;
    // Per model: (GPU count, global batch) choices (rule 7); empty = the Philly GPU count.
    std::map<std::string, std::vector<std::pair<int, int>>> configurations;
};

// The distinct (replicas, batch) configurations per application in Pollux's workload CSVs
// (name,time,application,num_replicas,batch_size) of a folder, sorted. Throws naming the
// file on a malformed CSV, or std::invalid_argument when the folder has no workload-*.csv.
std::map<std::string, std::vector<std::pair<int, int>>> polluxConfigurations(
    const std::string& workloads_dir);

struct PhillyWindow {
    double start = 0.0;  // seconds since 1970-01-01, a whole hour
    int hours = 0;
    int jobs = 0;      // filtered submissions inside the window
    int eligible = 0;  // of those, jobs within max_gpus
};

struct PhillyWorkload {
    Trace trace;
    PhillyWindow window;
    std::vector<PhillyJobRow> sampled;  // the source row of trace.jobs[k] at k
};

// Every row of the file; a missing file, column or a bad value throws the io ParseError
// naming the file, line and field.
std::vector<PhillyJobRow> readPhillyJobRows(const std::string& path);

bool passesPolluxFilter(const PhillyJobRow& row);

// Busiest window of the rows passing the filter (rule step 2). Throws std::invalid_argument
// when window_hours < 1 or no row passes the filter.
PhillyWindow findBusiestWindow(const std::vector<PhillyJobRow>& rows, int window_hours);

// Busiest hours of the day (rule 2b): start = the first hour's seconds since midnight.
PhillyWindow findBusiestHoursOfDay(const std::vector<PhillyJobRow>& rows, int window_hours);

// Throws std::invalid_argument on bad options and when the window holds fewer eligible jobs
// than asked for (the message states how many it holds).
PhillyWorkload phillyBusiestWorkload(const std::vector<PhillyJobRow>& rows,
                                     const PhillyWorkloadOptions& options,
                                     const ProfileSet* profiles = nullptr);
PhillyWorkload phillyBusiestWorkload(const std::string& path, const PhillyWorkloadOptions& options,
                                     const ProfileSet* profiles = nullptr);

// "YYYY-MM-DD HH:MM" of seconds since 1970-01-01.
std::string formatPhillyTime(double seconds);

}  // namespace cl
