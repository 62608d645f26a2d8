#include "views/shell/scenario_run_batch.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <thread>
#include <utility>

#include <QMetaObject>

#include "core/runs/scenario_runner.h"
#include "core/store/scenario_store.h"

namespace cl::views {

ScenarioRunBatch::ScenarioRunBatch(QString workspacePath, QStringList scenarios, Options options,
                                   QObject* parent)
    : QObject(parent),
      m_path(std::move(workspacePath)),
      m_scenarios(std::move(scenarios)),
      m_options(options) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    m_pool.setMaxThreadCount(m_options.threads > 0 ? m_options.threads : cores);
}

ScenarioRunBatch::~ScenarioRunBatch() {
    cancel();
    waitForWorkers();
}

void ScenarioRunBatch::start() {
    if (m_started) return;
    m_started = true;
    m_running = true;
    if (m_scenarios.isEmpty()) {
        post([this] {
            m_running = false;
            emit finished(false);
        });
        return;
    }
    m_remaining = static_cast<int>(m_scenarios.size());
    for (const QString& scenario : m_scenarios) m_pool.start([this, scenario] { runOne(scenario); });
}

void ScenarioRunBatch::cancel() {
    m_cancelled = true;
}

void ScenarioRunBatch::waitForWorkers() {
    m_pool.waitForDone();
}

void ScenarioRunBatch::post(std::function<void()> emitter) {
    // Queued to the GUI thread; the destructor waits for the pool, so `this` outlives the call.
    QMetaObject::invokeMethod(this, std::move(emitter), Qt::QueuedConnection);
}

void ScenarioRunBatch::runOne(const QString& scenario) {
    if (m_cancelled) {
        post([this, scenario] { emit runCancelled(scenario); });
    } else {
        post([this, scenario] { emit runStarted(scenario); });
        int lastPermille = -1;
        const auto progress = [this, scenario, &lastPermille](double fraction) {
            const double clamped = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
            const int permille = static_cast<int>(clamped * 1000.0);
            if (permille != lastPermille) {
                lastPermille = permille;
                post([this, scenario, clamped] { emit runProgress(scenario, clamped); });
            }
            return !m_cancelled.load();
        };
        try {
            cl::ScenarioStore store(m_path.toStdString());
            const cl::RunOutcome outcome =
                cl::runScenarioStoringOnlyOutcomes(store, scenario.toStdString(), m_options.force, progress);
            if (outcome.run_id == 0) {
                post([this, scenario] { emit runCancelled(scenario); });
            } else {
                const qint64 id = outcome.run_id;
                const bool reused = outcome.reused;
                post([this, scenario, id, reused] { emit runFinished(scenario, id, reused); });
            }
        } catch (const std::exception& error) {
            const QString message = QString::fromStdString(error.what());
            post([this, scenario, message] { emit runFailed(scenario, message); });
        } catch (...) {
            post([this, scenario] { emit runFailed(scenario, tr("unknown error")); });
        }
    }
    if (--m_remaining == 0)
        post([this] {
            m_running = false;
            emit finished(m_cancelled.load());
        });
}

}  // namespace cl::views
