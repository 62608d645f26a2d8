#pragma once
// Help › Guide and Help › Keyboard Shortcuts: the user guide (docs/guide.md with its
// screenshots, compiled into the resources, so it works offline) and a table of every key of
// the window, read from its menus when the dialog opens, so it never lists a stale key.
#include <QDialog>
#include <QList>

class QMenu;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace cl::views {

class GuideDialog : public QDialog {
    Q_OBJECT

public:
    enum Tab { GuideTab = 0, ShortcutsTab };

    // `menus`: the window's menus, whose actions (and submenus') are listed with their keys.
    GuideDialog(const QList<QMenu*>& menus, QWidget* parent = nullptr);

    void showTab(Tab tab);
    QTextBrowser* guide() const { return m_guide; }
    QTableWidget* shortcuts() const { return m_shortcuts; }

private:
    void fillShortcuts(const QList<QMenu*>& menus);
    void fitImages(int width);

    QTabWidget* m_tabs;
    QTextBrowser* m_guide;
    QTableWidget* m_shortcuts;
};

}  // namespace cl::views
