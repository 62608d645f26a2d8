#pragma once
// The visual cluster editor: a toolbar, a line naming the cluster and whether it is saved, the
// diagram in the middle, the tree (with the Slurm partitions under it) and the properties of the
// selected servers at the sides and the totals underneath. All edits are undoable.
#include <QByteArray>
#include <QList>
#include <QString>
#include <QWidget>

#include "core/model/cluster.h"

class QAction;
class QLabel;
class QSplitter;
class QSpinBox;
class QToolBar;
class QTreeView;
class QUndoStack;

namespace cl::views {

class ClusterDiagram;
class ClusterDocument;
class ClusterTotalsBar;
class ClusterTreeModel;
class LiveWhatIf;
class PartitionsPanel;
class ServerPropertiesPanel;
class WhatIfStrip;

class ClusterEditor : public QWidget {
    Q_OBJECT

public:
    explicit ClusterEditor(QWidget* parent = nullptr);
    ~ClusterEditor() override;

    // Replaces the content, clears the undo history and marks it clean. storedId is the
    // workspace's id of the cluster (0: not stored).
    void setCluster(const cl::Cluster& cluster, qint64 storedId = 0);
    cl::Cluster cluster() const;
    QUndoStack* undoStack() const;
    ClusterDocument* document() const { return m_document; }
    bool isModified() const;  // !undoStack()->isClean()
    // The content is now stored under storedId: the undo stack becomes clean there.
    void markSaved(qint64 storedId);
    // The stored cluster the editor was loaded from or last saved as; 0 if none.
    qint64 storedClusterId() const { return m_storedId; }
    // The line above the diagram, the cluster's name and whether its edits are saved, is the
    // child QLabel "clusterStatus".

    // The user's split, for a main window to keep across sessions (QSplitter::saveState()
    // format; empty while the default split holds). A state set before the editor is shown is
    // applied when it is, at its real size.
    QByteArray splitterState() const;
    void setSplitterState(const QByteArray& state);
    // Empty if the cluster can be saved (at least one server, unique names, values in range).
    QString validationError() const;
    // Writes our layout JSON atomically; refuses an invalid cluster. *error says why.
    bool exportJson(const QString& path, QString* error) const;

    QList<int> selectedServers() const;
    void selectServers(const QList<int>& indices);

    ClusterDiagram* diagram() const { return m_diagram; }
    // The live what-if under the diagram: the scenario whose trace each edit is
    // simulated with (an empty name: none); the strip "whatIfStrip" shows the figures.
    void setWhatIfScenario(const QString& workspacePath, const QString& scenario);
    LiveWhatIf* liveWhatIf() const { return m_whatIf; }
    // The editor's own undo/redo actions; their shortcuts (Ctrl+Z, Ctrl+Shift+Z) work while
    // the focus is inside the editor. A main window can put these in its Edit menu instead of
    // creating a second pair with the same shortcuts.
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    // How many servers "Add server" adds (the toolbar's count box).
    int addCount() const;
    void setAddCount(int count);

signals:
    void clusterChanged();
    void modifiedChanged(bool modified);
    // The what-if's scenario has no stored run and the user asked to run it.
    void runScenarioRequested(const QString& scenario);

public slots:
    void addServers(const cl::Server& prototype, int count = 1);
    void addRack();
    void duplicateSelected();
    void removeSelected();
    void removeSelectedRacks();
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    // Loads a built-in cluster as one undoable step; false (with *error) if it cannot be read.
    bool loadPresetCluster(const QString& name, QString* error = nullptr);
    // Replaces the cluster with one built from a topology as one undoable step.
    void replaceWithTopologyCluster(const cl::Cluster& cluster);
    // Opens the "New from topology..." dialog; on OK replaces the cluster (undoable).
    void newFromTopology();

private:
    struct ZoomActions {
        QAction* in = nullptr;
        QAction* out = nullptr;
        QAction* fit = nullptr;
    };
    void setObjectNames();
    // The toolbar, section by section from the left, and the diagram's context menu.
    void createActions();
    QAction* createAddServerButton();
    void createAddCountBox();
    void createEditActions();
    void createUndoRedoActions();
    ZoomActions createZoomActions();
    void createReplaceClusterActions();
    void setUpDiagramContextMenu(QAction* addDefault, QAction* fit);
    void updateActions();
    void treeSelectionToDocument();
    void revealFirstServerInternals();
    void documentSelectionToTree();
    void updateStatus();
    // The tree's Partitions column shows while any server is in a partition or any is declared.
    void updatePartitionsColumn();
    // A fifth of the width for the tree, a quarter (at least its minimum) for the properties,
    // the rest for the diagram.
    void applyDefaultSplit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ClusterDocument* m_document;
    ClusterDiagram* m_diagram = nullptr;
    ServerPropertiesPanel* m_panel = nullptr;
    ClusterTotalsBar* m_totals = nullptr;
    LiveWhatIf* m_whatIf = nullptr;
    WhatIfStrip* m_whatIfStrip = nullptr;
    QToolBar* m_toolbar = nullptr;
    // The cluster as a tree (switch tiers, pods, switches, servers, sockets, GPU groups,
    // GPUs); its selection and the diagram's are the document's.
    QTreeView* m_tree = nullptr;
    // The cluster's Slurm partitions, under the tree ("partitionsPanel").
    PartitionsPanel* m_partitions = nullptr;
    QLabel* m_status = nullptr;
    QSplitter* m_splitter = nullptr;  // tree | diagram | properties; the diagram gets most width
    bool m_userSplit = false;         // the user moved a handle (or a saved split was restored)
    QByteArray m_pendingSplit;        // a saved split waiting for the splitter's real width
    qint64 m_storedId = 0;
    ClusterTreeModel* m_treeModel = nullptr;
    QAction* m_fromTopology = nullptr;
    bool m_syncingTree = false;
    QSpinBox* m_count = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_duplicate = nullptr;
    QAction* m_remove = nullptr;
    QAction* m_removeRack = nullptr;
    cl::Server m_lastPrototype;  // what the Add server button adds
};

}  // namespace cl::views
