#include "views/cluster/live_what_if.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include <QMetaObject>

#include "core/store/scenario_store.h"
#include "views/cluster/cluster_document.h"

namespace cl::views {

namespace {
constexpr int kSettleMilliseconds = 300;
}

LiveWhatIf::LiveWhatIf(ClusterDocument* document, QObject* parent) : QObject(parent), m_document(document) {
    // One simulation at a time: a newer edit cancels the older one, which returns at its next
    // progress check, so a queue of one is enough and leaves the other cores to the user.
    m_pool.setMaxThreadCount(1);
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMilliseconds);
    connect(&m_settle, &QTimer::timeout, this, &LiveWhatIf::startSimulation);
    connect(m_document, &ClusterDocument::changed, this, &LiveWhatIf::clusterChanged);
}

LiveWhatIf::~LiveWhatIf() {
    cancelSimulation();
    m_pool.waitForDone();
}

void LiveWhatIf::setSettleDelay(int milliseconds) {
    m_settle.setInterval(std::max(0, milliseconds));
}

int LiveWhatIf::settleDelay() const {
    return m_settle.interval();
}

cl::ClusterCost LiveWhatIf::currentCost() const {
    return cl::clusterCost(m_document->cluster());
}

int LiveWhatIf::currentServers() const {
    return static_cast<int>(m_document->cluster().servers.size());
}

bool LiveWhatIf::isScenarioCluster() const {
    return m_base &&
           cl::whatIfKey(m_document->cluster(), m_base->scenario_hash, m_base->engine_version) == m_base->key;
}

void LiveWhatIf::post(std::function<void()> call) {
    // Queued to the GUI thread; the destructor waits for the pool, so `this` outlives the call.
    QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
}

void LiveWhatIf::setState(State state, const QString& message) {
    m_state = state;
    m_message = message;
    emit changed();
}

void LiveWhatIf::cancelSimulation() {
    m_settle.stop();
    if (m_cancel) m_cancel->store(true);
    m_cancel.reset();
    ++m_simulationGeneration;
}

void LiveWhatIf::setScenario(const QString& workspacePath, const QString& scenario) {
    // Selecting the same scenario again keeps what was read (the trace may be large).
    if (workspacePath == m_path && scenario == m_scenario && m_state != State::Unavailable) return;
    m_path = workspacePath;
    m_scenario = scenario;
    reload();
}

void LiveWhatIf::reload() {
    cancelSimulation();
    const int generation = ++m_loadGeneration;
    m_base.reset();
    m_stored.reset();
    m_current.reset();
    m_storedCost = {};
    m_storedServers = 0;
    m_scenarioServerCount = 0;
    if (m_scenario.isEmpty() || m_path.isEmpty()) {
        setState(State::NoScenario);
        return;
    }
    setState(State::Loading);
    const std::string path = m_path.toStdString();
    const std::string scenario = m_scenario.toStdString();
    m_pool.start([this, generation, path, scenario] {
        std::shared_ptr<const cl::WhatIfBase> base;
        QString error;
        try {
            cl::ScenarioStore store(path);
            base = std::make_shared<const cl::WhatIfBase>(cl::loadWhatIfBase(store, scenario));
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        } catch (...) {
            error = tr("unknown error");
        }
        post([this, generation, base, error] {
            if (generation != m_loadGeneration) return;
            if (!base) {
                setState(State::Unavailable,
                         tr("The inputs of scenario %1 cannot be read: %2").arg(m_scenario, error));
                return;
            }
            if (base->inputs.trace.jobs.empty()) {
                setState(State::Unavailable,
                         tr("The trace of scenario %1 has no jobs to simulate").arg(m_scenario));
                return;
            }
            m_base = base;
            m_stored = base->stored;
            if (m_stored) m_cache.put(base->key, *m_stored);
            m_storedCost = cl::clusterCost(base->inputs.cluster);
            m_storedServers = static_cast<int>(base->inputs.cluster.servers.size());
            m_scenarioServerCount = base->server_count;
            clusterChanged();
        });
    });
}

void LiveWhatIf::clusterChanged() {
    if (!m_base) return;  // nothing chosen, or still loading (which ends here)
    cancelSimulation();
    if (const QString problem = m_document->validationError(); !problem.isEmpty()) {
        setState(State::Invalid, problem);
        return;
    }
    const std::string key =
        cl::whatIfKey(m_document->cluster(), m_base->scenario_hash, m_base->engine_version);
    if (const cl::WhatIfFigures* known = m_cache.find(key)) {
        ++m_cacheHits;
        m_current = *known;
        m_progress = 1;
        setState(State::Ready);
        return;
    }
    m_progress = 0;
    setState(State::Simulating);
    m_settle.start();
}

void LiveWhatIf::startSimulation() {
    if (!m_base) return;
    cancelSimulation();
    const int generation = m_simulationGeneration;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    ++m_simulationsStarted;
    m_progress = 0;
    setState(State::Simulating);
    std::shared_ptr<const cl::WhatIfBase> base = m_base;
    cl::Cluster cluster = m_document->cluster();
    std::string key = cl::whatIfKey(cluster, base->scenario_hash, base->engine_version);
    m_pool.start([this, generation, cancel, base, cluster = std::move(cluster), key = std::move(key)] {
        if (cancel->load()) return;
        int lastPercent = -1;
        const auto progress = [this, generation, cancel, &lastPercent](double fraction) {
            const double clamped = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
            const int percent = static_cast<int>(clamped * 100.0);
            if (percent != lastPercent) {
                lastPercent = percent;
                post([this, generation, clamped] {
                    if (generation != m_simulationGeneration || m_state != State::Simulating) return;
                    m_progress = clamped;
                    emit changed();
                });
            }
            return !cancel->load();
        };
        std::optional<cl::WhatIfFigures> figures = cl::simulateWhatIf(*base, cluster, progress);
        if (!figures) return;  // cancelled: a newer edit or another scenario took over
        post([this, generation, key, figures = std::move(*figures)] {
            // Finished figures are right for their cluster even when an edit came since.
            m_cache.put(key, figures);
            if (generation != m_simulationGeneration) return;
            m_cancel.reset();
            m_current = figures;
            m_progress = 1;
            setState(State::Ready);
        });
    });
}

}  // namespace cl::views
