#include "views/shell/main_window_page.h"

#include <utility>

#include <QAction>
#include <QKeySequence>
#include <QSettings>

namespace cl::views {

MainWindowPage::MainWindowPage(Description description, QObject* parent)
    : QObject(parent), m_description(std::move(description)) {}

QIcon MainWindowPage::icon() const {
    return resourceIcon(m_description.icon);
}

void MainWindowPage::setWorkspace(cl::ScenarioStore*, const QString&) {}

void MainWindowPage::saveSettings(QSettings&) const {}

void MainWindowPage::restoreSettings(const QSettings&) {}

void MainWindowPage::setCurrent(bool current) {
    m_current = current;
    if (current) activated();
}

QIcon MainWindowPage::resourceIcon(const char* name) {
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)));
}

QAction* MainWindowPage::makeAction(QObject* parent, const char* icon, const QString& text,
                                    const QKeySequence& key, const QString& tip) {
    auto* action = new QAction(resourceIcon(icon), text, parent);
    if (!key.isEmpty()) action->setShortcut(key);
    action->setStatusTip(tip);
    action->setToolTip(
        key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    return action;
}

}  // namespace cl::views
