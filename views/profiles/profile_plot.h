#pragma once
// The look both profile charts share (a ThemedPlot) and a tooltip per category under the mouse.
#include <QStringList>

#include "views/common/themed_plot.h"

namespace cl::views {

class ProfilePlot : public ThemedPlot {
    Q_OBJECT

public:
    explicit ProfilePlot(QWidget* parent = nullptr);

    // The tooltip of category i (at coordinate i of the key axis).
    void setCategoryTips(const QStringList& tips) { m_tips = tips; }
    const QStringList& categoryTips() const { return m_tips; }
    // The category under a widget position, or -1.
    int categoryAt(const QPoint& pos) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    // Which axis holds the categories (keys); the other holds the values.
    virtual QCPAxis* categoryAxis() const { return xAxis; }

private:
    QStringList m_tips;
};

}  // namespace cl::views
