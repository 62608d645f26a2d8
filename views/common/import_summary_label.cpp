#include "views/common/import_summary_label.h"

#include <QLabel>

namespace cl::views {

QLabel* importSummaryLabel(QWidget* parent) {
    auto* summary = new QLabel(parent);
    summary->setObjectName(QStringLiteral("summary"));
    summary->setWordWrap(true);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return summary;
}

}  // namespace cl::views
