#pragma once
// The cluster's partitions as a table the editor edits in place (docs/architecture.md 2.10, 8.7):
// name, PriorityTier, MaxTime and Default. Every accepted edit is one undo step of the
// document; a refused one changes nothing and says why through refused().
#include <optional>

#include <QAbstractTableModel>
#include <QString>

namespace cl::views {

class ClusterDocument;

// MaxTime as the table shows it: "unlimited" for 0, else hours:minutes ("2:00", "72:00"), with
// seconds only when there are some ("1:30:15").
QString maxTimeText(double seconds);
// The seconds of a typed MaxTime: "unlimited" (or empty) = 0, "h:mm", "h:mm:ss", "d-h:mm" or
// "d-h:mm:ss". A lone number is refused: Slurm reads it as minutes, this table as h:mm.
std::optional<double> parseMaxTime(const QString& text);

class PartitionTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { NameColumn, TierColumn, MaxTimeColumn, DefaultColumn, ColumnCount };

    explicit PartitionTableModel(ClusterDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // An edit was refused (nothing changed): the reason, to show beside the table.
    void refused(const QString& message);

private:
    void documentChanged();
    QString memberText(int row) const;  // "12 servers, 96 GPUs"

    ClusterDocument* m_document;
    int m_rows = 0;
};

}  // namespace cl::views
