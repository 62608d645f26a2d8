#pragma once
// The cluster's Slurm partitions under the editor's tree (docs/architecture.md 2.10, 8.7): a
// table of name, PriorityTier, MaxTime and Default edited in place, with Add and Remove. Each
// edit is one undo step of the document; a refused edit leaves the cluster alone and the reason
// shows under the table. Without partitions the table gives way to a one-line hint.
#include <QWidget>

class QLabel;
class QTableView;
class QToolButton;

namespace cl::views {

class ClusterDocument;
class PartitionTableModel;

class PartitionsPanel : public QWidget {
    Q_OBJECT

public:
    // Children by objectName: "partitionsTable", "partitionsAdd", "partitionsRemove",
    // "partitionsMessage" (the last refusal, cleared when the cluster changes), "partitionsHint".
    explicit PartitionsPanel(ClusterDocument* document, QWidget* parent = nullptr);

    QString message() const;

public slots:
    // Adds a partition with a fresh name and starts editing its name.
    void addPartition();
    // Removes the current row's partition from the cluster and from every server.
    void removeCurrent();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showMessage(const QString& text);
    void refresh();  // which of table and hint shows, the table's height, the buttons
    void applyMessageColour();
    // The names take the width the other columns leave, but never less than they need: in a
    // narrow pane the table scrolls sideways instead of eliding them.
    void fitColumns();

    ClusterDocument* m_document;
    PartitionTableModel* m_model;
    QTableView* m_table;
    QToolButton* m_add;
    QToolButton* m_remove;
    QLabel* m_hint;
    QLabel* m_message;
};

}  // namespace cl::views
