#include "views/trace/trace_histograms.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QEvent>
#include <QFontMetrics>
#include <QLocale>
#include <QToolTip>

#include "views/common/format.h"
#include "views/trace/job_table_model.h"

namespace cl::views {

namespace {

enum ChartIndex { GpuChart = 0, DurationChart = 1, ArrivalChart = 2, ChartCount = 3 };

struct BinSize {
    double seconds;
    const char* label;  // "jobs per ..."
};

// Arrival bins: the smallest that keeps the chart at most ~48 bars wide.
constexpr BinSize kArrivalBins[] = {
    {60.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per minute")},
    {300.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per 5 min")},
    {900.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per 15 min")},
    {3600.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per hour")},
    {3.0 * 3600.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per 3 h")},
    {6.0 * 3600.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per 6 h")},
    {86400.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per day")},
    {7.0 * 86400.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per week")},
    {30.0 * 86400.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "jobs per 30 days")},
};
constexpr int kMaxArrivalBins = 48;

struct TimeUnit {
    double seconds;
    const char* label;
};

TimeUnit timeUnitFor(double span) {
    if (span <= 2.0 * 3600.0)
        return {60.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "submit time (min)")};
    if (span <= 4.0 * 86400.0)
        return {3600.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "submit time (h)")};
    return {86400.0, QT_TRANSLATE_NOOP("cl::views::TraceHistograms", "submit time (days)")};
}

QString jobsText(double n) {
    return TraceHistograms::tr("%n job(s)", nullptr, static_cast<int>(n));
}

}  // namespace

TraceHistograms::TraceHistograms(QWidget* parent) : QWidget(parent), m_charts(ChartCount) {
    m_layout = new QBoxLayout(QBoxLayout::LeftToRight, this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    static const char* const kTips[] = {
        QT_TR_NOOP("How many jobs request each GPU count"),
        QT_TR_NOOP("Solo run times on a log scale (bins of a quarter or half decade)"),
        QT_TR_NOOP("Jobs submitted per time bin over the trace"),
    };
    for (int i = 0; i < ChartCount; ++i) {
        auto* plot = new QCustomPlot(this);
        plot->setAntialiasedElements(QCP::aePlottables);
        plot->setBackground(palette().brush(QPalette::Base));
        plot->plotLayout()->insertRow(0);
        auto* title = new QCPTextElement(plot, QString());
        plot->plotLayout()->addElement(0, 0, title);
        plot->setToolTip(tr(kTips[i]));
        plot->setMouseTracking(true);
        // Counts are whole jobs: ticks at integer multiples only.
        auto counts = QSharedPointer<QCPAxisTickerFixed>::create();
        counts->setTickStep(1.0);
        counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        plot->yAxis->setTicker(counts);
        connect(plot, &QCustomPlot::mouseMove, this,
                [this, i](QMouseEvent* event) { showTip(i, event->pos()); });
        m_plots.push_back(plot);
        m_titles.push_back(title);
        m_layout->addWidget(plot, 1);
    }
    applyFonts();
    clear();
}

void TraceHistograms::setOrientation(Qt::Orientation orientation) {
    m_layout->setDirection(orientation == Qt::Horizontal ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
}

QSize TraceHistograms::sizeHint() const {
    const QFontMetrics fm(font());
    const bool horizontal = m_layout->direction() == QBoxLayout::LeftToRight;
    return horizontal ? QSize(fm.averageCharWidth() * 120, fm.height() * 14)
                      : QSize(fm.averageCharWidth() * 45, fm.height() * 36);
}

QSize TraceHistograms::minimumSizeHint() const {
    const QFontMetrics fm(font());
    const bool horizontal = m_layout->direction() == QBoxLayout::LeftToRight;
    return horizontal ? QSize(fm.averageCharWidth() * 75, fm.height() * 10)
                      : QSize(fm.averageCharWidth() * 30, fm.height() * 27);
}

void TraceHistograms::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        applyFonts();
        for (QCustomPlot* plot : m_plots) {
            plot->setBackground(palette().brush(QPalette::Base));
            plot->replot();
        }
    }
}

void TraceHistograms::applyFonts() {
    const QFont base = font();
    QFont title = base;
    title.setBold(true);
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.9);
    const QColor text = palette().color(QPalette::Text);
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        m_titles[i]->setFont(title);
        m_titles[i]->setTextColor(text);
        for (QCPAxis* axis : {m_plots[i]->xAxis, m_plots[i]->yAxis}) {
            axis->setLabelFont(small);
            axis->setTickLabelFont(small);
            axis->setLabelColor(text);
            axis->setTickLabelColor(text);
        }
        m_plots[i]->legend->setFont(small);
    }
}

void TraceHistograms::addJob(Sample& sample, const cl::Job& job, const cl::ProfileSet* profiles) {
    sample.gpus.push_back(job.gpus);
    sample.submits.push_back(job.submit_time);
    const double d = JobTableModel::effectiveDuration(job, profiles);
    if (std::isnan(d) || d <= 0.0)
        ++sample.unknown_durations;
    else
        sample.durations.push_back(d);
}

void TraceHistograms::setTrace(const cl::Trace& trace, const cl::ProfileSet* profiles) {
    Sample s;
    for (const cl::Job& j : trace.jobs) addJob(s, j, profiles);
    draw({s}, {});
}

void TraceHistograms::setJobs(const cl::Trace& trace, const std::vector<int>& rows,
                              const cl::ProfileSet* profiles) {
    Sample s;
    for (int r : rows) addJob(s, trace.jobs[static_cast<std::size_t>(r)], profiles);
    draw({s}, {});
}

void TraceHistograms::setComparison(const cl::Trace& before, const cl::Trace& after,
                                    const cl::ProfileSet* profiles) {
    Sample a, b;
    for (const cl::Job& j : before.jobs) addJob(a, j, profiles);
    for (const cl::Job& j : after.jobs) addJob(b, j, profiles);
    draw({a, b}, {tr("before"), tr("after")});
}

void TraceHistograms::clear(const QString& message) {
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        m_charts[i] = Chart{};
        m_plots[i]->clearPlottables();
        m_plots[i]->legend->setVisible(false);
        m_plots[i]->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plots[i]->xAxis->setRange(0.0, 1.0);
        m_plots[i]->yAxis->setRange(0.0, 1.0);
    }
    m_titles[GpuChart]->setText(message.isEmpty() ? tr("GPU demand") : message);
    m_titles[DurationChart]->setText(tr("Duration"));
    m_titles[ArrivalChart]->setText(tr("Arrivals"));
    for (QCustomPlot* plot : m_plots) plot->replot();
}

void TraceHistograms::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The duration axis keeps only labels that fit its width: lay it out again.
    if (m_lastSamples.empty()) return;
    buildDurationChart(m_lastSamples);
    render(DurationChart, m_lastNames);
}

void TraceHistograms::draw(const std::vector<Sample>& samples, const QStringList& names) {
    m_lastSamples = samples;
    m_lastNames = names;
    buildGpuChart(samples);
    buildDurationChart(samples);
    buildArrivalChart(samples);
    for (int i = 0; i < ChartCount; ++i) render(i, names);
}

void TraceHistograms::buildGpuChart(const std::vector<Sample>& samples) {
    // Categorical: one slot per GPU count that occurs, in increasing order.
    std::map<int, std::vector<double>> counts;
    for (std::size_t s = 0; s < samples.size(); ++s)
        for (int g : samples[s].gpus) {
            auto& c = counts[g];
            c.resize(samples.size(), 0.0);
            c[s] += 1.0;
        }
    Chart chart;
    chart.counts.assign(samples.size(), {});
    QVector<double> ticks;
    QVector<QString> labels;
    double key = 1.0;
    for (const auto& [gpus, c] : counts) {
        chart.keys.push_back(key);
        ticks.push_back(key);
        labels.push_back(QString::number(gpus));
        QStringList parts;
        for (std::size_t s = 0; s < samples.size(); ++s) {
            chart.counts[s].push_back(c[s]);
            parts << jobsText(c[s]);
        }
        chart.tips << tr("%n GPU(s): %1", nullptr, gpus).arg(parts.join(QStringLiteral(" \u2192 ")));
        key += 1.0;
    }
    chart.width = 0.8;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels);
    QCustomPlot* plot = m_plots[GpuChart];
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("GPUs per job"));
    plot->xAxis->setRange(0.4, std::max(1.0, key - 1.0) + 0.6);
    plot->yAxis->setLabel(tr("jobs"));
    m_titles[GpuChart]->setText(tr("GPU demand"));
    m_charts[GpuChart] = chart;
}

