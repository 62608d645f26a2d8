#include "views/common/app_theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace cl::views {

namespace {

QPalette darkPalette() {
    // Contrast checked for body text (> 7:1) and disabled text (> 3:1) on the window colour.
    const QColor window(0x2b, 0x2d, 0x30), base(0x1f, 0x20, 0x22), text(0xe8, 0xea, 0xed);
    const QColor disabled(0x8a, 0x8d, 0x91), highlight(0x3d, 0x7e, 0xe0);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x40, 0x43));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x51));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x47));
    p.setColor(QPalette::Mid, QColor(0x2f, 0x31, 0x34));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x53, 0x57));
    return p;
}

}  // namespace

QString themeName(Theme theme) {
    switch (theme) {
        case Theme::Light:
            return QStringLiteral("light");
        case Theme::Dark:
            return QStringLiteral("dark");
        case Theme::System:
            break;
    }
    return QStringLiteral("system");
}

Theme themeFromName(const QString& name) {
    if (name == QLatin1String("light")) return Theme::Light;
    if (name == QLatin1String("dark")) return Theme::Dark;
    return Theme::System;
}

void applyTheme(Theme theme) {
    static const QString systemStyle = QApplication::style() ? QApplication::style()->name() : QString();
    if (theme == Theme::System) {
        if (!systemStyle.isEmpty()) QApplication::setStyle(QStyleFactory::create(systemStyle));
        QApplication::setPalette(QPalette());  // the desktop's own colours again
        qApp->setStyleSheet(QString());
        return;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
    // Fusion outlines an unchecked box with a darker window colour, which vanishes on a dark base.
    qApp->setStyleSheet(theme == Theme::Dark
                            ? QStringLiteral("QAbstractItemView::indicator:unchecked, "
                                             "QCheckBox::indicator:unchecked { border: 1px solid "
                                             "#8a8d91; border-radius: 2px; background: #1f2022; }")
                            : QString());
}

}  // namespace cl::views
