#include "core/sim/conventions.h"

#include <stdexcept>

namespace cl {

Conventions Conventions::clean() {
    return Conventions{};
}

Conventions Conventions::muriArtifact() {
    Conventions c;
    c.name = "muri-artifact";
    c.overhead_every_interval = true;
    c.keep_running_in_place = false;
    c.first_fit_servers = true;
    c.tiresias_count_placement = true;
    c.tiresias_starvation_guard = false;
    c.tiresias_whole_second_demotion = true;
    c.muri_rank_new_jobs_by_trace_duration = true;
    return c;
}

Conventions Conventions::synergyArtifact() {
    Conventions c;
    c.name = "synergy-artifact";
    c.keep_running_in_place = false;  // placements recomputed every round
    c.solo_factor = 1.0;
    c.round_quantized = true;
    c.free_restarts = true;
    c.stop_when_measured_done = true;
    c.synergy_two_level_speed = true;
    return c;
}

std::vector<std::string> Conventions::names() {
    return {"clean", "muri-artifact", "synergy-artifact"};
}

Conventions Conventions::byName(const std::string& name) {
    if (name == "clean") return clean();
    if (name == "muri-artifact") return muriArtifact();
    if (name == "synergy-artifact") return synergyArtifact();
    throw std::invalid_argument("unknown conventions '" + name +
                                "' (valid: clean, muri-artifact, synergy-artifact)");
}

}  // namespace cl
