#include "views/charts/run_picker.h"

#include <QAction>
#include <QMenu>

namespace cl::views {

RunPicker::RunPicker(QWidget* parent) : QToolButton(parent), m_menu(new QMenu(this)) {
    setObjectName(QStringLiteral("chartRunPicker"));
    setMenu(m_menu);
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setToolTip(tr("Choose which of the family's runs the charts draw"));
    updateText();
}

void RunPicker::setRuns(const QStringList& names, int shownAtFirst) {
    // The user's choices first (a run shown stays shown), then new runs while there is room.
    QSet<QString> shown;
    for (const QString& name : names)
        if (m_offered.contains(name) && m_shown.contains(name)) shown.insert(name);
    for (const QString& name : names)
        if (!m_offered.contains(name) && shown.size() < shownAtFirst) shown.insert(name);
    for (const QString& name : names) m_offered.insert(name);
    m_names = names;
    m_shown = shown;
    rebuildMenu();
    updateText();
}

QStringList RunPicker::shownRuns() const {
    QStringList shown;
    for (const QString& name : m_names)
        if (m_shown.contains(name)) shown << name;
    return shown;
}

int RunPicker::hiddenCount() const {
    return static_cast<int>(m_names.size() - shownRuns().size());
}

void RunPicker::setShown(const QString& name, bool shown) {
    if (!m_names.contains(name) || m_shown.contains(name) == shown) return;
    if (shown)
        m_shown.insert(name);
    else
        m_shown.remove(name);
    if (QAction* action = actionFor(name)) action->setChecked(shown);
    updateText();
    emit shownRunsChanged();
}

void RunPicker::showAll() {
    if (hiddenCount() == 0) return;
    for (const QString& name : m_names) m_shown.insert(name);
    rebuildMenu();
    updateText();
    emit shownRunsChanged();
}

QAction* RunPicker::actionFor(const QString& name) const {
    for (QAction* action : m_menu->actions())
        if (action->isCheckable() && action->data().toString() == name) return action;
    return nullptr;
}

void RunPicker::rebuildMenu() {
    m_menu->clear();
    QAction* all = m_menu->addAction(tr("Show &all runs"));
    all->setEnabled(hiddenCount() > 0);
    connect(all, &QAction::triggered, this, &RunPicker::showAll);
    m_menu->addSeparator();
    for (const QString& name : m_names) {
        QAction* action = m_menu->addAction(name);
        action->setCheckable(true);
        action->setChecked(m_shown.contains(name));
        action->setData(name);
        connect(action, &QAction::toggled, this, [this, name](bool on) { setShown(name, on); });
    }
    setEnabled(!m_names.isEmpty());
}

void RunPicker::updateText() {
    const int shown = static_cast<int>(shownRuns().size());
    setText(tr("Runs: %1 of %2").arg(shown).arg(m_names.size()));
    if (!m_menu->actions().isEmpty()) m_menu->actions().first()->setEnabled(hiddenCount() > 0);
}

}  // namespace cl::views
