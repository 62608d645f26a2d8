#include "views/workspace/scenario_browser.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QIcon>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/runs/plan_runner.h"
#include "views/workspace/scenario_dialog.h"
#include "views/workspace/workspace_model.h"

namespace cl::views {

namespace {

constexpr QAbstractItemView::EditTriggers kRenameTriggers =
    QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked;

QIcon themed(const char* name, QStyle::StandardPixmap fallback) {
    return QIcon::fromTheme(QLatin1String(name), QApplication::style()->standardIcon(fallback));
}

}  // namespace

ScenarioBrowser::ScenarioBrowser(cl::ScenarioStore* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_model(new WorkspaceModel(store, this)) {
    setUpTree();
    createActions();
    createToolbar();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolbar);
    layout->addWidget(m_view);

    connectSignals();

    expandGroups();
    updateActions();
}

void ScenarioBrowser::setUpTree() {
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("workspaceTree"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Rename by F2, the menu or a double-click only: a click on the selected row (to focus the
    // tree, or a slow double-click) must not open an editor by surprise.
    m_view->setEditTriggers(kRenameTriggers);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setToolTip(
        tr("The workspace: stored clusters and traces, scenarios and their runs (newest first). "
           "Double-click a run to open it."));
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    // Names as wide as they are; the details take the rest; metrics wide enough for "99.9 min".
    header->setSectionResizeMode(WorkspaceModel::NameColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(WorkspaceModel::DetailsColumn, QHeaderView::Stretch);
    const int metric = fontMetrics().horizontalAdvance(QStringLiteral("Makespan 99.9 min"));
    for (int column : {int(WorkspaceModel::AvgJctColumn), int(WorkspaceModel::MakespanColumn)}) {
        header->setSectionResizeMode(column, QHeaderView::Interactive);
        header->resizeSection(column, metric * 2 / 3);
    }
}

void ScenarioBrowser::createActions() {
    auto makeAction = [this](const QString& text, const QIcon& icon, const QKeySequence& key,
                             const QString& tip) {
        auto* action = new QAction(icon, text, this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        addAction(action);
        return action;
    };
    m_new = makeAction(tr("&New scenario\u2026"), QIcon(QStringLiteral(":/icons/scenario.svg")),
                       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N),
                       tr("Create a scenario from the stored inputs"));
    m_duplicate = makeAction(tr("&Duplicate as what-if\u2026"), QIcon(QStringLiteral(":/icons/what-if.svg")),
                             QKeySequence(Qt::CTRL | Qt::Key_D),
                             tr("Copy the current scenario with some settings changed"));
    m_rename = makeAction(tr("&Rename"), themed("edit-rename", QStyle::SP_FileDialogContentsView),
                          QKeySequence(Qt::Key_F2), tr("Rename the current scenario in place"));
    m_delete = makeAction(tr("De&lete\u2026"), QIcon(QStringLiteral(":/icons/remove.svg")),
                          QKeySequence(QKeySequence::Delete), tr("Delete the current scenario and its runs"));
    connect(m_new, &QAction::triggered, this, &ScenarioBrowser::newScenario);
    connect(m_duplicate, &QAction::triggered, this, &ScenarioBrowser::duplicateCurrent);
    connect(m_rename, &QAction::triggered, this, &ScenarioBrowser::renameCurrent);
    connect(m_delete, &QAction::triggered, this, &ScenarioBrowser::deleteCurrent);
    // Only in the context menu of a plan's folder: no key, so it needs no shortcut context.
    m_removePlan = new QAction(QIcon(QStringLiteral(":/icons/remove.svg")), tr("Remove &plan\u2026"), this);
    m_removePlan->setToolTip(tr("Delete this capacity plan's points, their runs and its candidate clusters"));
    connect(m_removePlan, &QAction::triggered, this, &ScenarioBrowser::removeCurrentPlan);
}

void ScenarioBrowser::createToolbar() {
    m_toolbar = new QToolBar(tr("Scenarios"), this);
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    const int icon = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_toolbar->setIconSize(QSize(icon, icon));
    m_toolbar->addAction(m_new);
    m_toolbar->addAction(m_duplicate);
    m_toolbar->addAction(m_rename);
    m_toolbar->addAction(m_delete);
}

void ScenarioBrowser::connectSignals() {
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ScenarioBrowser::currentMaybeChanged);
    // Removing or resetting rows can move the current row without a currentChanged signal.
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &ScenarioBrowser::currentMaybeChanged);
    connect(m_model, &QAbstractItemModel::rowsMoved, this, &ScenarioBrowser::currentMaybeChanged);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        expandGroups();
        currentMaybeChanged();
    });
    connect(m_model, &WorkspaceModel::errorOccurred, this, &ScenarioBrowser::reportError);
    connect(m_model, &WorkspaceModel::scenarioRenamed, this, [this] {
        currentMaybeChanged();
        emit scenariosChanged();
    });
    connect(m_view, &QTreeView::activated, this, &ScenarioBrowser::onActivated);
    connect(m_view, &QWidget::customContextMenuRequested, this, &ScenarioBrowser::showContextMenu);
}

