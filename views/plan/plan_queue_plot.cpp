#include "views/plan/plan_queue_plot.h"

#include <algorithm>
#include <cmath>

#include "views/common/chart_style.h"

namespace cl::views {

PlanQueuePlot::PlanQueuePlot(QWidget* parent) : PlanPlot(parent) {
    setTitle(tr("Queue over time"));
    yAxis->setLabel(tr("jobs"));
    setToolTip(
        tr("Jobs waiting (submitted, not started) and jobs unfinished (waiting, running or preempted) "
           "during the first seed's run of the selected row's cluster, or of the cheapest plan"));
    rebuild();
}

void PlanQueuePlot::setPlan(std::shared_ptr<const cl::PlanRequest> request,
                            std::shared_ptr<const cl::PlanReport> report, int evaluation) {
    m_request = std::move(request);
    m_report = std::move(report);
    m_evaluation = evaluation;
    rebuild();
}

const cl::PlanEvaluation* PlanQueuePlot::shown() const {
    if (!m_request || !m_report || m_evaluation < 0 ||
        m_evaluation >= static_cast<int>(m_report->evaluations.size()))
        return nullptr;
    return &m_report->evaluations[static_cast<std::size_t>(m_evaluation)];
}

int PlanQueuePlot::pointCount() const {
    return graphCount() > 0 ? graph(0)->dataCount() : 0;
}

void PlanQueuePlot::rebuild() {
    const cl::PlanEvaluation* e = shown();
    m_subject.clear();
    if (!e) {
        setTitle(tr("Queue over time"));
        showEmpty(m_report ? tr("Select a row of the table to see its queue")
                           : tr("Run a plan to see the queue over time"));
        return;
    }
    m_subject = tr("%1 \u00d7 %2 with %3")
                    .arg(e->servers)
                    .arg(QString::fromStdString(cl::serverTypeKey(m_request->server_types[e->server_type])),
                         QString::fromStdString(e->policy));
    const QString& what = m_subject;
    setTitle(tr("Queue over time: %1").arg(what));
    if (e->queue.empty()) {
        showEmpty(
            tr("No queue recorded for %1 (a plan stored before queues were kept: run it again)").arg(what));
        return;
    }
    startDrawing();
    const double span = e->queue.back().time_s - e->queue.front().time_s;
    m_unit = e->queue.back().time_s < 2 * 86400.0 ? 3600.0 : 86400.0;
    xAxis->setLabel(m_unit > 3600.0 ? tr("time since the first submission (days)")
                                    : tr("time since the first submission (hours)"));
    // The unfinished first: the waiting, a part of them, drawn over it.
    QCPGraph* unfinished = addGraph();
    unfinished->setName(tr("unfinished (waiting, running, preempted)"));
    QCPGraph* waiting = addGraph();
    waiting->setName(tr("waiting"));
    int top = 1;
    for (const cl::QueueSample& s : e->queue) {
        waiting->addData(s.time_s / m_unit, s.waiting_jobs);
        unfinished->addData(s.time_s / m_unit, s.unfinished_jobs);
        top = std::max({top, s.waiting_jobs, s.unfinished_jobs});
    }
    const QColor colours[] = {seriesColor(1), seriesColor(0)};
    QCPGraph* graphs[] = {waiting, unfinished};
    for (int i = 0; i < 2; ++i) {
        graphs[i]->setLineStyle(QCPGraph::lsStepLeft);
        graphs[i]->setPen(QPen(colours[i], 2));
        QColor fill = colours[i];
        fill.setAlpha(40);
        graphs[i]->setBrush(fill);
    }
    const double first = e->queue.front().time_s / m_unit, last = e->queue.back().time_s / m_unit;
    xAxis->setRange(std::min(0.0, first), last + std::max(span / m_unit * 0.02, 1e-6));
    yAxis->setRange(0, top * 1.08 + 0.5);
    // Job counts are whole.
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create();
    whole->setTickStep(1.0);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    yAxis->setTicker(whole);
    yAxis->setNumberFormat(QStringLiteral("f"));
    yAxis->setNumberPrecision(0);
    replot();
}

QString PlanQueuePlot::tipAt(const QPoint& pos) const {
    const cl::PlanEvaluation* e = shown();
    if (!e || e->queue.empty() || !axisRect()->rect().contains(pos)) return {};
    const double t = xAxis->pixelToCoord(pos.x()) * m_unit;
    // The step in force at t: the last sample at or before it.
    auto it = std::upper_bound(e->queue.begin(), e->queue.end(), t,
                               [](double time, const cl::QueueSample& s) { return time < s.time_s; });
    if (it == e->queue.begin()) return {};
    const cl::QueueSample& s = *std::prev(it);
    const QString when =
        m_unit > 3600.0 ? tr("day %1").arg(t / 86400.0, 0, 'f', 1) : tr("hour %1").arg(t / 3600.0, 0, 'f', 1);
    return tr("%1: %2 waiting, %3 unfinished").arg(when).arg(s.waiting_jobs).arg(s.unfinished_jobs);
}

}  // namespace cl::views
