#pragma once
// English plurals for the views' counted texts. The views write a count once, as Qt's numerus
// form "%n server(s)" (tr(text, nullptr, n)); without a translation Qt would show "(s)" as
// written. This translator picks the singular or the plural ("1 server", "8 servers"), so a
// reader never sees "1 servers" nor "server(s)". Only "(s)" directly after a word is resolved.
#include <QTranslator>

class QCoreApplication;

namespace cl::views {

class EnglishPlurals : public QTranslator {
    Q_OBJECT

public:
    using QTranslator::QTranslator;
    QString translate(const char* context, const char* sourceText, const char* disambiguation = nullptr,
                      int n = -1) const override;
    bool isEmpty() const override { return false; }

    // The text for count n: "(s)" dropped for one, "s" otherwise.
    static QString resolve(const QString& text, int n);
};

// Installs one EnglishPlurals in the application (again: no effect).
void installEnglishPlurals(QCoreApplication& app);

}  // namespace cl::views
