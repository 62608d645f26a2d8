#include "views/common/import_dialog_size.h"

#include <QFontMetrics>
#include <QScreen>
#include <QWidget>

namespace cl::views {

void resizeImportDialog(QWidget& dialog) {
    const QFontMetrics fm(dialog.font());
    QSize size(fm.averageCharWidth() * 200, fm.height() * 60);
    if (const QScreen* screen = dialog.screen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    dialog.resize(size.expandedTo(QSize(fm.averageCharWidth() * 100, fm.height() * 30)));
}

}  // namespace cl::views
