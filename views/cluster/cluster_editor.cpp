#include "views/cluster/cluster_editor.h"

#include <algorithm>
#include <exception>
#include <set>
#include <utility>

#include <QAction>
#include <QEvent>
#include <QFrame>
#include <QHeaderView>
#include <QItemSelection>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QSplitter>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/io/builtin_data.h"
#include "core/io/layout_io.h"
#include "views/cluster/cluster_diagram.h"
#include "views/cluster/cluster_document.h"
#include "views/cluster/cluster_totals_bar.h"
#include "views/cluster/cluster_tree_model.h"
#include "views/cluster/live_what_if.h"
#include "views/cluster/partitions_panel.h"
#include "views/cluster/server_properties_panel.h"
#include "views/cluster/server_types.h"
#include "views/cluster/topology_dialog.h"
#include "views/cluster/what_if_strip.h"

namespace cl::views {

ClusterEditor::ClusterEditor(QWidget* parent) : QWidget(parent), m_document(new ClusterDocument(this)) {
    m_diagram = new ClusterDiagram(m_document, this);
    m_panel = new ServerPropertiesPanel(m_document, this);
    m_totals = new ClusterTotalsBar(m_document, this);
    m_whatIf = new LiveWhatIf(m_document, this);
    m_whatIfStrip = new WhatIfStrip(m_whatIf, this);
    connect(m_whatIfStrip, &WhatIfStrip::runScenarioRequested, this, &ClusterEditor::runScenarioRequested);
    m_toolbar = new QToolBar(tr("Cluster editor"), this);
    m_treeModel = new ClusterTreeModel(this);
    m_tree = new QTreeView(this);
    m_partitions = new PartitionsPanel(m_document, this);
    setObjectNames();
    m_tree->setModel(m_treeModel);
    m_tree->setUniformRowHeights(true);  // keeps 18,000-node trees quick to scroll
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setAlternatingRowColors(true);
    m_tree->setToolTip(
        tr("The cluster from its switches down to each GPU; selecting a row selects its server"));
    m_tree->header()->setStretchLastSection(false);
    // Names stay whole (switch names grow with the pod count); the pane scrolls instead.
    m_tree->header()->setSectionResizeMode(ClusterTreeModel::NameColumn, QHeaderView::ResizeToContents);
    for (int c = ClusterTreeModel::KindColumn; c < ClusterTreeModel::ColumnCount; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    createActions();

    // The diagram is the planner's main tool: it gets most of the width (applyDefaultSplit) and
    // all the width gained or lost on resizing; the tree scrolls sideways instead of claiming
    // its names' width.
    m_tree->setMinimumWidth(fontMetrics().averageCharWidth() * 16);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("clusterSplitter"));
    // The partitions sit under the tree: both are lists of the cluster, and the diagram keeps
    // its width.
    auto* leftPane = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(leftPane);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(m_tree, 1);
    leftLayout->addWidget(m_partitions);
    m_splitter->addWidget(leftPane);
    m_splitter->addWidget(m_diagram);
    m_splitter->addWidget(m_panel);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->installEventFilter(this);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("clusterStatus"));
    m_status->setTextFormat(Qt::RichText);
    m_status->setContentsMargins(fontMetrics().averageCharWidth(), fontMetrics().height() / 4,
                                 fontMetrics().averageCharWidth(), fontMetrics().height() / 4);
    m_status->setToolTip(
        tr("The cluster in the editor and whether its edits are stored in the workspace (File > Save "
           "Cluster, Ctrl+S)"));

