#pragma once
// Turns a trace job plus the profile set into what the engine integrates: iterations, the
// solo iteration time and the restart overhead. A trace's own measurements win over the
// profile; the profile fills in what the trace lacks (docs/architecture.md section 2.1).
#include <string>
#include <vector>

#include "core/model/job.h"
#include "core/model/model_profile.h"
#include "core/sim/conventions.h"

namespace cl {

struct ResolvedJob {
    double iterations = 0.0;
    double solo_iteration_time = 0.0;  // seconds, alone, reference GPU, solo factor applied
    double restart_overhead = 0.0;     // seconds
    std::vector<double> stage_times;   // seconds; the trace's own, else the profile's (may be empty)
    // A measured run time (keepsMeasuredRunTime): its first start already paid for itself.
    bool first_start_free = false;
};

// A job with neither iterations nor a duration (and no SJF-BSBF sample count to derive them from)
// resolves to zero iterations, so it completes on arrival (docs/architecture.md section 2.7).
// Throws SimulationError naming the job when its iterations or duration are negative or not finite,
// or when its SJF-BSBF batch is invalid or one sample does not fit the reference GPU's memory.
ResolvedJob resolveJob(const Job& job, int index, const ProfileSet& profiles, const Conventions& conventions);

}  // namespace cl
