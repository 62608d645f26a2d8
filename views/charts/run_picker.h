#pragma once
// Which of a family's runs the charts overlay. A family can hold more runs than lines one can
// tell apart at a glance, so only the first few are shown at first; this button's menu lists
// every run with a check box, and its text says how many are shown ("Runs: 8 of 10").
#include <QSet>
#include <QString>
#include <QStringList>
#include <QToolButton>

class QMenu;

namespace cl::views {

class RunPicker : public QToolButton {
    Q_OBJECT

public:
    explicit RunPicker(QWidget* parent = nullptr);

    // Replaces the offered runs, named as in the legend. A run offered before keeps its state;
    // a new one is shown while fewer than `shownAtFirst` are.
    void setRuns(const QStringList& names, int shownAtFirst);
    QStringList runs() const { return m_names; }
    QStringList shownRuns() const;
    int hiddenCount() const;
    bool isShown(const QString& name) const { return m_shown.contains(name); }
    void setShown(const QString& name, bool shown);
    void showAll();

signals:
    void shownRunsChanged();

private:
    // The menu's check box for a run (nullptr if not offered); its data() is the run's name.
    QAction* actionFor(const QString& name) const;
    void rebuildMenu();
    void updateText();

    QMenu* m_menu = nullptr;
    QStringList m_names;
    QSet<QString> m_shown;
    QSet<QString> m_offered;  // every name offered so far, to keep the user's choices
};

}  // namespace cl::views
