#pragma once
// Runs stored scenarios on the one parallel runner (core/util/parallel_runner.h; one SQLite
// connection per run, driven from a thread of its own so the GUI never waits) and reports each
// run's progress and outcome to the GUI thread by queued calls. Stop cancels every running
// simulation at its next progress check and stores nothing for it; finished runs are stored
// as they finish (runScenarioStoringOnlyOutcomes). The destructor cancels and waits.
#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include <QObject>
#include <QString>
#include <QStringList>

#include "core/util/parallel_runner.h"

namespace cl::views {

class ScenarioRunBatch : public QObject {
    Q_OBJECT

public:
    struct Options {
        bool force = false;  // run again even if an identical finished run is stored
        int threads = 0;     // 0: one per core
    };

    ScenarioRunBatch(QString workspacePath, QStringList scenarios, Options options,
                     QObject* parent = nullptr);
    ~ScenarioRunBatch() override;

    ScenarioRunBatch(const ScenarioRunBatch&) = delete;
    ScenarioRunBatch& operator=(const ScenarioRunBatch&) = delete;

    void start();   // once
    void cancel();  // finished(true) follows once every worker has returned
    void waitForWorkers();

    bool isRunning() const { return m_running; }
    const QStringList& scenarios() const { return m_scenarios; }

signals:
    void runStarted(const QString& scenario);
    void runProgress(const QString& scenario, double fraction);
    // reused: an identical run was already stored and nothing was simulated.
    void runFinished(const QString& scenario, qint64 runId, bool reused);
    void runFailed(const QString& scenario, const QString& message);
    void runCancelled(const QString& scenario);
    void finished(bool cancelled);

private:
    void runAll();                         // on m_driver: the runner, then what never started
    void runOne(const QString& scenario);  // on a worker thread of the runner
    void post(std::function<void()> emitter);

    QString m_path;
    QStringList m_scenarios;
    Options m_options;
    cl::ParallelRunner m_runner;
    std::thread m_driver;
    std::atomic<bool> m_cancelled{false};
    bool m_started = false;
    bool m_running = false;
};

}  // namespace cl::views
