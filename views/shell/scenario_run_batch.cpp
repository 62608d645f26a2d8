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
      m_options(options),
      m_runner(options.threads) {}

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
    m_driver = std::thread([this] { runAll(); });
}

void ScenarioRunBatch::runAll() {
    std::vector<bool> started(static_cast<std::size_t>(m_scenarios.size()), false);
    m_runner.run(
        started.size(),
        [this, &started](std::size_t i) -> cl::ParallelRunner::Work {
            started[i] = true;
            return [this, scenario = m_scenarios[static_cast<qsizetype>(i)]] { runOne(scenario); };
        },
        [](std::size_t, std::exception_ptr) {});  // runOne reports every outcome itself
    // Stop ends the batch before the rest start: each is reported cancelled, then the batch.
    for (std::size_t i = 0; i < started.size(); ++i)
        if (!started[i])
            post([this, scenario = m_scenarios[static_cast<qsizetype>(i)]] { emit runCancelled(scenario); });
    post([this] {
        m_running = false;
        emit finished(m_cancelled.load());
    });
}

void ScenarioRunBatch::cancel() {
    m_cancelled = true;
    m_runner.cancel();
}

void ScenarioRunBatch::waitForWorkers() {
    if (m_driver.joinable()) m_driver.join();
}

void ScenarioRunBatch::post(std::function<void()> emitter) {
    // Queued to the GUI thread; the destructor waits for the runner, so `this` outlives the call.
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
}

}  // namespace cl::views
