#pragma once
// The scenario browser: the workspace tree with actions to create a scenario,
// duplicate one as a what-if, rename it in place and delete it (with its runs) after a
// confirmation. Dialogs and the confirmation go through replaceable hooks so tests can
// drive every action without a modal loop.
#include <functional>

#include <QString>
#include <QWidget>

#include "core/store/scenario_store.h"

class QAction;
class QModelIndex;
class QToolBar;
class QTreeView;

namespace cl::views {

class WorkspaceModel;

class ScenarioBrowser : public QWidget {
    Q_OBJECT

public:
    // Asked before a delete; true goes ahead. The default shows a QMessageBox.
    using ConfirmHandler = std::function<bool(const QString& question)>;
    // Edits the spec of a new scenario (duplicate false) or of a what-if copy (true); false
    // cancels. The default shows a ScenarioDialog.
    using SpecEditor = std::function<bool(cl::ScenarioSpec& spec, bool duplicate)>;
    // Told about a store error an action ran into. The default shows a QMessageBox.
    using ErrorHandler = std::function<void(const QString& message)>;

    // The store is not owned and may be null (actions disabled).
    explicit ScenarioBrowser(cl::ScenarioStore* store = nullptr, QWidget* parent = nullptr);
    ~ScenarioBrowser() override;

    WorkspaceModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    void setStore(cl::ScenarioStore* store);
    // The scenario of the current row: a scenario row or one of its runs; empty otherwise.
    QString currentScenario() const;
    // Makes the scenario the current, selected and visible row (nothing if absent).
    void selectScenario(const QString& name);

    void setConfirmHandler(ConfirmHandler handler);
    void setSpecEditor(SpecEditor editor);
    void setErrorHandler(ErrorHandler handler);

    QAction* newAction() const { return m_new; }
    QAction* duplicateAction() const { return m_duplicate; }
    QAction* renameAction() const { return m_rename; }
    QAction* deleteAction() const { return m_delete; }
    // Enabled on a capacity plan's folder: removes the plan's points, their runs and its candidate
    // clusters after a confirmation (docs/architecture.md 7.9).
    QAction* removePlanAction() const { return m_removePlan; }
    // Where the actions' keys work: only while the tree has focus (the default) or anywhere in
    // the window, as the main window's Scenario menu wants. The window turns window-wide keys
    // off while a view whose own Ctrl+D, Delete or F2 would clash with them is shown.
    void setShortcutContext(Qt::ShortcutContext context);

public slots:
    void refresh();
    // While runs are going: no rename or delete (a run's scenario must outlive it).
    void setEditingLocked(bool locked);
    bool isEditingLocked() const { return m_locked; }
    void newScenario();
    void duplicateCurrent();
    void renameCurrent();  // starts the in-place editor
    void deleteCurrent();
    void removeCurrentPlan();

signals:
    void currentScenarioChanged(const QString& name);
    void clusterActivated(qint64 id);
    void traceActivated(qint64 id);
    void runActivated(qint64 id);
    // After a create, duplicate, rename or delete.
    void scenariosChanged();
    // An in-place rename is starting: whoever hosts the browser (a dock that may be hidden)
    // should make it visible.
    void revealRequested();

private:
    // The constructor's sections.
    void setUpTree();
    void createActions();
    void createToolbar();
    void connectSignals();

    void updateActions();
    void currentMaybeChanged();
    void onActivated(const QModelIndex& index);
    void showContextMenu(const QPoint& pos);
    void expandGroups();
    bool editSpec(cl::ScenarioSpec& spec, bool duplicate);
    void reportError(const QString& message);
    // The plan prefix of the current row when it is a capacity plan's folder; empty otherwise.
    QString currentPlan() const;
    // An id of the kind of the current row, else the first stored one; 0 if none.
    qint64 preferredId(int kind, int group) const;

    cl::ScenarioStore* m_store = nullptr;
    WorkspaceModel* m_model = nullptr;
    QTreeView* m_view = nullptr;
    QToolBar* m_toolbar = nullptr;
    QAction* m_new = nullptr;
    QAction* m_duplicate = nullptr;
    QAction* m_rename = nullptr;
    QAction* m_delete = nullptr;
    QAction* m_removePlan = nullptr;
    ConfirmHandler m_confirm;
    SpecEditor m_editor;
    ErrorHandler m_error;
    QString m_duplicateSource;  // for the default editor's title
    QString m_current;
    bool m_locked = false;  // last announced by currentScenarioChanged
};

}  // namespace cl::views
