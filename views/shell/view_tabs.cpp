#include "views/shell/view_tabs.h"

#include <QEvent>
#include <QTabBar>
#include <QTabWidget>

namespace cl::views {

ViewTabs::ViewTabs(QTabWidget* tabs) : QObject(tabs), m_tabs(tabs) {
    QTabBar* bar = tabs->tabBar();
    bar->setUsesScrollButtons(false);
    bar->setElideMode(Qt::ElideRight);
    bar->setExpanding(false);
    tabs->installEventFilter(this);
}

void ViewTabs::addTab(QWidget* page, const QIcon& icon, const QString& title, const QString& toolTip) {
    // Measured again with every icon, the new one included.
    setIconsShown(true);
    m_icons << icon;
    const int index = m_tabs->addTab(page, icon, title);
    m_tabs->setTabToolTip(index, toolTip);
    fit();
}

bool ViewTabs::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_tabs) {
        switch (event->type()) {
            case QEvent::Resize:
            case QEvent::Show:
                fit();
                break;
            case QEvent::FontChange:
            case QEvent::StyleChange:
                // The width measured with the icons no longer holds: measure again.
                setIconsShown(true);
                fit();
                break;
            default:
                break;
        }
    }
    return QObject::eventFilter(watched, event);
}

void ViewTabs::fit() {
    const int available = m_tabs->width();
    if (available <= 0 || m_tabs->count() == 0) return;
    // QTabBar::sizeHint is the width of every tab whole, whatever the bar's own width.
    if (m_iconsShown) {
        const int needed = m_tabs->tabBar()->sizeHint().width();
        if (needed > available) {
            m_widthWithIcons = needed;
            setIconsShown(false);
        }
    } else if (m_widthWithIcons <= available) {
        setIconsShown(true);
    }
}

void ViewTabs::setIconsShown(bool shown) {
    if (shown == m_iconsShown) return;
    m_iconsShown = shown;
    for (int i = 0; i < m_tabs->count() && i < m_icons.size(); ++i)
        m_tabs->setTabIcon(i, shown ? m_icons[i] : QIcon());
}

}  // namespace cl::views
