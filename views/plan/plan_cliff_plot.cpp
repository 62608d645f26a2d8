#include "views/plan/plan_cliff_plot.h"

#include <algorithm>
#include <cmath>

#include "views/common/chart_style.h"
#include "views/common/cost_text.h"
#include "views/common/format.h"
#include "views/plan/plan_table_model.h"

namespace cl::views {

PlanCliffPlot::PlanCliffPlot(QWidget* parent) : PlanPlot(parent) {
    setTitle(tr("Cliff: the targets against the server count"));
    xAxis->setLabel(tr("servers"));
    yAxis->setLabel(tr("metric / target"));
    setToolTip(
        tr("Each target's metric as a multiple of its target value (1 = exactly at the target) "
           "for server counts around the plan's answer (the vertical line)"));
    rebuild();
}

void PlanCliffPlot::setPlan(std::shared_ptr<const cl::PlanRequest> request,
                            std::shared_ptr<const cl::PlanReport> report, int candidate) {
    m_request = std::move(request);
    m_report = std::move(report);
    m_candidate = candidate;
    rebuild();
}

int PlanCliffPlot::pointCount() const {
    return static_cast<int>(m_points.size());
}

void PlanCliffPlot::rebuild() {
    m_points.clear();
    m_subject.clear();
    if (!m_request || !m_report || m_candidate < 0 ||
        m_candidate >= static_cast<int>(m_report->candidates.size())) {
        setTitle(tr("Cliff: the targets against the server count"));
        showEmpty(m_report ? tr("Select a row of the table to see its cliff")
                           : tr("Run a plan to see the cliff"));
        return;
    }
    startDrawing();
    const cl::CandidateResult& c = m_report->candidates[static_cast<std::size_t>(m_candidate)];
    for (const cl::PlanEvaluation& e : m_report->evaluations)
        if (e.server_type == c.server_type && e.policy == c.policy) m_points.push_back(&e);
    std::sort(m_points.begin(), m_points.end(), [](const cl::PlanEvaluation* a, const cl::PlanEvaluation* b) {
        return a->servers < b->servers;
    });
    // Around the answer only: the search's far brackets would squeeze the cliff to a corner.
    if (c.servers) {
        const int lo = *c.servers - 6, hi = *c.servers + 6;
        std::erase_if(m_points,
                      [&](const cl::PlanEvaluation* e) { return e->servers < lo || e->servers > hi; });
    }
    m_subject = tr("%1 with %2")
                    .arg(QString::fromStdString(cl::serverTypeKey(m_request->server_types[c.server_type])),
                         QString::fromStdString(c.policy));
    setTitle(tr("Cliff: %1").arg(m_subject));
    const QColor text = palette().color(QPalette::Text);
    double top = 1.0;
    for (std::size_t t = 0; t < m_request->targets.size(); ++t) {
        const cl::PlanTarget& target = m_request->targets[t];
        QCPGraph* g = addGraph();
        g->setName(QString::fromStdString(target.text));
        const QColor colour = seriesColor(static_cast<int>(t));
        g->setPen(QPen(colour, 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 6));
        for (const cl::PlanEvaluation* e : m_points) {
            const double v = e->metrics.at(cl::planMetricKey(target)).mean;
            if (std::isnan(v) || target.value_s <= 0) continue;
            g->addData(e->servers, v / target.value_s);
            top = std::max(top, v / target.value_s);
        }
    }
    rescaleAxes();
    yAxis->setRange(0, std::min(top, 10.0) * 1.08);
    const QCPRange x = xAxis->range();
    xAxis->setRange(x.lower - 0.5, x.upper + 0.5);
    // Server counts are whole: ticks at integer multiples of 1 (1, 2, 5, 10... apart), no 7.5.
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create();
    whole->setTickStep(1.0);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    whole->setTickCount(8);
    xAxis->setTicker(whole);
    xAxis->setNumberFormat(QStringLiteral("f"));
    xAxis->setNumberPrecision(0);
    auto* one = new QCPItemStraightLine(this);
    one->setPen(QPen(text, 1, Qt::DashLine));
    one->point1->setCoords(0, 1);
    one->point2->setCoords(1, 1);
    if (c.servers) {
        auto* answer = new QCPItemStraightLine(this);
        QColor mark = text;
        mark.setAlpha(140);
        answer->setPen(QPen(mark, 1, Qt::DotLine));
        answer->point1->setCoords(*c.servers, 0);
        answer->point2->setCoords(*c.servers, 1);
        auto* label = new QCPItemText(this);
        label->setText(tr("plan: %1").arg(*c.servers));
        label->setColor(text);
        label->setFont(font());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(*c.servers + 0.1, 0.02);
    }
    replot();
}

QString PlanCliffPlot::tipAt(const QPoint& pos) const {
    const int servers = static_cast<int>(std::lround(xAxis->pixelToCoord(pos.x())));
    const auto it = std::find_if(m_points.begin(), m_points.end(),
                                 [&](const cl::PlanEvaluation* e) { return e->servers == servers; });
    if (it == m_points.end() || !axisRect()->rect().contains(pos)) return {};
    const cl::PlanEvaluation& e = **it;
    QString tip = tr("%n server(s), %1 a month", "", e.servers).arg(formatUsd(e.cost_per_month));
    for (const cl::PlanTarget& t : m_request->targets) {
        const double v = e.metrics.at(cl::planMetricKey(t)).mean;
        tip += QStringLiteral("\n%1: %2")
                   .arg(QString::fromStdString(t.text), planMetricText(cl::planMetricKey(t), v));
    }
    tip += e.feasible ? tr("\nmeets every target") : tr("\nmisses a target");
    return tip;
}

}  // namespace cl::views