void TraceHistograms::buildDurationChart(const std::vector<Sample>& samples) {
    double lo_s = std::numeric_limits<double>::infinity(), hi_s = 0.0;
    int unknown = 0;
    for (const Sample& s : samples) {
        for (double d : s.durations) {
            lo_s = std::min(lo_s, d);
            hi_s = std::max(hi_s, d);
        }
        unknown += s.unknown_durations;
    }
    Chart chart;
    chart.counts.assign(samples.size(), {});
    QCustomPlot* plot = m_plots[DurationChart];
    if (hi_s > 0.0) {
        const double span_decades = std::log10(hi_s) - std::log10(lo_s);
        const double per = span_decades <= 4.0 ? 4.0 : 2.0;  // bins per decade
        const double lo = std::floor(std::log10(lo_s) * per) / per;
        double hi = std::ceil(std::log10(hi_s) * per) / per;
        if (hi <= lo) hi = lo + 1.0 / per;
        const int bins = static_cast<int>(std::lround((hi - lo) * per));
        for (int b = 0; b < bins; ++b) chart.keys.push_back(lo + (b + 0.5) / per);
        for (std::size_t s = 0; s < samples.size(); ++s) {
            QVector<double> c(bins, 0.0);
            for (double d : samples[s].durations) {
                const int b =
                    std::clamp(static_cast<int>(std::floor((std::log10(d) - lo) * per)), 0, bins - 1);
                c[b] += 1.0;
            }
            chart.counts[s] = c;
        }
        for (int b = 0; b < bins; ++b) {
            QStringList parts;
            for (std::size_t s = 0; s < samples.size(); ++s) parts << jobsText(chart.counts[s][b]);
            chart.tips << tr("%1 to %2: %3")
                              .arg(formatDuration(std::pow(10.0, lo + b / per)),
                                   formatDuration(std::pow(10.0, lo + (b + 1) / per)),
                                   parts.join(QStringLiteral(" \u2192 ")));
        }
        chart.width = 0.9 / per;
        // Readable ticks at round durations, at least a third of a decade apart so that
        // labels never collide; finer ones when the range is narrow.
        struct Tick {
            double seconds;
            const char* label;
        };
        static const Tick kMain[] = {{1, QT_TR_NOOP("1 s")},       {10, QT_TR_NOOP("10 s")},
                                     {60, QT_TR_NOOP("1 min")},    {600, QT_TR_NOOP("10 min")},
                                     {3600, QT_TR_NOOP("1 h")},    {86400, QT_TR_NOOP("1 d")},
                                     {864000, QT_TR_NOOP("10 d")}, {8640000, QT_TR_NOOP("100 d")}};
        static const Tick kFine[] = {{3, QT_TR_NOOP("3 s")},         {30, QT_TR_NOOP("30 s")},
                                     {180, QT_TR_NOOP("3 min")},     {1800, QT_TR_NOOP("30 min")},
                                     {3 * 3600, QT_TR_NOOP("3 h")},  {10 * 3600, QT_TR_NOOP("10 h")},
                                     {3 * 86400, QT_TR_NOOP("3 d")}, {30 * 86400, QT_TR_NOOP("30 d")}};
        QMap<double, QString> ticks;
        const auto inRange = [&](double t) {
            return std::log10(t) >= lo - 1e-9 && std::log10(t) <= hi + 1e-9;
        };
        for (const Tick& t : kMain)
            if (inRange(t.seconds)) ticks.insert(std::log10(t.seconds), tr(t.label));
        if (ticks.size() < 3)
            for (const Tick& t : kFine)
                if (inRange(t.seconds)) ticks.insert(std::log10(t.seconds), tr(t.label));
        // Labels closer than their own width would run into each other on a narrow chart (the
        // Trace view at 1366 pixels): keep every tick that starts clear of the last one kept.
        const QFontMetricsF fm(plot->xAxis->tickLabelFont());
        // The axis is the plot less its value axis' labels (the axis rect itself is laid out only
        // at the next replot).
        const double axis_px = std::max(1.0, plot->width() - 8.0 * fm.averageCharWidth());
        const double px_per_decade = axis_px / std::max(1e-9, hi - lo);
        QMap<double, QString> shown;
        double last_right = -std::numeric_limits<double>::infinity();
        for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
            const double x = (it.key() - lo) * px_per_decade;
            const double half = fm.horizontalAdvance(it.value()) / 2 + fm.averageCharWidth();
            if (x - half < last_right) continue;
            shown.insert(it.key(), it.value());
            last_right = x + half;
        }
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        ticker->addTicks(shown);
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setRange(lo, hi);
    } else {
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->xAxis->setRange(0.0, 1.0);
    }
    plot->xAxis->setLabel(tr("solo run time (log scale)"));
    plot->yAxis->setLabel(tr("jobs"));
    m_titles[DurationChart]->setText(unknown > 0 ? tr("Duration (%n job(s) without one)", nullptr, unknown)
                                                 : tr("Duration"));
    m_charts[DurationChart] = chart;
}

