#include "views/common/english_plurals.h"

#include <QCoreApplication>

namespace cl::views {

QString EnglishPlurals::translate(const char*, const char* sourceText, const char*, int n) const {
    if (n < 0 || !sourceText) return {};
    const QString text = QString::fromUtf8(sourceText);
    if (!text.contains(QLatin1String("(s)"))) return {};  // empty: no translation, the text as written
    return resolve(text, n);
}

QString EnglishPlurals::resolve(const QString& text, int n) {
    QString out = text;
    out.replace(QLatin1String("(s)"), n == 1 ? QString() : QStringLiteral("s"));
    return out;
}

void installEnglishPlurals(QCoreApplication& app) {
    if (app.findChild<EnglishPlurals*>(QString(), Qt::FindDirectChildrenOnly)) return;
    QCoreApplication::installTranslator(new EnglishPlurals(&app));
}

}  // namespace cl::views
