#include "views/replay/replay_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <QFontMetrics>
#include <QHelpEvent>
#include <QToolTip>

#include "views/common/chart_style.h"
#include "views/common/format.h"
#include "views/replay/replay_jobs_model.h"

namespace cl::views {

TimeUnit timeUnitFor(double largestSeconds) {
    if (largestSeconds <= 120.0) return {1.0, QObject::tr("s")};
    if (largestSeconds <= 2.0 * 3600.0) return {60.0, QObject::tr("min")};
    if (largestSeconds <= 2.0 * 86400.0) return {3600.0, QObject::tr("h")};
    return {86400.0, QObject::tr("d")};
}

ReplayPlot::ReplayPlot(QWidget* parent) : ThemedPlot(parent) {
    legend->setVisible(true);
}

QSize ReplayPlot::minimumSizeHint() const {
    // At least 200 pixels tall (a 1366 x 768 screen leaves room for it): smaller, the step
    // lines of a few hundred jobs run together.
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 36, std::max(200, fm.height() * 11)};
}

QSize ReplayPlot::sizeHint() const {
    const QFontMetrics fm(font());
    // Little above the minimum: the tables below need the height more than the charts.
    return {fm.averageCharWidth() * 70, std::max(220, fm.height() * 13)};
}

void ReplayPlot::setCheck(std::shared_ptr<const cl::ReplayCheck> check) {
    m_check = std::move(check);
    rebuild();
}

void ReplayPlot::restyle() {
    ThemedPlot::restyle();
    rebuild();
}

void ReplayPlot::rebuild() {
    clearPlottables();
    clearItems();
    const bool empty = !m_check || m_check->jobs.empty();
    xAxis->setVisible(!empty);
    yAxis->setVisible(!empty);
    if (empty) {
        // Hidden axes take their grids with them and leave the chart to the hint.
        auto* hint = new QCPItemText(this);
        hint->setText(tr("No compared jobs"));
        hint->setColor(palette().color(QPalette::PlaceholderText));
        hint->setFont(font());
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
    } else {
        draw(*m_check);
    }
    replot();
}

ReplayWaitCdf::ReplayWaitCdf(QWidget* parent) : ReplayPlot(parent) {
    setTitle(tr("Wait (start \u2212 submit): recorded and simulated"));
    yAxis->setLabel(tr("share of jobs"));
    setToolTip(
        tr("The distribution of the waits: how many of the compared jobs waited at most so long, in the "
           "recorded run and in the replay. Where the simulated line lies right of the recorded one, the "
           "replay keeps jobs waiting longer than the real scheduler did"));
    setCheck(nullptr);
}

void ReplayWaitCdf::draw(const cl::ReplayCheck& check) {
    std::vector<double> recorded, simulated;
    for (const cl::ReplayJob& j : check.jobs) {
        recorded.push_back(std::max(0.0, j.recorded_start - j.submit));
        simulated.push_back(std::max(0.0, j.simulated_start - j.submit));
    }
    std::sort(recorded.begin(), recorded.end());
    std::sort(simulated.begin(), simulated.end());
    const TimeUnit unit = timeUnitFor(std::max(recorded.back(), simulated.back()));
    xAxis->setLabel(tr("wait (%1)").arg(unit.name));
    const QString names[] = {tr("Recorded"), tr("Simulated")};
    const std::vector<double>* values[] = {&recorded, &simulated};
    for (int s = 0; s < 2; ++s) {
        // An empirical distribution: 0 up to the first wait, then a step of 1/n at every wait.
        const std::vector<double>& v = *values[s];
        const double n = static_cast<double>(v.size());
        QVector<double> keys{v.front() / unit.seconds}, shares{0.0};
        for (std::size_t i = 0; i < v.size(); ++i) {
            keys << v[i] / unit.seconds;
            shares << static_cast<double>(i + 1) / n;
        }
        QCPGraph* graph = addGraph();
        graph->setName(names[s]);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(seriesColor(s), s == 0 ? 2.5 : 2.0, s == 0 ? Qt::SolidLine : Qt::DashLine));
        graph->setData(keys, shares, true);
    }
    const double largest = std::max(recorded.back(), simulated.back()) / unit.seconds;
    xAxis->setRange(0.0, largest > 0 ? largest * 1.04 : 1.0);
    yAxis->setRange(0.0, 1.04);
}