void TraceHistograms::buildArrivalChart(const std::vector<Sample>& samples) {
    double t0 = 0.0, t1 = 0.0;
    bool any = false;
    for (const Sample& s : samples)
        for (double t : s.submits) {
            t0 = any ? std::min(t0, t) : std::min(0.0, t);
            t1 = any ? std::max(t1, t) : t;
            any = true;
        }
    Chart chart;
    chart.counts.assign(samples.size(), {});
    QCustomPlot* plot = m_plots[ArrivalChart];
    const double span = t1 - t0;
    const BinSize* bin = &kArrivalBins[std::size(kArrivalBins) - 1];
    for (const BinSize& b : kArrivalBins)
        if (span / b.seconds < kMaxArrivalBins) {
            bin = &b;
            break;
        }
    const TimeUnit unit = timeUnitFor(std::max(span, bin->seconds));
    if (any) {
        const int bins = std::max(1, static_cast<int>(std::floor(span / bin->seconds)) + 1);
        for (int b = 0; b < bins; ++b) chart.keys.push_back((t0 + (b + 0.5) * bin->seconds) / unit.seconds);
        for (std::size_t s = 0; s < samples.size(); ++s) {
            QVector<double> c(bins, 0.0);
            for (double t : samples[s].submits)
                c[std::clamp(static_cast<int>(std::floor((t - t0) / bin->seconds)), 0, bins - 1)] += 1.0;
            chart.counts[s] = c;
        }
        for (int b = 0; b < bins; ++b) {
            QStringList parts;
            for (std::size_t s = 0; s < samples.size(); ++s) parts << jobsText(chart.counts[s][b]);
            chart.tips << tr("%1 to %2: %3")
                              .arg(formatDuration(t0 + b * bin->seconds),
                                   formatDuration(t0 + (b + 1) * bin->seconds),
                                   parts.join(QStringLiteral(" \u2192 ")));
        }
        chart.width = 0.9 * bin->seconds / unit.seconds;
        plot->xAxis->setRange(t0 / unit.seconds, (t0 + bins * bin->seconds) / unit.seconds);
    } else {
        plot->xAxis->setRange(0.0, 1.0);
    }
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setLabel(tr(unit.label));
    plot->yAxis->setLabel(tr(bin->label));
    m_titles[ArrivalChart]->setText(tr("Arrivals"));
    m_charts[ArrivalChart] = chart;
}