    auto* line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolbar);
    layout->addWidget(m_status);
    layout->addWidget(m_splitter, 1);
    auto* whatIfLine = new QFrame(this);
    whatIfLine->setFrameShape(QFrame::HLine);
    whatIfLine->setFrameShadow(QFrame::Sunken);
    layout->addWidget(whatIfLine);
    layout->addWidget(m_whatIfStrip);
    layout->addWidget(line);
    layout->addWidget(m_totals);

    connect(m_document, &ClusterDocument::changed, this, &ClusterEditor::clusterChanged);
    connect(m_document, &ClusterDocument::changed, this, &ClusterEditor::updateActions);
    connect(m_document, &ClusterDocument::selectionChanged, this, &ClusterEditor::updateActions);
    // The tree is rebuilt on each change (a light model), then shows the selection again.
    connect(m_document, &ClusterDocument::changed, this, [this] {
        m_treeModel->setCluster(m_document->cluster());
        updatePartitionsColumn();
        if (m_treeModel->rowCount() <= 8) m_tree->expandToDepth(0);
        revealFirstServerInternals();
        documentSelectionToTree();
    });
    connect(m_document, &ClusterDocument::selectionChanged, this, &ClusterEditor::documentSelectionToTree);
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ClusterEditor::treeSelectionToDocument);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    connect(m_document, &ClusterDocument::changed, this, &ClusterEditor::updateStatus);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &ClusterEditor::updateStatus);
    updatePartitionsColumn();
    updateActions();
    updateStatus();
}

ClusterEditor::~ClusterEditor() {
    // Before the document they read: the strip reads the what-if, which waits for its worker.
    delete m_whatIfStrip;
    delete m_whatIf;
}

// The names the parts are found by (the strip names itself "whatIfStrip").
void ClusterEditor::setObjectNames() {
    m_diagram->setObjectName(QStringLiteral("clusterDiagram"));
    m_panel->setObjectName(QStringLiteral("serverProperties"));
    m_totals->setObjectName(QStringLiteral("clusterTotals"));
    m_whatIf->setObjectName(QStringLiteral("liveWhatIf"));
    m_toolbar->setObjectName(QStringLiteral("clusterToolBar"));
    m_treeModel->setObjectName(QStringLiteral("clusterTreeModel"));
    m_tree->setObjectName(QStringLiteral("clusterEditorTree"));
    m_partitions->setObjectName(QStringLiteral("partitionsPanel"));
}

void ClusterEditor::setWhatIfScenario(const QString& workspacePath, const QString& scenario) {
    m_whatIf->setScenario(workspacePath, scenario);
}

