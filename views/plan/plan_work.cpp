#include "views/plan/plan_work.h"

#include <exception>

#include <QMetaObject>

#include "core/runs/plan_runner.h"

namespace cl::views {

PlanWork::PlanWork(QString workspacePath, cl::PlanRequest request, cl::ScenarioSpec base, QString prefix,
                   QObject* parent)
    : QObject(parent),
      m_path(std::move(workspacePath)),
      m_request(std::move(request)),
      m_base(std::move(base)),
      m_prefix(std::move(prefix)) {}

PlanWork::~PlanWork() {
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
}

void PlanWork::cancel() {
    m_stop = true;
}

void PlanWork::start() {
    if (m_running || m_thread.joinable()) return;
    m_running = true;
    // Signals cross to the GUI thread queued; a destroyed PlanWork joins first, so `this` is alive.
    auto post = [this](auto fn) { QMetaObject::invokeMethod(this, fn, Qt::QueuedConnection); };
    m_thread = std::thread([this, post] {
        std::shared_ptr<const cl::PlanReport> report;
        QString error;
        try {
            cl::ScenarioStore store(m_path.toStdString());
            cl::PlanRunOptions options;
            options.prefix = m_prefix.toStdString();
            options.stop = &m_stop;
            auto phase = std::make_shared<cl::PlanProgress>();
            options.phase = [this, post, phase](const cl::PlanProgress& p) {
                *phase = p;
                const QString name = QString::fromStdString(p.phase);
                post([this, name, p] { emit progress(name, p.round, p.simulations, 0, 0); });
            };
            options.runs = [this, post, phase](const cl::SweepProgress& s) {
                const cl::PlanProgress p = *phase;
                const QString name = QString::fromStdString(p.phase);
                const int done = s.finished + s.failed;
                post([this, name, p, done, total = s.total] {
                    emit progress(name, p.round, p.simulations, done, total);
                });
            };
            report = std::make_shared<const cl::PlanReport>(cl::runPlan(store, m_request, m_base, options));
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        const bool cancelled = m_stop.load();
        post([this, report, error, cancelled] {
            m_running = false;
            if (m_thread.joinable()) m_thread.join();
            if (!report)
                emit failed(error);
            else
                emit finished(report, cancelled);
        });
    });
}

}  // namespace cl::views
