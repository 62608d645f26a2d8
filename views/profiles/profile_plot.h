#pragma once
// The look both profile charts share: a title, the legend in wrapping rows under the axes,
// colours from the palette (so the light and the dark theme both work, and a theme switch
// restyles a chart at once), and a tooltip per category under the mouse.
#include <QStringList>

#include <qcustomplot.h>

namespace cl::views {

class ProfilePlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit ProfilePlot(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    QString title() const;
    // The tooltip of category i (at coordinate i of the key axis).
    void setCategoryTips(const QStringList& tips) { m_tips = tips; }
    const QStringList& categoryTips() const { return m_tips; }
    // The category under a widget position, or -1.
    int categoryAt(const QPoint& pos) const;

    // The chart at rect of an export or report painter (logical pixels), without the widget.
    void paintExport(QPainter& painter, const QRectF& rect);

protected:
    void changeEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    // Colours and fonts from the palette; subclasses redraw their plottables after it.
    virtual void restyle();
    // Which axis holds the categories (keys); the other holds the values.
    virtual QCPAxis* categoryAxis() const { return xAxis; }

private:
    QCPTextElement* m_title = nullptr;
    QStringList m_tips;
};

}  // namespace cl::views