void ClusterEditor::createActions() {
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    QAction* addDefault = createAddServerButton();
    createAddCountBox();
    createEditActions();
    m_toolbar->addSeparator();
    createUndoRedoActions();
    m_toolbar->addSeparator();
    const ZoomActions zoom = createZoomActions();
    m_toolbar->addSeparator();
    createReplaceClusterActions();
    // Undo, redo and zoom are known by their icons; their names stay in the tooltips.
    for (QAction* a : {m_duplicate, m_remove, m_undo, m_redo, zoom.in, zoom.out, zoom.fit})
        if (auto* button = qobject_cast<QToolButton*>(m_toolbar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    setUpDiagramContextMenu(addDefault, zoom.fit);
}

// Add server: the button adds the last chosen preset, its menu chooses another. Returns the
// button's own action (Insert), which adds the last chosen preset.
QAction* ClusterEditor::createAddServerButton() {
    auto* addMenu = new QMenu(this);
    addMenu->setToolTipsVisible(true);
    auto* addButton = new QToolButton(this);
    addButton->setPopupMode(QToolButton::MenuButtonPopup);
    addButton->setMenu(addMenu);
    QAction* addDefault = nullptr;
    for (const ServerType& preset : serverTypes()) {
        const QString type = QString::fromStdString(preset.server.gpu_type);
        QAction* a =
            addMenu->addAction(QStringLiteral("%1\t%2").arg(preset.label, serverSummary(preset.server)));
        a->setToolTip(tr("%1\nGPU speed %2 (built-in profiles)\nSource: %3")
                          .arg(serverSummary(preset.server), gpuSpeedText(type), preset.source));
        const cl::Server prototype = preset.server;
        connect(a, &QAction::triggered, this, [this, prototype, addButton, a] {
            addServers(prototype, addCount());
            addButton->defaultAction()->setToolTip(
                tr("Add %1 (Insert); the arrow chooses another server type")
                    .arg(a->text().section(QLatin1Char('\t'), 0, 0)));
            m_lastPrototype = prototype;
        });
        if (!addDefault) {
            addDefault = new QAction(QIcon(QStringLiteral(":/icons/add-server.svg")), tr("Add server"), this);
            addDefault->setShortcut(QKeySequence(Qt::Key_Insert));
            addDefault->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            addDefault->setToolTip(
                tr("Add %1 (Insert); the arrow chooses another server type").arg(preset.label));
            m_lastPrototype = prototype;
            connect(addDefault, &QAction::triggered, this,
                    [this] { addServers(m_lastPrototype, addCount()); });
            addAction(addDefault);
        }
    }
    addButton->setDefaultAction(addDefault);
    addButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolbar->addWidget(addButton);
    return addDefault;
}

void ClusterEditor::createAddCountBox() {
    m_count = new QSpinBox(this);
    m_count->setRange(1, 1024);
    m_count->setPrefix(QStringLiteral("× "));
    m_count->setToolTip(tr("How many servers Add server adds at once"));
    m_toolbar->addWidget(m_count);
}

// Add rack, Duplicate and Remove on the toolbar; Remove rack only in the diagram's menu.
void ClusterEditor::createEditActions() {
    QAction* addRackAction = m_toolbar->addAction(tr("Add rack"), this, &ClusterEditor::addRack);

    addRackAction->setIcon(QIcon(QStringLiteral(":/icons/add-rack.svg")));
    addRackAction->setToolTip(tr("Add a new rack holding one default server"));

    m_duplicate = m_toolbar->addAction(tr("Duplicate"), this, &ClusterEditor::duplicateSelected);

    m_duplicate->setIcon(QIcon(QStringLiteral(":/icons/duplicate.svg")));
    m_duplicate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_duplicate->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_duplicate->setToolTip(tr("Duplicate the selected servers (Ctrl+D)"));

    m_remove = m_toolbar->addAction(tr("Remove"), this, &ClusterEditor::removeSelected);

    m_remove->setIcon(QIcon(QStringLiteral(":/icons/remove.svg")));
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_remove->setToolTip(tr("Remove the selected servers (Delete)"));

    m_removeRack = new QAction(tr("Remove rack"), this);
    m_removeRack->setToolTip(tr("Remove every server of the racks the selection touches"));
    connect(m_removeRack, &QAction::triggered, this, &ClusterEditor::removeSelectedRacks);
}

void ClusterEditor::createUndoRedoActions() {
    QUndoStack* stack = m_document->undoStack();
    m_undo = stack->createUndoAction(this, tr("Undo"));
    m_undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    m_undo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_redo = stack->createRedoAction(this, tr("Redo"));
    m_redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_undo->setIcon(QIcon(QStringLiteral(":/icons/undo.svg")));
    m_redo->setIcon(QIcon(QStringLiteral(":/icons/redo.svg")));
    m_toolbar->addAction(m_undo);
    m_toolbar->addAction(m_redo);
    // Short fixed labels keep the toolbar from jumping; what would be undone is in the
    // tooltip. (Connected after createUndoAction's own update, so this text wins.)
    auto setTips = [this, stack] {
        m_undo->setText(tr("Undo"));
        m_redo->setText(tr("Redo"));
        m_undo->setToolTip(stack->canUndo() ? tr("Undo %1 (Ctrl+Z)").arg(stack->undoText())
                                            : tr("Nothing to undo"));
        m_redo->setToolTip(stack->canRedo() ? tr("Redo %1 (Ctrl+Shift+Z)").arg(stack->redoText())
                                            : tr("Nothing to redo"));
    };
    connect(stack, &QUndoStack::indexChanged, this, setTips);
    connect(stack, &QUndoStack::undoTextChanged, this, setTips);
    connect(stack, &QUndoStack::redoTextChanged, this, setTips);
    setTips();
    addAction(m_undo);
    addAction(m_redo);
}

ClusterEditor::ZoomActions ClusterEditor::createZoomActions() {
    ZoomActions zoom;
    zoom.in = m_toolbar->addAction(tr("Zoom in"), this, &ClusterEditor::zoomIn);
    zoom.in->setIcon(QIcon(QStringLiteral(":/icons/zoom-in.svg")));
    zoom.in->setShortcut(QKeySequence::ZoomIn);
    zoom.in->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    zoom.in->setToolTip(tr("Zoom in (Ctrl++, or Ctrl+wheel)"));
    zoom.out = m_toolbar->addAction(tr("Zoom out"), this, &ClusterEditor::zoomOut);
    zoom.out->setIcon(QIcon(QStringLiteral(":/icons/zoom-out.svg")));
    zoom.out->setShortcut(QKeySequence::ZoomOut);
    zoom.out->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    zoom.out->setToolTip(tr("Zoom out (Ctrl+-, or Ctrl+wheel)"));
    zoom.fit = m_toolbar->addAction(tr("Fit"), this, &ClusterEditor::zoomToFit);
    zoom.fit->setIcon(QIcon(QStringLiteral(":/icons/zoom-fit.svg")));
    zoom.fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    zoom.fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    zoom.fit->setToolTip(tr("Show the whole cluster (Ctrl+0)"));
    for (QAction* a : {zoom.in, zoom.out, zoom.fit}) addAction(a);
    return zoom;
}

// New from topology and Load preset cluster: both replace the whole cluster (undoable).
void ClusterEditor::createReplaceClusterActions() {
    m_fromTopology = m_toolbar->addAction(tr("New from topology…"), this, &ClusterEditor::newFromTopology);
    m_fromTopology->setToolTip(
        tr("Replace the cluster with a fat-tree, VL2 or BCube network of servers with "
           "described sockets and GPU groups (undoable)"));
    auto* presetMenu = new QMenu(this);
    presetMenu->setToolTipsVisible(true);
    std::vector<std::string> names;
    try {
        names = cl::builtinClusterNames();
    } catch (const std::exception&) {
        // No data folder: the menu stays empty and says so.
    }
    for (const std::string& n : names) {
        const QString name = QString::fromStdString(n);
        QAction* a = presetMenu->addAction(name, this, [this, name] { loadPresetCluster(name); });
        a->setToolTip(tr("Replace the cluster with the built-in preset '%1' (undoable)").arg(name));
    }
    if (names.empty()) presetMenu->addAction(tr("(no presets found)"))->setEnabled(false);
    auto* presetButton = new QToolButton(this);
    presetButton->setText(tr("Load preset cluster"));
    presetButton->setToolTip(tr("Replace the cluster with one of the built-in cluster presets"));
    presetButton->setPopupMode(QToolButton::InstantPopup);
    presetButton->setMenu(presetMenu);
    m_toolbar->addWidget(presetButton);
}

// The diagram's context menu; Delete and Ctrl+D act while the diagram has the focus
// (so they do not fire while a text field of the panel is being edited).
void ClusterEditor::setUpDiagramContextMenu(QAction* addDefault, QAction* fit) {
    m_diagram->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_diagram->addAction(addDefault);
    m_diagram->addAction(m_duplicate);
    m_diagram->addAction(m_remove);
    m_diagram->addAction(m_removeRack);
    auto* separator = new QAction(this);
    separator->setSeparator(true);
    m_diagram->addAction(separator);
    m_diagram->addAction(fit);
}

void ClusterEditor::updateActions() {
    const QList<int>& sel = m_document->selection();
    m_duplicate->setEnabled(!sel.isEmpty());
    m_remove->setEnabled(!sel.isEmpty());
    bool racked = false;
    for (int i : sel) racked = racked || !m_document->server(i).rack.empty();
    m_removeRack->setEnabled(racked);
}

void ClusterEditor::setCluster(const cl::Cluster& cluster, qint64 storedId) {
    m_storedId = storedId;
    m_document->setCluster(cluster);
    m_diagram->zoomToFit();
    updateStatus();
}

cl::Cluster ClusterEditor::cluster() const {
    return m_document->cluster();
}

QUndoStack* ClusterEditor::undoStack() const {
    return m_document->undoStack();
}

bool ClusterEditor::isModified() const {
    return !undoStack()->isClean();
}

void ClusterEditor::markSaved(qint64 storedId) {
    m_storedId = storedId;
    undoStack()->setClean();
    updateStatus();
}

bool ClusterEditor::eventFilter(QObject* watched, QEvent* event) {
    // Sizes set before the splitter has its final width are rescaled by it in ways that starve
    // the stretching pane. So the default split is made again on every resize until the user
    // moves a handle, and a saved split is restored when the splitter is shown, at its width.
    if (watched == m_splitter && event->type() == QEvent::Resize && !m_userSplit &&
        m_pendingSplit.isEmpty() && m_splitter->width() > 0)
        applyDefaultSplit();
    if (watched == m_splitter && event->type() == QEvent::Show && !m_pendingSplit.isEmpty()) {
        const QByteArray saved = std::exchange(m_pendingSplit, {});
        if (m_splitter->restoreState(saved))
            m_userSplit = true;
        else
            applyDefaultSplit();
    }
    return QWidget::eventFilter(watched, event);
}

void ClusterEditor::applyDefaultSplit() {
    const int total = m_splitter->width();
    const int tree = std::max(m_tree->minimumWidth(), total / 5);
    const int panel = std::max(m_panel->minimumSizeHint().width(), total / 4);
    m_splitter->setSizes({tree, std::max(0, total - tree - panel), panel});
}

QByteArray ClusterEditor::splitterState() const {
    if (!m_pendingSplit.isEmpty()) return m_pendingSplit;
    return m_userSplit ? m_splitter->saveState() : QByteArray();
}

void ClusterEditor::setSplitterState(const QByteArray& state) {
    if (state.isEmpty()) return;
    if (m_splitter->isVisible()) {
        if (m_splitter->restoreState(state)) m_userSplit = true;
    } else {
        m_pendingSplit = state;
    }
}

void ClusterEditor::updatePartitionsColumn() {
    const cl::Cluster& c = m_document->cluster();
    const bool any =
        !c.partitions.empty() || std::any_of(c.servers.begin(), c.servers.end(),
                                             [](const cl::Server& s) { return !s.partitions.empty(); });
    m_tree->setColumnHidden(ClusterTreeModel::PartitionsColumn, !any);
}

void ClusterEditor::updateStatus() {
    const cl::Cluster& c = m_document->cluster();
    const QString name = QString::fromStdString(c.name).toHtmlEscaped();
    const QString named = name.isEmpty() ? tr("<b>(unnamed)</b>") : QStringLiteral("<b>%1</b>").arg(name);
    QString state;
    if (m_storedId == 0 && c.servers.empty() && !isModified())
        state = tr("No cluster: select a scenario, or add servers or load a preset");
    else if (m_storedId == 0)
        state = tr("Cluster %1 \u2014 <b>not saved</b>: Save Cluster (Ctrl+S) stores it in the workspace")
                    .arg(named);
    else if (isModified())
        state = tr("Cluster %1 \u2014 <b>unsaved changes</b> to stored cluster #%2: Save Cluster (Ctrl+S) "
                   "stores them as a new cluster")
                    .arg(named)
                    .arg(m_storedId);
    else
        state = tr("Cluster %1 \u2014 saved (stored cluster #%2)").arg(named).arg(m_storedId);
    m_status->setText(state);
}

QString ClusterEditor::validationError() const {
    return m_document->validationError();
}

bool ClusterEditor::exportJson(const QString& path, QString* error) const {
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (const QString problem = validationError(); !problem.isEmpty())
        return fail(tr("Cannot export the cluster to %1: %2").arg(path, problem));
    try {
        cl::writeLayoutJson(m_document->cluster(), path.toStdString());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    if (error) error->clear();
    return true;
}

QList<int> ClusterEditor::selectedServers() const {
    return m_document->selection();
}

void ClusterEditor::selectServers(const QList<int>& indices) {
    m_document->setSelection(indices);
}

int ClusterEditor::addCount() const {
    return m_count->value();
}

void ClusterEditor::setAddCount(int count) {
    m_count->setValue(count);
}

void ClusterEditor::addServers(const cl::Server& prototype, int count) {
    m_document->addServers(prototype, count);
}

void ClusterEditor::addRack() {
    m_document->addRack();
}

void ClusterEditor::duplicateSelected() {
    m_document->duplicateServers(m_document->selection());
}

void ClusterEditor::removeSelected() {
    m_document->removeServers(m_document->selection());
}

void ClusterEditor::removeSelectedRacks() {
    std::set<std::string> racks;
    for (int i : m_document->selection())
        if (!m_document->server(i).rack.empty()) racks.insert(m_document->server(i).rack);
    if (racks.empty()) return;
    if (racks.size() == 1) {
        m_document->removeRack(QString::fromStdString(*racks.begin()));
        return;
    }
    QList<int> indices;
    for (int i = 0; i < m_document->serverCount(); ++i)
        if (racks.count(m_document->server(i).rack)) indices.append(i);
    m_document->removeServers(indices);
}

void ClusterEditor::zoomIn() {
    m_diagram->zoomIn();
}

void ClusterEditor::zoomOut() {
    m_diagram->zoomOut();
}

void ClusterEditor::zoomToFit() {
    m_diagram->zoomToFit();
}

void ClusterEditor::replaceWithTopologyCluster(const cl::Cluster& cluster) {
    m_document->replaceCluster(
        cluster, tr("New cluster '%1' from a topology").arg(QString::fromStdString(cluster.name)));
    m_diagram->zoomToFit();
}

void ClusterEditor::newFromTopology() {
    TopologyDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.isValid()) return;
    replaceWithTopologyCluster(dialog.cluster());
}

// Opens the path to the first server and its sockets and GPU groups, so the tree shows at once
// what a server is made of, however large the cluster.
void ClusterEditor::revealFirstServerInternals() {
    if (m_document->cluster().servers.empty()) return;
    const QModelIndex server = m_treeModel->serverIndex(0);
    if (!server.isValid()) return;
    for (QModelIndex up = server.parent(); up.isValid(); up = up.parent()) m_tree->expand(up);
    m_tree->expandRecursively(server, 2);
}

void ClusterEditor::treeSelectionToDocument() {
    if (m_syncingTree) return;
    QList<int> servers;
    for (const QModelIndex& index : m_tree->selectionModel()->selectedRows()) {
        const int server = index.data(ClusterTreeModel::ServerIndexRole).toInt();
        if (server >= 0 && !servers.contains(server)) servers.append(server);
    }
    m_syncingTree = true;
    m_document->setSelection(servers);
    m_syncingTree = false;
}

void ClusterEditor::documentSelectionToTree() {
    if (m_syncingTree) return;
    QItemSelection selection;
    for (int server : m_document->selection()) {
        const QModelIndex index = m_treeModel->serverIndex(server);
        if (index.isValid())
            selection.select(index, index.siblingAtColumn(ClusterTreeModel::ColumnCount - 1));
    }
    m_syncingTree = true;
    m_tree->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (m_document->selection().size() == 1)
        m_tree->scrollTo(m_treeModel->serverIndex(m_document->selection().front()));
    m_syncingTree = false;
}

bool ClusterEditor::loadPresetCluster(const QString& name, QString* error) {
    cl::Cluster c;
    try {
        c = cl::builtinCluster(name.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    m_document->replaceCluster(c, tr("Load preset '%1'").arg(name));
    m_diagram->zoomToFit();
    return true;
}

}  // namespace cl::views
