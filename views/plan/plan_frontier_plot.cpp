#include "views/plan/plan_frontier_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <QFontMetrics>

#include "views/common/chart_style.h"
#include "views/common/cost_text.h"
#include "views/common/format.h"
#include "views/plan/plan_table_model.h"

namespace cl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("cl::views::PlanFrontierPlot", text);
}

// GPUs of the candidate cluster of `e` (docs/architecture.md 7.9: the base retyped and resized,
// or the base plus servers of the type).
int gpusOf(const cl::PlanRequest& r, const cl::PlanEvaluation& e) {
    int gpus = e.servers * r.server_types[static_cast<std::size_t>(e.server_type)].server.gpus;
    if (r.keep_base)
        for (const cl::Server& s : r.base.servers) gpus += s.gpus;
    return gpus;
}

// The overload figures of the architecture document's "Overload" check, when it was made.
QString loadText(const cl::PlanLoadCheck& load) {
    if (!load.assessed) return {};
    QString text = tr("Offered load %1 of the GPUs; backlog at the last arrival %2 GPU-hours")
                       .arg(QStringLiteral("%1%").arg(QLocale().toString(load.offered_load * 100, 'f', 0)),
                            QLocale().toString(load.backlog_gpu_hours, 'f', 1));
    if (load.overloaded)
        text += QStringLiteral("\n") + tr("Overloaded: it does not keep up with the arrivals");
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

double PlanFrontierPlot::across(const cl::PlanEvaluation& e) const {
    return m_byGpus ? gpusOf(*m_request, e) : e.cost_per_month;
}

QString PlanFrontierPlot::pointToolTip(int index) const {
    if (!m_request || !m_report || index < 0 || index >= static_cast<int>(m_report->evaluations.size()))
        return {};
    const cl::PlanRequest& r = *m_request;
    const cl::PlanEvaluation& e = m_report->evaluations[static_cast<std::size_t>(index)];
    QString text = tr("%1 \u00d7 %2 with %3")
                       .arg(e.servers)
                       .arg(QString::fromStdString(cl::serverTypeKey(r.server_types[e.server_type])),
                            QString::fromStdString(e.policy));
    text +=
        QStringLiteral("\n") + tr("%1 a month, %2 GPUs").arg(formatUsd(e.cost_per_month)).arg(gpusOf(r, e));
    if (e.unpriced_servers > 0) text += QStringLiteral(" (") + unpricedServersText(e.unpriced_servers) + ")";
    text += e.feasible ? tr("\nmeets every target") : tr("\nmisses a target");
    // The targets' metrics first, in the request's order, then the rest by name.
    std::vector<std::string> keys;
    for (const cl::PlanTarget& t : r.targets) keys.push_back(cl::planMetricKey(t));
    for (const auto& [key, estimate] : e.metrics)
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    for (const std::string& key : keys) {
        const auto it = e.metrics.find(key);
        if (it == e.metrics.end()) continue;
        // As the ranked table shows it: the mean over the seeds with its 95% interval.
        text +=
            QStringLiteral("\n%1: %2").arg(QString::fromStdString(key), planEstimateText(key, it->second));
    }
    if (const QString load = loadText(e.load); !load.isEmpty()) text += QStringLiteral("\n") + load;
    return text;
}

void PlanFrontierPlot::rebuild() {
    m_tickValues.clear();
    if (!m_request || !m_report || m_request->targets.empty()) {
        showEmpty(tr("Run a plan to see the frontier"));
        return;
    }
    startDrawing();
    const cl::PlanTarget& first = m_request->targets.front();
    const std::string key = cl::planMetricKey(first);
    auto metricOf = [&](const cl::PlanEvaluation& e) {
        const auto it = e.metrics.find(key);
        return it == e.metrics.end() ? std::numeric_limits<double>::quiet_NaN() : it->second.mean;
    };
    // Hours, or days when the metric runs to several days; GPUs across when nothing is priced.
    double largest = first.value_s;
    m_byGpus = true;
    for (const cl::PlanEvaluation& e : m_report->evaluations) {
        if (std::isnan(metricOf(e))) continue;
        largest = std::max(largest, metricOf(e));
        if (e.cost_per_month > 0) m_byGpus = false;
    }
    // A slowdown is a plain ratio (docs/architecture.md 7.7).
    const bool ratio = cl::isRatioMetric(key);
    m_unit = ratio ? 1.0 : largest > 3 * 86400.0 ? 86400.0 : 3600.0;
    yAxis->setLabel((ratio             ? tr("%1 (ratio)")
                     : m_unit > 3600.0 ? tr("%1 (days)")
                                       : tr("%1 (hours)"))
                        .arg(QString::fromStdString(key)));
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
            const double y = metricOf(e);
            if (e.policy != policy || std::isnan(y)) continue;
            (e.feasible ? meets : misses)->addData(across(e), y / m_unit);
            lowest = std::min(lowest, y / m_unit);
            m_tickValues.push_back(across(e));
        }
    }
    std::sort(m_tickValues.begin(), m_tickValues.end());
    m_tickValues.erase(std::unique(m_tickValues.begin(), m_tickValues.end()), m_tickValues.end());
    QCPGraph* frontier = addGraph();
    frontier->setName(tr("frontier"));
    frontier->setPen(QPen(palette().color(QPalette::Text), 1.5));
    frontier->setLineStyle(QCPGraph::lsStepLeft);
    for (std::size_t i : m_report->frontier) {
        const cl::PlanEvaluation& e = m_report->evaluations[i];
        if (!std::isnan(metricOf(e))) frontier->addData(across(e), metricOf(e) / m_unit);
    }
    rescaleAxes();
    drawTarget(lowest);
    setAcrossAxis();
    // Lay the axes out once so that the ticks can be thinned to the labels that fit.
    replot();
    placeTicks();
    replot();
}