ReplayStartScatter::ReplayStartScatter(QWidget* parent) : ReplayPlot(parent) {
    setTitle(tr("Start of every job: simulated against recorded"));
    setToolTip(
        tr("Each dot is a job; on the diagonal the replay started it when it really started, above "
           "it later, below it earlier. Point at a dot for the job"));
    setCheck(nullptr);
}

void ReplayStartScatter::draw(const cl::ReplayCheck& check) {
    m_origin = std::numeric_limits<double>::infinity();
    double last = 0.0;
    for (const cl::ReplayJob& j : check.jobs) {
        m_origin = std::min(m_origin, j.submit);
        last = std::max({last, j.recorded_start, j.simulated_start});
    }
    m_unit = timeUnitFor(last - m_origin);
    xAxis->setLabel(tr("recorded start (%1 after the first submit)").arg(m_unit.name));
    yAxis->setLabel(tr("simulated start (%1)").arg(m_unit.name));
    QVector<double> x, y;
    for (const cl::ReplayJob& j : check.jobs) {
        x << (j.recorded_start - m_origin) / m_unit.seconds;
        y << (j.simulated_start - m_origin) / m_unit.seconds;
    }
    const double hi = std::max(1e-9, (last - m_origin) / m_unit.seconds) * 1.04;
    QCPGraph* diagonal = addGraph();
    diagonal->setName(tr("simulated = recorded"));
    QColor line = palette().color(QPalette::Text);
    line.setAlpha(150);
    diagonal->setPen(QPen(line, 1.2, Qt::DashLine));
    diagonal->setData({0.0, hi}, {0.0, hi}, true);
    QCPGraph* jobs = addGraph();
    jobs->setName(tr("Jobs"));
    jobs->setLineStyle(QCPGraph::lsNone);
    jobs->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColor(0), seriesColor(0), 6));
    jobs->setData(x, y);  // sorted by the graph: not in key order
    xAxis->setRange(0.0, hi);
    yAxis->setRange(0.0, hi);
}

const cl::ReplayJob* ReplayStartScatter::jobAt(const QPoint& pos) const {
    if (!m_check || m_check->jobs.empty() || !xAxis->visible()) return nullptr;
    const cl::ReplayJob* nearest = nullptr;
    double best = 7.0 * 7.0;  // pixels, squared
    for (const cl::ReplayJob& j : m_check->jobs) {
        const double dx = xAxis->coordToPixel((j.recorded_start - m_origin) / m_unit.seconds) - pos.x();
        const double dy = yAxis->coordToPixel((j.simulated_start - m_origin) / m_unit.seconds) - pos.y();
        if (dx * dx + dy * dy <= best) {
            best = dx * dx + dy * dy;
            nearest = &j;
        }
    }
    return nearest;
}

bool ReplayStartScatter::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return ReplayPlot::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const cl::ReplayJob* j = jobAt(help->pos());
    if (!j) return ReplayPlot::event(event);
    QToolTip::showText(
        help->globalPos(),
        tr("Job %1 (%2 GPUs%3)\nrecorded start %4\nsimulated start %5 (%6)")
            .arg(QString::fromStdString(j->id))
            .arg(j->gpus)
            .arg(j->partition.empty() ? QString()
                                      : QStringLiteral(", ") + QString::fromStdString(j->partition))
            .arg(formatRunTime(j->recorded_start), formatRunTime(j->simulated_start),
                 signedDuration(j->difference)),
        this);
    return true;
}

}  // namespace cl::views
