#pragma once
// What a run returns: per-job records, per-GPU occupancy segments, sampled series, summary.
#include <limits>
#include <string>
#include <vector>

namespace cl {

struct JobRecord {
    int index = 0;  // position in the trace
    std::string id;
    std::string model;
    int gpus = 0;
    double iterations = 0.0;
    double solo_iteration_time = 0.0;  // seconds, as simulated
    double submit = 0.0;
    double first_start = std::numeric_limits<double>::quiet_NaN();
    double end = std::numeric_limits<double>::quiet_NaN();
    double jct = std::numeric_limits<double>::quiet_NaN();
    double queueing_delay = std::numeric_limits<double>::quiet_NaN();  // first start - submit
    double pending_time = 0.0;  // all time spent waiting (initial + after preemptions)
    double running_time = 0.0;  // wall time holding GPUs (incl. restart overhead)
    int preemptions = 0;
    int restarts = 0;  // every start, resume and move, even at zero overhead
    bool completed = false;
    bool timed_out = false;  // ended at its time limit with work left (completed stays false)
};

// A job the engine left out before the run because it can never fit the cluster (its GPUs,
// partitions, GPU type or node count), and why (docs/architecture.md 2.10).
struct LeftOutJob {
    int index = 0;  // position in the trace
    std::string id;
    std::string reason;
};

struct GpuSegment {
    int gpu = 0;  // global GPU index (Cluster::gpuOffsets)
    double t0 = 0.0;
    double t1 = 0.0;
    int job = 0;  // JobRecord::index
};

// A job's CPU and memory allocation from t on (Synergy mechanisms re-allocate every round;
// recorded when it starts and whenever it changes while the job runs).
struct AllocationChange {
    int job = 0;  // JobRecord::index
    double t = 0.0;
    double cpus = 0.0;       // cores, all its servers together
    double memory_gb = 0.0;  // GB of DRAM, all its servers together
    double speedup = 1.0;    // throughput relative to its GPU-proportional share
};

// A job's gradient-accumulation setting from t on (SJF-BSBF mechanisms): recorded when it
// starts and whenever its sub-batch or interference ratio changes while it runs.
struct BatchChange {
    int job = 0;  // JobRecord::index
    double t = 0.0;
    int sub_batch = 0;  // samples per GPU per forward/backward pass
    int accumulation_steps = 1;
    double interference = 1.0;  // slowdown from sharing its GPUs (1 = alone)
};

struct TimeSample {
    double t = 0.0;
    int queue_length = 0;  // pending jobs
    int running_jobs = 0;
    double blocking_index = 0;   // mean over pending jobs of pending time / remaining time
    double gpu_utilization = 0;  // busy GPUs / all GPUs
    // How busy each resource of the cluster is, as a fraction of all GPUs' worth of it: every
    // running job contributes, per GPU it holds, the share of its iteration that its stage on
    // that resource takes (stage time / the iteration time it achieves, alone or interleaved).
    // Stages are storage, CPU, GPU and network; in a 3-stage profile (Muri's: data loading with
    // preprocessing, GPU, network) the first stage keeps both storage and CPU busy. A job
    // without stage times counts as GPU compute only. NaN in runs stored before these existed.
    double storage_utilization = 0;
    double cpu_utilization = 0;
    double gpu_compute_utilization = 0;
    double network_utilization = 0;
    // Allocated CPU cores and DRAM as a fraction of the cluster's: what Synergy mechanisms give
    // running jobs, else each running job's GPU-proportional share of its servers. NaN in runs
    // stored before these existed.
    double cpu_allocated = 0;
    double memory_allocated = 0;
};

// The JCTs of one size class of jobs (docs/architecture.md section 7.3: large jobs ask for more
// GPUs than kLargeJobAboveGpus). NaN when the class completed no job: it has no value, not 0.
struct SizeClassSummary {
    int completed = 0;
    double avg_jct = std::numeric_limits<double>::quiet_NaN();
    double p95_jct = std::numeric_limits<double>::quiet_NaN();
    double p99_jct = std::numeric_limits<double>::quiet_NaN();
};

struct Summary {
    int jobs = 0;
    int completed = 0;
    double avg_jct = 0;
    double median_jct = 0;
    double p95_jct = 0;
    double p99_jct = 0;
    double makespan = 0;  // last end - first submit
    double avg_queueing_delay = 0;
    double p95_queueing_delay = 0;  // the planning target p95_queueing (section 7.7)
    int timed_out = 0;              // jobs ended at their time limit
    SizeClassSummary large{}, small{};
};

// How a run that SimOptions::stop_when_overloaded ended early starts its note.
inline constexpr const char* kStoppedOverloadedNote = "stopped early: overloaded";
// How a run that SimOptions::stop_when_missed ended early starts its note.
inline constexpr const char* kStoppedTargetMissedNote = "stopped early: target missed";
// The note of a run that stopped early (either of the two above), or nullptr when it ran to the end.
inline const std::string* stoppedEarlyNote(const std::vector<std::string>& notes) {
    for (const std::string& note : notes)
        if (note.rfind(kStoppedOverloadedNote, 0) == 0 || note.rfind(kStoppedTargetMissedNote, 0) == 0)
            return &note;
    return nullptr;
}
// How a run stored without its timeline (its GPU segments; a plan's points, docs/architecture.md
// 7.9 "Storage") starts its note: the timeline view offers to simulate it again with one.
inline constexpr const char* kTimelineNotStoredNote = "timeline not stored";
// How a run stored with its series reduced (reduceSeries) starts its note.
inline constexpr const char* kSeriesReducedNote = "series reduced";

struct SimResult {
    std::string policy;
    std::string conventions;
    std::vector<JobRecord> jobs;
    std::vector<GpuSegment> segments;
    std::vector<TimeSample> series;
    std::vector<AllocationChange> allocations;  // empty unless the mechanism allocates CPU/memory
    std::vector<BatchChange> batches;           // empty unless the mechanism uses gradient accumulation
    Summary summary;
    std::vector<LeftOutJob> left_out;  // never run: they cannot fit (SimOptions::strict refuses instead)
    std::vector<std::string> notes;    // what the reader of the results must know (e.g. requests ignored)
    long long events = 0;
    double wall_seconds = 0;
    bool cancelled = false;
};

}  // namespace cl
