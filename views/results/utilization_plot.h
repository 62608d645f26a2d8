#pragma once
// GPU utilization over time of one run, drawn with QCustomPlot from SimResult::series.
#include <QString>
#include <QWidget>

#include "core/model/sim_result.h"

class QCustomPlot;
class QCPTextElement;

namespace cl::views {

class UtilizationPlot : public QWidget {
    Q_OBJECT

public:
    explicit UtilizationPlot(QWidget* parent = nullptr);

    // Plots result.series (busy GPUs / all GPUs) for the named policy.
    void setResult(const QString& policy, const cl::SimResult& result);
    // Clears the plot and shows a one-line message in its place.
    void showMessage(const QString& message);

    int pointCount() const;  // points currently plotted

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyFonts();

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
};

}  // namespace cl::views
