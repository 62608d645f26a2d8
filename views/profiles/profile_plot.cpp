#include "views/profiles/profile_plot.h"

#include <cmath>

#include <QToolTip>

namespace cl::views {

ProfilePlot::ProfilePlot(QWidget* parent) : ThemedPlot(parent) {}

int ProfilePlot::categoryAt(const QPoint& pos) const {
    if (!axisRect()->rect().contains(pos)) return -1;
    QCPAxis* axis = categoryAxis();
    const double key =
        axis->orientation() == Qt::Horizontal ? axis->pixelToCoord(pos.x()) : axis->pixelToCoord(pos.y());
    const int index = static_cast<int>(std::lround(key));
    if (std::abs(key - index) > 0.45 || index < 0 || index >= m_tips.size()) return -1;
    return index;
}

void ProfilePlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const int index = categoryAt(event->pos());
    if (index >= 0)
        QToolTip::showText(mapToGlobal(event->pos()), m_tips[index], this);
    else
        QToolTip::hideText();
}

}  // namespace cl::views