void TraceHistograms::render(int index, const QStringList& names) {
    QCustomPlot* plot = m_plots[static_cast<std::size_t>(index)];
    const Chart& chart = m_charts[static_cast<std::size_t>(index)];
    plot->clearPlottables();
    const std::size_t series = chart.counts.size();
    QCPBarsGroup* group = nullptr;
    if (series > 1) {
        // clearPlottables leaves old groups behind; they are children of the plot and tiny.
        group = new QCPBarsGroup(plot);
        group->setSpacingType(QCPBarsGroup::stAbsolute);
        group->setSpacing(0);
    }
    double top = 0.0;
    for (std::size_t s = 0; s < series; ++s) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        const bool highlight = s + 1 == series;
        QColor fill = highlight ? palette().color(QPalette::Highlight) : palette().color(QPalette::Mid);
        bars->setPen(QPen(fill.darker(130), 0.8));
        fill.setAlpha(highlight ? 200 : 170);
        bars->setBrush(fill);
        bars->setWidth(chart.width / static_cast<double>(series));
        if (s < static_cast<std::size_t>(names.size())) bars->setName(names[static_cast<int>(s)]);
        if (group) bars->setBarsGroup(group);
        bars->setData(chart.keys, chart.counts[s], true);
        for (double c : chart.counts[s]) top = std::max(top, c);
    }
    plot->yAxis->setRange(0.0, top > 0.0 ? top * 1.12 : 1.0);
    plot->legend->setVisible(series > 1 && index == GpuChart);
    if (plot->legend->visible()) {
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
        plot->legend->setBrush(palette().brush(QPalette::Base));
        plot->legend->setTextColor(palette().color(QPalette::Text));
    }
    plot->replot();
}

void TraceHistograms::showTip(int index, const QPoint& pos) {
    const Chart& chart = m_charts[static_cast<std::size_t>(index)];
    QCustomPlot* plot = m_plots[static_cast<std::size_t>(index)];
    if (chart.keys.isEmpty() || !plot->axisRect()->rect().contains(pos)) return;
    const double x = plot->xAxis->pixelToCoord(pos.x());
    for (int b = 0; b < chart.keys.size(); ++b) {
        if (std::abs(x - chart.keys[b]) <= chart.width / 2.0 && b < chart.tips.size()) {
            QToolTip::showText(plot->mapToGlobal(pos), chart.tips[b], plot);
            return;
        }
    }
    QToolTip::hideText();
}

}  // namespace cl::views
