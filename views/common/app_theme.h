#pragma once
// Light and dark palettes on the Fusion style (the same look on every desktop), or the
// platform's own style and palette ("system").
#include <QString>
#include <QStringList>

namespace cl::views {

enum class Theme { System, Light, Dark };

QString themeName(Theme theme);            // "system", "light", "dark"
Theme themeFromName(const QString& name);  // unknown names: System
void applyTheme(Theme theme);              // needs a QApplication

}  // namespace cl::views
