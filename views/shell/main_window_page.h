#pragma once
// One page of the main window: a central view with the controls above it, what it reads for
// itself, its own actions and its settings. The main window builds the pages, the docks and
// the shared menus around them and switches between pages, as Qt Creator does with its modes
// (docs/architecture.md section 1.4). A page is a QObject that owns a widget, so the widget
// tree stays the same whether a view needs a page of its own logic or not.
#include <QIcon>
#include <QObject>
#include <QString>

#include "views/common/chart_export.h"

class QAction;
class QKeySequence;
class QSettings;
class QWidget;

namespace cl {
class ScenarioStore;
}

namespace cl::views {

class MainWindowPage : public QObject {
    Q_OBJECT

public:
    struct Description {
        QString name;      // as --view names it: results, cluster, trace, ...
        QString title;     // the tab's text
        const char* icon;  // a name in the application's icon resources
        QString toolTip;   // the tab's tooltip, without its key
    };

    MainWindowPage(Description description, QObject* parent);

    QString name() const { return m_description.name; }
    QString title() const { return m_description.title; }
    QIcon icon() const;
    QString toolTip() const { return m_description.toolTip; }

    // The widget shown in the page's tab (owned by the tab widget once added).
    virtual QWidget* widget() const = 0;
    // What File > Export View draws of the page; empty when it cannot be exported.
    virtual PaintFunction exportPainting() const = 0;

    // The workspace the page shows; null when it is being replaced. The page drops what it
    // read from the previous one.
    virtual void setWorkspace(cl::ScenarioStore* store, const QString& path);
    // Whether the page has window-wide keys of its own (duplicate or remove a server, edit a
    // stage time) that the workspace tree's keys must leave alone while it is shown.
    virtual bool hasOwnItemKeys() const { return false; }
    virtual void saveSettings(QSettings& settings) const;
    virtual void restoreSettings(const QSettings& settings);

    // Called by the main window when its tab becomes current or stops being so.
    void setCurrent(bool current);
    bool isCurrent() const { return m_current; }

    // An icon of the application's resources, and an action as the window's menus make them:
    // the tooltip names the key.
    static QIcon resourceIcon(const char* name);
    static QAction* makeAction(QObject* parent, const char* icon, const QString& text,
                               const QKeySequence& key, const QString& tip);

signals:
    // For the status bar (an empty text clears it) and the run log.
    void statusMessage(const QString& text, int timeout);
    void logMessage(const QString& text);
    // The page asks to be shown.
    void showRequested();

protected:
    // The page became the current one (its content may be read lazily here).
    virtual void activated() {}

private:
    Description m_description;
    bool m_current = false;
};

}  // namespace cl::views
