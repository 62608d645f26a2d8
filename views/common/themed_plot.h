#pragma once
// The look every QCustomPlot chart shares: a title, the legend in wrapping rows under the axes,
// and colours and fonts from the palette, so the light and the dark theme both work and a theme
// switch restyles a chart at once.
#include <QString>

#include <qcustomplot.h>

namespace cl::views {

class ThemedPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit ThemedPlot(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    QString title() const;

    // The chart at rect of an export or report painter (logical pixels), without the widget.
    void paintExport(QPainter& painter, const QRectF& rect);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    // Colours and fonts from the palette; subclasses redraw their plottables after it.
    virtual void restyle();

private:
    // Keeps the legend in the layout only while it has entries: QCustomPlot caps a layout column
    // at its elements' largest size, and an empty legend's is a few pixels, which squeezed an
    // empty chart's axes into a narrow box.
    void placeLegend();
    QCPTextElement* m_title = nullptr;
};

}  // namespace cl::views
