#pragma once
// How the figures of an imported profile vary from training step to training step: one box
// per figure (iteration, storage, CPU, GPU, network) from the lower to the upper quartile with
// the median inside and whiskers at the fastest and the slowest step, every step as a dot.
#include <vector>

#include <QColor>
#include <QString>

#include "views/profiles/profile_plot.h"

namespace cl::views {

class ProfileSpreadChart : public ProfilePlot {
    Q_OBJECT

public:
    struct Box {
        QString label;
        std::vector<double> values_ms;  // one per step
        QColor color;
    };
    // What a box shows (nearest-rank quartiles, cl::percentile).
    struct Figures {
        double min = 0.0, q1 = 0.0, median = 0.0, q3 = 0.0, max = 0.0;
    };
    static Figures figuresOf(const std::vector<double>& values);

    explicit ProfileSpreadChart(QWidget* parent = nullptr);

    void setBoxes(const std::vector<Box>& boxes, const QString& title);
    void clear(const QString& message = {});
    const std::vector<Box>& boxes() const { return m_boxes; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void restyle() override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    // Box names slant when they would run into each other.
    void fitLabels();

    std::vector<Box> m_boxes;
    QString m_titleText;
};

}  // namespace cl::views
