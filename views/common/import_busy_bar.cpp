#include "views/common/import_busy_bar.h"

#include <QProgressBar>
#include <QWidget>

namespace cl::views {

QProgressBar* importBusyBar(QWidget* parent) {
    auto* busy = new QProgressBar(parent);
    busy->setObjectName(QStringLiteral("busy"));
    busy->setRange(0, 0);  // busy: the reader reports no progress
    busy->setTextVisible(false);
    busy->setMaximumHeight(parent->fontMetrics().height());
    busy->hide();
    return busy;
}

}  // namespace cl::views
