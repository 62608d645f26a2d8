#include "views/common/duration_text.h"

#include <QLocale>

namespace cl::views {

QString msText(double ms, MsDecimals decimals, MsUnit unit) {
    int precision = 2;
    if (decimals == MsDecimals::ByMagnitude)
        precision = ms >= 100.0 ? 0 : ms >= 10.0 ? 1 : 2;
    else if (ms >= 100.0)
        precision = 1;
    const QString number = QLocale().toString(ms, 'f', precision);
    return unit == MsUnit::Shown ? number + QStringLiteral(" ms") : number;
}

}  // namespace cl::views
