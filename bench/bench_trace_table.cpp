// The trace browser's table with 100,000 jobs (a target of docs/architecture.md section 11):
// loading the model, filtering by GPU count and model, and sorting by submit time and by
// duration. Target: each under 100 ms, so that every interaction answers within a frame or
// a few.
#include <memory>

#include <benchmark/benchmark.h>

#include <QCoreApplication>

#include "core/io/builtin_data.h"
#include "core/workload/trace_generator.h"
#include "views/trace/job_filter_proxy.h"
#include "views/trace/job_table_model.h"

namespace {

std::shared_ptr<const cl::Trace> bigTrace() {
    static const auto trace = [] {
        cl::GeneratorConfig config;
        config.jobs = 100000;
        config.seed = 7;
        const cl::ProfileSet profiles = cl::builtinProfiles();
        return std::make_shared<const cl::Trace>(cl::generate(config, &profiles));
    }();
    return trace;
}

void BM_LoadModel(benchmark::State& state) {
    const auto trace = bigTrace();
    for (auto _ : state) {
        cl::views::JobTableModel model;
        model.setTrace(trace);
        benchmark::DoNotOptimize(model.rowCount());
    }
}

void BM_FilterGpusAndModel(benchmark::State& state) {
    cl::views::JobTableModel model;
    model.setTrace(bigTrace());
    cl::views::JobFilterProxy proxy;
    proxy.setSourceModel(&model);
    bool narrow = false;
    for (auto _ : state) {
        cl::views::JobFilter filter;
        if (narrow) {
            filter.min_gpus = 2;
            filter.max_gpus = 8;
            filter.model = std::string("resnet18");
        }
        narrow = !narrow;
        proxy.setFilter(filter);
        benchmark::DoNotOptimize(proxy.rowCount());
    }
}

void BM_Sort(benchmark::State& state) {
    cl::views::JobTableModel model;
    model.setTrace(bigTrace());
    cl::views::JobFilterProxy proxy;
    proxy.setSourceModel(&model);
    const int column = static_cast<int>(state.range(0));
    Qt::SortOrder order = Qt::AscendingOrder;
    for (auto _ : state) {
        proxy.sort(column, order);
        order = order == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder;
        benchmark::DoNotOptimize(proxy.rowCount());
    }
}

}  // namespace

BENCHMARK(BM_LoadModel)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FilterGpusAndModel)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sort)
    ->Arg(cl::views::JobTableModel::SubmitColumn)
    ->Arg(cl::views::JobTableModel::DurationColumn)
    ->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
