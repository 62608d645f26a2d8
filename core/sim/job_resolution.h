#pragma once
// Turns a trace job plus the profile set into what the engine integrates: iterations, the
// solo iteration time and the restart overhead. A trace's own measurements win over the
// profile; the profile fills in what the trace lacks (DESIGN.md section 3).
#include <string>
#include <vector>

#include "core/model/job.h"
#include "core/model/model_profile.h"
#include "core/sim/conventions.h"

namespace cl {

struct ResolvedJob {
    double iterations = 0.0;
    double iter_time = 0.0;         // seconds, alone, reference GPU, solo factor applied
    double restart_overhead = 0.0;  // seconds
    std::vector<double> stage_times;  // seconds; the trace's own, else the profile's (may be empty)
};

// Throws SimulationError naming the job when neither iterations nor a duration are known.
ResolvedJob resolveJob(const Job& job, int index, const ProfileSet& profiles, const Conventions& conventions);

}  // namespace cl