void PlanFrontierPlot::drawTarget(double lowest) {
    const cl::PlanTarget& first = m_request->targets.front();
    const QColor text = palette().color(QPalette::Text);
    const double level = first.value_s / m_unit;
    // The target as a dashed line across the whole chart (through two positive x coordinates:
    // a logarithmic axis has no 0).
    auto* target = new QCPItemStraightLine(this);
    target->setPen(QPen(text, 1, Qt::DashLine));
    target->point1->setCoords(1, level);
    target->point2->setCoords(2, level);
    auto* label = new QCPItemText(this);
    label->setText(tr("target %1").arg(QString::fromStdString(first.text)));
    label->setColor(text);
    label->setFont(font());
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(0.01, level);
    // Room around the points and the target line.
    QCPRange y = yAxis->range();
    y.expand(level);
    y.lower = std::min(0.0, y.lower);
    // The small clusters of a search's first brackets can sit far above the target and squeeze
    // the region that matters to a strip; the axis then stops at four times the target (unless
    // every point lies above that: the chart would show none of them).
    const double clip = 4.0 * level;
    const bool clipped =
        first.value_s > 0 && y.upper > clip && lowest <= clip &&
        (first.comparison == cl::TargetComparison::AtMost || first.comparison == cl::TargetComparison::Below);
    yAxis->setRange(y.lower, (clipped ? clip : y.upper) * 1.08 + 1e-9);
    // Said in the tooltip: the axis label has no room for it beside the chart.
    setToolTip(
        tr("Every cluster evaluated at the planned load. Filled: meets every target. The line is "
           "the frontier: the cheapest cluster for each level of the metric. Hover a point for "
           "its figures.") +
        (clipped ? tr(" The metric axis stops at four times the target.") : QString()) +
        (m_byGpus ? tr(" No server is priced, so the clusters are placed by their GPU count.") : QString()));
}

void PlanFrontierPlot::setAcrossAxis() {
    const double low = m_tickValues.empty() ? 0.0 : m_tickValues.front();
    const double high = m_tickValues.empty() ? 1.0 : m_tickValues.back();
    // Costs spread over a decade or more when a search doubled far past the answer: a
    // logarithmic axis keeps the cheap end, where the frontier usually lies, readable. A narrower
    // spread reads better linear (a log axis would give it one or no labelled decade).
    const bool logarithmic = !m_byGpus && low > 0 && high / low >= 10.0;
    if (logarithmic) {
        xAxis->setScaleType(QCPAxis::stLogarithmic);
        xAxis->setRange(low / 1.3, high * 1.3);
    } else {
        xAxis->setScaleType(QCPAxis::stLinear);
        // Costs and GPUs are never negative: an axis starts at 0 at the lowest.
        const double pad = std::max(1.0, (high - low) * 0.06);
        const double lower = std::max(0.0, low - pad);
        xAxis->setRange(lower, std::max(high + pad, lower + 1.0));
    }
    if (m_byGpus)
        xAxis->setLabel(tr("GPUs (no server is priced: clusters placed by size)"));
    else
        xAxis->setLabel(logarithmic ? tr("cost per month (USD, logarithmic)") : tr("cost per month (USD)"));
}

void PlanFrontierPlot::placeTicks() {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->setSubTickCount(0);
    const QFontMetrics fm(xAxis->tickLabelFont());
    const double gap = fm.averageCharWidth() * 1.5;
    double right = -std::numeric_limits<double>::infinity();  // where the last label placed ends
    for (double v : m_tickValues) {
        const QString label = m_byGpus ? QLocale().toString(static_cast<int>(std::lround(v))) : formatUsd(v);
        const double px = xAxis->coordToPixel(v);
        const double half = fm.horizontalAdvance(label) / 2.0;
        if (px - half < right + gap) continue;
        ticker->addTick(v, label);
        right = px + half;
    }
    xAxis->setTicker(ticker);
}

void PlanFrontierPlot::resizeEvent(QResizeEvent* event) {
    PlanPlot::resizeEvent(event);
    // Another width fits another number of tick labels.
    if (!m_tickValues.empty() && xAxis->visible()) {
        placeTicks();
        replot(rpQueuedRefresh);
    }
}

int PlanFrontierPlot::evaluationAt(const QPoint& pos) const {
    if (!m_report || !m_request || m_request->targets.empty()) return -1;
    const std::string key = cl::planMetricKey(m_request->targets.front());
    int best = -1;
    double bestDistance = 8.0 * devicePixelRatioF() + 4;
    for (std::size_t i = 0; i < m_report->evaluations.size(); ++i) {
        const cl::PlanEvaluation& e = m_report->evaluations[i];
        const auto it = e.metrics.find(key);
        if (it == e.metrics.end() || std::isnan(it->second.mean)) continue;
        const double dx = xAxis->coordToPixel(across(e)) - pos.x();
        const double dy = yAxis->coordToPixel(it->second.mean / m_unit) - pos.y();
        const double d = std::hypot(dx, dy);
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QString PlanFrontierPlot::tipAt(const QPoint& pos) const {
    return pointToolTip(evaluationAt(pos));
}

}  // namespace cl::views
