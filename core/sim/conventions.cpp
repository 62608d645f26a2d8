#include "core/sim/conventions.h"

#include <stdexcept>

namespace cl {

Conventions Conventions::clean() { return Conventions{}; }

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

std::vector<std::string> Conventions::names() { return {"clean", "muri-artifact"}; }

Conventions Conventions::byName(const std::string& name) {
    if (name == "clean") return clean();
    if (name == "muri-artifact") return muriArtifact();
    throw std::invalid_argument("unknown conventions '" + name + "' (valid: clean, muri-artifact)");
}

}  // namespace cl
