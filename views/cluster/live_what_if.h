#pragma once
// Drives the cluster editor's live what-if (docs/architecture.md section 1.8): with a
// scenario chosen, every edit of the document's cluster simulates the scenario's trace on the
// edited cluster on a worker thread, after the edits have settled for a moment; a newer edit
// cancels the older simulation. Figures are kept by content (core/runs/live_what_if_cache.h),
// so undo and redo to a cluster seen before show its figures at once, without simulating.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include "core/metrics/cluster_cost.h"
#include "core/runs/live_what_if.h"
#include "core/runs/live_what_if_cache.h"

namespace cl::views {

class ClusterDocument;

class LiveWhatIf : public QObject {
    Q_OBJECT

public:
    enum class State {
        NoScenario,   // nothing to simulate with
        Loading,      // reading the scenario's inputs and stored run
        Unavailable,  // they cannot be read (message() says why)
        Invalid,      // the edited cluster cannot be simulated (message() says why)
        Simulating,   // waiting for edits to settle, or simulating (progress())
        Ready,        // current() holds the edited cluster's figures
    };

    explicit LiveWhatIf(ClusterDocument* document, QObject* parent = nullptr);
    ~LiveWhatIf() override;  // cancels and waits for the worker

    // The scenario of this workspace whose trace the edits are simulated with; an empty name
    // stops the what-if. Its inputs and stored run are read on the worker.
    void setScenario(const QString& workspacePath, const QString& scenario);
    // Reads the scenario again (its stored run may have changed).
    void reload();
    QString scenario() const { return m_scenario; }

    State state() const { return m_state; }
    QString message() const { return m_message; }
    double progress() const { return m_progress; }  // 0..1 while simulating
    // The scenario's stored run, and the edited cluster's simulation (Ready; while simulating
    // the previous figures, shown dimmed).
    const std::optional<cl::WhatIfFigures>& stored() const { return m_stored; }
    const std::optional<cl::WhatIfFigures>& current() const { return m_current; }
    // The stored run's cluster and the edited cluster, priced (docs/architecture.md 7.8).
    cl::ClusterCost storedCost() const { return m_storedCost; }
    int storedServers() const { return m_storedServers; }
    cl::ClusterCost currentCost() const;
    int currentServers() const;
    // The scenario resizes its cluster (server_count); the edited cluster is simulated as drawn.
    int scenarioServerCount() const { return m_scenarioServerCount; }
    // The edited cluster simulates exactly as the scenario's own (same key).
    bool isScenarioCluster() const;

    // How often a simulation was started and how often a cluster's figures came from the
    // cache (undo, redo, the scenario's own cluster), for tests and the benchmark.
    int simulationsStarted() const { return m_simulationsStarted; }
    int cacheHits() const { return m_cacheHits; }
    // The wait after an edit before simulating (300 ms).
    void setSettleDelay(int milliseconds);
    int settleDelay() const;

signals:
    void changed();

private:
    void clusterChanged();
    void startSimulation();
    void setState(State state, const QString& message = {});
    void cancelSimulation();
    void post(std::function<void()> call);

    ClusterDocument* m_document;
    QString m_path;
    QString m_scenario;
    std::shared_ptr<const cl::WhatIfBase> m_base;
    cl::WhatIfCache m_cache;
    State m_state = State::NoScenario;
    QString m_message;
    double m_progress = 0;
    std::optional<cl::WhatIfFigures> m_stored;
    std::optional<cl::WhatIfFigures> m_current;
    cl::ClusterCost m_storedCost;
    int m_storedServers = 0;
    int m_scenarioServerCount = 0;
    QTimer m_settle;
    // Results of an older scenario load or simulation are dropped (loads and simulations
    // count separately: a finished simulation still fills the cache for its key).
    int m_loadGeneration = 0;
    int m_simulationGeneration = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    int m_simulationsStarted = 0;
    int m_cacheHits = 0;
    QThreadPool m_pool;  // last member: destroyed (and waited for) first
};

}  // namespace cl::views
