#pragma once
// Runs cl::simulate for a list of policies off the GUI thread (QtConcurrent) and delivers
// each typed result back to the GUI thread by a queued call. Cancellable at any time:
// SimOptions::progress returns false once cancel() was called. The destructor cancels and
// waits, so a RunJob may be deleted while it is still running.
#include <atomic>
#include <functional>
#include <memory>

#include <QFuture>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include "core/model/cluster.h"
#include "core/model/model_profile.h"
#include "core/model/trace.h"
#include "core/sim/sim_result.h"
#include "core/sim/simulator.h"

namespace cl::views {

using SimResultPtr = std::shared_ptr<const cl::SimResult>;

struct RunInputs {
    std::shared_ptr<const cl::Cluster> cluster;
    std::shared_ptr<const cl::Trace> trace;
    std::shared_ptr<const cl::ProfileSet> profiles;
    cl::SimOptions options;  // its progress callback is replaced by the job's own
};

class RunJob : public QObject {
    Q_OBJECT

public:
    RunJob(RunInputs inputs, QStringList policies, QObject* parent = nullptr);
    ~RunJob() override;

    RunJob(const RunJob&) = delete;
    RunJob& operator=(const RunJob&) = delete;

    // Starts the runs; does nothing if they were already started.
    void start();
    // Asks the running simulation to stop; finished(true) follows.
    void cancel();
    // Blocks until the worker has returned (results may still be queued for delivery).
    void waitForWorker();

    bool isRunning() const { return m_running; }
    bool isCancelRequested() const { return m_state->cancelled.load(); }
    const QStringList& policies() const { return m_policies; }

signals:
    void policyStarted(const QString& policy);
    // fraction_done of this policy's run and of the whole job, both in [0, 1].
    void progressChanged(const QString& policy, double fraction_done, double overall_done);
    void policyFinished(const QString& policy, cl::views::SimResultPtr result);
    void policyFailed(const QString& policy, const QString& message);
    // Emitted once, after the last policy (or after cancellation).
    void finished(bool cancelled);

private:
    struct SharedState {
        std::atomic<bool> cancelled{false};
    };

    void work();  // runs in a pool thread
    void post(std::function<void()> emitter);

    RunInputs m_inputs;
    QStringList m_policies;
    std::shared_ptr<SharedState> m_state = std::make_shared<SharedState>();
    QFuture<void> m_future;
    bool m_started = false;
    bool m_running = false;
};

}  // namespace cl::views

Q_DECLARE_METATYPE(cl::views::SimResultPtr)
