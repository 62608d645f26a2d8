#pragma once
// Convention sets (docs/architecture.md section 3): "clean" is ours; "muri-artifact" reproduces
// the authors' Muri simulator so that results can be compared with the published ones.
#include <string>
#include <vector>

namespace cl {

struct Conventions {
    std::string name = "clean";
    // Artifact: every running job loses its restart overhead of progress in every interval
    // between two events. Clean: the overhead is paid once when a job starts, resumes or moves.
    bool overhead_every_interval = false;
    // Clean: running jobs keep their GPUs when they stay selected. Artifact: the whole
    // placement is recomputed from an empty cluster at every event (moves are free).
    bool keep_running_in_place = true;
    // Artifact ("yarn"): the first server (by index) that fits; clean: best fit.
    bool first_fit_servers = false;
    // Tiresias: artifact admits by free-GPU count (no fragmentation) and has no starvation guard.
    bool tiresias_count_placement = false;
    bool tiresias_starvation_guard = true;
    // Artifact: Tiresias demotion events are rounded up to whole seconds of wall time, and a job
    // demoted while running goes behind the waiting jobs of its new queue (the authors' habits).
    bool tiresias_whole_second_demotion = false;
    // Artifact: Muri ranks jobs that never ran by the duration their trace states.
    bool muri_rank_new_jobs_by_trace_duration = false;
    // A job alone runs at its profile's iteration time times this factor (docs/architecture.md
    // section 2.5).
    double solo_factor = 1.015;
    // Synergy artifact (docs/architecture.md section 3.4): the engine only acts at round boundaries
    // (k x the policy's round): arrivals wait for the next boundary, a running job advances
    // floor(round / iteration time) whole iterations per round and its completion is noticed
    // at the boundary where nothing remains.
    bool round_quantized = false;
    // Synergy artifact: starting, resuming and moving cost nothing (no restart overhead).
    bool free_restarts = false;
    // Synergy artifact: the run ends once the measured jobs (SimOptions' window) are done.
    bool stop_when_measured_done = false;
    // Synergy artifact's two-level speed model: a job runs at its best-case speedup when it
    // gets its best-case demand, at 1.0 at its proportional share, linearly in between when a
    // server caps the demand; jobs spanning servers run at proportional share (speedup 1).
    bool synergy_two_level_speed = false;

    static Conventions clean();
    static Conventions muriArtifact();
    static Conventions synergyArtifact();
    static Conventions byName(const std::string& name);  // throws std::invalid_argument
    static std::vector<std::string> names();
};

}  // namespace cl
