#include "views/profiles/profile_figures.h"

#include <algorithm>

#include <QCoreApplication>
#include <nlohmann/json.hpp>

#include "views/common/chart_style.h"

namespace cl::views {

namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("cl::views::ProfileFigures", text, disambiguation, n);
}

// A figure of every step, or false when a step lacks it or it is not a number.
bool readFigure(const nlohmann::json& steps, const char* key, std::vector<double>& out) {
    out.clear();
    for (const nlohmann::json& step : steps) {
        const auto it = step.find(key);
        if (it == step.end() || !it->is_number()) return false;
        out.push_back(it->get<double>());
    }
    return true;
}

}  // namespace

QString stageResourceName(StageResource resource) {
    switch (resource) {
        case StageResource::Storage:
            return tr("storage");
        case StageResource::Cpu:
            return tr("CPU");
        case StageResource::LoadCpu:
            return tr("load+CPU");
        case StageResource::Gpu:
            return tr("GPU");
        case StageResource::Network:
            return tr("network");
        case StageResource::Other:
            break;
    }
    return tr("stage");
}

QColor stageResourceColor(StageResource resource) {
    // Palette slots of chart_style.h: each keeps 3:1 contrast on both themes, and no two
    // resources share a hue. load+CPU sits between storage and CPU in meaning; it gets a colour
    // of its own so that a three-stage bar never reads as a CPU-only one.
    switch (resource) {
        case StageResource::Storage:
            return seriesColor(1);
        case StageResource::Cpu:
            return seriesColor(4);
        case StageResource::LoadCpu:
            return seriesColor(3);
        case StageResource::Gpu:
            return seriesColor(0);
        case StageResource::Network:
            return seriesColor(2);
        case StageResource::Other:
            break;
    }
    return seriesColor(9);
}

std::vector<StageSegment> stageSegments(const cl::GpuCountProfile& row) {
    std::vector<StageSegment> segments;
    const std::size_t n = row.stage_times.size();
    static constexpr StageResource kFour[] = {StageResource::Storage, StageResource::Cpu, StageResource::Gpu,
                                              StageResource::Network};
    static constexpr StageResource kThree[] = {StageResource::LoadCpu, StageResource::Gpu,
                                               StageResource::Network};
    for (std::size_t i = 0; i < n; ++i) {
        StageResource resource = StageResource::Other;
        if (n == 4) resource = kFour[i];
        if (n == 3) resource = kThree[i];
        segments.push_back({resource, row.stage_times[i]});
    }
    return segments;
}

QString stageLayoutName(const cl::GpuCountProfile& row) {
    const std::size_t n = row.stage_times.size();
    if (n == 0) return tr("iteration time only");
    QStringList names;
    for (const StageSegment& s : stageSegments(row)) names << stageResourceName(s.resource);
    if (n != 3 && n != 4) return tr("%n stage(s)", nullptr, static_cast<int>(n));
    return names.join(QStringLiteral(" / "));
}

std::optional<StepSeries> stepSeries(const cl::ModelProfile& model) {
    if (!model.extra.get().is_object()) return std::nullopt;
    const auto kineto = model.extra.get().find("kineto");
    if (kineto == model.extra.get().end() || !kineto->is_object()) return std::nullopt;
    const auto steps = kineto->find("steps");
    if (steps == kineto->end() || !steps->is_array() || steps->empty()) return std::nullopt;
    StepSeries s;
    for (const nlohmann::json& step : *steps) {
        if (!step.is_object()) return std::nullopt;
        const auto number = step.find("step");
        s.steps.push_back(number != step.end() && number->is_number_integer() ? number->get<int>() : -1);
    }
    if (!readFigure(*steps, "iteration_ms", s.iteration_ms) ||
        !readFigure(*steps, "storage_ms", s.storage_ms) || !readFigure(*steps, "cpu_ms", s.cpu_ms) ||
        !readFigure(*steps, "gpu_ms", s.gpu_ms) || !readFigure(*steps, "network_ms", s.network_ms))
        return std::nullopt;
    if (!readFigure(*steps, "nccl_ms", s.nccl_ms)) s.nccl_ms.clear();
    if (const auto w = kineto->find("world_size"); w != kineto->end() && w->is_number_integer())
        s.world_size = w->get<int>();
    if (const auto g = kineto->find("gpu_name"); g != kineto->end() && g->is_string())
        s.gpu_name = QString::fromStdString(g->get<std::string>());
    if (const auto f = kineto->find("files"); f != kineto->end() && f->is_array())
        for (const nlohmann::json& file : *f)
            if (file.is_string()) s.files << QString::fromStdString(file.get<std::string>());
    if (const auto w = kineto->find("warnings"); w != kineto->end() && w->is_array())
        for (const nlohmann::json& warning : *w)
            if (warning.is_string()) s.warnings << QString::fromStdString(warning.get<std::string>());
    s.ranks = std::max<int>(1, static_cast<int>(s.files.size()));
    return s;
}

}  // namespace cl::views
