#pragma once
// Three small bar charts of a trace (or of a filtered subset, or of a trace before and after
// a transform): jobs per GPU count, jobs per log-spaced duration bin, arrivals over time.
#include <vector>

#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "core/model/model_profile.h"
#include "core/model/trace.h"

class QBoxLayout;
class QCustomPlot;
class QCPTextElement;

namespace cl::views {

class TraceHistograms : public QWidget {
    Q_OBJECT

public:
    // Bars of one chart: bin centres in plot coordinates, a count per series and bin, and
    // the text shown when hovering a bin.
    struct Chart {
        QVector<double> keys;
        double width = 1.0;
        std::vector<QVector<double>> counts;
        QStringList tips;
    };

    explicit TraceHistograms(QWidget* parent = nullptr);

    // Charts side by side (Horizontal, the default) or stacked (Vertical).
    void setOrientation(Qt::Orientation orientation);

    // Durations of iteration-only jobs come from the profiles when given.
    void setTrace(const cl::Trace& trace, const cl::ProfileSet* profiles = nullptr);
    // Only the jobs at these indices of trace.jobs.
    void setJobs(const cl::Trace& trace, const std::vector<int>& rows,
                 const cl::ProfileSet* profiles = nullptr);
    // Both traces on shared bins, "before" in grey beside "after" in the highlight colour.
    void setComparison(const cl::Trace& before, const cl::Trace& after,
                       const cl::ProfileSet* profiles = nullptr);
    // Empties the charts and shows the message in the first chart's title.
    void clear(const QString& message = {});

    const Chart& gpuChart() const { return m_charts[0]; }
    const Chart& durationChart() const { return m_charts[1]; }
    const Chart& arrivalChart() const { return m_charts[2]; }
    QCustomPlot* plot(int chart) const { return m_plots[static_cast<std::size_t>(chart)]; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Sample {
        std::vector<int> gpus;
        std::vector<double> durations;  // known durations only
        std::vector<double> submits;
        int unknown_durations = 0;
    };

    static void addJob(Sample& sample, const cl::Job& job, const cl::ProfileSet* profiles);
    void draw(const std::vector<Sample>& samples, const QStringList& names);
    void buildGpuChart(const std::vector<Sample>& samples);
    void buildDurationChart(const std::vector<Sample>& samples);
    void buildArrivalChart(const std::vector<Sample>& samples);
    void render(int chart, const QStringList& names);
    void showTip(int chart, const QPoint& pos);
    void applyFonts();

    QBoxLayout* m_layout = nullptr;
    std::vector<QCustomPlot*> m_plots;
    std::vector<QCPTextElement*> m_titles;
    std::vector<Chart> m_charts;
    std::vector<Sample> m_lastSamples;  // what was drawn last, to lay the axes out again on resize
    QStringList m_lastNames;
};

}  // namespace cl::views
