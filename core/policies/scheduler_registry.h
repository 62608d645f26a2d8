#pragma once
// Policy names (docs/architecture.md section 4.1): ORDER[+MECHANISM][+PLACEMENT] in lower case, or
// a preset. Each part is looked up in a name -> factory table; unknown names get an error listing
// the valid ones.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/policies/slurm_config.h"
#include "core/sim/conventions.h"
#include "core/sim/scheduler.h"

namespace cl {

// Settings a scenario may vary on top of a policy name.
struct SchedulerTuning {
    int max_group_size = 0;  // 0: the policy's own; else Muri's group-size cap (1..4)
    std::uint64_t seed = 1;  // profiling-noise draws (muri-l-noise=N)
    // SJF-BSBF's interference ratio xi for every sharing job (bsbf, ffs); 0 = the profile's
    // per-pair matrix where it has an entry, else 1.8.
    double interference = 0.0;
    // The `slurm` preset's settings (docs/architecture.md 4.8): Slurm's defaults unless a saved
    // `scontrol show config` or options say otherwise.
    SlurmConfig slurm{};
};

// Throws std::invalid_argument with policyProblem's text for a name it refuses.
std::unique_ptr<Scheduler> makeScheduler(const std::string& policy, const Conventions& conventions,
                                         const SchedulerTuning& tuning = {});

// The one policy check: empty when `policy` names a scheduler that runs under `conventions`
// with `tuning`, else why not (the message names the part at fault and lists the valid names).
// The store, the scenario dialog, the run panel and every CLI command ask this.
std::string policyProblem(const std::string& policy, const Conventions& conventions,
                          const SchedulerTuning& tuning = {});
// Throws std::invalid_argument with policyProblem's text when there is one; else returns the
// scheduler the check built, so a command that goes on to run the policy builds it once.
std::unique_ptr<Scheduler> checkPolicy(const std::string& policy, const Conventions& conventions,
                                       const SchedulerTuning& tuning = {});

// The exclusive policies an interleaving (Muri) policy is judged against, closest first: its
// own order without sharing (muri-s: srsf; muri-l and its ablations: las2d; ORDER+muri: ORDER),
// then the baseline the Muri paper compares it with (Sec. 6: SRTF for Muri-S, Tiresias for
// Muri-L). Empty for a policy that does not interleave.
std::vector<std::string> exclusiveCounterparts(const std::string& policy);

std::vector<std::string> orderNames();
std::vector<std::string> mechanismNames();
std::vector<std::string> placementNames();
std::vector<std::string> presetNames();
// A one-paragraph description of the grammar with every valid name, for --help and errors.
std::string policyHelp();

}  // namespace cl
