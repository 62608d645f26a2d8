// The cluster editor's live what-if (docs/architecture.md section 1.8): the Muri
// artifact's trace1 (1,494 jobs) under srtf with the 64-GPU Muri testbed as the scenario's
// cluster. Each iteration removes a server in the editor and waits until the strip's figures
// are those of the edited cluster: the wait for edits to settle (300 ms), the simulation on
// the worker and the hand-back to the GUI thread. Target: < 1 s from edit to figures.
// BM_LiveWhatIfNoSettle leaves the settle delay out; BM_LiveWhatIfUndo times an undo, which
// the cache answers.
// Run: build/release/bench/bench_live_what_if [--benchmark_filter=...]
#include <chrono>
#include <memory>
#include <string>

#include <QApplication>
#include <QCoreApplication>
#include <QTemporaryDir>
#include <QUndoStack>

#include <benchmark/benchmark.h>

#include "core/io/builtin_data.h"
#include "core/io/trace_readers.h"
#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/cluster_editor.h"
#include "views/cluster/live_what_if.h"

namespace {

const std::string kShared = CLUSTERLOOM_SHARED_DATA_DIR;
using State = cl::views::LiveWhatIf::State;

// A workspace holding the scenario and its stored run, made once.
struct Fixture {
    QTemporaryDir dir;
    QString path;
    std::int64_t cluster_id = 0;
    Fixture() : path(dir.filePath(QStringLiteral("bench.sqlite"))) {
        cl::ScenarioStore store(path.toStdString());
        cl::ScenarioSpec spec;
        spec.name = "trace1/srtf";
        spec.cluster_id = cluster_id = store.putCluster(cl::builtinCluster("muri-testbed-64"));
        spec.trace_id = store.putTrace(cl::readMuriTraceCsv(kShared + "/muri-traces/trace1.csv"));
        spec.profiles_id = store.putProfiles(cl::builtinProfiles());
        spec.policy = "srtf";
        store.createScenario(spec);
        cl::runScenario(store, spec.name);
    }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

bool waitFor(const cl::views::LiveWhatIf* whatIf, State wanted) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (whatIf->state() != wanted) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    }
    return true;
}

void liveWhatIf(benchmark::State& state, int settle_ms, bool undo) {
    Fixture& f = fixture();
    cl::ScenarioStore store(f.path.toStdString());
    const cl::Cluster testbed = store.cluster(f.cluster_id);
    cl::views::ClusterEditor editor;
    editor.setCluster(testbed, f.cluster_id);
    editor.setWhatIfScenario(f.path, QStringLiteral("trace1/srtf"));
    cl::views::LiveWhatIf* whatIf = editor.liveWhatIf();
    whatIf->setSettleDelay(settle_ms);
    if (!waitFor(whatIf, State::Ready)) {
        state.SkipWithError("the scenario did not load");
        return;
    }
    int timed_simulations = 0;  // started between the edit and its figures
    int iteration = 0;
    for (auto _ : state) {
        state.PauseTiming();
        editor.setCluster(testbed, f.cluster_id);  // the scenario's own cluster again
        // Each iteration's cluster is new to the cache: a different server removed and the
        // first renamed (which changes no capacity).
        cl::Cluster edited = testbed;
        edited.servers.erase(edited.servers.begin() + 1 + iteration % 7);
        edited.servers[0].name = "bench-" + std::to_string(iteration++);
        if (undo) {
            editor.document()->replaceCluster(edited, QStringLiteral("remove a server"));
            if (!waitFor(whatIf, State::Ready)) state.SkipWithError("no figures");
        }
        const int before = whatIf->simulationsStarted();
        state.ResumeTiming();
        if (undo) {
            editor.undoStack()->undo();  // back to the scenario's own cluster
        } else {
            editor.document()->replaceCluster(edited, QStringLiteral("remove a server"));
        }
        if (!waitFor(whatIf, State::Ready)) state.SkipWithError("no figures");
        timed_simulations += whatIf->simulationsStarted() - before;
    }
    state.counters["simulations"] = timed_simulations;
    state.counters["avg_jct_s"] = whatIf->current() ? whatIf->current()->avg_jct : 0.0;
}

void BM_LiveWhatIf(benchmark::State& s) {
    liveWhatIf(s, 300, false);
}
void BM_LiveWhatIfNoSettle(benchmark::State& s) {
    liveWhatIf(s, 0, false);
}
void BM_LiveWhatIfUndo(benchmark::State& s) {
    liveWhatIf(s, 300, true);
}
BENCHMARK(BM_LiveWhatIf)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(BM_LiveWhatIfNoSettle)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(BM_LiveWhatIfUndo)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
