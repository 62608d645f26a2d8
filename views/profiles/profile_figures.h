#pragma once
// What the Profiles view and the profiler-trace import draw of a model profile: its stage times
// as named resources, and the per-step figures an imported profile keeps. Reading only: the
// figures were computed by core (core/model/kineto_profile.h); nothing here derives new ones.
#include <optional>
#include <vector>

#include <QColor>
#include <QString>
#include <QStringList>

#include "core/model/model_profile.h"

namespace cl::views {

// The resource a stage time occupies (docs/architecture.md section 4.5): profiles with four
// stages give storage, CPU, GPU and network; the built-in three-stage profiles measured loading
// and preprocessing as one stage, which occupies the storage and the CPU slot ("load+CPU").
enum class StageResource { Storage, Cpu, LoadCpu, Gpu, Network, Other };

QString stageResourceName(StageResource resource);
// One colour per resource, the same in every chart, legible on both themes (chart_style.h).
QColor stageResourceColor(StageResource resource);

struct StageSegment {
    StageResource resource = StageResource::Other;
    double seconds = 0.0;
};

// The stage times of one GPU-count row as resources: four stages are storage, CPU, GPU and
// network; three are load+CPU, GPU and network; other counts are numbered stages (Other); none
// gives an empty list (the profile knows only its iteration time).
std::vector<StageSegment> stageSegments(const cl::GpuCountProfile& row);
// "storage / CPU / GPU / network", "load+CPU / GPU / network", "iteration time only", ...
QString stageLayoutName(const cl::GpuCountProfile& row);

// The per-step figures of a profile imported from PyTorch profiler traces
// (ModelProfile::extra["kineto"]["steps"], milliseconds), one vector per figure in step order.
struct StepSeries {
    std::vector<int> steps;
    std::vector<double> iteration_ms, storage_ms, cpu_ms, gpu_ms, network_ms, nccl_ms;
    int world_size = 1;
    int ranks = 1;  // trace files the profile was made from
    QString gpu_name;
    QStringList files;
    QStringList warnings;
};
// None when the profile was not imported from profiler traces (or its steps cannot be read).
std::optional<StepSeries> stepSeries(const cl::ModelProfile& model);

}  // namespace cl::views