ScenarioBrowser::~ScenarioBrowser() {
    // An open editor commits while the children are destroyed; this part is gone by then.
    m_model->disconnect(this);
    m_view->selectionModel()->disconnect(this);
}

void ScenarioBrowser::setStore(cl::ScenarioStore* store) {
    m_store = store;
    m_model->setStore(store);
    updateActions();
}

void ScenarioBrowser::refresh() {
    m_model->refresh();
}

QString ScenarioBrowser::currentScenario() const {
    return m_model->scenarioName(m_view->currentIndex());
}

void ScenarioBrowser::selectScenario(const QString& name) {
    const QModelIndex index = m_model->indexForScenario(name);
    if (!index.isValid()) return;
    m_view->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void ScenarioBrowser::setShortcutContext(Qt::ShortcutContext context) {
    for (QAction* action : {m_new, m_duplicate, m_rename, m_delete}) action->setShortcutContext(context);
}

void ScenarioBrowser::setConfirmHandler(ConfirmHandler handler) {
    m_confirm = std::move(handler);
}
void ScenarioBrowser::setSpecEditor(SpecEditor editor) {
    m_editor = std::move(editor);
}
void ScenarioBrowser::setErrorHandler(ErrorHandler handler) {
    m_error = std::move(handler);
}

qint64 ScenarioBrowser::preferredId(int kind, int group) const {
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid() && current.data(WorkspaceModel::KindRole).toInt() == kind)
        return current.data(WorkspaceModel::IdRole).toLongLong();
    // The first stored one, not a sub-folder (a plan's candidates come last).
    const QModelIndex parent = m_model->groupIndex(WorkspaceModel::Group(group));
    for (int row = 0; row < m_model->rowCount(parent); ++row) {
        const QModelIndex first = m_model->index(row, 0, parent);
        if (first.data(WorkspaceModel::KindRole).toInt() == kind)
            return first.data(WorkspaceModel::IdRole).toLongLong();
    }
    return 0;
}

QString ScenarioBrowser::currentPlan() const {
    return m_view->currentIndex().siblingAtColumn(0).data(WorkspaceModel::PlanPrefixRole).toString();
}

