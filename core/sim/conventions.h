#pragma once
// Convention sets (DESIGN.md section 3): "clean" is ours; "muri-artifact" reproduces the
// authors' Muri simulator so that results can be compared with the published ones.
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
    // Artifact: Tiresias demotion events are rounded up to whole seconds of wall time.
    bool tiresias_whole_second_demotion = false;
    // Artifact: Muri ranks jobs that never ran by the duration their trace states.
    bool muri_rank_new_jobs_by_trace_duration = false;
    // A job alone runs at its profile's iteration time times this factor (DESIGN.md section 3).
    double solo_factor = 1.015;

    static Conventions clean();
    static Conventions muriArtifact();
    static Conventions byName(const std::string& name);  // throws std::invalid_argument
    static std::vector<std::string> names();
};

}  // namespace cl
