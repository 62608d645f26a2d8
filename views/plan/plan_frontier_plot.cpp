#include "views/plan/plan_frontier_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "views/common/chart_style.h"
#include "views/common/cost_text.h"
#include "views/common/format.h"

namespace cl::views {

namespace {

QString pointText(const cl::PlanRequest& r, const cl::PlanEvaluation& e) {
    QString text =
        QCoreApplication::translate("cl::views::PlanFrontierPlot", "%1 \u00d7 %2 with %3\n%4 a month")
            .arg(e.servers)
            .arg(QString::fromStdString(cl::serverTypeKey(r.server_types[e.server_type])),
                 QString::fromStdString(e.policy), formatUsd(e.cost_per_month));
    for (const cl::PlanTarget& t : r.targets) {
        const cl::Estimate& est = e.metrics.at(cl::planMetricKey(t));
        text += QStringLiteral("\n%1: %2")
                    .arg(QString::fromStdString(cl::planMetricKey(t)),
                         std::isnan(est.mean) ? QStringLiteral("\u2013") : formatDuration(est.mean));
    }
    text += e.feasible ? QCoreApplication::translate("cl::views::PlanFrontierPlot", "\nmeets every target")
                       : QCoreApplication::translate("cl::views::PlanFrontierPlot", "\nmisses a target");
    return text;
}

}  // namespace

PlanFrontierPlot::PlanFrontierPlot(QWidget* parent) : PlanPlot(parent) {
    setTitle(tr("Cost against the first target's metric"));
    xAxis->setLabel(tr("cost per month (USD)"));
    setToolTip(
        tr("Every cluster evaluated at the planned load. Filled: meets every target. The line is "
           "the frontier: the cheapest cluster for each level of the metric"));
    rebuild();
}

void PlanFrontierPlot::setPlan(std::shared_ptr<const cl::PlanRequest> request,
                               std::shared_ptr<const cl::PlanReport> report) {
    m_request = std::move(request);
    m_report = std::move(report);
    rebuild();
}

void PlanFrontierPlot::rebuild() {
    if (!m_request || !m_report || m_request->targets.empty()) {
        showEmpty(tr("Run a plan to see the frontier"));
        return;
    }
    startDrawing();
    const cl::PlanTarget& first = m_request->targets.front();
    const std::string key = cl::planMetricKey(first);
    // Hours, or days when the metric runs to several days.
    double largest = first.value_s;
    for (const cl::PlanEvaluation& e : m_report->evaluations)
        if (!std::isnan(e.metrics.at(key).mean)) largest = std::max(largest, e.metrics.at(key).mean);
    m_unit = largest > 3 * 86400.0 ? 86400.0 : 3600.0;
    yAxis->setLabel((m_unit > 3600.0 ? tr("%1 (days)") : tr("%1 (hours)")).arg(QString::fromStdString(key)));
    const QColor text = palette().color(QPalette::Text);
    double lowest = std::numeric_limits<double>::infinity();  // the lowest point drawn
    std::map<std::string, int> colour;
    for (std::size_t i = 0; i < m_request->policies.size(); ++i)
        colour[m_request->policies[i]] = static_cast<int>(i);
    for (const std::string& policy : m_request->policies) {
        const QColor c = seriesColor(colour[policy]);
        QCPGraph* meets = addGraph();
        meets->setName(QString::fromStdString(policy));
        meets->setLineStyle(QCPGraph::lsNone);
        meets->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 8));
        QCPGraph* misses = addGraph();
        misses->removeFromLegend();
        misses->setLineStyle(QCPGraph::lsNone);
        misses->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c, 1.5), Qt::NoBrush, 8));
        for (const cl::PlanEvaluation& e : m_report->evaluations) {
            if (e.policy != policy) continue;
            const double y = e.metrics.at(key).mean;
            if (std::isnan(y)) continue;
            (e.feasible ? meets : misses)->addData(e.cost_per_month, y / m_unit);
            lowest = std::min(lowest, y / m_unit);
        }
    }
    QCPGraph* frontier = addGraph();
    frontier->setName(tr("frontier"));
    frontier->setPen(QPen(text, 1.5));
    frontier->setLineStyle(QCPGraph::lsStepLeft);
    for (std::size_t i : m_report->frontier) {
        const cl::PlanEvaluation& e = m_report->evaluations[i];
        frontier->addData(e.cost_per_month, e.metrics.at(key).mean / m_unit);
    }
    rescaleAxes();
    // The target as a dashed line across the whole chart.
    auto* target = new QCPItemStraightLine(this);
    target->setPen(QPen(text, 1, Qt::DashLine));
    target->point1->setCoords(0, first.value_s / m_unit);
    target->point2->setCoords(1, first.value_s / m_unit);
    auto* label = new QCPItemText(this);
    label->setText(tr("target %1").arg(QString::fromStdString(first.text)));
    label->setColor(text);
    label->setFont(font());
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(0.01, first.value_s / m_unit);
    // Room around the points and the target line.
    QCPRange y = yAxis->range();
    y.expand(first.value_s / m_unit);
    y.lower = std::min(0.0, y.lower);
    // The small clusters of a search's first brackets can sit far above the target and squeeze
    // the region that matters to a strip; the axis then stops at four times the target (unless
    // every point lies above that: the chart would show none of them).
    const double clip = 4.0 * first.value_s / m_unit;
    const bool clipped =
        first.value_s > 0 && y.upper > clip && lowest <= clip &&
        (first.comparison == cl::TargetComparison::AtMost || first.comparison == cl::TargetComparison::Below);
    yAxis->setRange(y.lower, (clipped ? clip : y.upper) * 1.08 + 1e-9);
    // Said in the tooltip: the axis label has no room for it beside the chart.
    setToolTip(tr("Every cluster evaluated at the planned load. Filled: meets every target. The line is "
                  "the frontier: the cheapest cluster for each level of the metric.") +
               (clipped ? tr(" The metric axis stops at four times the target.") : QString()));
    // Costs spread over orders of magnitude when a search doubled far past the answer: a
    // logarithmic axis keeps the cheap end, where the frontier usually lies, readable.
    QCPRange x = xAxis->range();
    xAxis->setNumberFormat(QStringLiteral("f"));
    xAxis->setNumberPrecision(0);
    if (x.lower > 0 && x.upper / x.lower > 20) {
        xAxis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        xAxis->setTicker(ticker);
        xAxis->setRange(x.lower / 1.3, x.upper * 1.3);
    } else {
        xAxis->setScaleType(QCPAxis::stLinear);
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        // Costs are never negative: with every cluster unpriced (all at $0) the axis starts at 0.
        const double pad = std::max(1.0, (x.upper - x.lower) * 0.05);
        const double lower = std::max(0.0, x.lower - pad);
        xAxis->setRange(lower, std::max(x.upper + pad, lower + 1.0));
    }
    xAxis->setLabel(xAxis->scaleType() == QCPAxis::stLogarithmic ? tr("cost per month (USD, logarithmic)")
                                                                 : tr("cost per month (USD)"));
    replot();
}

int PlanFrontierPlot::evaluationAt(const QPoint& pos) const {
    if (!m_report || !m_request || m_request->targets.empty()) return -1;
    const std::string key = cl::planMetricKey(m_request->targets.front());
    int best = -1;
    double bestDistance = 8.0 * devicePixelRatioF() + 4;
    for (std::size_t i = 0; i < m_report->evaluations.size(); ++i) {
        const cl::PlanEvaluation& e = m_report->evaluations[i];
        const double y = e.metrics.at(key).mean;
        if (std::isnan(y)) continue;
        const double dx = xAxis->coordToPixel(e.cost_per_month) - pos.x();
        const double dy = yAxis->coordToPixel(y / m_unit) - pos.y();
        const double d = std::hypot(dx, dy);
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QString PlanFrontierPlot::tipAt(const QPoint& pos) const {
    const int i = evaluationAt(pos);
    return i >= 0 ? pointText(*m_request, m_report->evaluations[static_cast<std::size_t>(i)]) : QString();
}

}  // namespace cl::views
