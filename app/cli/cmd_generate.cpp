// clusterloom-cli generate: write a synthetic trace, or one drawn from the Philly trace.
#include <algorithm>
#include <iostream>
#include <optional>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "core/io/builtin_data.h"
#include "core/io/trace_writers.h"
#include "core/workload/philly_busiest_workload.h"
#include "core/workload/trace_generator.h"
#include "core/workload/trace_transforms.h"

namespace cli {

namespace {

// SJF-BSBF's workload (core/workload/philly_busiest_workload.h). Batch sizes come from the
// profile set's extra.sjf_bsbf: --profiles (name or file) if given, else the built-in sjf-bsbf set when
// installed, else none (batch 0: the engine uses the model's default).
int generateFromPhilly(const Args& args) {
    std::string out = args.require("out");
    cl::PhillyWorkloadOptions opts;
    opts.jobs = static_cast<int>(args.getInt("jobs"));
    opts.seed = static_cast<std::uint64_t>(args.getInt("seed"));
    opts.window_hours = static_cast<int>(args.getInt("window-hours"));
    if (args.has("max-gpus")) opts.max_gpus = static_cast<int>(args.getInt("max-gpus"));
    opts.hour_of_day = args.has("hours-of-day");
    if (args.has("pollux-workloads"))
        opts.configurations = cl::polluxConfigurations(args.get("pollux-workloads"));
    std::optional<cl::ProfileSet> profiles;
    if (args.has("profiles")) {
        profiles = resolveProfiles(args.get("profiles"));  // a built-in name or a profile JSON file
    } else {
        const auto names = cl::builtinProfileNames();
        if (std::find(names.begin(), names.end(), "sjf-bsbf") != names.end())
            profiles = cl::builtinProfiles("sjf-bsbf");
    }
    cl::PhillyWorkload w =
        cl::phillyBusiestWorkload(args.get("from-philly"), opts, profiles ? &*profiles : nullptr);
    if (args.has("name")) w.trace.name = args.get("name");
    cl::writeTrace(w.trace, out);
    if (opts.hour_of_day)
        std::cerr << "busiest " << w.window.hours << " hours of the day: " << w.window.jobs << " jobs\n";
    else
        std::cerr << "busiest window " << cl::formatPhillyTime(w.window.start) << " + " << w.window.hours
                  << " h: " << w.window.jobs << " jobs\n";
    std::cerr << "wrote " << w.trace.jobs.size() << " jobs to " << out << "\n";
    return 0;
}

}  // namespace

int generateCommand(const std::vector<std::string>& argv) {
    Args args(
        "generate",
        "Generate a synthetic trace, deterministic for a seed, and write it as JSON (.json) or CSV.\n"
        "Durations: philly = lognormal fitted to the Philly trace (median 1,144 s); synergy = 10^x minutes,\n"
        "x ~ U[1.5,3] w.p. 0.8 else U[3,4]. GPU counts default to the Philly trace's mix.\n"
        "--from-philly instead samples --jobs jobs of the busiest --window-hours of a Philly jobs CSV\n"
        "(Pollux artifact format) with Pollux's models by GPU time, as SJF-BSBF's workloads (uses --seed,\n"
        "--max-gpus, --profiles; the other options do not apply).",
        {{"out", "FILE", "output trace (.json or .csv) (required)"},
         {"jobs", "N", "number of jobs", false, "1000"},
         {"seed", "N", "random seed", false, "1"},
         {"rate", "R", "Poisson arrivals, jobs per hour", false, "10"},
         {"all-at-zero", "", "submit every job at time 0 instead of Poisson arrivals"},
         {"durations", "MODEL", "philly or synergy", false, "philly"},
         {"gpus", "MIX", "GPU-count weights, e.g. 1:0.7,2:0.1,4:0.1,8:0.1 (default: Philly's mix)"},
         {"max-gpus", "N", "leave out GPU counts above N"},
         {"models", "MIX", "model weights, e.g. resnet18:2,bert:1 (default: all built-in models equally)"},
         {"split", "MIX", "task split instead of --models, e.g. image:20,language:70,rl:10"},
         {"catalog", "NAME", "models standing for the tasks of --split: muri or synergy", false, "muri"},
         {"model-rule", "RULE",
          "seeded (draws by weight) or task-share (the Synergy artifact's rule: each job to "
          "the task furthest below its share, round-robin within it; needs --split)",
          false, "seeded"},
         {"profiles", "NAME", "built-in profile set for iterations and batch sizes (muri, synergy, sjf-bsbf)",
          false, "muri"},
         {"name", "NAME", "trace name"},
         {"from-philly", "FILE",
          "sample the busiest window of this Philly jobs CSV (timestamp,duration,num_gpus,"
          "gpu_time,cluster)"},
         {"window-hours", "H", "length of the busiest window for --from-philly", false, "8"},
         {"hours-of-day", "",
          "--from-philly: the busiest hours of the day over all days (Pollux's rule, what "
          "'experiment sjf-bsbf' uses) instead of one absolute window"},
         {"pollux-workloads", "DIR",
          "--from-philly: draw each job's GPU count and batch from its model's "
          "configurations in Pollux's workload CSVs in DIR (the job then trains its "
          "model's samples)"}});
    if (!args.parse(argv)) return 0;
    if (args.has("from-philly")) return generateFromPhilly(args);
    cl::ProfileSet profiles = cl::builtinProfiles(args.get("profiles"));
    cl::GeneratorConfig cfg;
    cfg.jobs = static_cast<int>(args.getInt("jobs"));
    cfg.seed = static_cast<std::uint64_t>(args.getInt("seed"));
    cfg.arrival = args.has("all-at-zero") ? cl::ArrivalProcess::AllAtZero : cl::ArrivalProcess::Poisson;
    cfg.jobs_per_hour = args.getDouble("rate");
    std::string durations = args.get("durations");
    if (durations == "philly")
        cfg.duration = cl::DurationModel::PhillyLognormal;
    else if (durations == "synergy")
        cfg.duration = cl::DurationModel::SynergyLogUniform;
    else
        throw UsageError("generate: --durations must be philly or synergy, got '" + durations + "'");
    if (args.has("gpus")) cfg.gpu_weights = cl::parseGpuWeights(args.get("gpus"));
    if (args.has("max-gpus")) cfg.max_gpus = static_cast<int>(args.getInt("max-gpus"));
    if (args.has("models")) cfg.models = cl::parseModelMix(args.get("models"));
    if (args.has("split")) cfg.tasks = cl::parseTaskSplit(args.get("split"));
    cfg.task_catalog = args.get("catalog");
    const std::string rule = args.get("model-rule");
    if (rule == "task-share")
        cfg.model_rule = cl::ModelRule::TaskShare;
    else if (rule != "seeded")
        throw UsageError("generate: --model-rule must be seeded or task-share, got '" + rule + "'");
    cfg.name = args.get("name");
    cl::Trace trace = cl::generate(cfg, &profiles);
    std::string out = args.require("out");
    cl::writeTrace(trace, out);
    std::cerr << "wrote " << trace.jobs.size() << " jobs to " << out << "\n";
    return 0;
}

}  // namespace cli
