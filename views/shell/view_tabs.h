#pragma once
// The main window's view tabs always fit its width, so every view is one click away (docs/
// architecture.md 1.4). Ten views with their icons do not fit beside the docks on a 1366 x 768
// screen, and a tab bar that scrolls hides some of them. So the tabs drop their icons when they
// would not fit with them (they come back when the window widens), and a bar narrower still
// elides the labels; it never scrolls. Each tab's tooltip names its view and its Alt key.
#include <QIcon>
#include <QList>
#include <QObject>

class QTabWidget;

namespace cl::views {

class ViewTabs : public QObject {
    Q_OBJECT

public:
    // Fits the tabs of `tabs` (which becomes the parent) from now on.
    explicit ViewTabs(QTabWidget* tabs);

    // Adds a view's tab; the icon is shown while the tabs fit with it.
    void addTab(QWidget* page, const QIcon& icon, const QString& title, const QString& toolTip);
    bool iconsShown() const { return m_iconsShown; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fit();
    void setIconsShown(bool shown);

    QTabWidget* m_tabs;
    QList<QIcon> m_icons;
    bool m_iconsShown = true;
    int m_widthWithIcons = 0;  // the tabs' full width with their icons, measured when they went
};

}  // namespace cl::views
