#include "views/run_job.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <utility>

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

namespace cl::views {

RunJob::RunJob(RunInputs inputs, QStringList policies, QObject* parent)
    : QObject(parent), m_inputs(std::move(inputs)), m_policies(std::move(policies)) {
    qRegisterMetaType<cl::views::SimResultPtr>();
}

RunJob::~RunJob() {
    cancel();
    waitForWorker();
}

void RunJob::start() {
    if (m_started) return;
    m_started = true;
    m_running = true;
    m_future = QtConcurrent::run([this] { work(); });
}

void RunJob::cancel() {
    m_state->cancelled.store(true);
}

void RunJob::waitForWorker() {
    if (m_future.isValid()) m_future.waitForFinished();
}

void RunJob::post(std::function<void()> emitter) {
    // The context object lives in the GUI thread, so the functor runs there. The destructor
    // waits for the worker, hence `this` outlives every post() call; events still queued when
    // the object is deleted are discarded by Qt.
    QMetaObject::invokeMethod(this, std::move(emitter), Qt::QueuedConnection);
}

void RunJob::work() {
    const int count = static_cast<int>(m_policies.size());
    if (!m_inputs.cluster || !m_inputs.trace || !m_inputs.profiles) {
        for (const QString& policy : m_policies)
            post([this, policy] { emit policyFailed(policy, tr("no scenario loaded")); });
        post([this] {
            m_running = false;
            emit finished(false);
        });
        return;
    }
    for (int i = 0; i < count; ++i) {
        if (m_state->cancelled.load()) break;
        const QString policy = m_policies.at(i);
        post([this, policy] { emit policyStarted(policy); });

        cl::SimOptions options = m_inputs.options;
        int last_permille = -1;
        options.progress = [this, policy, i, count, &last_permille](double fraction) {
            const double clamped = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
            const int permille = static_cast<int>(clamped * 1000.0);
            if (permille != last_permille) {
                last_permille = permille;
                const double overall = (i + clamped) / count;
                post([this, policy, clamped, overall] { emit progressChanged(policy, clamped, overall); });
            }
            return !m_state->cancelled.load();
        };

        try {
            auto result = std::make_shared<cl::SimResult>(cl::simulate(
                *m_inputs.cluster, *m_inputs.trace, *m_inputs.profiles, policy.toStdString(), options));
            if (result->cancelled || m_state->cancelled.load()) break;
            SimResultPtr shared = std::move(result);
            post([this, policy, shared] { emit policyFinished(policy, shared); });
        } catch (const std::exception& error) {
            const QString message = QString::fromStdString(error.what());
            post([this, policy, message] { emit policyFailed(policy, message); });
        } catch (...) {
            post([this, policy] { emit policyFailed(policy, tr("unknown error")); });
        }
    }
    post([this] {
        m_running = false;
        emit finished(m_state->cancelled.load());
    });
}

}  // namespace cl::views