void ScenarioBrowser::newScenario() {
    if (!m_store) return;
    cl::ScenarioSpec spec;
    try {
        spec.name = ScenarioDialog::uniqueName(*m_store, tr("New scenario")).toStdString();
        const auto profiles = m_store->profileSets();
        if (!profiles.empty()) spec.profiles_id = profiles.front().id;
    } catch (const std::exception& e) {
        reportError(QString::fromStdString(e.what()));
        return;
    }
    spec.cluster_id = preferredId(int(WorkspaceModel::Kind::Cluster), WorkspaceModel::ClustersGroup);
    spec.trace_id = preferredId(int(WorkspaceModel::Kind::Trace), WorkspaceModel::TracesGroup);
    if (!editSpec(spec, false)) return;
    try {
        m_store->createScenario(spec);
    } catch (const std::exception& e) {
        reportError(tr("Cannot create the scenario: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    refresh();
    selectScenario(QString::fromStdString(spec.name));
    emit scenariosChanged();
}

void ScenarioBrowser::duplicateCurrent() {
    const QString source = currentScenario();
    if (!m_store || source.isEmpty()) return;
    cl::ScenarioSpec spec;
    try {
        spec = m_store->scenario(source.toStdString()).spec;
        spec.name = ScenarioDialog::uniqueName(*m_store, tr("%1 (what if)").arg(source)).toStdString();
    } catch (const std::exception& e) {
        reportError(QString::fromStdString(e.what()));
        return;
    }
    m_duplicateSource = source;
    if (!editSpec(spec, true)) return;
    try {
        m_store->duplicateScenario(source.toStdString(), spec.name,
                                   [&spec](cl::ScenarioSpec& copy) { copy = spec; });
    } catch (const std::exception& e) {
        reportError(tr("Cannot duplicate '%1': %2").arg(source, QString::fromStdString(e.what())));
        return;
    }
    refresh();
    selectScenario(QString::fromStdString(spec.name));
    emit scenariosChanged();
}

void ScenarioBrowser::renameCurrent() {
    const QModelIndex current = m_view->currentIndex();
    if (m_locked || m_model->kind(current) != WorkspaceModel::Kind::Scenario) return;
    // Triggered from a menu or a window-wide key, the tree may be hidden or without focus.
    emit revealRequested();
    m_view->scrollTo(current);
    m_view->setFocus(Qt::ShortcutFocusReason);
    m_view->edit(current.siblingAtColumn(WorkspaceModel::NameColumn));
}

void ScenarioBrowser::deleteCurrent() {
    const QModelIndex current = m_view->currentIndex();
    if (!m_store || m_locked || m_model->kind(current) != WorkspaceModel::Kind::Scenario) return;
    const QString name = m_model->scenarioName(current);
    int runs = 0;
    try {
        runs = m_store->scenario(name.toStdString()).runs;
    } catch (const std::exception& e) {
        reportError(QString::fromStdString(e.what()));
        refresh();
        return;
    }
    const QString question =
        runs == 0
            ? tr("Delete the scenario \u201c%1\u201d? It has no runs.").arg(name)
            : (runs == 1 ? tr("Delete the scenario \u201c%1\u201d and its %2 run? Its results are deleted "
                              "with it.")
                         : tr("Delete the scenario \u201c%1\u201d and its %2 runs? Their results are deleted "
                              "with it."))
                  .arg(name)
                  .arg(runs);
    const bool yes = m_confirm ? m_confirm(question) : [&] {
        QMessageBox box(QMessageBox::Warning, tr("Delete scenario"), question, QMessageBox::Cancel, this);
        QPushButton* del = box.addButton(tr("&Delete"), QMessageBox::DestructiveRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == del;
    }();
    if (!yes) return;
    try {
        m_store->deleteScenario(name.toStdString());
    } catch (const std::exception& e) {
        reportError(tr("Cannot delete '%1': %2").arg(name, QString::fromStdString(e.what())));
        return;
    }
    refresh();
    emit scenariosChanged();
}

void ScenarioBrowser::removeCurrentPlan() {
    const QString prefix = currentPlan();
    if (!m_store || m_locked || prefix.isEmpty()) return;
    const std::string folder = prefix.toStdString() + "/";
    int points = 0, runs = 0, clusters = 0;
    try {
        for (const cl::ScenarioInfo& s : m_store->scenarios())
            if (s.spec.name.compare(0, folder.size(), folder) == 0) {
                ++points;
                runs += s.runs;
            }
        clusters = int(cl::planCandidateClusters(*m_store, prefix.toStdString()).size());
    } catch (const std::exception& e) {
        reportError(QString::fromStdString(e.what()));
        return;
    }
    const QString question =
        tr("Remove the capacity plan \u201c%1\u201d? This deletes %2 (every scenario named %1/\u2026) with "
           "%3, and the plan's %4 that no other scenario uses. This cannot be undone.")
            .arg(prefix, points == 1 ? tr("1 point") : tr("%1 points").arg(points),
                 runs == 1 ? tr("its 1 run") : tr("their %1 runs").arg(runs),
                 clusters == 1 ? tr("1 candidate cluster") : tr("%1 candidate clusters").arg(clusters));
    const bool yes = m_confirm ? m_confirm(question) : [&] {
        QMessageBox box(QMessageBox::Warning, tr("Remove plan"), question, QMessageBox::Cancel, this);
        QPushButton* remove = box.addButton(tr("&Remove plan"), QMessageBox::DestructiveRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == remove;
    }();
    if (!yes) return;
    try {
        cl::prunePlan(*m_store, prefix.toStdString());
    } catch (const std::exception& e) {
        reportError(tr("Cannot remove the plan '%1': %2").arg(prefix, QString::fromStdString(e.what())));
    }
    refresh();  // also after a failure: part of the plan may be gone
    emit scenariosChanged();
}

bool ScenarioBrowser::editSpec(cl::ScenarioSpec& spec, bool duplicate) {
    if (m_editor) return m_editor(spec, duplicate);
    ScenarioDialog dialog(*m_store, spec,
                          duplicate ? ScenarioDialog::Mode::Duplicate : ScenarioDialog::Mode::New,
                          m_duplicateSource, this);
    if (dialog.exec() != QDialog::Accepted) return false;
    spec = dialog.spec();
    return true;
}

void ScenarioBrowser::reportError(const QString& message) {
    if (m_error) {
        m_error(message);
        return;
    }
    QMessageBox::warning(this, tr("Workspace"), message);
}

void ScenarioBrowser::updateActions() {
    const WorkspaceModel::Kind kind = m_model->kind(m_view->currentIndex());
    const bool scenario =
        m_store && m_view->currentIndex().isValid() && kind == WorkspaceModel::Kind::Scenario;
    const bool run = m_store && m_view->currentIndex().isValid() && kind == WorkspaceModel::Kind::Run;
    m_new->setEnabled(m_store != nullptr);
    m_duplicate->setEnabled(scenario || run);
    m_rename->setEnabled(scenario && !m_locked);
    m_delete->setEnabled(scenario && !m_locked);
    m_removePlan->setEnabled(m_store && !m_locked && !currentPlan().isEmpty());
}

void ScenarioBrowser::setEditingLocked(bool locked) {
    m_locked = locked;
    m_view->setEditTriggers(locked ? QAbstractItemView::NoEditTriggers : kRenameTriggers);
    updateActions();
}

void ScenarioBrowser::currentMaybeChanged() {
    updateActions();
    const QString name = currentScenario();
    if (name == m_current) return;
    m_current = name;
    emit currentScenarioChanged(name);
}

void ScenarioBrowser::onActivated(const QModelIndex& index) {
    const qint64 id = index.data(WorkspaceModel::IdRole).toLongLong();
    switch (m_model->kind(index)) {
        case WorkspaceModel::Kind::Cluster:
            emit clusterActivated(id);
            break;
        case WorkspaceModel::Kind::Trace:
            emit traceActivated(id);
            break;
        case WorkspaceModel::Kind::Run:
            emit runActivated(id);
            break;
        case WorkspaceModel::Kind::Group:
        case WorkspaceModel::Kind::Scenario:
            break;
    }
}

void ScenarioBrowser::showContextMenu(const QPoint& pos) {
    const QModelIndex index = m_view->indexAt(pos);
    if (index.isValid())
        m_view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QMenu menu(this);
    menu.addAction(m_new);
    menu.addAction(m_duplicate);
    menu.addSeparator();
    menu.addAction(m_rename);
    menu.addAction(m_delete);
    if (!currentPlan().isEmpty()) {
        menu.addSeparator();
        menu.addAction(m_removePlan);
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void ScenarioBrowser::expandGroups() {
    for (int g = 0; g < WorkspaceModel::GroupCount; ++g)
        m_view->expand(m_model->groupIndex(WorkspaceModel::Group(g)));
}

}  // namespace cl::views
