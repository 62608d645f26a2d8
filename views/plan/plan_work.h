#pragma once
// Runs a capacity plan (core/runs/plan_runner.h) on a worker thread with its own workspace
// connection, reporting progress to the GUI thread by queued calls. Cancel stops after the
// running simulations (they are kept, as on the command line); the plan found so far arrives
// in finished() either way. The destructor cancels and waits.
#include <atomic>
#include <memory>
#include <thread>

#include <QObject>
#include <QString>

#include "core/planning/capacity_plan.h"
#include "core/store/scenario_store.h"

namespace cl::views {

class PlanWork : public QObject {
    Q_OBJECT

public:
    PlanWork(QString workspacePath, cl::PlanRequest request, cl::ScenarioSpec base, QString prefix,
             QObject* parent = nullptr);
    ~PlanWork() override;
    PlanWork(const PlanWork&) = delete;
    PlanWork& operator=(const PlanWork&) = delete;

    void start();  // once
    void cancel();
    bool isRunning() const { return m_running; }
    const cl::PlanRequest& request() const { return m_request; }

signals:
    // phase: search, neighbours, cliff, headroom; runs of the current batch done / in it.
    void progress(const QString& phase, int round, int simulations, int batchDone, int batchTotal);
    void finished(std::shared_ptr<const cl::PlanReport> report, bool cancelled);
    void failed(const QString& message);

private:
    QString m_path;
    cl::PlanRequest m_request;
    cl::ScenarioSpec m_base;
    QString m_prefix;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    bool m_running = false;
};

}  // namespace cl::views
